//! Li's mod-m sum and the closed forms for m-player Nim (multiplayer paper §3–§4).
//!
//! - Def. 3.1: `oplus_m(n1, ..., nk)` writes every heap in binary, adds each bit column
//!   modulo `m`, and reads the column sums as the digits of a base-`m` number (column `t` is
//!   the digit of `m^t`). `oplus_2` is the nim-sum.
//! - Thm 3.1 (Li): under Li's ranking the previous player (the m-th) is the last mover iff
//!   `oplus_m = 0`.
//! - Thm 4.2: under `GAMES(i, i+1, ..., m-1, 0, ..., i-1)` a Nim position is an
//!   `(i-1)`-position (an `(m-1)`-position when `i = 0`) iff `oplus_m = 0` when some heap
//!   exceeds 1, or `oplus_m = i` when every heap is at most 1. With `m = 2, i = 1` this is
//!   misère Nim (Thm 2.3); with `i = 0` it is Thm 3.1.
//! - Thm 4.3: under `GAMES(i, i-1, ..., 0, m-1, ..., i+1)`, for any heaps `n1..n_{k-1}`
//!   exactly one `n_k` makes the position an `(i-1)`-position. [`completions`] lists the
//!   `n_k` of a finite range that do, so a check can see "exactly one".
//!
//! Heaps in the closed forms are arbitrary-precision.

use super::reading::LastMover;
use crate::games::nim::Nim;
use crate::solve::Solver;
use crate::Error;
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Li's `oplus_m` (Def. 3.1): bitwise sum modulo `m`, read in base `m`. `m` must be at least 2.
pub fn oplus_m(heaps: &[BigUint], m: u32) -> BigUint {
    assert!(m >= 2, "oplus_m needs m >= 2");
    let bits = heaps.iter().map(BigUint::bits).max().unwrap_or(0);
    // Horner from the top column down: value = value * m + digit.
    let mut value = BigUint::zero();
    for t in (0..bits).rev() {
        let ones = heaps.iter().filter(|h| h.bit(t)).count() as u64;
        value = value * m + (ones % u64::from(m));
    }
    value
}

/// The offset `(i-1) mod m` named by Thm 4.2 for the profile `GAMES(i, i+1, ..., i-1)`.
pub fn thm_4_2_offset(m: usize, i: usize) -> usize {
    (i + m - 1) % m
}

/// Thm 4.2's closed form: whether a Nim position is an `(i-1)`-position under
/// `GAMES(i, i+1, ..., m-1, 0, ..., i-1)` (`(m-1)`-position when `i = 0`).
pub fn thm_4_2_is_target(heaps: &[BigUint], m: u32, i: u32) -> bool {
    let one = BigUint::one();
    let sum = oplus_m(heaps, m);
    if heaps.iter().any(|h| *h > one) {
        sum.is_zero()
    } else {
        sum == BigUint::from(i)
    }
}

/// Thm 3.1 (Li): whether the previous player (the m-th) is the last mover under Li's ranking
/// `GAMES(0, 1, ..., m-1)`, i.e. the position is an `(m-1)`-position.
pub fn li_previous_player_wins(heaps: &[BigUint], m: u32) -> bool {
    oplus_m(heaps, m).is_zero()
}

/// The finite range of `n_k` searched for Thm 4.3: `0 ..= sum(prefix) + 2m`.
///
/// The theorem speaks of all naturals; a check can only search a finite range. In every case
/// we searched (m = 2..5, prefixes of up to 3 heaps) the unique `n_k` was at most
/// `sum(prefix) + m - 1`, so this range leaves a margin of `m + 1` above it.
pub fn completion_range(prefix: &[u64], m: usize) -> std::ops::Range<u64> {
    // Saturating: a prefix near u64::MAX gives a range ending at u64::MAX rather than a
    // wrapped-around (wrong) one; such a range is far beyond what a check can search anyway.
    let sum = prefix.iter().fold(0u64, |a, &x| a.saturating_add(x));
    0..sum.saturating_add(2 * m as u64 + 1)
}

/// Every `n_k` in `range` for which the Nim position `prefix + (n_k)` has position offset
/// `offset` under the solver's profile (player 0 to move) — for Thm 4.3, where exactly one
/// `n_k` over all naturals must give `offset = i - 1`.
pub fn completions(
    solver: &mut Solver<Nim, LastMover>,
    prefix: &[u64],
    range: std::ops::Range<u64>,
    offset: usize,
) -> Result<Vec<u64>, Error> {
    let mut found = Vec::new();
    let mut heaps = prefix.to_vec();
    heaps.push(0);
    for n in range {
        *heaps.last_mut().expect("non-empty") = n;
        if solver.position_offset(&Nim::position(&heaps), 0)? == offset {
            found.push(n);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::super::prefs::Preferences;
    use super::super::tests_support::sorted_tuples;
    use super::*;
    use crate::games::nim::nim;
    use crate::Outcome;
    use proptest::prelude::*;

    fn big(v: &[u64]) -> Vec<BigUint> {
        v.iter().map(|&x| BigUint::from(x)).collect()
    }

    #[test]
    fn completion_range_does_not_wrap() {
        assert_eq!(completion_range(&[2, 3], 3), 0..12);
        assert_eq!(completion_range(&[u64::MAX, 1], 3).end, u64::MAX);
    }

    #[test]
    fn oplus_m_by_hand() {
        // 2 = 10b, 3 = 11b: columns (bit 1: 2 ones, bit 0: 1 one).
        assert_eq!(oplus_m(&big(&[2, 3]), 3), BigUint::from(2u32 * 3 + 1));
        assert_eq!(oplus_m(&big(&[2, 2, 2]), 3), BigUint::zero());
        assert_eq!(oplus_m(&big(&[2, 2, 1, 1, 3]), 3), BigUint::zero());
        assert_eq!(oplus_m(&big(&[1, 3]), 3), BigUint::from(3u32 + 2)); // digits 1, 2
        assert_eq!(oplus_m(&big(&[]), 4), BigUint::zero());
        assert_eq!(oplus_m(&big(&[5, 5, 5, 5]), 4), BigUint::zero());
        assert_eq!(oplus_m(&big(&[5, 4]), 4), BigUint::from(2u32 * 16 + 1));
    }

    proptest! {
        #[test]
        fn oplus_2_is_the_nim_sum(v in proptest::collection::vec(any::<u64>(), 0..6)) {
            let x = v.iter().fold(0u64, |a, b| a ^ b);
            prop_assert_eq!(oplus_m(&big(&v), 2), BigUint::from(x));
        }

        #[test]
        fn oplus_m_digits_are_column_sums(v in proptest::collection::vec(0u64..1 << 20, 0..6), m in 2u32..7) {
            let mut value = oplus_m(&big(&v), m);
            for t in 0..21 {
                let ones = v.iter().filter(|&&h| h >> t & 1 == 1).count() as u32;
                let digit = &value % m;
                prop_assert_eq!(digit, BigUint::from(ones % m));
                value /= m;
            }
            prop_assert!(value.is_zero());
        }

        /// Thm 4.2 against the evaluator on random positions, up to 5 players; the heaps mix
        /// a few large ones with many 0s and 1s so both cases of the theorem come up.
        #[test]
        fn thm_4_2_on_random_positions(
            m in 2usize..=5,
            i in 0usize..5,
            large in proptest::collection::vec(0u64..12, 0..3),
            small in proptest::collection::vec(0u64..2, 0..7),
        ) {
            let i = i % m;
            let heaps: Vec<u64> = large.iter().chain(&small).copied().collect();
            let mut solver = Solver::multiplayer(nim(), Preferences::rotation(m, i).unwrap());
            let offset = solver.position_offset(&Nim::position(&heaps), 0).unwrap();
            prop_assert_eq!(
                offset == thm_4_2_offset(m, i),
                thm_4_2_is_target(&big(&heaps), m as u32, i as u32),
                "m={} i={} {:?}", m, i, heaps
            );
        }
    }

    #[test]
    fn section_5_example_under_games_0_1_2() {
        let mut solver = Solver::multiplayer(nim(), Preferences::games(&[0, 1, 2]).unwrap());
        let mut offset = |h: &[u64]| solver.position_offset(&Nim::position(h), 0).unwrap();
        assert_eq!(offset(&[2, 2, 2]), 2);
        assert_eq!(offset(&[1, 3]), 1);
        assert_eq!(offset(&[2, 2, 2, 1, 3]), 0);
        // The paper's move: (2,2,2,1,3) -> (2,2,1,1,3), a 2-position with oplus_3 = 0.
        assert_eq!(offset(&[2, 2, 1, 1, 3]), 2);
    }

    /// Thm 4.2 for every i against the evaluator, on every position of `heaps` heaps < `max`.
    fn check_thm_4_2(m: usize, heaps: usize, max: u64) {
        for i in 0..m {
            let mut solver = Solver::multiplayer(nim(), Preferences::rotation(m, i).unwrap());
            let target = thm_4_2_offset(m, i);
            for pos in sorted_tuples(heaps, max) {
                let is_target = solver.position_offset(&pos, 0).unwrap() == target;
                assert_eq!(
                    is_target,
                    thm_4_2_is_target(&big(&pos), m as u32, i as u32),
                    "m={m} i={i} {pos:?}"
                );
            }
        }
    }

    #[test]
    fn thm_4_2_for_two_to_four_players() {
        check_thm_4_2(2, 4, 9);
        check_thm_4_2(3, 4, 8);
        check_thm_4_2(4, 4, 7);
        check_thm_4_2(3, 6, 3); // many heaps <= 2: the "all heaps <= 1" case and its edge
        check_thm_4_2(4, 7, 2);
    }

    #[test]
    fn thm_3_1_is_thm_4_2_with_i_0() {
        for m in 2..=4usize {
            let mut solver = Solver::multiplayer(nim(), Preferences::li(m).unwrap());
            for pos in sorted_tuples(3, 8) {
                let previous = solver.last_mover(&pos, 0).unwrap() == m - 1;
                assert_eq!(
                    previous,
                    li_previous_player_wins(&big(&pos), m as u32),
                    "{pos:?}"
                );
            }
        }
    }

    #[test]
    fn games_1_0_is_misere_play() {
        let mut multi = Solver::multiplayer(nim(), Preferences::misere());
        let mut misere = Solver::misere(nim());
        for pos in sorted_tuples(4, 9) {
            // A 0-position: the player to move makes the last move, i.e. loses at misère.
            let mover_moves_last = multi.position_offset(&pos, 0).unwrap() == 0;
            let mover_loses = misere.value(&pos).unwrap() == Outcome::P;
            assert_eq!(mover_moves_last, mover_loses, "{pos:?}");
        }
    }

    #[test]
    fn thm_4_3_exactly_one_completion() {
        for m in 2..=4usize {
            for i in 0..m {
                let mut solver = Solver::multiplayer(nim(), Preferences::descending(m, i).unwrap());
                let offset = thm_4_2_offset(m, i);
                for prefix in sorted_tuples(2, 7) {
                    let range = completion_range(&prefix, m);
                    let found = completions(&mut solver, &prefix, range, offset).unwrap();
                    assert_eq!(found.len(), 1, "m={m} i={i} {prefix:?}: {found:?}");
                }
            }
        }
    }
}
