//! The rare and common classes of a sequence, as the rare/common engine splits it: the one
//! definition of "rare" that `grundy takebreak --json` (its `rare_common` object), the web
//! page and Python show.
//!
//! A position `i >= 1` belongs to the class `(G(i), i mod 2)` (see [`super::split`]). The
//! split reported is the engine's own: a [`RareCommon`] engine is fed the values and its split
//! is read when it has seen them all. (The engine makes a class common when it first appears
//! if that keeps every common class provable, and at reviews re-chooses the split from the
//! frequencies, [`super::split::Split::chosen`], when that is a clear improvement.) So the rare
//! classes are exactly those the engine enumerates one by one — not simply "the values that
//! occur few times": a value can be frequent and still rare, when making it common would block
//! a more frequent one.

use super::{RareCommon, SplitPolicy, Tuning};
use crate::takebreak::values::ValuesRef;
use crate::takebreak::Code;
use crate::Error;
use serde::Serialize;

/// The most positions listed per rare class (the count is always exact).
pub const POSITIONS_LISTED: usize = 20;
/// The most rare classes listed (the most frequent first are not favoured: by value).
pub const CLASSES_LISTED: usize = 200;

/// One class: a value at the heap sizes of one parity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Class {
    pub value: u16,
    /// `even` or `odd`: the parity of the heap sizes.
    pub heaps: &'static str,
    /// How many heap sizes `1..=n` are in the class.
    pub count: u64,
    /// The first heap sizes in the class (at most [`POSITIONS_LISTED`]), ascending. Empty for
    /// common classes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<usize>,
}

/// The rare/common split of `G(1..=n)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RareCommonSplit {
    /// The heap sizes counted: `1..=counted_up_to` (heap 0 takes part in no split).
    pub counted_up_to: usize,
    /// The common classes, by value then parity.
    pub common: Vec<Class>,
    /// How many heap sizes are in a rare class (what the engine enumerates).
    pub rare_positions: u64,
    /// How many rare classes occur.
    pub rare_class_count: usize,
    /// How many distinct values occur in a rare class (the catalogue's "rare values").
    pub rare_values: usize,
    /// The rare classes (at most [`CLASSES_LISTED`]), by value then parity, with the heap
    /// sizes where they occur.
    pub rare: Vec<Class>,
}

fn parity_word(q: usize) -> &'static str {
    if q == 0 {
        "even"
    } else {
        "odd"
    }
}

/// An engine caught up with `values`, for its split only: without the witness search's list
/// of a rare bit's positions (`wide`'s `BitIndex`), which the split does not depend on and
/// which costs up to 6 bytes for one position in 32 — a fifth of a byte per value, on top of
/// the run's own, each time a long run with `--results` summarises a power of two (0.161 to
/// 2^30 peaked at 1.35 bytes per value with it, its values one byte each).
fn split_engine<'a>(code: &Code, values: impl Into<ValuesRef<'a>>) -> Result<RareCommon, Error> {
    let values = values.into();
    let tuning = Tuning {
        bit_index: false,
        ..Tuning::default()
    };
    let mut engine = RareCommon::with_policy(code, SplitPolicy::Frequency, tuning)?;
    match values {
        ValuesRef::U8(g) => engine.catch_up(g),
        ValuesRef::U16(g) => engine.catch_up(g),
        ValuesRef::Split(v) if v.from == 0 => engine.catch_up_odd8(v.head, v.bytes),
        // (a stretch that does not start at heap 0 is not a sequence the engine can follow)
        split @ ValuesRef::Split(_) => engine.catch_up(&split.to_u16()[..]),
    }
    Ok(engine)
}

/// The split of `values = G(0..=n)` of the octal `code` (an error for codes the rare/common
/// engine does not run: a digit of 8 or more).
pub fn rare_common_split<'a>(
    code: &Code,
    values: impl Into<ValuesRef<'a>>,
) -> Result<RareCommonSplit, Error> {
    let values = values.into();
    let engine = split_engine(code, values)?;
    let split = &engine.split;
    let counts = &engine.counts;
    let mut common = Vec::new();
    let mut rare_keys = Vec::new();
    for (key, &count) in counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let (v, q) = ((key / 2) as u16, key & 1);
        if split.is_common(v, q) {
            common.push(Class {
                value: v,
                heaps: parity_word(q),
                count,
                positions: Vec::new(),
            });
        } else {
            rare_keys.push(key);
        }
    }
    let rare_class_count = rare_keys.len();
    rare_keys.truncate(CLASSES_LISTED);
    let mut rare: Vec<Class> = rare_keys
        .iter()
        .map(|&key| Class {
            value: (key / 2) as u16,
            heaps: parity_word(key & 1),
            count: counts[key],
            positions: Vec::new(),
        })
        .collect();
    let slot = |v: u16, q: usize| rare_keys.binary_search(&(2 * v as usize + q)).ok();
    for (i, v) in values.iter().enumerate().skip(1) {
        if let Some(k) = slot(v, i & 1) {
            if rare[k].positions.len() < POSITIONS_LISTED {
                rare[k].positions.push(i);
            }
        }
    }
    Ok(RareCommonSplit {
        counted_up_to: values.len().saturating_sub(1),
        common,
        rare_positions: engine.rare_positions(),
        rare_values: engine.rare_values(),
        rare_class_count,
        rare,
    })
}

/// Every heap size of `1..=n` in a rare class of the engine's split of `values = G(0..=n)`
/// (the split [`rare_common_split`] reports), ascending. An error for codes the rare/common
/// engine does not run.
pub fn rare_heaps<'a>(code: &Code, values: impl Into<ValuesRef<'a>>) -> Result<Vec<usize>, Error> {
    let values = values.into();
    let engine = split_engine(code, values)?;
    let split = &engine.split;
    Ok(values
        .iter()
        .enumerate()
        .skip(1)
        .filter(|&(i, v)| !split.is_common(v, i & 1))
        .map(|(i, _)| i)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::naive;

    fn split_of(code: &str, n: usize) -> (Vec<u16>, RareCommonSplit) {
        let code: Code = code.parse().unwrap();
        let values = naive::sequence(&code, n).unwrap();
        let split = rare_common_split(&code, &values).unwrap();
        (values, split)
    }

    #[test]
    fn the_split_is_the_same_without_the_witness_index() {
        // 0.206 lists its bit 4 from about 2^19 on: run until an engine with the index holds
        // one, then the split's engine (no index) must give the same split and rare heaps
        let code: Code = "0.206".parse().unwrap();
        let mut engine = RareCommon::new(&code).unwrap();
        let mut g: Vec<u16> = Vec::new();
        while engine.bit_index().0.is_none() || g.len() < 600_000 {
            assert!(g.len() < 1 << 21, "0.206 listed no bit by 2^21");
            let v = engine.next_value(&g).unwrap();
            g.push(v);
        }
        let mut full = RareCommon::new(&code).unwrap();
        full.catch_up(&g);
        assert!(full.bit_index().0.is_some() && full.bit_index().1 > 1000);
        let bare = split_engine(&code, &g).unwrap();
        assert_eq!(bare.bit_index(), (None, 0));
        let with_index: Vec<usize> = (1..g.len())
            .filter(|&i| !full.split.is_common(g[i], i & 1))
            .collect();
        assert!(!with_index.is_empty());
        assert_eq!(rare_heaps(&code, &g).unwrap(), with_index);
        assert_eq!(bare.rare_positions(), full.rare_positions());
        assert_eq!(bare.rare_values(), full.rare_values());
        for key in 0..2 * full.span {
            let (v, q) = ((key / 2) as u16, key % 2);
            assert_eq!(
                bare.split.is_common(v, q),
                full.split.is_common(v, q),
                "{v} {q}"
            );
        }
    }

    #[test]
    fn every_position_is_in_one_class_and_the_rare_ones_are_listed() {
        for code in ["0.07", "0.137", "0.16", "0.6", "4.07"] {
            let (values, s) = split_of(code, 2000);
            let common: u64 = s.common.iter().map(|c| c.count).sum();
            let rare: u64 = s.rare.iter().map(|c| c.count).sum();
            assert_eq!(common + s.rare_positions, 2000, "{code}");
            if s.rare_class_count <= CLASSES_LISTED {
                assert_eq!(rare, s.rare_positions, "{code}");
            }
            // positions listed really are in their class, and none is skipped before them
            for c in &s.rare {
                let q = usize::from(c.heaps == "odd");
                let all: Vec<usize> = (1..values.len())
                    .filter(|&i| values[i] == c.value && i % 2 == q)
                    .collect();
                assert_eq!(all.len() as u64, c.count, "{code}");
                assert_eq!(
                    c.positions,
                    all[..all.len().min(POSITIONS_LISTED)],
                    "{code}"
                );
            }
        }
    }

    #[test]
    fn the_split_is_the_one_the_engine_computes_with() {
        // Officers (0.6) computed by the engine itself: the split it ends with is the one
        // reported (the same rare positions, the same common values)
        let code: Code = "0.6".parse().unwrap();
        let mut engine = RareCommon::new(&code).unwrap();
        let mut values = Vec::new();
        for _ in 0..5000 {
            let v = engine.next_value(&values).unwrap();
            values.push(v);
        }
        assert_eq!(values, naive::sequence(&code, 4999).unwrap());
        let (_, s) = split_of("0.6", 4999);
        // the engine has seen G(0..4999) and computed G(4999) from them; feeding it the last
        // value brings it to the state the report reads
        engine.catch_up(&values);
        assert_eq!(engine.rare_positions(), s.rare_positions);
        let parity = |c: &Class| usize::from(c.heaps == "odd");
        assert!(s
            .common
            .iter()
            .all(|c| engine.split.is_common(c.value, parity(c))));
        assert!(s
            .rare
            .iter()
            .all(|c| !engine.split.is_common(c.value, parity(c))));
        assert_eq!(s.rare_class_count, s.rare.len());
        assert!(s.rare_positions > 0 && !s.rare.is_empty());
    }

    #[test]
    fn codes_the_engine_does_not_run_are_refused() {
        let code: Code = "0.F".parse().unwrap();
        assert!(rare_common_split(&code, &[0u16, 1, 2][..]).is_err());
    }
}
