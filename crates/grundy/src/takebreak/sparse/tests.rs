//! The rare/common engine against the naive engine, value by value, whatever the split.

use super::*;
use proptest::prelude::*;

/// G(0..=n) from the naive engine (every option of every heap).
fn reference(code: &Code, n: usize) -> Vec<u16> {
    crate::takebreak::naive::sequence(code, n).unwrap()
}

fn run(engine: &mut RareCommon, n: usize) -> Vec<u16> {
    let mut g = Vec::with_capacity(n + 1);
    for _ in 0..=n {
        let v = engine.next_value(&g).unwrap();
        g.push(v);
    }
    g
}

fn code(text: &str) -> Code {
    Code::parse(text).unwrap()
}

/// Short reviews and small budgets so that short runs rebuild, switch modes and search.
fn busy_tuning() -> Tuning {
    Tuning {
        first_review: 16,
        dense_ratio: 4,
        memory_ratio: 8,
        min_rare_budget: 8,
        force_wide: false,
        force_mode: None,
        pipeline_backoff: true,
        ahead_from: 64,
        bit_index: true,
        block_tail: true,
        odd8: true,
    }
}

#[test]
fn known_sequences() {
    // Kayles 0.77: preperiod 71, period 12 (docs/theory.md §3); values from the definition
    let kayles = run(&mut RareCommon::new(&code("0.77")).unwrap(), 100);
    assert_eq!(&kayles[..12], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    assert_eq!(kayles, reference(&code("0.77"), 100));
    // Dawson's Kayles 0.07
    let dawson = run(&mut RareCommon::new(&code("0.07")).unwrap(), 40);
    assert_eq!(&dawson[..10], &[0, 0, 1, 1, 2, 0, 3, 1, 1, 0]);
}

#[test]
fn every_two_digit_code_matches_the_definition() {
    let n = 1500;
    for d0 in [0u128, 4] {
        for d1 in 0..8u128 {
            for d2 in 0..8u128 {
                let c = Code::from_digits(vec![d0, d1, d2]).unwrap();
                let expect = reference(&c, n);
                for tuning in [Tuning::default(), busy_tuning()] {
                    let got = run(
                        &mut RareCommon::with_policy(&c, SplitPolicy::Frequency, tuning.clone())
                            .unwrap(),
                        n,
                    );
                    assert_eq!(got, expect, "code {c} tuning {tuning:?}");
                }
            }
        }
    }
}

#[test]
fn a_sample_of_three_digit_codes_matches_the_definition() {
    // every 7th code of 0.??? (a deterministic sample of 73 codes), both tunings
    let n = 1200;
    for index in (0..512u32).step_by(7) {
        let digits = vec![
            0,
            (index >> 6) as u128,
            (index >> 3 & 7) as u128,
            (index & 7) as u128,
        ];
        let c = Code::from_digits(digits).unwrap();
        let expect = reference(&c, n);
        for tuning in [Tuning::default(), busy_tuning()] {
            let got = run(
                &mut RareCommon::with_policy(&c, SplitPolicy::Frequency, tuning).unwrap(),
                n,
            );
            assert_eq!(got, expect, "code {c}");
        }
    }
}

#[test]
fn sparse_games_run_in_the_sparse_mode_and_prove_most_values_directly() {
    // 0.16 has a sparse space: few rare positions, most candidates proved without search
    let mut engine = RareCommon::new(&code("0.16")).unwrap();
    let g = run(&mut engine, 20000);
    assert_eq!(engine.mode(), Mode::Sparse);
    assert!(engine.rare_positions() < 200, "{:?}", engine.stats());
    assert!(engine.common_values().contains(&2));
    assert_eq!(g[..2001], reference(&code("0.16"), 2000)[..]);
    // Dawson's Kayles has no sparse space: the dense mode takes over
    let mut engine = RareCommon::new(&code("0.07")).unwrap();
    run(&mut engine, 5000);
    assert_eq!(engine.mode(), Mode::Dense);
}

#[test]
fn officers_matches_the_definition_and_grossmans_rare_values() {
    // Officers (0.6) to 2^15, value by value against the naive engine: long enough for values
    // above 64 (the byte-map path and its vectorised witness search) and for every one of the
    // rare positions. Grossman ("Searching for periodicity in Officers", Games of No Chance 5,
    // 2019) counts 1584 rare values, the last at n = 20627; the rare values are those with an
    // even number of bits in v & 0b1_1110_1110 (the common ones have an odd number).
    let c = code("0.6");
    let n = 1 << 15;
    let mut engine = RareCommon::new(&c).unwrap();
    let g = run(&mut engine, n);
    assert_eq!(g, reference(&c, n));
    assert!(g.iter().any(|&v| v >= 64));
    let rare: Vec<usize> = (0..=n)
        .filter(|&i| (g[i] & 0b1_1110_1110).count_ones() % 2 == 0)
        .collect();
    assert_eq!(rare.len(), 1584);
    assert_eq!(rare.last(), Some(&20627));
    // the frequency-driven split finds the same class: every rare position but 0 (which never
    // takes part in a split)
    assert_eq!(engine.rare_positions(), 1583);
}

#[test]
fn games_with_values_past_512_match_the_definition() {
    // 0.437 (values pass 512 at n = 5,399) and 0.414 look for witnesses with the set of 1024
    // values; 0.764 passes 1024 too, and moves on to the sets of 2048 and 4096
    for (text, above) in [("0.437", 512), ("0.414", 512), ("0.764", 1024)] {
        let c = code(text);
        let n = 12_000;
        let g = run(&mut RareCommon::new(&c).unwrap(), n);
        assert!(
            g.iter().any(|&v| v >= above),
            "{text}: no value reaches {above}"
        );
        assert_eq!(g, reference(&c, n), "code {text}");
    }
}

#[test]
fn games_with_values_past_1024_match_the_definition_in_the_sparse_mode() {
    // 0.764 passes 1024 before n = 12,000 (and stays below 4096): its witness searches take the
    // wanted sets of 2048 and 4096 values held in four and eight registers, and its byte maps
    // have a stride of span + 64 bytes. Left alone it turns dense, so the sparse mode is forced,
    // with the default reviews and with short ones (the split rebuilt often).
    let c = code("0.764");
    let n = 12_000;
    let expect = reference(&c, n);
    let top = *expect.iter().max().unwrap();
    assert!((1024..4096).contains(&top), "0.764's largest value {top}");
    for tuning in [Tuning::default(), busy_tuning()] {
        let forced = Tuning {
            force_mode: Some(Mode::Sparse),
            ..tuning
        };
        let got = run(
            &mut RareCommon::with_policy(&c, SplitPolicy::Frequency, forced).unwrap(),
            n,
        );
        assert_eq!(got, expect);
    }
}

#[test]
fn the_open_games_match_the_definition() {
    // 0.146, 0.143 and 0.206 (issue 25's open games, many rare positions and wide values), to
    // n = 6,000 with the default and the busy tuning
    for text in ["0.146", "0.143", "0.206"] {
        let c = code(text);
        let n = 6_000;
        let expect = reference(&c, n);
        for tuning in [Tuning::default(), busy_tuning()] {
            let got = run(
                &mut RareCommon::with_policy(&c, SplitPolicy::Frequency, tuning).unwrap(),
                n,
            );
            assert_eq!(got, expect, "code {text}");
        }
    }
}

#[test]
fn later_split_moves_reuse_the_first_moves_far_options() {
    // the byte maps of a later split move are the first move's, or-ed in `d` heaps further on
    // (see `build_map_block`): codes with two, three and four split moves (k = 0 for 4.??,
    // gaps of 1 to 3 and beyond the block of 16), on the byte-map path at every size
    for text in [
        "0.146",
        "4.444",
        "0.446",
        "0.4404",
        "0.40000000000000000004",
        "4.0404",
    ] {
        let c = code(text);
        let n = 3_000;
        let expect = reference(&c, n);
        for tuning in [Tuning::default(), busy_tuning()] {
            let forced = Tuning {
                force_mode: Some(Mode::Sparse),
                force_wide: true,
                ..tuning
            };
            let got = run(
                &mut RareCommon::with_policy(&c, SplitPolicy::Frequency, forced).unwrap(),
                n,
            );
            assert_eq!(got, expect, "code {text}");
        }
    }
}

#[test]
fn witnesses_carried_to_the_next_heaps_later_move_give_the_definition() {
    // heap n + 1's split move k + 1 leaves the heap that heap n's move k left, so the witness
    // search carries what the first move found (see `wide::Carry`): codes whose split moves
    // include k and k + 1 (4.4? for k = 0), with the first move's share of the search larger,
    // on the wide path, sparse mode and the engine's own choice
    for text in [
        "0.146", "0.44", "4.4", "0.0446", "0.1446", "0.4444", "0.644", "0.0064",
    ] {
        let c = code(text);
        let n = 3_000;
        let expect = reference(&c, n);
        for tuning in [Tuning::default(), busy_tuning()] {
            for mode in [None, Some(Mode::Sparse)] {
                let forced = Tuning {
                    force_mode: mode,
                    force_wide: true,
                    ..tuning.clone()
                };
                let got = run(
                    &mut RareCommon::with_policy(&c, SplitPolicy::Frequency, forced).unwrap(),
                    n,
                );
                assert_eq!(got, expect, "code {text}, mode {mode:?}");
            }
        }
    }
}

#[test]
fn forced_modes_and_fixed_splits_give_the_same_values() {
    for text in [
        "0.16", "0.6", "0.137", "4.07", "0.4", "0.51", "0.007", "0.1",
    ] {
        let c = code(text);
        let expect = reference(&c, 1000);
        let policies = [
            SplitPolicy::Frequency,
            SplitPolicy::Mask(0),
            SplitPolicy::Mask(1),
            SplitPolicy::Mask(0b110),
            SplitPolicy::Values(vec![]),
            SplitPolicy::Values(vec![0, 1, 2, 3]),
            SplitPolicy::Values(vec![2, 3, 4, 5, 8, 9]),
        ];
        for policy in policies {
            for (mode, wide) in [
                (Mode::Sparse, false),
                (Mode::Dense, false),
                (Mode::Sparse, true),
                (Mode::Dense, true),
            ] {
                let tuning = Tuning {
                    force_mode: Some(mode),
                    force_wide: wide,
                    ..busy_tuning()
                };
                let got = run(
                    &mut RareCommon::with_policy(&c, policy.clone(), tuning).unwrap(),
                    1000,
                );
                assert_eq!(
                    got, expect,
                    "code {text} policy {policy:?} mode {mode:?} wide {wide}"
                );
            }
        }
    }
}

#[test]
fn resumes_from_a_given_prefix_and_restarts_on_a_foreign_one() {
    let c = code("0.16");
    let expect = reference(&c, 3000);
    // handed 2000 values it never computed: absorbs them, then continues
    let mut engine = RareCommon::new(&c).unwrap();
    let mut g = expect[..2000].to_vec();
    while g.len() <= 3000 {
        let v = engine.next_value(&g).unwrap();
        g.push(v);
    }
    assert_eq!(g, expect);
    // then handed a shorter sequence: starts over, still right
    let mut g = expect[..500].to_vec();
    while g.len() <= 1000 {
        let v = engine.next_value(&g).unwrap();
        g.push(v);
    }
    assert_eq!(g[..], expect[..1001]);
}

#[test]
fn refuses_codes_that_are_not_octal() {
    let e = RareCommon::new(&code("0.F")).unwrap_err().to_string();
    assert!(e.contains("octal"), "{e}");
}

/// Octal codes of one to four digits after `0.` or `4.` (shared with the pipeline's tests).
pub(super) fn octal_code() -> impl Strategy<Value = Code> {
    (prop::bool::ANY, prop::collection::vec(0u128..8, 1..5)).prop_map(|(d0, mut digits)| {
        digits.insert(0, if d0 { 4 } else { 0 });
        Code::from_digits(digits).unwrap()
    })
}

/// Any split policy, fixed ones included.
pub(super) fn policy() -> impl Strategy<Value = SplitPolicy> {
    prop_oneof![
        Just(SplitPolicy::Frequency),
        any::<u16>().prop_map(|m| SplitPolicy::Mask(m & 63)),
        prop::collection::vec(0u16..40, 0..12).prop_map(SplitPolicy::Values),
    ]
}

fn tuning() -> impl Strategy<Value = Tuning> {
    (
        1usize..300,
        1usize..40,
        1usize..40,
        0usize..300,
        any::<bool>(),
        0u8..3,
    )
        .prop_map(|(first, ratio, memory, budget, wide, mode)| Tuning {
            first_review: first,
            dense_ratio: ratio,
            memory_ratio: memory,
            min_rare_budget: budget,
            force_wide: wide,
            force_mode: match mode {
                0 => None,
                1 => Some(Mode::Sparse),
                _ => Some(Mode::Dense),
            },
            pipeline_backoff: true,
            ahead_from: 1024,
            bit_index: true,
            block_tail: true,
            odd8: true,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn any_split_any_tuning_gives_the_definition(c in octal_code(), p in policy(), t in tuning(), n in 1usize..900) {
        let got = run(&mut RareCommon::with_policy(&c, p, t).unwrap(), n);
        prop_assert_eq!(got, reference(&c, n));
    }
}

#[test]
fn hint_pauses_double_after_each_run_of_failures_and_reset_on_success() {
    let mut control = HintControl::default();
    // tried heaps until `should_try` says no, then the pause length in heaps
    let fail_run = |control: &mut HintControl| {
        for _ in 0..8 {
            assert!(control.should_try());
            control.report(false);
        }
        let mut paused = 0;
        while !control.should_try() {
            paused += 1;
        }
        paused
    };
    assert_eq!(fail_run(&mut control), HINT_PAUSE);
    assert_eq!(fail_run(&mut control), 2 * HINT_PAUSE);
    assert_eq!(fail_run(&mut control), 4 * HINT_PAUSE);
    for _ in 0..10 {
        fail_run(&mut control);
    }
    assert_eq!(fail_run(&mut control), HINT_PAUSE_MAX);
    control.report(true);
    assert_eq!(fail_run(&mut control), HINT_PAUSE);
}

/// The engine with the register path for far rare options on or off.
fn with_far(c: &Code, on: bool) -> RareCommon {
    let mut engine = RareCommon::new(c).unwrap();
    engine.wide.far.enabled = on;
    engine
}

#[test]
fn far_options_in_registers_give_the_byte_map_values() {
    // Officers to 2^17: the register path takes over once every partner of a far rare position
    // lies beyond the last rare one (n > 2 * 20627); a few tens of thousands of heaps later it
    // has computed most candidates. Same values, value by value, as the byte maps.
    let c = code("0.6");
    let n = 1 << 17;
    let mut fast = with_far(&c, true);
    let got = run(&mut fast, n);
    let expect = run(&mut with_far(&c, false), n);
    assert_eq!(got, expect);
    if far::available() {
        let far = &fast.wide.far;
        assert!(
            far.heaps > 80_000,
            "register path used for {} heaps",
            far.heaps
        );
        eprintln!(
            "0.6: {} heaps, {} beyond the tracked words",
            far.heaps, far.fallbacks
        );
    }
    // most candidates beyond a lowered limit (the far options then marked one by one), and
    // short reviews (the split and the rare positions rebuilt often)
    let mut capped = with_far(&c, true);
    capped.wide.far.limit_cap = 100;
    assert_eq!(run(&mut capped, n), expect);
    if far::available() {
        let far = &capped.wide.far;
        assert!(
            far.fallbacks > far.heaps / 2,
            "{} of {}",
            far.fallbacks,
            far.heaps
        );
    }
    let mut busy = RareCommon::with_policy(&c, SplitPolicy::Frequency, busy_tuning()).unwrap();
    assert_eq!(run(&mut busy, 50_000), expect[..=50_000]);
}

#[test]
fn the_bit_index_trial_alternates_and_keeps_the_faster_way() {
    use super::{IndexTrial, INDEX_TRIAL_CHUNKS, INDEX_TRIAL_EVERY};
    // no index to use: no trial, the index (absent) is "used"
    let mut trial = IndexTrial::default();
    assert!(trial.begin(0, false));
    trial.end(0, 4096, 1_000, true);
    assert_eq!(trial.left, 0);
    // a trial: chunks with and without the index in turn; without is faster per heap
    let mut n = 1000;
    let mut ways = Vec::new();
    for _ in 0..INDEX_TRIAL_CHUNKS {
        let with = trial.begin(n, true);
        ways.push(with);
        let nanos = if with { 3_000_000 } else { 2_000_000 };
        trial.end(n, 4096, nanos, with);
        n += 4096;
    }
    assert_eq!(ways, [true, false].repeat(INDEX_TRIAL_CHUNKS as usize / 2));
    assert!(trial.off);
    // until the next trial, the index stays out
    assert!(!trial.begin(n, true));
    trial.end(n, 4096, 1, false);
    assert!(!trial.off || trial.left == 0);
    n += 4096;
    assert_eq!(
        trial.next_at,
        1000 + INDEX_TRIAL_CHUNKS as usize * 4096 + INDEX_TRIAL_EVERY
    );
    // one whole trial from the next trial's heap on: `chunk(with, k)` gives the heaps and the
    // nanoseconds of the `k`-th chunk of that arm; returns the heap after the trial
    let run = |trial: &mut IndexTrial, n: usize, chunk: &dyn Fn(bool, u32) -> (usize, u64)| {
        let mut n = n.max(trial.next_at);
        let mut taken = [0u32; 2];
        for _ in 0..INDEX_TRIAL_CHUNKS {
            let with = trial.begin(n, true);
            let k = &mut taken[usize::from(with)];
            let (heaps, nanos) = chunk(with, *k);
            *k += 1;
            trial.end(n, heaps, nanos, with);
            n += heaps;
        }
        n
    };
    // the next trial finds the index faster (per heap: chunks of different sizes)
    n = run(&mut trial, n, &|with, _| {
        if with {
            (8192, 3_000_000)
        } else {
            (2048, 1_000_000)
        }
    });
    assert!(!trial.off);
    assert!(trial.begin(n, true));
    trial.end(n, 4096, 1, true);
    n += 4096;
    // one chunk with a cost that is not the index's (the state rebuilt after a resume: one heap
    // in 1.3 s) does not decide the next trial: the index is faster in every other chunk
    n = run(&mut trial, n, &|with, k| match (with, k) {
        (true, 0) => (1, 1_300_000_000),
        (true, _) => (4096, 45_000_000),
        (false, _) => (4096, 60_000_000),
    });
    assert!(!trial.off, "an outlier chunk decided the trial");
    // and the same outlier in the other arm does not keep a slower index either
    n = run(&mut trial, n, &|with, k| match (with, k) {
        (true, _) => (4096, 60_000_000),
        (false, 0) => (1, 1_300_000_000),
        (false, _) => (4096, 45_000_000),
    });
    assert!(trial.off, "an outlier chunk decided the trial");
    // a chunk of no heaps is not a measurement
    run(&mut trial, n, &|with, _| {
        if with {
            (0, 0)
        } else {
            (4096, 45_000_000)
        }
    });
    assert!(
        !trial.off,
        "no timed chunk with the index: nothing says it is slower"
    );
}

#[test]
fn values_are_the_same_with_and_without_the_bit_index() {
    // the index changes where the witness search looks, never what it finds
    // (0.764 and 0.172 choose a bit by 60,000 heaps: 12 and 8; 0.206 only past 2^19)
    for text in ["0.764", "0.172"] {
        let c = code(text);
        let run_with = |bit_index: bool| {
            let tuning = Tuning {
                force_mode: Some(Mode::Sparse),
                force_wide: true,
                bit_index,
                ..Tuning::default()
            };
            let mut e = RareCommon::with_policy(&c, SplitPolicy::Frequency, tuning).unwrap();
            let values = run(&mut e, 60_000);
            (values, e.bit_index())
        };
        let (with, (bit, listed)) = run_with(true);
        let (without, none) = run_with(false);
        assert_eq!(with, without, "{text}");
        assert_eq!(none, (None, 0));
        assert!(bit.is_some() && listed > 0, "{text}: {bit:?} {listed}");
    }
}

#[test]
fn prepared_far_options_and_the_leads_own_give_the_serial_values() {
    // The merging of `ahead` on one thread, deterministically: a "verifier" (this thread)
    // prepares every block it may after each heap, the engine computes the next heap serially
    // with the prepared blocks in reach (as the lead of a pipeline does), and a fresh ring is
    // taken every 4096 heaps (as every pipeline call does). Officers with its register path
    // off, so that its far options go through the byte maps; thresholds from low to default.
    use super::ahead::Ahead;
    use super::wide::FarLayout;
    use std::sync::Arc;
    let c = code("0.6");
    let n = 1 << 17;
    let expect = run(&mut with_far(&c, false), n);
    for from in [64, 300, 1024] {
        let mut e = with_far(&c, false);
        let mut g: Vec<u16> = Vec::with_capacity(n + 1);
        while g.len() <= n {
            if g.len() % 4096 == 0 && g.len() >= 1 << 14 {
                let words = e.span / 64 + 1;
                let layout = FarLayout {
                    stride: words * 64,
                    words,
                    span: e.span,
                };
                let ring = Ahead::new(from, &e.rare, e.rare_epoch, layout, &e.moves, g.len(), &[]);
                e.wide.ahead = Some(Arc::new(ring));
            }
            let v = e.next_value(&g).unwrap();
            g.push(v);
            if let Some(ahead) = e.wide.ahead.clone() {
                ahead.confirm(g.len());
                // SAFETY: `g` is not written while the slices live.
                while unsafe { ahead.prepare(|len| &g[..len]) } {
                    e.stats.far_blocks_prepared += 1;
                }
            }
        }
        assert_eq!(g, expect, "from {from}");
        let stats = &e.stats;
        assert!(stats.far_blocks_ahead > 3000, "from {from}: {stats:?}");
        assert!(stats.far_blocks_ahead <= stats.far_blocks_prepared);
    }
}

/// What a state is made of, comparable (the split as the keys it makes common).
fn state_of(e: &RareCommon) -> impl PartialEq + std::fmt::Debug {
    let common: Vec<bool> = (0..2 * e.span)
        .map(|k| e.split.is_common((k / 2) as u16, k % 2))
        .collect();
    (
        (e.seen, e.span, e.mode, e.next_review, e.rare_trigger),
        (e.rare_count, e.rare.clone(), e.counts.clone(), common),
        e.index.summary(),
    )
}

#[test]
fn values_absorbed_together_leave_the_state_absorbed_one_by_one_leaves() {
    // a resumed run's `sync` takes its values a stretch at a time; the state must be the one
    // of a run that met them one by one (reviews, rebuilds and the rare trigger at the same
    // values), with the default tuning and with one that reviews and rebuilds often
    let n = 150_000;
    for text in ["0.16", "0.6", "0.206", "0.137", "0.4407", "0.007"] {
        let c = code(text);
        for tuning in [Tuning::default(), busy_tuning()] {
            let g = run(
                &mut RareCommon::with_policy(&c, SplitPolicy::Frequency, tuning.clone()).unwrap(),
                n,
            );
            let fresh =
                || RareCommon::with_policy(&c, SplitPolicy::Frequency, tuning.clone()).unwrap();
            let mut one = fresh();
            for k in 1..=g.len() {
                one.sync(&g[..k]);
            }
            let mut together = fresh();
            together.sync(&g);
            assert_eq!(state_of(&together), state_of(&one), "{text} {tuning:?}");
            // and from part of the way (a run handed values after computing some)
            let mut part = fresh();
            part.sync(&g[..70_001]);
            part.sync(&g);
            assert_eq!(state_of(&part), state_of(&one), "{text} {tuning:?}, in two");
        }
    }
}

/// `record_hint` puts the split first and keeps the other hints in order, without duplicates:
/// checked against a plain list for every short sequence of splits over a small alphabet.
#[test]
fn hints_keep_the_most_recent_splits_first() {
    fn plain(list: &mut Vec<u32>, i: u32) {
        list.retain(|&h| h != i);
        list.insert(0, i);
        list.truncate(HINT_DEPTH);
    }
    for seed in 0..6u32.pow(6) {
        let (mut hints, mut list): (Hints, Vec<u32>) = ([0; HINT_DEPTH], Vec::new());
        let mut s = seed;
        for _ in 0..6 {
            let i = 1 + s % 6;
            s /= 6;
            record_hint(&mut hints, i as usize);
            plain(&mut list, i);
            let mut want = [0; HINT_DEPTH];
            want[..list.len()].copy_from_slice(&list);
            assert_eq!(hints, want, "seed {seed}");
        }
    }
}

/// Past `u32::MAX` a hint is not recorded (a hint cut to 32 bits would name another split;
/// not recording it only costs a search its shortcut).
#[test]
fn hints_past_32_bits_are_not_recorded() {
    let mut hints: Hints = [0; HINT_DEPTH];
    record_hint(&mut hints, 7);
    record_hint(&mut hints, u32::MAX as usize);
    assert_eq!(hints[..2], [u32::MAX, 7]);
    let before = hints;
    record_hint(&mut hints, 1 << 32);
    record_hint(&mut hints, (1 << 33) + 7);
    assert_eq!(hints, before);
}

/// A rare position past `u32::MAX` is not listed: it is remembered, and the engine computes
/// nothing more (one clear error, on one thread and through the pipeline's check), rather than
/// going on with a list that lacks it.
#[test]
fn a_rare_position_past_32_bits_stops_the_engine() {
    let mut rare = RarePositions::default();
    rare.push(5);
    rare.push(u32::MAX as usize);
    assert_eq!(rare.unlisted(), None);
    rare.push(1 << 32);
    rare.push((1 << 32) + 9);
    assert_eq!(&rare[..], &[5, u32::MAX]);
    assert_eq!(rare.unlisted(), Some(1 << 32));
    rare.clear();
    assert_eq!((rare.len(), rare.unlisted()), (0, None));

    let c = code("0.6");
    let mut engine = RareCommon::new(&c).unwrap();
    let mut g = run(&mut engine, 5000);
    assert_eq!(g, reference(&c, 5000));
    let n = g.len();
    assert!(engine.pipelines(n));
    engine.rare.push((1 << 32) + 3);
    assert!(!engine.pipelines(n));
    match engine.next_value(&g) {
        Err(Error::TooLarge(e)) => assert!(
            e.contains("4294967299") && e.contains(&format!("stops before G({n})")),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    // a sequence handed over afresh starts the state over, without it
    g.truncate(100);
    assert_eq!(engine.next_value(&g).unwrap(), reference(&c, 100)[100]);
}
