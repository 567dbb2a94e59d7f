//! Size, memory, number and duration arguments: never a panic, and accepted values in range.
#![no_main]
use grundy::games::{chomp::Chomp, cram::Cram};
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
    // A size may name an empty board (`0x10`): the games refuse it, or build it, never panic.
    if let Ok((r, c)) = parse_size("board", text) {
        if let Ok(cram) = Cram::new(r, c) {
            assert!(r > 0 && c > 0 && u64::from(r) * u64::from(c) <= 64, "{text:?}");
            let _ = cram.start();
        }
        if Chomp::rectangle(r, c).is_ok() {
            assert!(r > 0 && c > 0, "{text:?}");
        }
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
