//! Size, memory, number and duration arguments: never a panic, and accepted values in range.
#![no_main]
use grundy::text::{parse_big, parse_memory, parse_size, parse_u64, parse_u64_list};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(m) = parse_memory(text) {
        assert!((1 << 12..=1 << 40).contains(&m));
    }
    if let Some(b) = grundy::takebreak::budget::parse_size(text) {
        assert!(b < u64::MAX);
    }
    if let Ok((r, c)) = parse_size("board", text) {
        assert!(r > 0 && c > 0);
    }
    let _ = parse_u64("n", text);
    let _ = parse_u64_list("heaps", text);
    if text.len() < 200 {
        let _ = parse_big("n", text);
    }
    if let Ok(d) = grundy_runs::run::checkpoint_every(text) {
        assert!(d.as_secs_f64() > 0.0 && d.as_secs_f64() <= 1e9);
    }
});
