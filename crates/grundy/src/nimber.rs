//! Nimbers: the minimum excludant (mex) and the nim-sum.
//!
//! Primer paper (`docs/theory.md` §1): `mex(T)` is the least non-negative integer
//! not in `T`, and the value of a sum of games is the nim-sum (bitwise xor) of the values.
//!
//! `mex` over many values is the inner loop of every evaluator, so it works on a reusable
//! bitset ([`MexScratch`]) rather than sorting: O(number of values) and no allocation once warm.

/// A Grundy value. Values of games this crate can brute-force fit comfortably in 64 bits.
pub type Nimber = u64;

/// Nim-sum (bitwise exclusive or) of any number of nimbers.
pub fn nim_sum<I: IntoIterator<Item = Nimber>>(values: I) -> Nimber {
    values.into_iter().fold(0, |acc, v| acc ^ v)
}

/// The minimum excludant of a set of values (duplicates allowed).
///
/// Convenience wrapper that allocates a scratch bitset; in a hot loop keep a [`MexScratch`].
pub fn mex<I: IntoIterator<Item = Nimber>>(values: I) -> Nimber {
    MexScratch::new().mex(values)
}

/// Reusable bitset for computing mex without allocating on every call.
///
/// Only values below the number of inputs can matter (mex of `k` values is at most `k`), so
/// larger values are skipped and the bitset never grows beyond the largest input count seen.
#[derive(Debug, Default, Clone)]
pub struct MexScratch {
    words: Vec<u64>,
    staged: Vec<Nimber>,
}

impl MexScratch {
    /// An empty scratch bitset.
    pub fn new() -> Self {
        Self::default()
    }

    /// The mex of `values`.
    pub fn mex<I: IntoIterator<Item = Nimber>>(&mut self, values: I) -> Nimber {
        self.staged.clear();
        self.staged.extend(values);
        let k = self.staged.len();
        let needed = k / 64 + 1;
        if self.words.len() < needed {
            self.words.resize(needed, 0);
        }
        for w in &mut self.words[..needed] {
            *w = 0;
        }
        for &v in &self.staged {
            if (v as usize) <= k {
                self.words[v as usize / 64] |= 1u64 << (v % 64);
            }
        }
        for (i, &w) in self.words[..needed].iter().enumerate() {
            if w != u64::MAX {
                return (i * 64) as Nimber + (!w).trailing_zeros() as Nimber;
            }
        }
        unreachable!("mex of k values is at most k, which lies inside the bitset")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_basics() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 2]), 3);
        assert_eq!(mex([0, 2, 0, 5]), 1);
        assert_eq!(mex([3, 0, 1, 1, 1000]), 2);
    }

    #[test]
    fn mex_of_a_long_run_crosses_word_boundaries() {
        let mut s = MexScratch::new();
        assert_eq!(s.mex(0..200), 200);
        assert_eq!(s.mex((0..200).filter(|&v| v != 130)), 130);
        assert_eq!(s.mex([5, 6]), 0);
    }

    #[test]
    fn nim_sum_is_xor() {
        assert_eq!(nim_sum([3, 5, 2]), 4);
        assert_eq!(nim_sum([]), 0);
    }

    proptest::proptest! {
        #[test]
        fn mex_matches_definition(v in proptest::collection::vec(0u64..40, 0..60)) {
            let expected = (0..).find(|x| !v.contains(x)).unwrap();
            proptest::prop_assert_eq!(mex(v.iter().copied()), expected);
        }
    }
}
