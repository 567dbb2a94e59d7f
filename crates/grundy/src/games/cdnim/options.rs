//! Every option of a position (the paper's N(P), Definition 2.1) with its value by Theorem 2.4.
//!
//! Why not ask the evaluator: positions may have heaps of any size. The options are
//! `(i, d)` for every non-zero heap `i` and every divisor `d = 2^e * k` of the gcd
//! `g = 2^lambda * h` (`e <= lambda`, `k | h`); each option's value follows from Theorem 2.4 with
//! a [`ValuationProfile`] in O(1), since only one heap's ord2 changes.

use super::arith::{factor_odd, odd_gcd};
use super::moves::{DivisorMove, DIVISOR_LIMIT};
use super::theorem::{ord2, ValuationProfile};
use crate::Nimber;
use num_bigint::BigUint;
use num_traits::Zero;

/// The options of a position, each with its Grundy value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// (move, value of the position it reaches), by heap index and then divisor ascending.
    pub options: Vec<(DivisorMove, Nimber)>,
    /// Whether `options` is every option.
    pub complete: bool,
    /// How many options there are, when known.
    pub count: Option<BigUint>,
    /// Whether the list stopped at the caller's `max_options`.
    pub truncated: bool,
}

/// Every option of `heaps` with its value (at most `max_options` listed).
pub fn options(heaps: &[BigUint], max_options: usize) -> Options {
    let ord2s: Vec<Option<u64>> = heaps.iter().map(ord2).collect();
    let mut result = Options {
        options: Vec::new(),
        complete: true,
        count: Some(BigUint::zero()),
        truncated: false,
    };
    let Some(h) = odd_gcd(heaps) else {
        return result; // the zero position is terminal
    };
    let profile = ValuationProfile::from_ord2s(ord2s.iter().copied());
    let lambda = profile.invariants().lambda.expect("a non-zero heap");
    let factorization = factor_odd(&h);
    let (odd_divisors, all_odd) = factorization.divisors(DIVISOR_LIMIT);
    let divisors = smallest_divisors(&odd_divisors, lambda, max_options.min(DIVISOR_LIMIT));
    let all = all_odd
        && BigUint::from(divisors.len()) == BigUint::from(odd_divisors.len()) * (lambda + 1);

    let nonzero = ord2s.iter().filter(|o| o.is_some()).count();
    'heaps: for (i, n) in heaps.iter().enumerate() {
        if n.is_zero() {
            continue;
        }
        for d in &divisors {
            if result.options.len() >= max_options {
                result.truncated = true;
                break 'heaps;
            }
            let to = n - d;
            let value = profile.after_replacing(ord2s[i], ord2(&to)).grundy_value();
            result.options.push((
                DivisorMove {
                    heap: i,
                    divisor: d.clone(),
                    to,
                },
                value,
            ));
        }
    }
    result.complete = all && !result.truncated;
    result.count = factorization
        .is_complete()
        .then(|| factorization.divisor_count() * (lambda + 1) * nonzero);
    result
}

/// The `limit` smallest numbers `2^e * k` (`0 <= e <= lambda`, `k` in `odd_divisors`),
/// ascending: a merge of one ascending stream per `k`, so a heap like `2^100000` costs
/// `limit` numbers, not `lambda + 1`.
fn smallest_divisors(odd_divisors: &[BigUint], lambda: u64, limit: usize) -> Vec<BigUint> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut frontier: BinaryHeap<Reverse<(BigUint, usize, u64)>> = odd_divisors
        .iter()
        .enumerate()
        .map(|(i, k)| Reverse((k.clone(), i, 0)))
        .collect();
    let mut out = Vec::new();
    while out.len() < limit {
        let Some(Reverse((d, i, e))) = frontier.pop() else {
            break;
        };
        if e < lambda {
            frontier.push(Reverse((&d << 1u32, i, e + 1)));
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cdnim::rules::{legal_moves, CommonDivisorNim};
    use crate::games::cdnim::{small_positions, winning_moves};
    use crate::NormalPlay;
    use num_traits::ToPrimitive;

    /// Every option and its value equal the rules' option list and the evaluator's values on
    /// every position with m = 1 (heaps < 200), m = 2 (< 40), m = 3 (< 14), m = 4 (< 8).
    #[test]
    fn options_and_values_equal_brute_force() {
        let mut solver = NormalPlay::new(CommonDivisorNim);
        for (m, bound) in [(1, 200), (2, 40), (3, 14), (4, 8)] {
            for p in small_positions(m, bound) {
                let heaps: Vec<BigUint> = p.iter().map(|&x| x.into()).collect();
                let listed = options(&heaps, usize::MAX);
                assert!(listed.complete);
                let got: Vec<(usize, u64, u64, Nimber)> = listed
                    .options
                    .iter()
                    .map(|(mv, v)| {
                        (
                            mv.heap,
                            mv.divisor.to_u64().unwrap(),
                            mv.to.to_u64().unwrap(),
                            *v,
                        )
                    })
                    .collect();
                let expected: Vec<(usize, u64, u64, Nimber)> = legal_moves(&p)
                    .into_iter()
                    .map(|(i, d)| {
                        let mut q = p.clone();
                        q[i] -= d;
                        let v = solver
                            .grundy_value(&CommonDivisorNim::position(&q))
                            .unwrap();
                        (i, d, q[i], v)
                    })
                    .collect();
                assert_eq!(got, expected, "{p:?}");
                assert_eq!(listed.count, Some(BigUint::from(expected.len())));
                // the winning moves are exactly the options of value 0
                let zero: Vec<&DivisorMove> = listed
                    .options
                    .iter()
                    .filter(|(_, v)| *v == 0)
                    .map(|(mv, _)| mv)
                    .collect();
                let winning = winning_moves(&heaps, usize::MAX);
                assert_eq!(zero, winning.moves.iter().collect::<Vec<_>>(), "{p:?}");
            }
        }
    }

    #[test]
    fn example_2_2() {
        let heaps: Vec<BigUint> = [6u32, 3, 2].iter().map(|&x| x.into()).collect();
        let listed = options(&heaps, 100);
        let tos: Vec<(usize, u64)> = listed
            .options
            .iter()
            .map(|(mv, _)| (mv.heap, mv.to.to_u64().unwrap()))
            .collect();
        // N(6,3,2) = {(5,3,2), (6,2,2), (6,3,1)}
        assert_eq!(tos, vec![(0, 5), (1, 2), (2, 1)]);
        let values: Vec<Nimber> = listed.options.iter().map(|(_, v)| *v).collect();
        assert_eq!(values, vec![0, 2, 0]);
    }

    #[test]
    fn merged_divisors_are_the_smallest_ones() {
        let odd: Vec<BigUint> = [1u32, 3, 5, 15].iter().map(|&x| x.into()).collect();
        let got: Vec<u64> = smallest_divisors(&odd, 3, 100)
            .iter()
            .map(|d| d.to_u64().unwrap())
            .collect();
        let expected: Vec<u64> = (1..=120).filter(|d| 120 % d == 0).collect();
        assert_eq!(got, expected);
        let first: Vec<u64> = smallest_divisors(&odd, 3, 5)
            .iter()
            .map(|d| d.to_u64().unwrap())
            .collect();
        assert_eq!(first, vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn huge_powers_of_two_are_capped() {
        let heap = BigUint::from(1u32) << 5000u32; // 5001 divisors
        let listed = options(&[heap.clone(), heap], 10);
        assert_eq!(listed.options.len(), 10);
        assert!(listed.truncated && !listed.complete);
        assert_eq!(listed.count, Some(BigUint::from(2 * 5001u32)));
        assert_eq!(listed.options[3].0.divisor, BigUint::from(8u32));
    }
}
