//! Where the rare/common engine spends its work on one code: values per second and the work
//! counters ([`SparseStats`]). Run:
//! `cargo run --release -p grundy --example sparse_profile [CODE] [N] [THREADS]` (default 0.6 to
//! 2^20 on one thread; with 2 threads the wide path's two-thread pipeline, and the time of its
//! stages).

use grundy::takebreak::driver::PROGRESS_EVERY;
use grundy::takebreak::sparse::RareCommon;
use grundy::takebreak::{Code, SequenceEngine};
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
        .map(|s| s.parse().expect("a length"))
        .unwrap_or(1 << 20);
    let threads: usize = args
        .next()
        .map(|s| s.parse().expect("a number of threads"))
        .unwrap_or(1);
    let mut engine = RareCommon::new(&code).expect("an octal code");
    engine.set_threads(threads);
    let mut g: Vec<u16> = Vec::with_capacity(n);
    let start = Instant::now();
    // in the driver's chunks (see grundy::takebreak::drive)
    while g.len() < n {
        let count = PROGRESS_EVERY.min(n - g.len());
        engine.next_values(&mut g, count).expect("values");
    }
    let checksum = g.iter().fold(0u64, |c, &v| {
        c.wrapping_mul(1_000_003).wrapping_add(v as u64)
    });
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{code} to {n}: {secs:.2} s, {:.3} million values/s, checksum {checksum:016x}",
        n as f64 / secs / 1e6
    );
    println!(
        "mode {:?}, rare positions {}, rare values {}",
        engine.mode(),
        engine.rare_positions(),
        engine.rare_values()
    );
    let s = engine.stats();
    let per = |x: u64| x as f64 / n as f64;
    println!(
        "per value: rare options {:.1}, scanned options {:.1}; proved directly {:.3}, \
         hinted {:.3}, exhaustive {:.5}; rebuilds {}, dense values {}",
        per(s.rare_options),
        per(s.scanned_options),
        per(s.proved_directly),
        per(s.hinted),
        per(s.exhaustive_scans),
        s.rebuilds,
        s.dense_values
    );
    if threads > 1 {
        println!(
            "pipeline: {} values, {} rollbacks ({} speculated values discarded); witness \
             searches: {} on the second thread ({:.2} s), {} on the lead; the lead waited {:.2} s",
            s.pipelined,
            s.rollbacks,
            s.discarded,
            s.second_searches,
            s.verify_nanos as f64 * 1e-9,
            s.lead_searches,
            s.lead_wait_nanos as f64 * 1e-9
        );
    }
}
