//! The store of low bytes with a head ([`Odd8`], "Officers in one byte") against the same
//! engine on `u16` and against the naive engine: the engine is handed a store narrowed to bytes
//! whenever the head it needs is short enough, and takes it back to `u16` at every value a byte
//! does not keep, on one to three threads, in calls of one value to thousands.

use super::tests::{octal_code, policy};
use super::{Code, RareCommon, SplitPolicy, Tuning};
use crate::takebreak::engine::CompactEngine;
use crate::takebreak::values::{Buf, Odd8, Odd8Store, Value};
use proptest::prelude::*;

fn code(text: &str) -> Code {
    Code::parse(text).unwrap()
}

fn engine(c: &Code, policy: SplitPolicy, threads: usize) -> RareCommon {
    let tuning = Tuning {
        pipeline_backoff: false,
        ..Tuning::default()
    };
    let mut e = RareCommon::with_policy(c, policy, tuning).unwrap();
    e.set_threads(threads);
    e
}

/// G(0..=n) on `u16` in calls of `chunk` values (the reference for long runs: this store is
/// checked against the naive engine elsewhere).
fn on_u16(c: &Code, n: usize, threads: usize) -> Vec<u16> {
    let mut e = engine(c, SplitPolicy::Frequency, threads);
    let mut g: Buf<u16> = Buf::Heap(Vec::new());
    while g.len() <= n {
        let count = 4096.min(n + 1 - g.len());
        assert_eq!(e.next_values_in(&mut g, count).unwrap(), None);
    }
    g.to_vec()
}

/// What [`odd8_run`] did.
#[derive(Debug, Default)]
struct Run {
    values: Vec<u16>,
    /// Values computed on the store of bytes.
    in_bytes: usize,
    /// How often the store was narrowed, and moved back to `u16`.
    narrowed: usize,
    widened: usize,
}

/// G(0..=n) by `e`: on `u16`, narrowed to bytes with a head of at most `max_head` values once
/// `gap` values were computed since the last change, back to `u16` at each value a byte does
/// not keep; calls of `chunk` values.
fn odd8_run(e: &mut RareCommon, n: usize, chunk: usize, gap: usize, max_head: usize) -> Run {
    let mut run = Run::default();
    let mut wide: Buf<u16> = Buf::Heap(Vec::new());
    let mut since = 0;
    loop {
        if wide.len() > n {
            break;
        }
        if since >= gap {
            if let Some(store) = Odd8Store::from_u16(&wide, max_head) {
                run.narrowed += 1;
                let Odd8Store { head, mut bytes } = store;
                let mut stop = None;
                while bytes.len() <= n {
                    let count = chunk.min(n + 1 - bytes.len());
                    let before = bytes.len();
                    stop = e.next_values_odd8(&head, &mut bytes, count).unwrap();
                    run.in_bytes += bytes.len() - before;
                    if stop.is_some() {
                        break;
                    }
                }
                let mut back: Vec<u16> = (0..bytes.len())
                    .map(|i| head.get(i).copied().unwrap_or_else(|| bytes[i].get()))
                    .collect();
                if let Some(v) = stop {
                    assert!(
                        !Odd8::fits(v as usize),
                        "G({}) = {v} fits a byte",
                        back.len()
                    );
                    run.widened += 1;
                    back.push(v);
                }
                wide = Buf::Heap(back);
                since = 0;
                continue;
            }
            since = 0;
        }
        let count = chunk.min(n + 1 - wide.len()).min(gap.max(1));
        let before = wide.len();
        assert_eq!(e.next_values_in(&mut wide, count).unwrap(), None);
        since += wide.len() - before;
    }
    run.values = wide.to_vec();
    run
}

#[test]
fn the_byte_decodes_every_value_it_keeps() {
    let mut kept = 0;
    for v in 0..1024usize {
        if let Some(b) = Odd8::fit(v) {
            assert_eq!(b.get() as usize, v);
            kept += 1;
        }
    }
    assert_eq!(kept, 256, "one value below 512 per byte");
    let store = Odd8Store::from_u16(&[0, 1, 2, 3, 300, 5, 7, 258], 1000).unwrap();
    assert_eq!(store.to_u16(), [0, 1, 2, 3, 300, 5, 7, 258]);
}

/// Officers past its last rare heap (20,627): the head holds it, every later heap is a byte.
#[test]
fn officers_in_bytes_matches_u16_on_one_to_three_threads() {
    let c = code("0.6");
    let n = 1 << 17;
    let expect = on_u16(&c, n, 1);
    for threads in 1..=3 {
        let mut e = engine(&c, SplitPolicy::Frequency, threads);
        let run = odd8_run(&mut e, n, 8192, 1 << 15, 1 << 16);
        assert_eq!(run.narrowed, 1, "{threads} threads");
        assert_eq!(run.widened, 0, "{threads} threads");
        assert!(run.in_bytes > 90_000, "{threads} threads: {}", run.in_bytes);
        if let Some(i) = (0..=n).find(|&i| run.values[i] != expect[i]) {
            panic!(
                "{threads} threads: G({i}) is {} in bytes, {} on u16",
                run.values[i], expect[i]
            );
        }
    }
}

/// Officers narrowed before its last rare heaps: each rare value moves the store back to
/// `u16` (its proof reads the splits below the head's end from the head), the next narrowing
/// takes a longer head.
#[test]
fn officers_narrowed_early_goes_back_and_forth() {
    let c = code("0.6");
    let n = 30_000;
    let expect = on_u16(&c, n, 1);
    for (threads, chunk) in [(1, 1000), (2, 4096), (1, 7)] {
        let mut e = engine(&c, SplitPolicy::Frequency, threads);
        let run = odd8_run(&mut e, n, chunk, 500, 1 << 16);
        assert!(
            run.widened >= 5,
            "{threads} threads: {} widenings",
            run.widened
        );
        assert!(run.in_bytes > 10_000, "{threads} threads: {}", run.in_bytes);
        if let Some(i) = (0..=n).find(|&i| run.values[i] != expect[i]) {
            panic!(
                "{threads} threads, chunk {chunk}: G({i}) is {} in bytes, {} on u16",
                run.values[i], expect[i]
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any code and split, narrowed as often as its values let it, against the definition.
    #[test]
    fn any_code_in_bytes_matches_the_definition(
        c in octal_code(),
        policy in policy(),
        threads in 1usize..=3,
        chunk in prop_oneof![Just(1usize), Just(5), Just(300), Just(4096)],
        gap in 1usize..400,
        max_head in prop_oneof![Just(64usize), Just(1000), Just(1 << 20)],
    ) {
        let n = 2500;
        let expect = crate::takebreak::naive::sequence(&c, n).unwrap();
        let mut e = engine(&c, policy, threads);
        let run = odd8_run(&mut e, n, chunk, gap, max_head);
        if let Some(i) = (0..=n).find(|&i| run.values[i] != expect[i]) {
            panic!("{c}: G({i}) is {} in bytes, {} by definition ({} values in bytes, \
                {} narrowings, {} widenings)",
                run.values[i], expect[i], run.in_bytes, run.narrowed, run.widened);
        }
    }
}

/// Through the driver, as the CLI's `--compact-values` runs: the store ends in bytes with a
/// head, the values, the power summaries and the split are those of the `u16` store, with
/// the rare/common engine and the automatic one, on one and two threads.
#[test]
fn the_driver_keeps_officers_in_bytes_and_reports_the_same() {
    use crate::takebreak::powers;
    use crate::takebreak::sparse::classes::rare_common_split;
    use crate::takebreak::{compute, AutoEngine, Finish, Rules, Values, ValuesRef};
    let rules = Rules::parse("0.6").unwrap();
    let c = code("0.6");
    let n = 1 << 18;
    let plain = on_u16(&c, n, 1);
    for (threads, auto) in [(1, false), (2, false), (1, true), (2, true)] {
        let what = format!("{threads} threads, auto {auto}");
        let values = if auto {
            let mut e = AutoEngine::for_rules(&rules).unwrap();
            e.set_threads(threads);
            e.set_compact_values(true);
            compute(&rules, n, Finish::ComputeAll, &mut e, None)
                .unwrap()
                .values
        } else {
            let mut e = RareCommon::new(&c).unwrap();
            e.set_threads(threads);
            e.set_compact_values(true);
            compute(&rules, n, Finish::ComputeAll, &mut e, None)
                .unwrap()
                .values
        };
        assert!(matches!(values, Values::Odd8(_)), "{what}");
        assert_eq!(values.head_len(), 20_672, "{what}");
        assert_eq!(values, plain, "{what}");
        let (split, wide) = (values.as_ref(), ValuesRef::from(&plain));
        for p in [1 << 10, 1 << 15, 1 << 16, 1 << 18] {
            let (a, b) = (split.slice(..=p), wide.slice(..=p));
            let (sa, sb) = (
                powers::summary(&rules, a).unwrap(),
                powers::summary(&rules, b).unwrap(),
            );
            assert_eq!(sa.text(a), sb.text(b), "{what}: 2^{}", p.trailing_zeros());
        }
        let (ra, rb) = (
            rare_common_split(&c, split).unwrap(),
            rare_common_split(&c, wide).unwrap(),
        );
        assert_eq!(format!("{ra:?}"), format!("{rb:?}"), "{what}");
    }
}

/// The view of a store in bytes with a head reads as the plain values: by index, in slices,
/// forwards and backwards, skipping, and as the period detector compares them.
#[test]
fn the_split_view_reads_as_the_plain_values() {
    use crate::takebreak::period::Seq;
    use crate::takebreak::{Values, ValuesRef};
    let c = code("0.6");
    let plain = on_u16(&c, 40_000, 1);
    let mut values = Values::from(plain.clone());
    assert!(values.narrow_odd8(1 << 15));
    assert_eq!(values.head_len(), 20_672);
    let (split, wide) = (values.as_ref(), ValuesRef::from(&plain));
    for (from, to) in [
        (0, 40_001),
        (5, 20_000),
        (20_000, 20_700),
        (20_672, 40_001),
        (30_000, 30_000),
    ] {
        let (a, b) = (split.slice(from..to), wide.slice(from..to));
        assert_eq!(a.len(), b.len());
        assert!(a.iter().eq(b.iter()), "{from}..{to}");
        assert!(a.iter().rev().eq(b.iter().rev()), "{from}..{to} backwards");
        for k in [0, 1, 600, 19_000, 30_000] {
            assert_eq!(a.iter().nth(k), b.iter().nth(k), "{from}..{to}, nth {k}");
            if k < a.len() {
                assert_eq!(a.get(k), b.get(k));
            }
        }
    }
    let ValuesRef::Split(s) = split else {
        unreachable!("narrowed above")
    };
    let w = &plain[..];
    for (a, b, k) in [
        (0, 7, 100),
        (20_600, 20_700, 50),
        (25_000, 31_000, 500),
        (17_406, 37_406, 3),
    ] {
        assert_eq!(s.same(a, b, k), w.same(a, b, k), "{a} {b} {k}");
    }
    // a value that does not fit moves the store back to u16
    values.push(0);
    assert_eq!(values.value_bytes(), 2);
    assert_eq!(values.get(40_001), 0);
    assert_eq!(values.to_vec()[..40_001], plain[..]);
}
