//! Wythoff's game: two heaps; take any number from one heap, or the same number from both.
//!
//! Closed form (Wythoff 1907): the P-positions are the pairs `(floor(k φ), floor(k φ²))` and
//! their mirror images, `k = 0, 1, 2, ...`, where φ is the golden ratio. We compute
//! `floor(k φ) = floor((k + isqrt(5 k²)) / 2)` exactly in integers (`5k²` is never a square for
//! `k > 0`), so the formula works on heaps of any size. Grundy values other than 0 have no known
//! closed form; [`grundy_value`] computes them by a table over the rectangle below the position,
//! checked against the generic evaluator.

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

/// Most cells `(a+1)(b+1)` [`grundy_value_if_small`] fills (at most about a second).
pub const TABLE_LIMIT: u128 = 2_000_000;

/// The Grundy value by [`grundy_value`] when `(a+1)(b+1) <= TABLE_LIMIT`, else `None` (front
/// ends then say [`too_large_note`]).
pub fn grundy_value_if_small(a: &BigUint, b: &BigUint) -> Option<crate::Nimber> {
    let (x, y) = (u64::try_from(a).ok()?, u64::try_from(b).ok()?);
    ((x as u128 + 1).saturating_mul(y as u128 + 1) <= TABLE_LIMIT).then(|| grundy_value(x, y))
}

/// Why a Grundy value was not computed ([`grundy_value_if_small`] gave `None`).
pub fn too_large_note() -> String {
    format!(
        "the Grundy value needs a table of every smaller position, limited to (a+1)(b+1) <= \
         {TABLE_LIMIT}; outcome and winning moves come from the golden-ratio formula"
    )
}

/// The Grundy value of `(a, b)` by a table of every `(x, y)` with `x <= a`, `y <= b`, row by
/// row: the options of a cell lie in its row, its column and its diagonal, so each keeps the
/// set of values met so far and the smallest number missing from it (which only grows). The
/// mex of a cell is at least the largest of those three, and is found by testing upwards
/// from there. Time about (a+1)(b+1) set operations (`wythoff 1000 1000` in a fraction of a
/// second, where the generic evaluator, reading a + b options per cell, takes half a minute);
/// memory two set entries per cell. The caller bounds `(a+1)(b+1)`.
pub fn grundy_value(a: u64, b: u64) -> crate::Nimber {
    let (a, b) = (a.min(b) as usize, a.max(b) as usize);
    // A cell (x, y) has x + y + min(x, y) options, so values are at most 2a + b. Bit sets when
    // the row, columns and diagonals fit in 64 MB (squares up to about 2000 x 2000), else
    // hash sets (long thin rectangles).
    let words = (2 * a + b + 1) / 64 + 2;
    let bytes = (b + 1 + a + b + 1 + 1)
        .saturating_mul(words)
        .saturating_mul(8);
    if bytes <= 64 << 20 {
        table::<BitSeen>(a, b, words)
    } else {
        table::<HashSeen>(a, b, words)
    }
}

/// A set of values met in one line of the table, and the least value missing from it.
trait Seen: Clone {
    fn empty(words: usize) -> Self;
    fn contains(&self, v: u64) -> bool;
    fn mex(&self) -> u64;
    fn insert(&mut self, v: u64);
}

#[derive(Clone)]
struct BitSeen {
    bits: Vec<u64>,
    mex: u64,
}

impl Seen for BitSeen {
    fn empty(words: usize) -> Self {
        BitSeen {
            bits: vec![0; words],
            mex: 0,
        }
    }
    fn contains(&self, v: u64) -> bool {
        self.bits
            .get((v / 64) as usize)
            .is_some_and(|w| w >> (v % 64) & 1 == 1)
    }
    fn mex(&self) -> u64 {
        self.mex
    }
    fn insert(&mut self, v: u64) {
        self.bits[(v / 64) as usize] |= 1 << (v % 64);
        while self.contains(self.mex) {
            self.mex += 1;
        }
    }
}

#[derive(Clone, Default)]
struct HashSeen {
    values: rustc_hash::FxHashSet<u64>,
    mex: u64,
}

impl Seen for HashSeen {
    fn empty(_: usize) -> Self {
        HashSeen::default()
    }
    fn contains(&self, v: u64) -> bool {
        self.values.contains(&v)
    }
    fn mex(&self) -> u64 {
        self.mex
    }
    fn insert(&mut self, v: u64) {
        self.values.insert(v);
        while self.values.contains(&self.mex) {
            self.mex += 1;
        }
    }
}

/// The table of [`grundy_value`] for `a <= b`, with sets of `words` 64-bit words (bit sets).
fn table<S: Seen>(a: usize, b: usize, words: usize) -> crate::Nimber {
    let mut columns = vec![S::empty(words); b + 1];
    // the diagonal of (x, y) is y - x + a, in 0..=a+b
    let mut diagonals = vec![S::empty(words); a + b + 1];
    let mut last = 0;
    for x in 0..=a {
        let mut row = S::empty(words);
        for (y, column) in columns.iter_mut().enumerate() {
            let d = y + a - x;
            let g = &diagonals[d];
            let mut v = row.mex().max(column.mex()).max(g.mex());
            while row.contains(v) || column.contains(v) || g.contains(v) {
                v += 1;
            }
            row.insert(v);
            column.insert(v);
            diagonals[d].insert(v);
            last = v;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NormalPlay;

    #[test]
    fn the_table_matches_the_evaluator() {
        let mut solver = NormalPlay::new(Wythoff);
        for a in 0..25u64 {
            for b in 0..25u64 {
                let v = solver.grundy_value(&Wythoff::position(a, b)).unwrap();
                assert_eq!(grundy_value(a, b), v, "({a}, {b})");
            }
        }
        for (a, b) in [(0, 300), (1, 250), (3, 200), (40, 60)] {
            let v = solver.grundy_value(&Wythoff::position(a, b)).unwrap();
            assert_eq!(grundy_value(a, b), v, "({a}, {b})");
            // the hash-set table (long thin rectangles) agrees with the bit-set one
            let (x, y) = (a.min(b) as usize, a.max(b) as usize);
            assert_eq!(table::<HashSeen>(x, y, 0), v, "({a}, {b})");
        }
    }

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
