//! The pipeline (a lead and one or more verifying threads) against the serial engine, value
//! by value: 2, 3, 4 and 8 threads.

use super::super::tests::{octal_code, policy};
use super::super::{Code, Mode, RareCommon, SequenceEngine, SparseStats, SplitPolicy, Tuning};
use super::{Backoff, Batch, Flag, Job, Lead, Report, Shared, SharedValues, Work, QUEUE};
use crate::takebreak::{compute, Finish, Rules};
use proptest::prelude::*;

/// G(0..=n) one value at a time on one thread.
fn serial(code: &Code, policy: &SplitPolicy, tuning: &Tuning, n: usize) -> Vec<u16> {
    let mut engine = RareCommon::with_policy(code, policy.clone(), tuning.clone()).unwrap();
    let mut g = Vec::with_capacity(n + 1);
    while g.len() <= n {
        let v = engine.next_value(&g).unwrap();
        g.push(v);
    }
    g
}

/// G(0..=n) in batches of `chunk` values on two threads, with the engine's counters.
fn piped(
    code: &Code,
    policy: &SplitPolicy,
    tuning: &Tuning,
    n: usize,
    chunk: usize,
) -> (Vec<u16>, SparseStats) {
    piped_on(code, policy, tuning, n, chunk, 2)
}

/// [`piped`] on `threads` threads.
fn piped_on(
    code: &Code,
    policy: &SplitPolicy,
    tuning: &Tuning,
    n: usize,
    chunk: usize,
    threads: usize,
) -> (Vec<u16>, SparseStats) {
    // the back-off is a timing: off, so that the pipeline's counters are deterministic
    let tuning = Tuning {
        pipeline_backoff: false,
        ..tuning.clone()
    };
    let mut engine = RareCommon::with_policy(code, policy.clone(), tuning).unwrap();
    engine.set_threads(threads);
    // a u16 store (the byte store has its own tests: `compact_tests`)
    let mut g = crate::takebreak::Values::U16(Vec::new().into());
    while g.len() <= n {
        let count = chunk.min(n + 1 - g.len());
        engine.next_values(&mut g, count).unwrap();
    }
    (g.into_u16(), engine.stats().clone())
}

/// The wide path from the start (so that small games use the pipeline too), with short
/// reviews so that reviews and rebuilds happen inside batches.
fn wide(first_review: usize) -> Tuning {
    Tuning {
        first_review,
        force_wide: true,
        ..Tuning::default()
    }
}

fn code_of(digits: &[u128]) -> Code {
    Code::from_digits(digits.to_vec()).unwrap()
}

#[test]
fn every_two_digit_code_gives_the_serial_values_on_two_threads() {
    let n = 3000;
    let mut pipelined = 0;
    for d0 in [0u128, 4] {
        for code in 0..64u128 {
            let c = code_of(&[d0, code / 8, code % 8]);
            for tuning in [wide(256), wide(16), Tuning::default()] {
                let expect = serial(&c, &SplitPolicy::Frequency, &tuning, n);
                let (got, stats) = piped(&c, &SplitPolicy::Frequency, &tuning, n, 4096);
                assert_eq!(got, expect, "code {c} tuning {tuning:?}");
                pipelined += stats.pipelined;
                let (got, _) = piped_on(&c, &SplitPolicy::Frequency, &tuning, n, 4096, 3);
                assert_eq!(got, expect, "code {c} tuning {tuning:?}, 3 threads");
            }
        }
    }
    assert!(pipelined > 100_000, "only {pipelined} values pipelined");
}

#[test]
fn a_sample_of_three_digit_codes_gives_the_serial_values_on_two_threads() {
    // every 5th code of 0.??? and 4.??? to 3000, on the wide path, in odd-sized batches
    let n = 3000;
    for d0 in [0u128, 4] {
        for index in (0..512u128).step_by(5) {
            let c = code_of(&[d0, index >> 6, index >> 3 & 7, index & 7]);
            let tuning = wide(64);
            let expect = serial(&c, &SplitPolicy::Frequency, &tuning, n);
            for threads in [2, 4] {
                let (got, _) = piped_on(&c, &SplitPolicy::Frequency, &tuning, n, 1000, threads);
                assert_eq!(got, expect, "code {c}, {threads} threads");
            }
        }
    }
}

#[test]
fn poor_splits_make_the_speculation_fail_and_roll_back_to_the_right_values() {
    // Splits (fixed poor ones, and the frequency-driven one early in a game) under which many
    // candidates are wrong: each failure is rolled back (with the values speculated after
    // it), failures close together make the lead search for a while; the values are still
    // the serial engine's. (Found by counting rollbacks over codes and policies to 6000.)
    let (mut rollbacks, mut discarded, mut lead_searches) = (0, 0, 0);
    let mut many_rollbacks = 0;
    for (text, policy) in [
        ("0.26", SplitPolicy::Values(vec![0, 1, 2, 3])),
        ("0.16", SplitPolicy::Mask(0b110)),
        ("0.165", SplitPolicy::Frequency),
        ("0.6", SplitPolicy::Frequency),
        ("0.37", SplitPolicy::Frequency),
        ("0.56", SplitPolicy::Frequency),
    ] {
        let c: Code = text.parse().unwrap();
        let tuning = wide(256);
        let expect = serial(&c, &policy, &tuning, 6000);
        let (got, stats) = piped(&c, &policy, &tuning, 6000, 4096);
        assert_eq!(got, expect, "code {text} policy {policy:?}");
        assert!(stats.rollbacks > 0, "{text} {policy:?}: {stats:?}");
        rollbacks += stats.rollbacks;
        discarded += stats.discarded;
        lead_searches += stats.lead_searches;
        // more verifiers: failures in several batches at once, the earliest one acted on
        for threads in [3, 4, 8] {
            let (got, stats) = piped_on(&c, &policy, &tuning, 6000, 4096, threads);
            assert_eq!(
                got, expect,
                "code {text} policy {policy:?}, {threads} threads"
            );
            many_rollbacks += stats.rollbacks;
        }
    }
    assert!(
        many_rollbacks >= 100,
        "only {many_rollbacks} rollbacks on 3 to 8 threads"
    );
    assert!(rollbacks >= 100, "only {rollbacks} rollbacks");
    assert!(
        discarded >= 1000,
        "only {discarded} speculated values discarded"
    );
    assert!(
        lead_searches >= 1000,
        "only {lead_searches} searches on the lead"
    );
}

#[test]
fn officers_to_2_20_gives_the_serial_values_on_two_and_four_threads() {
    let c: Code = "0.6".parse().unwrap();
    let n = 1 << 20;
    let tuning = Tuning::default();
    let expect = serial(&c, &SplitPolicy::Frequency, &tuning, n);
    let (got, stats) = piped(&c, &SplitPolicy::Frequency, &tuning, n, 4096);
    assert_eq!(got, expect);
    // nearly every value is past the one-word path's 64, so computed by the pipeline
    assert!(stats.pipelined > (n as u64) * 9 / 10, "{stats:?}");
    let (got, stats) = piped_on(&c, &SplitPolicy::Frequency, &tuning, n, 4096, 4);
    assert_eq!(got, expect, "4 threads");
    assert!(stats.pipelined > (n as u64) * 9 / 10, "{stats:?}");
}

#[test]
fn the_one_word_path_gives_the_serial_values_on_2_3_4_and_8_threads() {
    // Values below 64 (the one-word path's candidates and searches, [`super::super::word`]),
    // with the frequency-driven split and with poor fixed ones under which candidates fail
    // often: rollbacks on this path, with the values speculated after them discarded.
    let (mut rollbacks, mut verified) = (0, 0);
    for (text, policy) in [
        ("0.16", SplitPolicy::Frequency),
        ("0.16", SplitPolicy::Mask(0b110)),
        ("0.26", SplitPolicy::Values(vec![0, 1, 2, 3])),
        ("0.165", SplitPolicy::Frequency),
        ("0.165", SplitPolicy::Mask(0b11)),
        ("0.56", SplitPolicy::Frequency),
    ] {
        let c: Code = text.parse().unwrap();
        let tuning = Tuning {
            first_review: 64,
            ..Tuning::default()
        };
        let n = 20_000;
        let expect = serial(&c, &policy, &tuning, n);
        assert!(
            expect.iter().all(|&v| v < 64),
            "{text}: values of 64 or more leave the one-word path"
        );
        for threads in [2, 3, 4, 8] {
            let (got, stats) = piped_on(&c, &policy, &tuning, n, 4096, threads);
            assert_eq!(got, expect, "{text} {policy:?}, {threads} threads");
            rollbacks += stats.rollbacks;
            verified += stats.second_searches;
        }
    }
    assert!(rollbacks >= 20, "only {rollbacks} rollbacks");
    assert!(
        verified >= 100_000,
        "only {verified} searches on the verifiers"
    );
}

#[test]
fn game_0_16_to_2_18_gives_the_serial_values_on_two_and_four_threads() {
    // the second benchmark game: every value below 64, nearly all of them pipelined
    let c: Code = "0.16".parse().unwrap();
    let n = 1 << 19;
    let tuning = Tuning::default();
    let expect = serial(&c, &SplitPolicy::Frequency, &tuning, n);
    for threads in [2, 4] {
        let (got, stats) = piped_on(&c, &SplitPolicy::Frequency, &tuning, n, 4096, threads);
        assert_eq!(got, expect, "{threads} threads");
        assert!(stats.pipelined > (n as u64) * 9 / 10, "{stats:?}");
    }
}

#[test]
fn the_open_games_give_the_serial_values_on_2_3_4_and_8_threads() {
    // 0.146 (two split moves, witnesses carried), 0.206 and 0.143: wide values and many rare
    // positions (0.206 starts in the dense mode and 0.143's values stay below 64 for long,
    // both left to one thread: forced sparse and wide)
    for text in ["0.146", "0.206", "0.143"] {
        let c: Code = text.parse().unwrap();
        let tuning = Tuning {
            force_mode: Some(Mode::Sparse),
            force_wide: true,
            ..Tuning::default()
        };
        let n = 40_000;
        let expect = serial(&c, &SplitPolicy::Frequency, &tuning, n);
        for threads in [2, 3, 4, 8] {
            let (got, stats) = piped_on(&c, &SplitPolicy::Frequency, &tuning, n, 4096, threads);
            assert_eq!(got, expect, "{text}, {threads} threads");
            assert!(stats.second_searches > 1000, "{text}, {threads}: {stats:?}");
        }
    }
}

#[test]
fn games_with_values_past_512_and_1024_give_the_serial_values_on_two_threads() {
    // the witness search's 1024-value bit set (0.437, 0.414) and its byte map (0.764); 0.414
    // and 0.764 turn to the dense mode by themselves (left to one thread), so they are also
    // run with the sparse mode forced
    for text in ["0.437", "0.764", "0.414"] {
        let c: Code = text.parse().unwrap();
        let forced = Tuning {
            force_mode: Some(Mode::Sparse),
            ..Tuning::default()
        };
        for tuning in [Tuning::default(), forced] {
            let expect = serial(&c, &SplitPolicy::Frequency, &tuning, 12_000);
            let (got, stats) = piped(&c, &SplitPolicy::Frequency, &tuning, 12_000, 4096);
            assert_eq!(got, expect, "{text}");
            if tuning.force_mode.is_some() || text == "0.437" {
                assert!(stats.pipelined > 1000, "{text}: {stats:?}");
            }
        }
    }
}

#[test]
fn the_driver_gives_the_serial_computation_on_two_threads() {
    // through the driver's batches: a run to n, and a run that stops at its certificate in
    // the middle of a batch (the values computed past it are dropped)
    for (text, n, finish) in [
        ("0.6", 50_000, Finish::ComputeAll),
        ("0.07", 10_000, Finish::AtCertificate),
        ("0.16", 20_000, Finish::Extend),
    ] {
        let rules = Rules::parse(text).unwrap();
        let code = rules.code().unwrap().clone();
        let tuning = Tuning {
            pipeline_backoff: false,
            ..wide(256)
        };
        let mut one = RareCommon::with_policy(&code, SplitPolicy::Frequency, tuning.clone());
        let expect = compute(&rules, n, finish, one.as_mut().unwrap(), None).unwrap();
        for threads in [2, 3] {
            let mut many =
                RareCommon::with_policy(&code, SplitPolicy::Frequency, tuning.clone()).unwrap();
            many.set_threads(threads);
            assert!(many.batches());
            let got = compute(&rules, n, finish, &mut many, None).unwrap();
            assert_eq!(got, expect, "{text}, {threads} threads");
        }
    }
}

#[test]
fn zero_threads_means_one_per_core() {
    let mut engine = RareCommon::new(&"0.6".parse().unwrap()).unwrap();
    assert_eq!(engine.threads(), 1);
    // on one thread too: a call per value cost 0.16 17% of its one-thread time (session 14)
    assert!(engine.batches());
    engine.set_threads(0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(engine.threads(), cores);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn two_to_eight_threads_give_the_serial_values_whatever_the_split_and_batches(
        c in octal_code(),
        p in policy(),
        first_review in 1usize..400,
        forced_wide in any::<bool>(),
        n in 1usize..3000,
        chunk in 1usize..700,
        threads in 2usize..=8,
    ) {
        let tuning = Tuning { first_review, force_wide: forced_wide, ..Tuning::default() };
        let expect = serial(&c, &p, &tuning, n);
        let (got, _) = piped_on(&c, &p, &tuning, n, chunk, threads);
        prop_assert_eq!(got, expect);
    }
}

#[test]
fn the_back_off_doubles_after_each_poor_batch_and_resets_after_a_good_one() {
    let mut backoff = Backoff::default();
    // batches skipped after a poor one, before the pipeline is tried again
    let skipped = |b: &mut Backoff| {
        b.report(true);
        let mut n = 0;
        while !b.ready() {
            n += 1;
        }
        n
    };
    assert!(backoff.ready());
    assert_eq!(skipped(&mut backoff), 1);
    assert_eq!(skipped(&mut backoff), 2);
    assert_eq!(skipped(&mut backoff), 4);
    for _ in 0..10 {
        skipped(&mut backoff);
    }
    assert_eq!(skipped(&mut backoff), 64);
    backoff.report(false);
    assert!(backoff.ready());
    assert_eq!(skipped(&mut backoff), 1);
}

#[test]
fn far_options_marked_ahead_by_the_verifiers_give_the_serial_values() {
    // Officers with its register path off (so that its far options go through the byte maps),
    // to 2^17: its last rare position is 20,627, and past it (no new rare position, the case of
    // a long run) the verifiers prepare most blocks on a quiet machine. Thresholds from low (most far options
    // are theirs) to the default.
    let c: Code = "0.6".parse().unwrap();
    let n = 1 << 17;
    let expect = serial(&c, &SplitPolicy::Frequency, &Tuning::default(), n);
    for from in [64, 300, 1024] {
        for threads in [2, 3] {
            let tuning = Tuning {
                pipeline_backoff: false,
                ahead_from: from,
                ..Tuning::default()
            };
            let mut engine = RareCommon::with_policy(&c, SplitPolicy::Frequency, tuning).unwrap();
            engine.wide.far.enabled = false;
            engine.set_threads(threads);
            let mut g = crate::takebreak::Values::U16(Vec::new().into());
            while g.len() <= n {
                let count = 4096.min(n + 1 - g.len());
                engine.next_values(&mut g, count).unwrap();
            }
            assert_eq!(g.into_u16(), expect, "from {from}, {threads} threads");
            // how many blocks the verifiers prepare is a matter of timing (a busy machine
            // leaves them none): the merging itself is tested deterministically in
            // `tests::prepared_far_options_and_the_leads_own_give_the_serial_values`
            let stats = engine.stats();
            assert!(stats.far_blocks_ahead <= stats.far_blocks_prepared);
        }
    }
    // games with new rare positions all along (the prepared blocks are dropped at each: the
    // values must not change), two split moves (0.146: the second move's reuse of the
    // first's maps, in each part) and values past 512 (0.437)
    for text in ["0.206", "0.146", "0.437"] {
        let c: Code = text.parse().unwrap();
        for from in [64, 300] {
            let tuning = Tuning {
                force_mode: Some(Mode::Sparse),
                force_wide: true,
                ahead_from: from,
                ..Tuning::default()
            };
            let n = 30_000;
            let expect = serial(&c, &SplitPolicy::Frequency, &tuning, n);
            for threads in [2, 3] {
                let (got, _) = piped_on(&c, &SplitPolicy::Frequency, &tuning, n, 4096, threads);
                assert_eq!(got, expect, "{text}, from {from}, {threads} threads");
            }
        }
    }
}

#[test]
fn without_verifiers_ahead_the_lead_marks_everything_itself() {
    // ahead_from 0 turns the preparation off: the same values, no block prepared
    let c: Code = "0.206".parse().unwrap();
    let tuning = Tuning {
        force_mode: Some(Mode::Sparse),
        force_wide: true,
        ahead_from: 0,
        ..Tuning::default()
    };
    let expect = serial(&c, &SplitPolicy::Frequency, &tuning, 20_000);
    let (got, stats) = piped(&c, &SplitPolicy::Frequency, &tuning, 20_000, 4096);
    assert_eq!(got, expect);
    assert_eq!(stats.far_blocks_prepared, 0, "{stats:?}");
}

#[test]
fn a_job_unpacks_to_what_was_packed_with_its_batch() {
    let mut batch = Batch::new(0);
    (batch.span, batch.blocked) = (2048, [0b0110, 0b1001]);
    // one-word jobs: the blocked values of the heap's parity, the first value neither found
    // nor blocked as the candidate
    for (n, found, want_free) in [(10usize, 0b0001u64, 3usize), (11, 0b0100, 1), (7, !0, 64)] {
        let (work, free) = Job::word(n, found).work(&batch);
        let Work::Word { found: f, blocked } = work else {
            panic!("a one-word job unpacked as wide")
        };
        assert_eq!(
            (f, blocked, free),
            (found, batch.blocked[n & 1], want_free),
            "heap {n}"
        );
    }
    // wide jobs: every field at the top of its range
    let top = u32::MAX as usize - 1;
    for (n, free, last, words) in [
        (5usize, 9usize, 3usize, 2usize),
        (top, 65_536, 65_535, 1025),
    ] {
        let job = Job::wide(n, free, last, words);
        let (work, f) = job.work(&batch);
        let Work::Wide {
            span,
            last: l,
            words: w,
        } = work
        else {
            panic!("a wide job unpacked as one-word")
        };
        assert_eq!((job.n(n + 1), f, span, l, w), (n, free, 2048, last, words));
    }
}

/// The shared state of a pipeline with one verifier, for the lead's unit tests.
fn one_verifier() -> Shared {
    use std::sync::atomic::{AtomicBool, AtomicU64};
    Shared {
        report: std::sync::Mutex::new(Report::default()),
        changed: std::sync::Condvar::new(),
        failed: Flag(AtomicBool::new(false)),
        failed_seq: Flag(AtomicU64::new(u64::MAX)),
        taken: vec![Flag(AtomicU64::new(0))],
    }
}

/// A lead sending to `sender` (the one verifier's queue), with `values` as its store.
fn lead_of<'a>(
    shared: &'a Shared,
    sender: std::sync::mpsc::SyncSender<Batch>,
    values: &mut [u8],
) -> Lead<'a, u8> {
    Lead {
        values: SharedValues {
            ptr: values.as_mut_ptr(),
        },
        shared,
        jobs: vec![sender],
        sent: vec![0],
        seq: 0,
        pending: Batch::new(0),
        spare: Vec::new(),
        held: None,
        epoch: 0,
        next: 0,
        confirmed: 0,
        last_failure: None,
        cautious: 0,
        waited: std::time::Duration::ZERO,
        overflow: None,
        job_batch: super::JOB_BATCH,
    }
}

#[test]
fn a_job_made_with_other_blocked_values_goes_in_a_batch_of_its_own() {
    // the span and blocked values are the batch's: a job made after they changed (which the
    // engine does only after a flush) sends the pending batch first
    let shared = one_verifier();
    let (sender, receiver) = std::sync::mpsc::sync_channel::<Batch>(QUEUE);
    let mut values = vec![0u8; 16];
    let mut lead = lead_of(&shared, sender, &mut values);
    lead.push(4, Job::word(4, 1), &[], 64, [1, 2]);
    lead.push(5, Job::word(5, 1), &[], 64, [1, 2]);
    assert!(receiver.try_recv().is_err(), "the same context: one batch");
    lead.push(6, Job::word(6, 1), &[], 64, [1, 6]);
    let sent = receiver.try_recv().expect("the first batch was sent");
    assert_eq!(
        sent.jobs.iter().map(|j| j.n as usize).collect::<Vec<_>>(),
        [4, 5]
    );
    assert_eq!((sent.span, sent.blocked, sent.upto), (64, [1, 2], 6));
    // nothing else was sent; the new pending batch holds the later job with its own context
    assert!(receiver.try_recv().is_err());
    assert_eq!(
        lead.pending
            .jobs
            .iter()
            .map(|j| j.n as usize)
            .collect::<Vec<_>>(),
        [6]
    );
    assert_eq!((lead.pending.span, lead.pending.blocked), (64, [1, 6]));
    // the wide path's option words travel with their job
    lead.push(7, Job::wide(7, 3, 1, 2), &[10, 11], 128, [1, 6]);
    let sent = receiver.try_recv().expect("the span changed");
    assert_eq!(
        sent.jobs.iter().map(|j| j.n as usize).collect::<Vec<_>>(),
        [6]
    );
    assert!(
        sent.found.is_empty(),
        "the words went with the wide job, not the earlier batch"
    );
    assert_eq!(lead.pending.found, [10, 11]);
    assert_eq!(lead.pending.span, 128);
    // nine words (Officers' span of 512): two copies of four and one more, in order
    let nine: Vec<u64> = (20..29).collect();
    lead.push(8, Job::wide(8, 3, 1, 9), &nine, 128, [1, 6]);
    assert_eq!(lead.pending.found[..2], [10, 11]);
    assert_eq!(lead.pending.found[2..], nine[..]);
    drop(values);
}

#[test]
fn a_held_batch_is_offered_again_only_when_the_counts_show_room() {
    use std::sync::atomic::Ordering;
    let shared = one_verifier();
    let (sender, receiver) = std::sync::mpsc::sync_channel::<Batch>(QUEUE);
    let mut values = vec![0u8; 16];
    let mut lead = lead_of(&shared, sender, &mut values);
    // fill the queue, then one batch more: it is held
    for n in 0..=QUEUE {
        lead.push(n, Job::word(n, 1), &[], 64, [1, 2]);
        lead.offer(n + 1);
    }
    assert_eq!(lead.sent, [QUEUE as u64]);
    assert!(lead.held.is_some() && lead.behind(), "the queue is full");
    // the verifier takes a batch but has not counted it yet: the lead does not offer the
    // held batch (a `try_send` would now succeed)
    let first = receiver.try_recv().expect("a batch in the queue");
    assert_eq!(first.jobs[0].n as usize, 0);
    assert!(
        lead.behind() && lead.held.is_some(),
        "the counts show no room yet"
    );
    // counted: the held batch goes, last in the queue
    shared.taken[0].fetch_add(1, Ordering::Release);
    assert!(!lead.behind() && lead.held.is_none());
    assert_eq!(lead.sent, [QUEUE as u64 + 1]);
    let order: Vec<usize> = receiver.try_iter().map(|b| b.jobs[0].n as usize).collect();
    assert_eq!(order, (1..=QUEUE).collect::<Vec<_>>());
    drop(values);
}

#[test]
fn searches_finished_in_blocks_give_the_serial_values_on_2_and_3_threads() {
    // 0.206 to 2^20: the verifiers defer their heaps' last values to blocks (`lanes`) where
    // the processor has the kernel (once its bit 4 is rare enough to be listed, past 2^19),
    // and wrong candidates (rollbacks) happen among them
    let c: Code = "0.206".parse().unwrap();
    let n = 1 << 20;
    let tuning = Tuning::default();
    let expect = serial(&c, &SplitPolicy::Frequency, &tuning, n);
    for threads in [2, 3] {
        let (got, stats) = piped_on(&c, &SplitPolicy::Frequency, &tuning, n, 4096, threads);
        assert_eq!(got, expect, "{threads} threads");
        assert!(stats.rollbacks > 0, "{threads} threads: {stats:?}");
        if super::lanes::available() {
            assert!(
                stats.tail_deferred > 1000 && stats.tail_blocks > 0,
                "{threads} threads: {stats:?}"
            );
        }
    }
    // and with the blocks turned off
    let off = Tuning {
        block_tail: false,
        ..tuning
    };
    let (got, stats) = piped(&c, &SplitPolicy::Frequency, &off, n, 4096);
    assert_eq!(got, expect, "no blocks");
    assert_eq!(stats.tail_deferred, 0);
}

/// A job keeps its heap's low 32 bits; the batch's `upto` gives the rest, past 2^32 as below
/// it, and the heap's parity (which picks the blocked values) is that of its low bits.
#[test]
fn a_job_gives_its_heap_back_past_two_to_the_32() {
    let tops = [
        1usize,
        1000,
        (1 << 32) - 1,
        1 << 32,
        (1 << 32) + 5,
        (1 << 40) + 17,
        3 << 33,
    ];
    for upto in tops {
        for back in [1usize, 2, 31, 4096, 1 << 20] {
            let Some(n) = upto.checked_sub(back) else {
                continue;
            };
            assert_eq!(Job::word(n, 0b1011).n(upto), n, "heap {n} below {upto}");
            assert_eq!(Job::wide(n, 70, 65, 3).n(upto), n, "heap {n} below {upto}");
            let mut batch = Batch::new(0);
            batch.upto = upto;
            batch.blocked = [0b100, 0b1000];
            match Job::word(n, 0b11).work(&batch) {
                (Work::Word { found, blocked }, _) => {
                    assert_eq!((found, blocked), (0b11, batch.blocked[n & 1]), "heap {n}")
                }
                _ => panic!("a word job"),
            }
        }
    }
}
