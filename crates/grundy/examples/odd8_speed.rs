//! The rare/common engine on a store of low bytes with a head (`Odd8`) against the same engine on
//! `u16`, alternating: both compute G(0..2^16) on `u16`, then one goes on in bytes, the other on
//! `u16`, to N. Prints each round's seconds and the ratio, and checks that the values agree. Run:
//! `cargo run --release -p grundy --example odd8_speed [CODE] [N] [THREADS] [ROUNDS]` (default
//! 0.6 to 2^23 on one thread, 3 rounds).

use grundy::takebreak::sparse::RareCommon;
use grundy::takebreak::values::{Odd8Store, Value};
use grundy::takebreak::{Code, SequenceEngine, Values};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let code: Code = args
        .next()
        .unwrap_or_else(|| "0.6".into())
        .parse()
        .expect("an octal code");
    let n: usize = args
        .next()
        .map_or(1 << 23, |s| s.parse().expect("a length"));
    let threads: usize = args.next().map_or(1, |s| s.parse().expect("threads"));
    let rounds: usize = args.next().map_or(3, |s| s.parse().expect("rounds"));
    let start = 1 << 16;
    let chunk = 1 << 18;
    let prefix = |e: &mut RareCommon| {
        let mut v = Values::from(Vec::<u16>::new());
        while v.len() < start {
            let count = (start - v.len()).min(4096);
            e.next_values(&mut v, count).unwrap();
        }
        v.into_u16()
    };
    for round in 0..rounds {
        // u16
        let mut e = RareCommon::new(&code).unwrap();
        e.set_threads(threads);
        let mut wide = Values::from(prefix(&mut e));
        wide.reserve_exact(n - wide.len());
        let (t, c) = (Instant::now(), cpu_seconds());
        while wide.len() < n {
            let count = (n - wide.len()).min(chunk);
            e.next_values(&mut wide, count).unwrap();
        }
        let (t_wide, c_wide) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
        let stats_wide = e.stats().clone();
        // bytes
        let mut e = RareCommon::new(&code).unwrap();
        e.set_threads(threads);
        let g = prefix(&mut e);
        let Some(Odd8Store { head, bytes }) = Odd8Store::from_u16(&g, 1 << 16) else {
            println!("{code}: no head of at most 2^16 values at 2^16");
            return;
        };
        let mut bytes = bytes;
        bytes.reserve_exact(n - bytes.len());
        let (t, c) = (Instant::now(), cpu_seconds());
        let mut stopped = None;
        while bytes.len() < n {
            let count = (n - bytes.len()).min(chunk);
            if let Some(v) = e.next_values_odd8(&head, &mut bytes, count).unwrap() {
                stopped = Some((bytes.len(), v));
                break;
            }
        }
        let (t_bytes, c_bytes) = (t.elapsed().as_secs_f64(), cpu_seconds() - c);
        if std::env::var_os("ODD8_STATS").is_some() {
            println!("u16: {stats_wide:?}\nbytes: {:?}", e.stats());
        }
        if let Some((at, v)) = stopped {
            println!("{code}: G({at}) = {v} does not fit a byte; stopped there");
            return;
        }
        let same = (0..n).all(|i| {
            let b = if i < head.len() {
                head[i]
            } else {
                bytes[i].get()
            };
            b == wide.get(i)
        });
        assert!(same, "the values differ");
        println!(
            "round {round}: u16 {t_wide:.2} s, bytes {t_bytes:.2} s, ratio {:.3}; CPU {c_wide:.2} \
             and {c_bytes:.2} s, ratio {:.3} (head {} values)",
            t_bytes / t_wide,
            c_bytes / c_wide,
            head.len()
        );
    }
}

/// The process's CPU time so far (user and system, every thread), from `/proc/self/stat`; 0
/// where it cannot be read.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // the fields after the command's closing parenthesis: utime and stime are the 12th and 13th
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: f64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}
