//! The rules of m-heap common-divisor Nim (Definition 2.1) as a [`Game`] for the generic
//! evaluators.
//!
//! A move picks one heap `i` and subtracts from it a positive common divisor `d` of *all* heaps
//! (every positive integer divides 0), with `d <= n_i`. So a 0 heap never moves, and from a
//! position with a non-zero heap the divisors allowed are exactly those of `g`, the gcd of the
//! non-zero heaps — and `d <= g <= n_i` holds for every non-zero heap automatically. The only
//! terminal position is all zeros.
//!
//! Unlike Nim the heaps are *not* independent (the divisor depends on every heap), so there is
//! no decomposition into components and the evaluator works on whole positions. Positions the
//! evaluator stores are sorted (the rules are symmetric in the heaps), which keeps the memo
//! table small; [`legal_moves`] and [`options_in_heap_order`] keep the heap order for people.

use crate::Game;

/// m-heap common-divisor Nim (paper, Definition 2.1), heaps as machine words.
#[derive(Debug, Clone, Copy, Default)]
pub struct CommonDivisorNim;

impl CommonDivisorNim {
    /// The canonical (sorted) form of a position, as the evaluator stores it.
    pub fn position(heaps: &[u64]) -> Vec<u64> {
        let mut p = heaps.to_vec();
        p.sort_unstable();
        p
    }
}

/// The gcd of all heaps, with every positive integer dividing 0: the gcd of the non-zero heaps,
/// or 0 when every heap is 0.
pub fn gcd_of_heaps(heaps: &[u64]) -> u64 {
    heaps.iter().fold(0u64, |g, &n| super::arith::gcd_u64(g, n))
}

/// The positive divisors of `n > 0`, ascending: `2^v` times the divisors of the odd part,
/// multiplied out from its factorisation ([`super::arith::factor_u64`], Pollard rho), so even
/// `u64::MAX` is instant.
pub fn divisors_u64(n: u64) -> Vec<u64> {
    assert!(n > 0, "divisors of 0 are not a finite list");
    let v = n.trailing_zeros();
    let mut factors = super::arith::factor_u64(n >> v);
    if v > 0 {
        factors.push((2, v));
    }
    let mut divisors = vec![1u64];
    for (p, e) in factors {
        let before = divisors.len();
        let mut power = 1u64;
        for _ in 0..e {
            power *= p;
            for i in 0..before {
                divisors.push(divisors[i] * power);
            }
        }
    }
    divisors.sort_unstable();
    divisors
}

/// Every legal move as `(heap index, divisor subtracted)`, by heap and then divisor ascending.
pub fn legal_moves(heaps: &[u64]) -> Vec<(usize, u64)> {
    let g = gcd_of_heaps(heaps);
    if g == 0 {
        return Vec::new();
    }
    let divisors = divisors_u64(g);
    let mut out = Vec::new();
    for (i, &n) in heaps.iter().enumerate() {
        if n > 0 {
            out.extend(divisors.iter().map(|&d| (i, d)));
        }
    }
    out
}

/// The options N(P) in the paper's form: heap order kept, one entry per legal move (a set in
/// the paper; two moves may reach equal tuples only when they are the same move).
pub fn options_in_heap_order(heaps: &[u64]) -> Vec<Vec<u64>> {
    legal_moves(heaps)
        .into_iter()
        .map(|(i, d)| {
            let mut q = heaps.to_vec();
            q[i] -= d;
            q
        })
        .collect()
}

impl Game for CommonDivisorNim {
    type Position = Vec<u64>;

    fn options(&self, position: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        let g = gcd_of_heaps(position);
        if g == 0 {
            return;
        }
        let divisors = divisors_u64(g);
        let sorted = position.windows(2).all(|w| w[0] <= w[1]);
        for (i, &n) in position.iter().enumerate() {
            // equal heaps give equal sorted options: one of them is enough
            if n == 0 || (sorted && i > 0 && position[i - 1] == n) {
                continue;
            }
            for &d in &divisors {
                let mut q = position.clone();
                q[i] = n - d;
                q.sort_unstable();
                out.push(q);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut v: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        v.sort();
        v
    }

    /// Example 2.2 of the paper, with its typo corrected: N(6,3,2) contains (5,3,2), not
    /// (5,3,1) — only one heap changes in a move.
    #[test]
    fn divisors_of_the_largest_u64_terminate() {
        // u64::MAX = 3 * 5 * 17 * 257 * 641 * 65537 * 6700417: 128 divisors.
        let d = divisors_u64(u64::MAX);
        assert_eq!(d.len(), 128);
        assert_eq!((d[0], d[127]), (1, u64::MAX));
    }

    #[test]
    fn example_2_2_option_sets() {
        assert_eq!(
            sorted(options_in_heap_order(&[6, 3, 2])),
            sorted(vec![vec![5, 3, 2], vec![6, 2, 2], vec![6, 3, 1]])
        );
        assert!(!options_in_heap_order(&[6, 3, 2]).contains(&vec![5, 3, 1]));
        assert_eq!(
            sorted(options_in_heap_order(&[6, 2, 2])),
            sorted(vec![
                vec![5, 2, 2],
                vec![6, 1, 2],
                vec![6, 2, 1],
                vec![4, 2, 2],
                vec![6, 0, 2],
                vec![6, 2, 0],
            ])
        );
    }

    #[test]
    fn example_2_5_option_sets() {
        assert_eq!(options_in_heap_order(&[1, 2]), vec![vec![0, 2], vec![1, 1]]);
        assert_eq!(options_in_heap_order(&[0, 2]), vec![vec![0, 1], vec![0, 0]]);
        assert_eq!(options_in_heap_order(&[0, 1]), vec![vec![0, 0]]);
        assert!(options_in_heap_order(&[0, 0, 0]).is_empty());
    }

    #[test]
    fn the_game_lists_the_same_options_up_to_order() {
        for p in crate::games::cdnim::small_positions(3, 9) {
            let mut expected: Vec<Vec<u64>> = options_in_heap_order(&p)
                .into_iter()
                .map(|q| CommonDivisorNim::position(&q))
                .collect();
            expected.sort();
            expected.dedup();
            let canonical = CommonDivisorNim::position(&p);
            let mut got = CommonDivisorNim.options_vec(&canonical);
            got.sort();
            got.dedup();
            assert_eq!(got, expected, "{p:?}");
        }
    }

    #[test]
    fn divisors_and_gcd() {
        assert_eq!(divisors_u64(1), vec![1]);
        for n in 1..3000u64 {
            let by_trial: Vec<u64> = (1..=n).filter(|d| n % d == 0).collect();
            assert_eq!(divisors_u64(n), by_trial, "{n}");
        }
        assert_eq!(divisors_u64(36), vec![1, 2, 3, 4, 6, 9, 12, 18, 36]);
        assert_eq!(divisors_u64(49), vec![1, 7, 49]);
        assert_eq!(gcd_of_heaps(&[0, 12, 0, 18]), 6);
        assert_eq!(gcd_of_heaps(&[0, 0]), 0);
        assert_eq!(legal_moves(&[0, 4]), vec![(1, 1), (1, 2), (1, 4)]);
    }
}
