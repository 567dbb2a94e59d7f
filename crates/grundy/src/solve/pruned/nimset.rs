//! A set of small nimbers (below [`NimSet::CAPACITY`]) as a fixed bit array: the candidate
//! and requested sets of the set-query search ([`super::PrunedSolver`]).

use crate::Nimber;

const WORDS: usize = 4;

/// A set of nimbers below [`NimSet::CAPACITY`], one bit each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NimSet([u64; WORDS]);

impl NimSet {
    /// Nimbers the set can hold: `0..CAPACITY`.
    pub const CAPACITY: usize = 64 * WORDS;

    /// The empty set.
    pub const EMPTY: NimSet = NimSet([0; WORDS]);

    /// `{0, 1, ..., n - 1}` (`n` at most [`CAPACITY`](Self::CAPACITY)).
    pub fn below(n: usize) -> Self {
        debug_assert!(n <= Self::CAPACITY);
        let mut s = [0; WORDS];
        for (i, w) in s.iter_mut().enumerate() {
            let lo = i * 64;
            *w = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1 << (n - lo)) - 1
            } else {
                0
            };
        }
        NimSet(s)
    }

    /// Every nimber the set can hold.
    pub fn all() -> Self {
        NimSet([u64::MAX; WORDS])
    }

    /// `{v}`, or `None` when `v` is too large to hold.
    pub fn single(v: Nimber) -> Option<Self> {
        let mut s = Self::EMPTY;
        (v < Self::CAPACITY as u64).then(|| {
            s.insert(v);
            s
        })
    }

    /// Whether `v` is in the set.
    pub fn contains(&self, v: Nimber) -> bool {
        v < Self::CAPACITY as u64 && self.0[(v / 64) as usize] >> (v % 64) & 1 == 1
    }

    /// Add `v` (which must be below the capacity).
    pub fn insert(&mut self, v: Nimber) {
        self.0[(v / 64) as usize] |= 1 << (v % 64);
    }

    /// Remove `v` (nothing happens when it is absent).
    pub fn remove(&mut self, v: Nimber) {
        if v < Self::CAPACITY as u64 {
            self.0[(v / 64) as usize] &= !(1 << (v % 64));
        }
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The least element.
    pub fn min(&self) -> Option<Nimber> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i as u64 * 64 + u64::from(w.trailing_zeros()))
    }

    /// The greatest element.
    pub fn max(&self) -> Option<Nimber> {
        self.0
            .iter()
            .enumerate()
            .rev()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i as u64 * 64 + 63 - u64::from(w.leading_zeros()))
    }

    /// The elements common to both.
    pub fn and(&self, other: &NimSet) -> NimSet {
        NimSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// Whether the two sets have no element in common.
    pub fn is_disjoint(&self, other: &NimSet) -> bool {
        self.and(other).is_empty()
    }

    /// The set without the elements of `mask`'s bits 0..63 that are set (the exclusions of a
    /// [`super::Knowledge`]).
    pub fn without_low(&self, mask: u64) -> NimSet {
        let mut s = *self;
        s.0[0] &= !mask;
        s
    }

    /// The elements below 63, as bits (for [`super::Knowledge::exclude_all`]).
    pub fn low_bits(&self) -> u64 {
        self.0[0] & (u64::MAX >> 1)
    }

    /// `{e xor x : e in self}`, or `None` when that does not fit (`x` too large).
    pub fn xor_each(&self, x: Nimber) -> Option<NimSet> {
        if x == 0 {
            return Some(*self);
        }
        if x >= Self::CAPACITY as u64 {
            return self.is_empty().then_some(*self);
        }
        let mut out = Self::EMPTY;
        for (i, &w) in self.0.iter().enumerate() {
            let mut bits = w;
            while bits != 0 {
                let e = i as u64 * 64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                out.insert(e ^ x);
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn elements(s: &NimSet) -> Vec<u64> {
        (0..NimSet::CAPACITY as u64)
            .filter(|&v| s.contains(v))
            .collect()
    }

    proptest! {
        #[test]
        fn operations_match_a_plain_set(
            a in proptest::collection::btree_set(0u64..256, 0..40),
            b in proptest::collection::btree_set(0u64..256, 0..40),
            x in 0u64..300,
        ) {
            let mut sa = NimSet::EMPTY;
            a.iter().for_each(|&v| sa.insert(v));
            let mut sb = NimSet::EMPTY;
            b.iter().for_each(|&v| sb.insert(v));
            prop_assert_eq!(elements(&sa), a.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(sa.min(), a.iter().next().copied());
            prop_assert_eq!(sa.max(), a.iter().next_back().copied());
            let both: Vec<u64> = a.intersection(&b).copied().collect();
            prop_assert_eq!(elements(&sa.and(&sb)), both.clone());
            prop_assert_eq!(sa.is_disjoint(&sb), both.is_empty());
            match sa.xor_each(x) {
                Some(s) => {
                    let mut want: Vec<u64> = a.iter().map(|&e| e ^ x).collect();
                    want.sort();
                    prop_assert_eq!(elements(&s), want);
                }
                None => prop_assert!(x >= 256 && !a.is_empty()),
            }
            let mut r = sa;
            if let Some(m) = sa.max() {
                r.remove(m);
                prop_assert!(!r.contains(m) && r.max() < Some(m));
            }
        }
    }

    #[test]
    fn below_and_single() {
        assert_eq!(elements(&NimSet::below(0)), Vec::<u64>::new());
        assert_eq!(elements(&NimSet::below(3)), vec![0, 1, 2]);
        assert_eq!(NimSet::below(130).max(), Some(129));
        assert_eq!(NimSet::below(256).max(), Some(255));
        assert_eq!(NimSet::single(300), None);
        assert_eq!(elements(&NimSet::single(70).unwrap()), vec![70]);
        let low = NimSet::below(100).without_low(0b101);
        assert_eq!(low.min(), Some(1));
        assert_eq!(NimSet::below(100).low_bits(), u64::MAX >> 1);
    }
}
