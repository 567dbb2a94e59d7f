//! Where the rare/common engine spends its work on one code: values per second and the work
//! counters ([`SparseStats`]). Run:
//! `cargo run --release -p grundy --example sparse_profile [CODE] [N] [THREADS]` (default 0.6 to
//! 2^20 on one thread; with 2 or more threads the pipeline, and the time of its stages). The
//! values are computed through the driver, as the CLI computes them.

use grundy::takebreak::sparse::{RareCommon, SplitPolicy, Tuning};
use grundy::takebreak::{compute, Code, Finish, PeriodDetector, Rules, SequenceEngine, ValuesRef};
use std::time::Instant;

/// The engine as one that reads `u16` only (the driver then keeps a `u16` store).
struct WideOnly<'a>(&'a mut RareCommon);

impl SequenceEngine for WideOnly<'_> {
    fn name(&self) -> &'static str {
        "sparse (u16 store)"
    }
    fn next_value(&mut self, g: &[u16]) -> Result<u16, grundy::Error> {
        self.0.next_value(g)
    }
}

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
    // SPARSE_PROFILE_NO_BACKOFF=1: the pipeline on every batch, even when the machine's other
    // jobs keep the threads from overlapping (to measure the pipeline itself on a busy machine)
    let tuning = Tuning {
        pipeline_backoff: std::env::var_os("SPARSE_PROFILE_NO_BACKOFF").is_none(),
        // SPARSE_PROFILE_AHEAD_FROM=D: the verifiers mark the far options of rare positions
        // from D on (0: the lead marks them all, as before `ahead`)
        ahead_from: std::env::var("SPARSE_PROFILE_AHEAD_FROM")
            .ok()
            .map(|d| d.parse().expect("a heap size"))
            .unwrap_or(Tuning::default().ahead_from),
        // SPARSE_PROFILE_NO_INDEX=1: no list of a rare bit's positions for the witness search
        bit_index: std::env::var_os("SPARSE_PROFILE_NO_INDEX").is_none(),
        // SPARSE_PROFILE_NO_BLOCK_TAIL=1: verifiers search their heaps' last values one by one
        block_tail: std::env::var_os("SPARSE_PROFILE_NO_BLOCK_TAIL").is_none(),
        ..Tuning::default()
    };
    let mut engine =
        RareCommon::with_policy(&code, SplitPolicy::Frequency, tuning).expect("an octal code");
    engine.set_threads(threads);
    let rules = Rules::Code(code.clone());
    let start = Instant::now();
    // through the driver, as the CLI (its chunks, its period detector); SPARSE_PROFILE_U16=1:
    // the values in u16 whatever they are (the engine seen as one that does not read bytes,
    // to compare the two stores on one build)
    // SPARSE_PROFILE_PREFIX=FILE: start from G(0..K) read from FILE (K values, u16
    // little-endian, as in a checkpoint's body) and compute N more, in chunks of 4096 as the
    // driver hands them at 25 ms each: the work of a long run's frontier without running to it
    // (the engine first rebuilds its state from the prefix, not timed)
    // SPARSE_PROFILE_CHECKPOINT=FILE: the same from a checkpoint of `--checkpoint` (either
    // format), read and CRC-checked by the library, of the same code (its values are not
    // checked against the rules as a resumed run checks them)
    let start_from = if let Some(path) = std::env::var_os("SPARSE_PROFILE_CHECKPOINT") {
        let c = grundy::takebreak::checkpoint::load_values(path.as_ref(), usize::MAX, false)
            .expect("a readable checkpoint")
            .expect("a checkpoint file");
        let of: Code = c.identity.code.parse().expect("the checkpoint's code");
        assert!(of == code, "the checkpoint is of {of}, not of {code}");
        Some(c.values)
    } else if let Some(path) = std::env::var_os("SPARSE_PROFILE_PREFIX") {
        let bytes = std::fs::read(&path).expect("a readable prefix file");
        let prefix: Vec<u16> = bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        Some(grundy::takebreak::Values::U16(prefix.into()))
    } else {
        None
    };
    if let Some(mut g) = start_from {
        let base = g.len();
        // the room for every value at once, as the driver reserves it
        g.reserve_exact(n + 1);
        // the state rebuilt apart from the first chunk: that chunk may be one the witness
        // index's trial times, and with the rebuild in it the trial always left the index out
        match g.as_ref() {
            ValuesRef::U8(s) => engine.catch_up(s),
            ValuesRef::U16(s) => engine.catch_up(s),
            ValuesRef::Split(s) => engine.catch_up_odd8(s.head, s.bytes),
        }
        engine.next_values(&mut g, 1).expect("a value");
        let before = engine.stats().clone();
        let start = Instant::now();
        while g.len() < base + 1 + n {
            let count = 4096.min(base + 1 + n - g.len());
            engine.next_values(&mut g, count).expect("values");
        }
        let secs = start.elapsed().as_secs_f64();
        let s = engine.stats();
        let (prepared, used) = (
            s.far_blocks_prepared - before.far_blocks_prepared,
            s.far_blocks_ahead - before.far_blocks_ahead,
        );
        let searches = (
            s.second_searches - before.second_searches,
            s.lead_searches - before.lead_searches,
        );
        let checksum = g.into_u16()[base + 1..].iter().fold(0u64, |c, &v| {
            c.wrapping_mul(1_000_003).wrapping_add(v as u64)
        });
        println!(
            "{code} from {base}, {n} values: {secs:.2} s, {:.3} million values/s, checksum \
             {checksum:016x}; far blocks marked ahead {prepared} (the lead used {used}) of {}; \
             searches {} on the verifiers, {} on the lead; verifiers searched {:.2} s, waited \
             {:.2} s; the lead waited {:.2} s, and {:.2} s for blocks being marked ahead",
            n as f64 / secs / 1e6,
            n / 16,
            searches.0,
            searches.1,
            (s.verify_nanos - before.verify_nanos) as f64 * 1e-9,
            (s.verifier_idle_nanos - before.verifier_idle_nanos) as f64 * 1e-9,
            (s.lead_wait_nanos - before.lead_wait_nanos) as f64 * 1e-9,
            (s.far_ahead_wait_nanos - before.far_ahead_wait_nanos) as f64 * 1e-9,
        );
        let (bit, listed) = engine.bit_index();
        println!(
            "bit index: {bit:?}, {listed} positions, left out (a trial found it slower) for {} \
             values; per value: scanned options {:.1}, indexed positions {:.1}",
            s.unindexed_values - before.unindexed_values,
            (s.scanned_options - before.scanned_options) as f64 / n as f64,
            (s.indexed_positions - before.indexed_positions) as f64 / n as f64,
        );
        let blocks = (s.tail_blocks - before.tail_blocks).max(1) as f64;
        println!(
            "searches finished in blocks: {} heaps, {:.1} per block, {:.0} listed positions per \
             block ({:.2} s, {:.2} ns per position), {} heaps searched again",
            s.tail_deferred - before.tail_deferred,
            (s.tail_deferred - before.tail_deferred) as f64 / blocks,
            (s.tail_positions - before.tail_positions) as f64 / blocks,
            (s.tail_nanos - before.tail_nanos) as f64 * 1e-9,
            (s.tail_nanos - before.tail_nanos) as f64
                / (s.tail_positions - before.tail_positions).max(1) as f64,
            s.tail_resumed - before.tail_resumed
        );
        return;
    }
    let g = if std::env::var_os("SPARSE_PROFILE_U16").is_some() {
        let mut wide = WideOnly(&mut engine);
        compute(&rules, n - 1, Finish::ComputeAll, &mut wide, None)
    } else {
        compute(&rules, n - 1, Finish::ComputeAll, &mut engine, None)
    }
    .expect("values")
    .values;
    let checksum = g.iter().fold(0u64, |c, v| {
        c.wrapping_mul(1_000_003).wrapping_add(v as u64)
    });
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{code} to {n}: {secs:.2} s, {:.3} million values/s, checksum {checksum:016x}, \
         {} byte(s) per value",
        n as f64 / secs / 1e6,
        g.value_bytes()
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
        "per value: rare options {:.1}, scanned options {:.1}, indexed positions {:.1}; \
         proved directly {:.3}, hinted {:.3}, exhaustive {:.5}; rebuilds {}, dense values {}",
        per(s.rare_options),
        per(s.scanned_options),
        per(s.indexed_positions),
        per(s.proved_directly),
        per(s.hinted),
        per(s.exhaustive_scans),
        s.rebuilds,
        s.dense_values
    );
    if threads > 1 {
        let secs_of = |nanos: u64| nanos as f64 * 1e-9;
        println!(
            "pipeline: {} values ({} on one thread), {} rollbacks ({} speculated values \
             discarded); witness searches: {} on the verifiers ({:.2} s), {} on the lead; the \
             lead waited {:.2} s; far blocks marked ahead {} (the lead used {})",
            s.pipelined,
            n as u64 - s.pipelined,
            s.rollbacks,
            s.discarded,
            s.second_searches,
            secs_of(s.verify_nanos),
            s.lead_searches,
            secs_of(s.lead_wait_nanos),
            s.far_blocks_prepared,
            s.far_blocks_ahead
        );
        println!(
            "searches finished in blocks: {} heaps in {} blocks, {:.0} listed positions per \
             block, {} heaps searched again",
            s.tail_deferred,
            s.tail_blocks,
            s.tail_positions as f64 / s.tail_blocks.max(1) as f64,
            s.tail_resumed
        );
        // the lead's searches timed at the verifiers' mean (timing each would cost more)
        let per_search = s.verify_nanos as f64 / s.second_searches.max(1) as f64;
        let lead_search = s.lead_searches as f64 * per_search * 1e-9;
        let inside = secs_of(s.pipeline_nanos);
        println!(
            "stages: wall {secs:.2} s, of it {inside:.2} s in the pipeline and {:.2} s outside \
             it; in the pipeline the lead: threads started and joined {:.3} s, waited {:.3} s, \
             searched about {lead_search:.2} s, candidates and the rest about {:.2} s; the \
             verifiers: searched {:.2} s, waited for batches {:.2} s (summed)",
            secs - inside,
            secs_of(s.setup_nanos),
            secs_of(s.lead_wait_nanos),
            inside - secs_of(s.setup_nanos) - secs_of(s.lead_wait_nanos) - lead_search,
            secs_of(s.verify_nanos),
            secs_of(s.verifier_idle_nanos),
        );
        println!(
            "threads' CPU in the pipeline (scheduler statistics): the lead {:.2} s (and {:.2} s \
             waiting for a core), the verifiers {:.2} s (and {:.2} s waiting for a core)",
            secs_of(s.lead_cpu_nanos),
            secs_of(s.lead_runqueue_nanos),
            secs_of(s.verifier_cpu_nanos),
            secs_of(s.verifier_runqueue_nanos),
        );
    }
    // part of the driver's time on the caller's thread: the period detector, value by value
    let start = Instant::now();
    let mut detector = PeriodDetector::for_rules(&rules);
    match g.as_ref() {
        ValuesRef::U8(g) => (1..=g.len()).for_each(|k| detector.push_from(&g[..k])),
        ValuesRef::U16(g) => (1..=g.len()).for_each(|k| detector.push_from(&g[..k])),
        ValuesRef::Split(g) => (1..=g.len()).for_each(|k| detector.push_from(g.slice(0, k))),
    }
    println!(
        "the driver's period detector over these values: {:.3} s",
        start.elapsed().as_secs_f64()
    );
}
