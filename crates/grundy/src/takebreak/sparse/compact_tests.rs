//! The one-byte value store ([`crate::takebreak::values`]) against the naive engine on `u16`,
//! value by value: codes whose values stay below 256, codes that cross 256 and 512 (the store
//! moves to `u16` inside a batch, at its edge, or one value at a time), Officers-like games
//! (values past 256 whose common values are a parity class), 1 to 4 threads, every path
//! (one-word, wide, dense, the pipeline), and the driver, the automatic engine and checkpoints
//! on top.

use super::tests::{octal_code, policy};
use super::{Code, RareCommon, SequenceEngine, SplitPolicy, Tuning};
use crate::takebreak::checkpoint::{self, Control, Identity, Outcome};
use crate::takebreak::values::Values;
use crate::takebreak::{compute, AutoEngine, Finish, Naive, Plan, Rules};
use proptest::prelude::*;

fn reference(code: &Code, n: usize) -> Vec<u16> {
    crate::takebreak::naive::sequence(code, n).unwrap()
}

fn code(text: &str) -> Code {
    Code::parse(text).unwrap()
}

/// G(0..=n) through `next_values` on a store that starts in bytes, in calls of `chunk` values.
fn compact_run(engine: &mut dyn SequenceEngine, n: usize, chunk: usize) -> Values {
    let mut values = Values::new(true);
    while values.len() <= n {
        let count = chunk.min(n + 1 - values.len());
        engine.next_values(&mut values, count).unwrap();
        assert!(engine.compact());
    }
    values
}

/// The store must be in bytes exactly when every value is below 256.
fn check_store(values: &Values, expect: &[u16], what: &str) {
    assert_eq!(values.len(), expect.len(), "{what}");
    let first_wide = expect.iter().position(|&v| v >= 256);
    if let Some(at) = first_wide {
        assert_eq!(values.value_bytes(), 2, "{what}: G({at}) = {}", expect[at]);
    } else {
        assert_eq!(values.value_bytes(), 1, "{what}: every value is below 256");
    }
    if let Some(i) = (0..expect.len()).find(|&i| values.get(i) != expect[i]) {
        panic!(
            "{what}: G({i}) is {} in the store, {} by definition",
            values.get(i),
            expect[i]
        );
    }
}

fn sparse(c: &Code, policy: SplitPolicy, tuning: Tuning, threads: usize) -> RareCommon {
    let tuning = Tuning {
        // deterministic: the pipeline runs whenever it applies
        pipeline_backoff: false,
        ..tuning
    };
    let mut e = RareCommon::with_policy(c, policy, tuning).unwrap();
    e.set_threads(threads);
    e
}

fn wide(first_review: usize) -> Tuning {
    Tuning {
        first_review,
        force_wide: true,
        ..Tuning::default()
    }
}

fn busy() -> Tuning {
    Tuning {
        first_review: 16,
        dense_ratio: 4,
        memory_ratio: 8,
        min_rare_budget: 8,
        ..Tuning::default()
    }
}

#[test]
fn every_two_digit_code_in_bytes_matches_the_definition_on_one_to_four_threads() {
    let n = 2500;
    let mut in_bytes = 0;
    for d0 in [0u128, 4] {
        for index in 0..64u128 {
            let c = Code::from_digits(vec![d0, index / 8, index % 8]).unwrap();
            let expect = reference(&c, n);
            for (k, tuning) in [Tuning::default(), busy(), wide(64)]
                .into_iter()
                .enumerate()
            {
                let threads = 1 + (index as usize + k) % 4;
                let mut e = sparse(&c, SplitPolicy::Frequency, tuning.clone(), threads);
                let got = compact_run(&mut e, n, 1000);
                check_store(&got, &expect, &format!("{c} {tuning:?} {threads} threads"));
                in_bytes += usize::from(got.value_bytes() == 1);
            }
        }
    }
    // nearly every two-digit code stays below 256 (a test that the bytes are really used)
    assert!(
        in_bytes > 300,
        "only {in_bytes} runs kept their values in bytes"
    );
}

#[test]
fn games_that_cross_256_and_512_move_to_u16_once_with_the_same_values() {
    // Codes whose values pass 255 by heap 3000 (found by running every 0.??? and 4.??? code to
    // 3000): 0.774 reaches exactly 256, 0.564 passes 512; in calls of 1, 7, 64, 1000 and 4096
    // values (the switch inside a batch of the pipeline, at its edge, or between single
    // values), on one to four threads, each on the default, the wide and the busy tuning
    let n = 3000;
    let mut pipelined = 0;
    for text in [
        "0.774", "0.564", "0.264", "0.364", "0.414", "0.764", "4.026", "0.437",
    ] {
        let c = code(text);
        let expect = reference(&c, n);
        assert!(expect.iter().any(|&v| v >= 256), "{text} passes 255 by {n}");
        for (chunk, threads) in [(1, 1), (7, 2), (64, 3), (4096, 4), (4096, 1), (1000, 2)] {
            for tuning in [Tuning::default(), wide(64), busy()] {
                let mut e = sparse(&c, SplitPolicy::Frequency, tuning.clone(), threads);
                let got = compact_run(&mut e, n, chunk);
                check_store(
                    &got,
                    &expect,
                    &format!("{text} chunk {chunk} {threads} threads"),
                );
                pipelined += e.stats().pipelined;
            }
        }
    }
    // the pipeline computed values on both stores (the switch happens inside it too)
    assert!(pipelined > 10_000, "only {pipelined} values pipelined");
    assert!(reference(&code("0.564"), n).iter().any(|&v| v >= 512));
    assert_eq!(reference(&code("0.774"), n).iter().max(), Some(&256));
}

#[test]
fn officers_and_0_146_cross_256_late_and_keep_their_values() {
    // Officers (0.6) passes 255 first at heap 10,344, 0.146 at heap 5,305 (and 511 at 14,021):
    // measured with `grundy takebreak CODE -n 300000 --no-extend --print --json`
    let first = |g: &[u16], t: u16| g.iter().position(|&v| v >= t);
    let officers = reference(&code("0.6"), 11_000);
    assert_eq!(first(&officers, 256), Some(10_344));
    let g146 = reference(&code("0.146"), 14_100);
    assert_eq!(
        (first(&g146, 256), first(&g146, 512)),
        (Some(5_305), Some(14_021))
    );
    for (text, expect, threads, chunk) in [
        ("0.6", &officers, 1, 4096),
        ("0.6", &officers, 2, 1000),
        ("0.146", &g146, 3, 4096),
    ] {
        let c = code(text);
        let mut e = sparse(&c, SplitPolicy::Frequency, Tuning::default(), threads);
        let got = compact_run(&mut e, expect.len() - 1, chunk);
        check_store(&got, expect, &format!("{text} {threads} threads"));
    }
}

#[test]
fn officers_with_its_parity_mask_in_bytes_then_u16_matches_the_definition() {
    // Officers' common values are those of odd parity under 0b1_1110_1110 (Grossman); with
    // that mask fixed the far stage marks options in registers once values pass 64
    let c = code("0.6");
    let n = 11_000;
    let expect = reference(&c, n);
    for threads in 1..=4 {
        let mut e = sparse(
            &c,
            SplitPolicy::Mask(0b1_1110_1110),
            Tuning::default(),
            threads,
        );
        let got = compact_run(&mut e, n, 512);
        check_store(&got, &expect, &format!("0.6 mask, {threads} threads"));
    }
}

#[test]
fn the_naive_and_the_automatic_engine_keep_bytes_and_switch_too() {
    for (text, n) in [
        ("0.77", 3000),
        ("0.16", 3000),
        ("0.774", 3000),
        ("0.564", 3000),
    ] {
        let c = code(text);
        let expect = reference(&c, n);
        let got = compact_run(&mut Naive::new(c.clone()), n, 33);
        check_store(&got, &expect, &format!("{text} naive"));
        let rules = Rules::Code(c.clone());
        let mut auto = AutoEngine::for_rules(&rules).unwrap().with_first_review(64);
        let got = compact_run(&mut auto, n, 100);
        check_store(&got, &expect, &format!("{text} auto"));
    }
}

#[test]
fn the_driver_keeps_bytes_below_256_and_says_so() {
    for (text, bytes) in [
        ("0.16", 1),
        ("0.167", 1),
        ("0.6", 1),
        ("0.437", 2),
        ("0.564", 2),
    ] {
        let rules = Rules::parse(text).unwrap();
        let n = 4000;
        let c = compute(
            &rules,
            n,
            Finish::ComputeAll,
            &mut RareCommon::for_rules(&rules).unwrap(),
            None,
        )
        .unwrap();
        assert_eq!(c.value_bytes(), bytes, "{text}");
        assert_eq!(c.values, reference(rules.code().unwrap(), n), "{text}");
        assert_eq!(c.to_vec(), c.values.to_vec());
        // an engine that does not read bytes gets a u16 store
        struct Plain(Naive);
        impl SequenceEngine for Plain {
            fn name(&self) -> &'static str {
                "plain"
            }
            fn next_value(&mut self, g: &[u16]) -> Result<u16, crate::Error> {
                self.0.next_value(g)
            }
        }
        let plain = compute(
            &rules,
            300,
            Finish::ComputeAll,
            &mut Plain(Naive::new(rules.clone())),
            None,
        )
        .unwrap();
        assert_eq!(plain.value_bytes(), 2);
        assert_eq!(plain.values.to_vec(), c.values.to_vec()[..=300]);
    }
}

#[test]
fn a_checkpoint_of_a_run_in_bytes_resumes_to_the_same_values() {
    use std::sync::atomic::AtomicBool;
    let dir = std::env::temp_dir().join(format!("grundy-compact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for text in ["0.167", "0.6"] {
        let rules = Rules::parse(text).unwrap();
        let n = 20_000;
        let path = dir.join(format!("{text}.ckpt"));
        let identity = Identity {
            code: text.into(),
            engine: "sparse".into(),
            engine_version: 1,
        };
        let expect = compute(
            &rules,
            n,
            Finish::ComputeAll,
            &mut RareCommon::for_rules(&rules).unwrap(),
            None,
        )
        .unwrap();
        // stop at the first progress point (4096 values), saving them
        let stop = AtomicBool::new(true);
        let mut save = |v: crate::takebreak::ValuesRef<'_>| {
            checkpoint::save(&path, &identity, v).map_err(crate::Error::from)
        };
        let outcome = checkpoint::run(
            &rules,
            Vec::new(),
            Plan::new(n, Finish::ComputeAll),
            &mut RareCommon::for_rules(&rules).unwrap(),
            Control {
                every: std::time::Duration::from_secs(3600),
                save: &mut save,
                stop: &stop,
                progress: None,
                search: None,
                values: None,
            },
        )
        .unwrap();
        let Outcome::Interrupted(done) = outcome else {
            panic!("{text}: the run was asked to stop")
        };
        let loaded = checkpoint::load(&path, usize::MAX).unwrap().unwrap();
        assert_eq!(loaded.values.len(), done);
        assert_eq!(
            loaded.values,
            expect.values.to_vec()[..done],
            "{text}: saved values"
        );
        checkpoint::check_values(&rules, &loaded.values).unwrap();
        let resumed = crate::takebreak::extend(
            &rules,
            loaded.values,
            n,
            Finish::ComputeAll,
            &mut RareCommon::for_rules(&rules).unwrap(),
            None,
        )
        .unwrap();
        assert_eq!(resumed.values, expect.values.to_vec(), "{text}: resumed");
        assert_eq!(resumed.value_bytes(), expect.value_bytes(), "{text}");
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_dir(&dir);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any octal code, any split, short reviews or none, 1 to 4 threads, any batch size: the
    /// store in bytes (moved to u16 where a value passes 255) holds the naive engine's values.
    #[test]
    fn any_code_in_a_byte_store_gives_the_definitions_values(
        c in octal_code(),
        policy in policy(),
        threads in 1usize..=4,
        chunk in 1usize..3000,
        force_wide in any::<bool>(),
        first_review in prop_oneof![Just(16usize), Just(256)],
    ) {
        let n = 1500;
        let expect = reference(&c, n);
        let tuning = Tuning { first_review, force_wide, ..Tuning::default() };
        let mut e = sparse(&c, policy.clone(), tuning, threads);
        let got = compact_run(&mut e, n, chunk);
        check_store(&got, &expect, &format!("{c} {policy:?} {threads} threads chunk {chunk}"));
    }
}
