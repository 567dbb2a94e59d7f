//! Winning moves of common-divisor Nim, read off Theorem 2.4 without exploring positions.
//!
//! ## The derivation
//! Let `P` have value `lambda + 1 > 0`, i.e. `iota(P)` is odd, and let `g = 2^lambda * h`
//! (`h` odd) be the gcd of the heaps. A move subtracts a divisor `d = 2^e * k` of `g`
//! (`e <= lambda`, `k | h`) from a non-zero heap `n_i`; the target `Q` is winning iff
//! `sg(Q) = 0`, i.e. `Q = 0` or `iota(Q)` is even.
//!
//! * `e < lambda`: the new heap has `ord2 = e`, below every other heap, so `lambda(Q) = e`,
//!   `iota(Q) = 1` and `sg(Q) = e + 1 != 0`. Never winning.
//! * `e = lambda` on a heap with `ord2(n_i) > lambda`: the new heap has `ord2 = lambda` and
//!   joins the minimum class: `iota(Q) = iota(P) + 1`, even. **Always winning.**
//! * `e = lambda` on a heap with `ord2(n_i) = lambda`: `n_i - d = 2^lambda (odd - odd)` has a
//!   larger `ord2` (or is 0), so the heap leaves the minimum class.
//!   - If `iota(P) >= 3` the class keeps `iota(P) - 1 >= 2` heaps, an even number.
//!     **Always winning.**
//!   - If `iota(P) = 1` (this is the only heap at `lambda`), the rest decides. Let `M` be the
//!     least `ord2` of the *other* heaps and `c` how many attain it, and `t = ord2(n_i - d)`.
//!     If every other heap is 0 (`M = +inf`), only `Q = 0` wins: `d = n_i`. Otherwise
//!     `t < M` gives `iota(Q) = 1` (losing move), `t = M` gives `iota(Q) = c + 1` and
//!     `t > M` gives `iota(Q) = c`. **Winning iff (`c` odd and `t = M`) or (`c` even and
//!     `t > M`, including `n_i - d = 0`).**
//!
//! So the winning moves are `(i, 2^lambda * k)` for every odd divisor `k` of `g`, on every
//! non-zero heap except, when `iota(P) = 1`, the unique heap at `lambda`, where `k` must pass
//! the test above. Listing all of them needs the divisors of `h` (see [`super::arith`]); one
//! always exists without factoring: `d = 2^lambda` on any heap of the first two kinds, or
//! `d = n_i` when a single heap is non-zero.

use super::arith::{factor_odd, odd_gcd};
use super::theorem::{ord2, Invariants};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// At most this many divisors of the gcd are enumerated (a gcd with more is rare: it needs
/// twenty or more distinct odd prime factors).
pub const DIVISOR_LIMIT: usize = 1 << 20;

/// A move of common-divisor Nim: subtract `divisor` from heap `heap`, leaving `to`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DivisorMove {
    /// Index of the heap, 0-based, in the order the position was given.
    pub heap: usize,
    /// The common divisor subtracted.
    pub divisor: BigUint,
    /// The heap's size after the move.
    pub to: BigUint,
}

/// The winning moves of a position, and how much of the full list they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WinningMoves {
    /// The moves, by heap index and then divisor ascending.
    pub moves: Vec<DivisorMove>,
    /// Whether `moves` is every winning move.
    pub complete: bool,
    /// The number of winning moves, when known (it may exceed `moves.len()`).
    pub count: Option<BigUint>,
    /// Whether the list stopped at the caller's `max_moves`.
    pub truncated: bool,
    /// The gcd of all heaps (0 for the zero position).
    pub gcd: BigUint,
    /// A factor of the gcd's odd part that could not be factored; when present only its
    /// divisors 1 and itself are used, so the list may miss moves.
    pub unfactored: Option<BigUint>,
}

/// How a heap takes part in the winning moves (see the module docs).
enum HeapRole {
    /// 0: cannot move.
    Empty,
    /// Every `d = 2^lambda * k` wins.
    EveryOddMultiple,
    /// The unique heap at `lambda` with other non-zero heaps: `d = 2^lambda * k` wins iff the
    /// new heap's ord2 passes the test.
    Filtered,
    /// The only non-zero heap: `d = n_i` wins, nothing else.
    TakeAll,
}

/// Every winning move of `heaps` (at most `max_moves` of them listed), by the derivation in the
/// module docs. `max_moves` must be at least 1 for an N-position to list a move.
pub fn winning_moves(heaps: &[BigUint], max_moves: usize) -> WinningMoves {
    let ord2s: Vec<Option<u64>> = heaps.iter().map(ord2).collect();
    let invariants = Invariants::from_ord2s(ord2s.iter().copied());
    let odd = odd_gcd(heaps);
    let gcd = match (&odd, invariants.lambda) {
        (Some(h), Some(l)) => h << l,
        _ => BigUint::zero(),
    };
    let mut result = WinningMoves {
        moves: Vec::new(),
        complete: true,
        count: Some(BigUint::zero()),
        truncated: false,
        gcd,
        unfactored: None,
    };
    let (Some(lambda), Some(h)) = (invariants.lambda, odd) else {
        return result; // the zero position: no move at all
    };
    if invariants.iota % 2 == 0 {
        return result; // value 0: no winning move
    }

    // M and c for the unique heap at lambda (only used when iota = 1)
    let mut others = Invariants::from_ord2s(ord2s.iter().filter(|o| **o != Some(lambda)).copied());
    if invariants.iota > 1 {
        others = Invariants {
            lambda: None,
            iota: 0,
        };
    }
    let nonzero = ord2s.iter().filter(|o| o.is_some()).count();
    let role = |o: Option<u64>| match o {
        None => HeapRole::Empty,
        Some(x) if x > lambda || invariants.iota >= 3 => HeapRole::EveryOddMultiple,
        Some(_) if nonzero == 1 => HeapRole::TakeAll,
        Some(_) => HeapRole::Filtered,
    };

    if nonzero == 1 {
        // P = one non-zero heap n: only taking it all reaches value 0 (sg(n) = ord2(n) + 1 > 0
        // for every n > 0), and no factoring is needed to say so.
        let i = ord2s
            .iter()
            .position(|o| o.is_some())
            .expect("one non-zero heap");
        result.count = Some(BigUint::one());
        result.moves.push(DivisorMove {
            heap: i,
            divisor: heaps[i].clone(),
            to: BigUint::zero(),
        });
        return result;
    }

    let factorization = factor_odd(&h);
    let (odd_divisors, all_divisors) = factorization.divisors(DIVISOR_LIMIT);
    let divisors: Vec<BigUint> = odd_divisors.iter().map(|k| k << lambda).collect();
    result.unfactored = factorization.unfactored.clone();

    // the Filtered heap's winning divisors, as indices into `divisors`
    let passes = |n: &BigUint, d: &BigUint| -> bool {
        let (Some(m), c) = (others.lambda, others.iota) else {
            unreachable!("a Filtered heap has other non-zero heaps")
        };
        let t = ord2(&(n - d));
        if c % 2 == 1 {
            t == Some(m)
        } else {
            t.map_or(true, |t| t > m)
        }
    };
    let mut filtered: Vec<usize> = Vec::new();
    let mut every = 0usize; // heaps whose every odd multiple wins
    for (i, &o) in ord2s.iter().enumerate() {
        match role(o) {
            HeapRole::EveryOddMultiple => every += 1,
            HeapRole::Filtered => {
                filtered = (0..divisors.len())
                    .filter(|&j| passes(&heaps[i], &divisors[j]))
                    .collect()
            }
            HeapRole::Empty | HeapRole::TakeAll => {}
        }
    }

    'heaps: for (i, &o) in ord2s.iter().enumerate() {
        let chosen: Box<dyn Iterator<Item = usize>> = match role(o) {
            HeapRole::EveryOddMultiple => Box::new(0..divisors.len()),
            HeapRole::Filtered => Box::new(filtered.iter().copied()),
            HeapRole::Empty | HeapRole::TakeAll => continue,
        };
        for j in chosen {
            if result.moves.len() >= max_moves {
                result.truncated = true;
                break 'heaps;
            }
            result.moves.push(DivisorMove {
                heap: i,
                divisor: divisors[j].clone(),
                to: &heaps[i] - &divisors[j],
            });
        }
    }

    let exact = factorization.is_complete() && all_divisors;
    result.complete = exact && !result.truncated;
    result.count = if exact {
        Some(factorization.divisor_count() * every + filtered.len())
    } else {
        None
    };
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cdnim::rules::{legal_moves, CommonDivisorNim};
    use crate::games::cdnim::small_positions;
    use crate::games::cdnim::theorem::grundy_value;
    use crate::NormalPlay;
    use num_traits::ToPrimitive;

    fn big(v: &[u64]) -> Vec<BigUint> {
        v.iter().map(|&x| x.into()).collect()
    }

    fn as_pairs(w: &WinningMoves) -> Vec<(usize, u64)> {
        w.moves
            .iter()
            .map(|m| (m.heap, m.divisor.to_u64().unwrap()))
            .collect()
    }

    /// Every (heap, divisor) whose target has value 0, by the generic evaluator.
    fn brute_force_winning(
        solver: &mut NormalPlay<CommonDivisorNim>,
        p: &[u64],
    ) -> Vec<(usize, u64)> {
        legal_moves(p)
            .into_iter()
            .filter(|&(i, d)| {
                let mut q = p.to_vec();
                q[i] -= d;
                solver
                    .grundy_value(&CommonDivisorNim::position(&q))
                    .unwrap()
                    == 0
            })
            .collect()
    }

    /// The closed-form list equals the brute-force list exactly, on every position with m = 1
    /// (heaps < 200), m = 2 (< 40), m = 3 (< 14), m = 4 (< 8).
    #[test]
    fn winning_moves_equal_brute_force_on_all_small_positions() {
        let mut solver = NormalPlay::new(CommonDivisorNim);
        for (m, bound) in [(1, 200), (2, 40), (3, 14), (4, 8)] {
            for p in small_positions(m, bound) {
                let w = winning_moves(&big(&p), usize::MAX);
                assert!(w.complete, "{p:?}");
                let expected = brute_force_winning(&mut solver, &p);
                assert_eq!(as_pairs(&w), expected, "{p:?}");
                assert_eq!(w.count, Some(BigUint::from(expected.len())), "{p:?}");
                for mv in &w.moves {
                    assert_eq!(mv.to, BigUint::from(p[mv.heap]) - &mv.divisor);
                }
                // a winning move exists exactly at N-positions (Theorem 1.11)
                let value = solver
                    .grundy_value(&CommonDivisorNim::position(&p))
                    .unwrap();
                assert_eq!(expected.is_empty(), value == 0, "{p:?}");
                assert_eq!(
                    w.gcd,
                    BigUint::from(crate::games::cdnim::rules::gcd_of_heaps(&p))
                );
            }
        }
    }

    #[test]
    fn the_papers_position_6_3_2() {
        let w = winning_moves(&big(&[6, 3, 2]), 100);
        assert_eq!(as_pairs(&w), vec![(0, 1), (2, 1)]);
        assert_eq!(w.moves[0].to, BigUint::from(5u32));
        assert_eq!(w.moves[1].to, BigUint::from(1u32));
        // Example 2.5: from (1, 2) the only winning move is to (1, 1), of value 0
        assert_eq!(as_pairs(&winning_moves(&big(&[1, 2]), 100)), vec![(1, 1)]);
    }

    /// Applies a move and checks its target has value 0 by Theorem 2.4.
    fn assert_all_win(heaps: &[BigUint], w: &WinningMoves) {
        let mut q = heaps.to_vec();
        for m in &w.moves {
            assert!((&w.gcd % &m.divisor).is_zero());
            assert_eq!(&heaps[m.heap] - &m.divisor, m.to);
            q[m.heap] = m.to.clone();
            assert_eq!(grundy_value(&q), 0, "heap {} d {}", m.heap, m.divisor);
            q[m.heap] = heaps[m.heap].clone();
        }
    }

    #[test]
    fn huge_heaps_with_a_factorable_gcd() {
        // gcd = 2^3 * 3^4 * 5 * 7 * (2^61 - 1), times distinct cofactors with varying ord2
        let p61 = BigUint::from((1u64 << 61) - 1);
        let g = BigUint::from(8u32 * 81 * 5 * 7) * &p61;
        let heaps: Vec<BigUint> = [1u32, 2, 4, 11, 13 * 8].iter().map(|&c| &g * c).collect();
        // ord2 = 3, 4, 5, 3, 6: lambda = 3, iota = 2 -> value 0, no moves
        let w = winning_moves(&heaps, usize::MAX);
        assert!(w.moves.is_empty() && w.complete);
        let heaps = heaps[1..].to_vec(); // ord2 = 4, 5, 3, 6: iota = 1, M = 4, c = 1
        let w = winning_moves(&heaps, usize::MAX);
        assert!(w.complete);
        assert_eq!(w.gcd, g);
        assert_all_win(&heaps, &w);
        let divisors = 5 * 2 * 2 * 2; // odd divisors of the gcd
        assert!(w.moves.len() >= 3 * divisors);
        assert_eq!(w.count, Some(BigUint::from(w.moves.len())));
        // capped listing keeps the order and the count
        let few = winning_moves(&heaps, 7);
        assert_eq!(few.moves[..], w.moves[..7]);
        assert!(few.truncated && !few.complete);
        assert_eq!(few.count, w.count);
    }

    #[test]
    fn an_unfactorable_gcd_still_gives_winning_moves() {
        let m89: BigUint = (BigUint::one() << 89) - 1u32;
        let m127: BigUint = (BigUint::one() << 127) - 1u32;
        let g = &m89 * &m127 * 3u32 * 4u32; // ord2 2; the odd cofactor m89 * m127 is unproven
        for cofactors in [[1u32, 2, 4], [1, 1, 1], [1, 3, 5]] {
            let heaps: Vec<BigUint> = cofactors.iter().map(|&c| &g * c).collect();
            let w = winning_moves(&heaps, usize::MAX);
            assert!(!w.moves.is_empty(), "{cofactors:?}");
            assert!(!w.complete);
            assert_eq!(w.count, None);
            assert_eq!(w.unfactored, Some(&m89 * &m127));
            assert_all_win(&heaps, &w);
        }
    }

    #[test]
    fn zeros_and_single_heaps() {
        let w = winning_moves(&big(&[0, 0, 0]), 10);
        assert!(w.moves.is_empty() && w.complete && w.gcd.is_zero());
        let w = winning_moves(&big(&[0, 24, 0]), 10);
        assert_eq!(as_pairs(&w), vec![(1, 24)]);
        // a single huge heap: take it all, no factoring needed
        let huge = (BigUint::one() << 4000) * ((BigUint::one() << 127) - 1u32);
        let w = winning_moves(std::slice::from_ref(&huge), 10);
        assert!(w.complete);
        assert_eq!(w.moves[0].divisor, huge);
    }
}
