//! What a checkpoint save costs as a run grows: a save that writes the whole file (what every
//! save did before format 2, and what a run's first save still does) against a save that
//! appends the values since the last one ([`Store::save`]), alternating, on the same disk.
//!
//! Run: `cargo run --release -p grundy --example checkpoint_saves [VALUES [SAVES [DIR]]]`
//! (defaults 2^30 values, 16 saves, the system's temporary directory). It needs 2 bytes per
//! value of RAM and twice that of disk. Both files are removed at the end.

use grundy::takebreak::checkpoint::{save, Identity, Store};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(1 << 30, |a| a.parse().expect("VALUES"));
    let saves: usize = args.next().map_or(16, |a| a.parse().expect("SAVES"));
    let dir = args
        .next()
        .map_or_else(std::env::temp_dir, std::path::PathBuf::from);
    let identity = Identity {
        code: "0.146".into(),
        engine: "bench".into(),
        engine_version: 1,
    };
    // values need not be true for a save: a resume checks them, a save does not
    let values: Vec<u16> = (0..n as u64)
        .map(|i| (i.wrapping_mul(0x9E37_79B9) >> 7) as u16 & 0x7FF)
        .collect();
    let whole = dir.join(format!(
        "checkpoint-saves-{}-whole.ckpt",
        std::process::id()
    ));
    let appended = dir.join(format!(
        "checkpoint-saves-{}-append.ckpt",
        std::process::id()
    ));
    let mut store = Store::chosen(&appended, identity.clone()).expect("a store");
    let (mut total_whole, mut total_append) = (0.0, 0.0);
    println!("{:>12} {:>12} {:>12}", "values", "whole s", "append s");
    for i in 1..=saves {
        let k = n / saves * i;
        let t = Instant::now();
        save(&whole, &identity, &values[..k]).expect("a whole save");
        let w = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let notices = store.save(&values[..k]);
        let a = t.elapsed().as_secs_f64();
        assert!(notices.is_empty(), "{notices:?}");
        total_whole += w;
        total_append += a;
        println!("{k:>12} {w:>12.3} {a:>12.3}");
    }
    println!("{:>12} {total_whole:>12.3} {total_append:>12.3}", "total");
    for p in [&whole, &appended] {
        let _ = std::fs::remove_file(p);
    }
    let _ = std::fs::remove_file(grundy::takebreak::checkpoint::lock_path(&appended));
}
