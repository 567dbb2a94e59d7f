//! Nim: from one heap take any positive number of tokens.
//!
//! Closed forms (primer paper §1; multiplayer paper Thm 2.3 for misère):
//! - the value of a position is the nim-sum of its heaps;
//! - from value `g` there is a move to every `h < g`, and exactly the moves that take a heap
//!   whose bit at the top bit of `g xor h` is set to `heap xor g xor h`;
//! - misère: if some heap exceeds 1, the previous player wins iff the nim-sum is 0; if every
//!   heap is at most 1, iff the nim-sum is 1.
//!
//! Heaps in the closed forms are arbitrary-precision ([`BigUint`]).

use super::heaps::{HeapMove, HeapRule, Heaps};
use crate::Outcome;
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// The Nim heap rule: a heap of `n` can become any smaller heap.
#[derive(Debug, Clone, Copy, Default)]
pub struct NimRule;

impl HeapRule for NimRule {
    fn heap_options(&self, n: u64, out: &mut Vec<u64>) {
        out.extend(0..n);
    }
}

/// Nim as a game for the generic evaluators (heaps as machine integers).
pub type Nim = Heaps<NimRule>;

/// The Nim game.
pub fn nim() -> Nim {
    Heaps(NimRule)
}

/// The nim-sum of the heaps: the Grundy value of the Nim position.
pub fn nim_value(heaps: &[BigUint]) -> BigUint {
    heaps.iter().fold(BigUint::zero(), |acc, h| acc ^ h)
}

/// Every move from `heaps` to a position of value `target`. Empty when `target == value` (no
/// move keeps the value). Nim can also move to some values above `value`; those are listed too.
///
/// For `target < value` the list is complete: a heap `n` can reach value `target` only by
/// becoming `n xor value xor target`, which is a legal (smaller) heap exactly when `n` has the
/// top bit of `value xor target` set.
pub fn moves_to(heaps: &[BigUint], target: &BigUint) -> Vec<HeapMove<BigUint>> {
    let value = nim_value(heaps);
    let delta = &value ^ target;
    if delta.is_zero() {
        return Vec::new();
    }
    heaps
        .iter()
        .enumerate()
        .filter_map(|(i, n)| {
            let to = n ^ &delta;
            (to < *n).then(|| HeapMove {
                heap: i,
                from: n.clone(),
                to,
            })
        })
        .collect()
}

/// Every normal-play winning move (moves to value 0).
pub fn winning_moves(heaps: &[BigUint]) -> Vec<HeapMove<BigUint>> {
    moves_to(heaps, &BigUint::zero())
}

/// Misère outcome by Thm 2.3 of the multiplayer paper.
pub fn misere_outcome(heaps: &[BigUint]) -> Outcome {
    let one = BigUint::one();
    let x = nim_value(heaps);
    let big = heaps.iter().any(|h| *h > one);
    let previous_wins = if big { x.is_zero() } else { x == one };
    if previous_wins {
        Outcome::P
    } else {
        Outcome::N
    }
}

/// Every misère winning move: moves to misère P-positions. For each heap at most three targets
/// can work (the normal-play answer, 0 or 1), so this is exact without enumerating moves.
pub fn misere_winning_moves(heaps: &[BigUint]) -> Vec<HeapMove<BigUint>> {
    let x = nim_value(heaps);
    let mut moves = Vec::new();
    let mut heaps_after = heaps.to_vec();
    for (i, n) in heaps.iter().enumerate() {
        let mut candidates = vec![n ^ &x, BigUint::zero(), BigUint::one()];
        candidates.sort();
        candidates.dedup();
        for to in candidates {
            if to >= *n {
                continue;
            }
            heaps_after[i] = to.clone();
            if misere_outcome(&heaps_after) == Outcome::P {
                moves.push(HeapMove {
                    heap: i,
                    from: n.clone(),
                    to,
                });
            }
        }
        heaps_after[i] = n.clone();
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Solver;
    use crate::NormalPlay;

    fn big(v: &[u64]) -> Vec<BigUint> {
        v.iter().map(|&x| BigUint::from(x)).collect()
    }

    /// Every position with up to 4 heaps below 8 (as sorted multisets).
    fn small_positions() -> Vec<Vec<u64>> {
        let mut all = vec![vec![]];
        let mut frontier = vec![vec![]];
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in &frontier {
                let lo = p.last().copied().unwrap_or(0);
                for h in lo..8 {
                    let mut q: Vec<u64> = p.clone();
                    q.push(h);
                    next.push(q);
                }
            }
            all.extend(next.iter().cloned());
            frontier = next;
        }
        all
    }

    #[test]
    fn closed_form_matches_brute_force() {
        let mut solver = NormalPlay::new(nim());
        let mut misere = Solver::misere(nim());
        for p in small_positions() {
            let v = solver.grundy_value(&p).unwrap();
            assert_eq!(BigUint::from(v), nim_value(&big(&p)), "{p:?}");
            assert_eq!(misere.value(&p).unwrap(), misere_outcome(&big(&p)), "{p:?}");
        }
    }

    #[test]
    fn a_move_to_every_smaller_value_and_none_to_the_value() {
        let mut solver = NormalPlay::new(nim());
        for p in small_positions() {
            let g = solver.grundy_value(&p).unwrap();
            for h in 0..=g + 2 {
                let closed = moves_to(&big(&p), &BigUint::from(h));
                let brute = solver.heap_moves_to(&p, h).unwrap();
                assert_eq!(closed.len(), brute.len(), "{p:?} -> {h}");
                if h < g {
                    assert!(!closed.is_empty(), "{p:?}: no move to {h}");
                }
                if h == g {
                    assert!(closed.is_empty());
                }
                for m in &closed {
                    let mut q = p.clone();
                    let to: u64 = m.to.clone().try_into().unwrap();
                    q[m.heap] = to;
                    assert_eq!(solver.grundy_value(&Nim::position(&q)).unwrap(), h);
                }
            }
        }
    }

    #[test]
    fn misere_winning_moves_match_brute_force() {
        let mut misere = Solver::misere(nim());
        for p in small_positions() {
            let closed = misere_winning_moves(&big(&p));
            let mut expected = 0;
            for (i, &n) in p.iter().enumerate() {
                for to in 0..n {
                    let mut q = p.clone();
                    q[i] = to;
                    if misere.value(&Nim::position(&q)).unwrap() == Outcome::P {
                        expected += 1;
                        assert!(closed
                            .iter()
                            .any(|m| m.heap == i && m.to == BigUint::from(to)));
                    }
                }
            }
            assert_eq!(closed.len(), expected, "{p:?}");
        }
    }

    #[test]
    fn forty_digit_heaps() {
        let a: BigUint = "1234567890123456789012345678901234567890".parse().unwrap();
        let b: BigUint = "987654321098765432109876543210".parse().unwrap();
        let heaps = vec![a.clone(), b.clone()];
        let moves = winning_moves(&heaps);
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].to, b);
    }

    #[test]
    fn million_deep_chain_does_not_overflow() {
        use crate::games::subtraction::{SubtractionRule, SubtractionSet};
        let g = Heaps(SubtractionRule::new(
            SubtractionSet::finite(vec![1]).unwrap(),
        ));
        let v = NormalPlay::new(g).grundy_value(&vec![1_000_000]).unwrap();
        assert_eq!(v, 0);
    }
}
