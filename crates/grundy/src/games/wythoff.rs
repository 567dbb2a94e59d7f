//! Wythoff's game: two heaps; take any number from one heap, or the same number from both.
//!
//! Closed form (Wythoff 1907): the P-positions are the pairs `(floor(k φ), floor(k φ²))` and
//! their mirror images, `k = 0, 1, 2, ...`, where φ is the golden ratio. We compute
//! `floor(k φ) = floor((k + isqrt(5 k²)) / 2)` exactly in integers (`5k²` is never a square for
//! `k > 0`), so the formula works on heaps of any size. Grundy values other than 0 have no known
//! closed form and come from the generic evaluator.

use crate::{Game, Outcome};
use num_bigint::BigUint;
use num_traits::{CheckedSub, Zero};

/// Wythoff's game for the generic evaluators. Positions are `(a, b)` with `a <= b`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Wythoff;

impl Wythoff {
    /// The canonical position (smaller heap first).
    pub fn position(a: u64, b: u64) -> (u64, u64) {
        (a.min(b), a.max(b))
    }
}

impl Game for Wythoff {
    type Position = (u64, u64);
    fn options(&self, &(a, b): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        for k in 1..=a {
            out.push(Wythoff::position(a - k, b));
            out.push((a - k, b - k));
        }
        for k in 1..=b {
            out.push(Wythoff::position(a, b - k));
        }
    }
}

/// The k-th P-position `(floor(k φ), floor(k φ²))`.
pub fn p_position(k: &BigUint) -> (BigUint, BigUint) {
    let five_k2 = k * k * 5u32;
    let a = (k + five_k2.sqrt()) / 2u32;
    let b = &a + k;
    (a, b)
}

/// The `k` with `member(p_position(k)) == x`, searching the integers around `estimate`
/// (the closed-form estimate is off by at most one).
fn index_near(
    x: &BigUint,
    estimate: Option<BigUint>,
    member: impl Fn((BigUint, BigUint)) -> BigUint,
) -> Option<BigUint> {
    let est = estimate?;
    let mut k = if est.is_zero() {
        est.clone()
    } else {
        &est - 1u32
    };
    while k <= &est + 1u32 {
        if member(p_position(&k)) == *x {
            return Some(k);
        }
        k += 1u32;
    }
    None
}

/// If `x` is the smaller member `floor(k φ)` of a P-position, that `k`.
fn lower_index(x: &BigUint) -> Option<BigUint> {
    // k is near x / φ = x (√5 − 1) / 2.
    let est = ((x * x * 5u32).sqrt() + 1u32)
        .checked_sub(x)
        .map(|v| v / 2u32);
    index_near(x, est, |(a, _)| a)
}

/// If `x` is the larger member `floor(k φ²)` of a P-position, that `k`.
fn upper_index(x: &BigUint) -> Option<BigUint> {
    // k is near x / φ² = x (3 − √5) / 2.
    let est = (x * 3u32)
        .checked_sub(&(x * x * 5u32).sqrt())
        .map(|v| v / 2u32);
    index_near(x, est, |(_, b)| b)
}

/// Whether `(a, b)` is a P-position (in either order).
pub fn is_p_position(a: &BigUint, b: &BigUint) -> bool {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    let k = b - a;
    p_position(&k).0 == *a
}

/// Normal-play outcome by the closed form.
pub fn outcome(a: &BigUint, b: &BigUint) -> Outcome {
    if is_p_position(a, b) {
        Outcome::P
    } else {
        Outcome::N
    }
}

/// Every winning move from `(a, b)` (in the order given), as the resulting pair in the same
/// order, found from the closed form: at most one per kind of move (from the first heap, from
/// the second, from both).
pub fn winning_moves(a: &BigUint, b: &BigUint) -> Vec<(BigUint, BigUint)> {
    let mut out = Vec::new();
    // Change one heap, keep `keep`: the partner of `keep` in its P-position, if smaller.
    let partners = |keep: &BigUint| -> Vec<BigUint> {
        let mut v = Vec::new();
        if let Some(k) = lower_index(keep) {
            v.push(p_position(&k).1);
        }
        if let Some(k) = upper_index(keep) {
            v.push(p_position(&k).0);
        }
        v
    };
    for x in partners(b) {
        if x < *a {
            out.push((x, b.clone()));
        }
    }
    for y in partners(a) {
        if y < *b {
            out.push((a.clone(), y));
        }
    }
    // Both heaps: the difference is kept, so the target is the P-position with that difference.
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let (pa, _) = p_position(&(hi - lo));
    if pa < *lo {
        let d = lo - &pa;
        out.push((a - &d, b - &d));
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NormalPlay;

    #[test]
    fn p_positions_match_the_evaluator_below_60() {
        let mut solver = NormalPlay::new(Wythoff);
        for a in 0..60u64 {
            for b in 0..60u64 {
                let v = solver.grundy_value(&Wythoff::position(a, b)).unwrap();
                let (ba, bb) = (BigUint::from(a), BigUint::from(b));
                assert_eq!(v == 0, is_p_position(&ba, &bb), "({a}, {b})");
            }
        }
    }

    #[test]
    fn winning_moves_match_the_evaluator() {
        let mut solver = NormalPlay::new(Wythoff);
        for a in 0..40u64 {
            for b in 0..40u64 {
                let mut brute: Vec<(u64, u64)> = Vec::new();
                for k in 1..=a {
                    brute.push((a - k, b));
                }
                for k in 1..=b {
                    brute.push((a, b - k));
                }
                for k in 1..=a.min(b) {
                    brute.push((a - k, b - k));
                }
                brute.retain(|&(x, y)| solver.grundy_value(&Wythoff::position(x, y)).unwrap() == 0);
                brute.sort();
                brute.dedup();
                let closed: Vec<(u64, u64)> = winning_moves(&a.into(), &b.into())
                    .into_iter()
                    .map(|(x, y)| (x.try_into().unwrap(), y.try_into().unwrap()))
                    .collect();
                assert_eq!(closed, brute, "({a}, {b})");
            }
        }
    }

    #[test]
    fn first_p_positions_and_huge_heaps() {
        let firsts: Vec<(u64, u64)> = (0..6u64)
            .map(|k| {
                let (a, b) = p_position(&k.into());
                (a.try_into().unwrap(), b.try_into().unwrap())
            })
            .collect();
        assert_eq!(
            firsts,
            vec![(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
        );
        let k: BigUint = "123456789012345678901234567890".parse().unwrap();
        let (a, b) = p_position(&k);
        assert!(is_p_position(&a, &b));
        assert!(!is_p_position(&a, &(&b + 1u32)));
        assert_eq!(
            winning_moves(&a, &(&b + 5u32)),
            vec![(a.clone(), b.clone())]
        );
    }
}
