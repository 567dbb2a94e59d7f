//! The general sequence engine: Grundy sequences of every code in CGSuite's notation,
//! including the forms the octal engines cannot represent (repeating suffixes `0.[3]`,
//! `+` / `*` heap counts, qualifiers `!`, `?`, `=` other than Grundy's game `4!.0`).
//!
//! G(n) is the mex, over the options of a heap of n listed by
//! [`Notation::options`](super::notation::Notation::options) (the plain enumeration that is
//! checked against brute force), of the nim-sum of the values of the heaps each option leaves
//! (Sprague–Grundy; splitting paper §1). The work is the total number of options of heaps
//! `0..=n`, counted up front by [`Notation::option_total`] and bounded by [`MAX_OPTIONS`], so a
//! run is refused before it starts rather than running for long.
//!
//! No periodicity theorem is known to cover these forms here, so a period is only *observed*
//! (the existing detector, without certificate).

use super::notation::Notation;
use super::period::{Period, PeriodDetector};
use super::position::{PositionAnalysis, TakeBreakMove};
use crate::{Error, Outcome};

/// The most options (over all heaps `0..=n` together), and the most steps counting them, one
/// run may take: a few seconds in release builds.
pub const MAX_OPTIONS: u128 = 30_000_000;

/// A Grundy sequence computed by the general engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneralSequence {
    /// G(0), ..., G(n).
    pub values: Vec<u16>,
    /// The least period the values support (observed, never certified).
    pub period: Option<Period>,
    /// The largest value.
    pub max_value: u16,
    /// `value_counts[v]` = how many of G(0..=n) equal `v`.
    pub value_counts: Vec<u64>,
    /// How many options were examined.
    pub options: u128,
}

/// G(0..=n) for `notation`, or an error naming the reason when it would take more than
/// [`MAX_OPTIONS`] options (checked before any work) or a value exceeds `u16::MAX`.
pub fn sequence(notation: &Notation, n: u64) -> Result<GeneralSequence, Error> {
    if notation.option_total(n, MAX_OPTIONS).is_none() {
        return Err(Error::TooLarge(format!(
            "too large: the heaps 0..={n} of {notation} have more than {MAX_OPTIONS} options (or digits \
             and heap counts to try) together, which the general engine goes through one by \
             one; choose a smaller n"
        )));
    }
    let len = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_add(1))
        .ok_or_else(|| Error::TooLarge(format!("heap size {n} is too large for this machine")))?;
    let mut values: Vec<u16> = Vec::with_capacity(len);
    let mut seen: Vec<u64> = vec![0; 1 << 16];
    let mut examined: u128 = 0;
    let mut detector = PeriodDetector::new(false, 0);
    for m in 0..=n {
        // Every value is below 2^16, so are nim-sums: 2^16 slots hold them all, marked with
        // the heap they were seen for (no clearing between heaps).
        let stamp = m + 1;
        notation.for_each_option(m, &mut |parts| {
            examined += 1;
            let x = parts
                .iter()
                .fold(0usize, |x, &h| x ^ values[h as usize] as usize);
            seen[x] = stamp;
            Ok(())
        })?;
        let mex = seen.iter().position(|&s| s != stamp).unwrap_or(1 << 16);
        let value = u16::try_from(mex).map_err(|_| super::engine::value_too_large(m as usize))?;
        values.push(value);
        detector.push_from(&values[..]);
    }
    let max_value = values.iter().copied().max().unwrap_or(0);
    let mut value_counts = vec![0u64; max_value as usize + 1];
    for &v in &values {
        value_counts[v as usize] += 1;
    }
    Ok(GeneralSequence {
        values,
        period: detector.status(),
        max_value,
        value_counts,
        options: examined,
    })
}

/// Value, outcome and winning moves of the position `heaps` under `notation`, the sequence
/// computed by [`sequence`] up to the largest heap (and refused as it refuses). A move is
/// winning when it leaves nim-sum 0 (Sprague–Grundy); the options of each heap are those of
/// [`Notation::for_each_option`], listed in its order, at most `max_moves` of them.
pub fn analyse(
    notation: &Notation,
    heaps: &[u32],
    max_moves: usize,
) -> Result<PositionAnalysis, Error> {
    let top = heaps.iter().copied().max().unwrap_or(0);
    let g = sequence(notation, u64::from(top))?.values;
    let heap_values: Vec<u16> = heaps.iter().map(|&h| g[h as usize]).collect();
    let total = heap_values.iter().fold(0u16, |x, &v| x ^ v);
    let mut winning_moves = Vec::new();
    let mut truncated = false;
    if total != 0 {
        for (i, &h) in heaps.iter().enumerate() {
            // The nim-sum an option of heap i must have for the whole to be 0.
            let target = total ^ heap_values[i];
            let mut sorted = Vec::new();
            let full = notation.for_each_option(u64::from(h), &mut |parts| {
                if parts.iter().fold(0u16, |x, &p| x ^ g[p as usize]) != target {
                    return Ok(());
                }
                if winning_moves.len() == max_moves {
                    // Stop the enumeration: the list is full.
                    return Err(Error::TooLarge(String::new()));
                }
                sorted.clear();
                sorted.extend(parts.iter().map(|&p| p as u32));
                sorted.sort_unstable();
                winning_moves.push(TakeBreakMove {
                    heap: i,
                    from: h,
                    removed: i64::from(h) - sorted.iter().map(|&p| i64::from(p)).sum::<i64>(),
                    leaves: sorted.clone(),
                });
                Ok(())
            });
            if full.is_err() {
                truncated = true;
                break;
            }
        }
    }
    Ok(PositionAnalysis {
        heaps: heaps.to_vec(),
        heap_values,
        grundy_value: total,
        outcome: Outcome::from_value(u64::from(total)),
        winning_moves,
        winning_moves_truncated: truncated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::subtraction::{self, SubtractionSet};
    use crate::takebreak::naive::sequence_of;
    use crate::takebreak::Rules;

    fn parse(text: &str) -> Notation {
        Notation::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn general(text: &str, n: u64) -> Vec<u64> {
        sequence(&parse(text), n)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .values
            .into_iter()
            .map(u64::from)
            .collect()
    }

    /// Every partition of `r` into parts at most `max`, largest first (`[]` for `r = 0`).
    fn partitions_of(r: u64, max: u64) -> Vec<Vec<u64>> {
        if r == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for a in (1..=max.min(r)).rev() {
            for mut rest in partitions_of(r - a, a) {
                rest.insert(0, a);
                out.push(rest);
            }
        }
        out
    }

    /// G(0..=n) straight from a rule written as a predicate on (tokens removed, heaps left),
    /// over every partition of what is left: independent of the notation's enumeration.
    fn reference(n: u64, allowed: impl Fn(u64, &[u64]) -> bool) -> Vec<u64> {
        let mut g: Vec<u64> = Vec::new();
        for m in 0..=n {
            let mut seen = Vec::new();
            for k in 0..=m {
                for parts in partitions_of(m - k, m - k) {
                    if allowed(k, &parts) {
                        seen.push(parts.iter().fold(0, |x, &p| x ^ g[p as usize]));
                    }
                }
            }
            g.push((0..).find(|v| !seen.contains(v)).expect("a mex"));
        }
        g
    }

    fn all_equal(p: &[u64]) -> bool {
        p.windows(2).all(|w| w[0] == w[1])
    }

    fn distinct(p: &[u64]) -> bool {
        p.windows(2).all(|w| w[0] != w[1])
    }

    #[test]
    fn repeating_three_is_nim() {
        let g = general("0.[3]", 300);
        assert_eq!(g, (0..=300).collect::<Vec<u64>>());
    }

    #[test]
    fn all_but_two_three_seven_is_that_subtraction_game() {
        let n = 400;
        let set = SubtractionSet::all_but(vec![2, 3, 7]).unwrap();
        let expected = subtraction::sequence(&set, n).unwrap();
        assert_eq!(general("0.3003330[3]", n), expected);
    }

    #[test]
    fn four_unequal_and_four_not_all_equal_are_grundys_game() {
        let n = 300;
        let grundy: Vec<u64> = sequence_of(&Rules::GrundysGame, n as usize)
            .unwrap()
            .into_iter()
            .map(u64::from)
            .collect();
        assert_eq!(general("4!.0", n), grundy);
        // Two heaps that are not all equal are two unequal heaps.
        assert_eq!(general("4?.0", n), grundy);
    }

    #[test]
    fn qualified_and_unbounded_forms_match_the_definition() {
        let n = 22;
        type Rule = fn(u64, &[u64]) -> bool;
        let cases: [(&str, Rule); 9] = [
            ("{2+}.0", |k, p| k == 0 && p.len() >= 2),
            ("4=.0", |k, p| k == 0 && p.len() == 2 && all_equal(p)),
            ("8!.0", |k, p| k == 0 && p.len() == 3 && distinct(p)),
            ("8?.0", |k, p| k == 0 && p.len() == 3 && !all_equal(p)),
            ("{3+}=.0", |k, p| k == 0 && p.len() >= 3 && all_equal(p)),
            ("0.*", |k, _| k == 1),
            ("0.[*]", |k, _| k >= 1),
            ("0.[*!]", |k, p| k >= 1 && distinct(p)),
            ("4?.1[{2+}]", |k, p| {
                (k == 0 && p.len() == 2 && !all_equal(p))
                    || (k == 1 && p.is_empty())
                    || (k >= 2 && p.len() >= 2)
            }),
        ];
        for (code, rule) in cases {
            assert_eq!(general(code, n), reference(n, rule), "{code}");
        }
    }

    /// G(0..=n) for rules that may also add up to `most` tokens: `allowed(k, parts)` with
    /// `k < 0` for adding `-k`, over every partition of what is then there. Independent of the
    /// notation; a rule that leaves a heap as large as the one moved panics here (a heap whose
    /// value is not known yet).
    fn reference_adding(n: u64, most: u64, allowed: impl Fn(i64, &[u64]) -> bool) -> Vec<u64> {
        let mut g: Vec<u64> = Vec::new();
        for m in 0..=n {
            let mut seen = Vec::new();
            let low = if m == 0 { 0 } else { -(most as i64) };
            for k in low..=m as i64 {
                let r = (m as i64 - k) as u64;
                for parts in partitions_of(r, r) {
                    if allowed(k, &parts) {
                        assert!(parts.iter().all(|&p| p < m.max(1)), "{m} -> {parts:?}");
                        seen.push(parts.iter().fold(0, |x, &p| x ^ g[p as usize]));
                    }
                }
            }
            g.push((0..).find(|v| !seen.contains(v)).expect("a mex"));
        }
        g
    }

    #[test]
    fn codes_that_add_tokens_match_the_definition() {
        let n = 24;
        type Rule = fn(i64, &[u64]) -> bool;
        let cases: [(&str, u64, Rule); 7] = [
            ("80.0", 1, |k, p| k == -1 && p.len() == 3),
            ("80.07", 1, |k, p| {
                (k == -1 && p.len() == 3) || (k == 2 && p.len() <= 2)
            }),
            ("{3+}0.6", 1, |k, p| {
                (k == -1 && p.len() >= 3) || (k == 1 && (p.len() == 1 || p.len() == 2))
            }),
            ("8!00.77", 2, |k, p| {
                (k == -2 && p.len() == 3 && distinct(p)) || ((1..=2).contains(&k) && p.len() <= 2)
            }),
            ("{4=+}0.3", 1, |k, p| {
                (k == -1 && p.len() >= 4 && all_equal(p)) || (k == 1 && p.len() <= 1)
            }),
            ("&16;?04.1", 2, |k, p| {
                (k == -2 && p.len() == 4 && !all_equal(p))
                    || (k == 0 && p.len() == 2)
                    || (k == 1 && p.is_empty())
            }),
            ("{4+}80.3", 2, |k, p| {
                (k == -2 && p.len() >= 4) || (k == -1 && p.len() == 3) || (k == 1 && p.len() <= 1)
            }),
        ];
        for (code, most, rule) in cases {
            assert_eq!(general(code, n), reference_adding(n, most, rule), "{code}");
        }
        // Positions: heaps' values by the same sequence, winning moves leave nim-sum 0.
        let p = analyse(&parse("80.0"), &[5, 2], 100).unwrap();
        let g = general("80.0", 5);
        assert_eq!(p.heap_values, [g[5] as u16, g[2] as u16]);
        // its one move adds a token: `removed` is -1 (it was 2^32 - 1, a u32 wrapped)
        assert!(!p.winning_moves.is_empty());
        for m in &p.winning_moves {
            assert_eq!(m.removed, -1, "{m:?}");
            assert_eq!(m.leaves.iter().sum::<u32>(), m.from + 1, "{m:?}");
        }
    }

    #[test]
    fn finite_codes_agree_with_the_engines() {
        for code in ["0.07", "0.137", "4.07", "0.F", "0.8F", "0.&63;7"] {
            let notation = parse(code);
            let expected: Vec<u64> = sequence_of(&notation.to_rules().unwrap(), 200)
                .unwrap()
                .into_iter()
                .map(u64::from)
                .collect();
            assert_eq!(general(code, 200), expected, "{code}");
        }
    }

    #[test]
    fn the_option_count_is_what_the_enumeration_lists() {
        for code in [
            "0.[3]",
            "0.3003330[3]",
            "{2+}.0",
            "4=.0",
            "8!.0",
            "8?.0",
            "0.[*]",
            "0.[*!]",
            "4?.1[{2+}]",
            "0.&63;7",
            "{3+}=.0",
            "80.0",
            "{3+}0.6",
            "8!00.77",
            "{4=+}0.3",
            "&16;?04.1",
            "{4+}80.3",
        ] {
            let notation = parse(code);
            for n in 0..=18u64 {
                let listed: u128 = (0..=n)
                    .map(|m| notation.options(m, usize::MAX).unwrap().len() as u128)
                    .sum();
                assert_eq!(
                    notation.option_total(n, u128::MAX),
                    Some(listed),
                    "{code} n={n}"
                );
            }
        }
    }

    #[test]
    fn too_much_work_is_refused_before_it_starts() {
        let e = sequence(&parse("{2+}.0"), 1000).unwrap_err();
        assert!(matches!(e, Error::TooLarge(_)), "{e}");
        assert!(e.to_string().contains("options"), "{e}");
        // The count stops early: a huge n is refused at once, also when options are rare.
        assert!(sequence(&parse("0.[3]"), u64::MAX / 2).is_err());
        assert!(sequence(&parse("{127}=.0"), u64::MAX / 2).is_err());
        assert!(sequence(&parse("0.[{127}=]"), 1_000_000).is_err());
    }

    #[test]
    fn positions_of_grundys_game_agree_with_the_engines() {
        let rules = Rules::GrundysGame;
        for heaps in [vec![7u32], vec![5, 7, 9], vec![1, 2], vec![20, 13, 4, 4]] {
            let ours = analyse(&parse("4!.0"), &heaps, 1000).unwrap();
            let theirs = crate::takebreak::analyse(&rules, &heaps, 1000).unwrap();
            assert_eq!(ours.heap_values, theirs.heap_values, "{heaps:?}");
            assert_eq!(ours.grundy_value, theirs.grundy_value, "{heaps:?}");
            assert_eq!(ours.outcome, theirs.outcome, "{heaps:?}");
            let key = |m: &TakeBreakMove| (m.heap, m.removed, m.leaves.clone());
            let mut a: Vec<_> = ours.winning_moves.iter().map(key).collect();
            let mut b: Vec<_> = theirs.winning_moves.iter().map(key).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{heaps:?}");
        }
    }

    #[test]
    fn nim_positions_by_the_repeating_code() {
        // 0.[3] is Nim: from 3, 5, 6 (nim-sum 0) no move wins; from 3, 5 one move: 5 -> 3.
        let nim = parse("0.[3]");
        let p = analyse(&nim, &[3, 5, 6], 10).unwrap();
        assert_eq!((p.grundy_value, p.winning_moves.len()), (0, 0));
        let p = analyse(&nim, &[3, 5], 10).unwrap();
        assert_eq!(p.grundy_value, 6);
        let moves: Vec<_> = p
            .winning_moves
            .iter()
            .map(|m| (m.heap, m.removed, m.leaves.clone()))
            .collect();
        assert_eq!(moves, [(1, 2, vec![3])]);
        let p = analyse(&parse("{2+}.0"), &[12, 9], 1).unwrap();
        assert!(p.winning_moves.len() <= 1);
    }

    #[test]
    fn a_repeating_code_reports_an_observed_period_only() {
        // Take one token, or a whole heap of any size: 0, 1, 2, 1, 2, 1, ...
        let s = sequence(&parse("0.3[1]"), 100).unwrap();
        assert_eq!(s.values[..6], [0, 1, 2, 1, 2, 1]);
        let p = s.period.expect("0.3[1] alternates 1, 2 from G(1)");
        assert_eq!((p.preperiod, p.period, p.certified), (1, 2, false));
    }
}
