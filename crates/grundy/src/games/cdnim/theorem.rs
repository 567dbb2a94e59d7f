//! Theorem 2.4 of the common-divisor Nim paper: the Grundy value in closed form.
//!
//! For a position `P = (n_1, ..., n_m)` let `ord2(a)` be the exponent of 2 in `a` (`+inf` for
//! `a = 0`, Definition 2.3), `lambda(P) = min_i ord2(n_i)` and `iota(P)` the number of heaps
//! attaining that minimum. Then
//!
//! ```text
//! sg(P) = lambda(P) + 1   if P != 0 and iota(P) is odd,
//!         0               if P != 0 and iota(P) is even, or P = 0.
//! ```
//!
//! This needs one pass over the heaps and only their trailing zero bits, so it answers for
//! heaps of any size and any number of heaps in linear time.

use crate::Nimber;
use num_bigint::BigUint;

/// `ord2(n)`, the exponent of 2 in `n` (Definition 2.3); `None` stands for `+inf` (n = 0).
pub fn ord2(n: &BigUint) -> Option<u64> {
    n.trailing_zeros()
}

/// `ord2` of a machine word; `None` for 0.
pub fn ord2_u64(n: u64) -> Option<u64> {
    (n != 0).then(|| n.trailing_zeros() as u64)
}

/// The two quantities of Theorem 2.4, equations (1) and (2) of the paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invariants {
    /// `lambda(P) = min_i ord2(n_i)`; `None` is `+inf` (every heap is 0).
    pub lambda: Option<u64>,
    /// `iota(P)`: how many heaps have `ord2 = lambda` (all of them when every heap is 0).
    pub iota: usize,
}

impl Invariants {
    /// lambda and iota from the `ord2` of each heap (`None` = `+inf`).
    pub fn from_ord2s(ord2s: impl IntoIterator<Item = Option<u64>>) -> Self {
        let mut lambda: Option<u64> = None;
        let mut iota = 0usize;
        for o in ord2s {
            // Option's order puts None first; here None is +inf, so compare by hand.
            let smaller = match (o, lambda) {
                (Some(a), Some(b)) => a.cmp(&b),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            };
            match smaller {
                std::cmp::Ordering::Less => {
                    lambda = o;
                    iota = 1;
                }
                std::cmp::Ordering::Equal => iota += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        Invariants { lambda, iota }
    }

    /// lambda and iota of a position of arbitrary-precision heaps.
    pub fn of(heaps: &[BigUint]) -> Self {
        Self::from_ord2s(heaps.iter().map(ord2))
    }

    /// lambda and iota of a position of machine-word heaps.
    pub fn of_u64(heaps: &[u64]) -> Self {
        Self::from_ord2s(heaps.iter().map(|&n| ord2_u64(n)))
    }

    /// The Grundy value by Theorem 2.4.
    pub fn grundy_value(&self) -> Nimber {
        match self.lambda {
            None => 0, // the zero position (terminal)
            Some(l) if self.iota % 2 == 1 => l + 1,
            Some(_) => 0,
        }
    }
}

/// The two smallest distinct `ord2` values of a position with their multiplicities: enough to
/// know lambda and iota — hence the value — after any one heap changes, in O(1). Listing all
/// options of a position with 10,000 heaps then costs O(1) per option instead of O(m).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValuationProfile {
    /// (smallest ord2, how many heaps have it); `INF` stands for +inf (a 0 heap).
    smallest: (u64, usize),
    /// The next distinct ord2 and its multiplicity, if any.
    next: Option<(u64, usize)>,
}

/// `ord2(0) = +inf` inside [`ValuationProfile`] (no real heap has 2^64 - 1 trailing zeros).
const INF: u64 = u64::MAX;

impl ValuationProfile {
    /// The profile of a non-empty position given each heap's ord2 (`None` = +inf).
    pub fn from_ord2s(ord2s: impl IntoIterator<Item = Option<u64>>) -> Self {
        let mut smallest = (INF, 0usize);
        let mut next: Option<(u64, usize)> = None;
        for o in ord2s {
            let o = o.unwrap_or(INF);
            if smallest.1 == 0 || o < smallest.0 {
                if smallest.1 > 0 {
                    next = Some(smallest);
                }
                smallest = (o, 1);
            } else if o == smallest.0 {
                smallest.1 += 1;
            } else {
                match &mut next {
                    Some((v, c)) if *v == o => *c += 1,
                    Some((v, _)) if *v < o => {}
                    _ => next = Some((o, 1)),
                }
            }
        }
        ValuationProfile { smallest, next }
    }

    /// lambda and iota of the position itself.
    pub fn invariants(&self) -> Invariants {
        Invariants {
            lambda: (self.smallest.0 != INF).then_some(self.smallest.0),
            iota: self.smallest.1,
        }
    }

    /// lambda and iota after one heap's ord2 changes from `old` to `new` (`None` = +inf).
    /// `old` must be the ord2 of one of the heaps.
    pub fn after_replacing(&self, old: Option<u64>, new: Option<u64>) -> Invariants {
        let (old, new) = (old.unwrap_or(INF), new.unwrap_or(INF));
        let (mut lambda, mut iota) = self.smallest;
        if old == lambda {
            if iota > 1 {
                iota -= 1;
            } else {
                (lambda, iota) = self.next.unwrap_or((INF, 0));
            }
        }
        if iota == 0 || new < lambda {
            (lambda, iota) = (new, 1);
        } else if new == lambda {
            iota += 1;
        }
        Invariants {
            lambda: (lambda != INF).then_some(lambda),
            iota,
        }
    }
}

/// The Grundy value of a position by Theorem 2.4 (heaps of any size).
pub fn grundy_value(heaps: &[BigUint]) -> Nimber {
    Invariants::of(heaps).grundy_value()
}

/// The Grundy value of a position of machine-word heaps by Theorem 2.4.
pub fn grundy_value_u64(heaps: &[u64]) -> Nimber {
    Invariants::of_u64(heaps).grundy_value()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::cdnim::rules::CommonDivisorNim;
    use crate::games::cdnim::small_positions;
    use crate::NormalPlay;
    use proptest::prelude::*;

    /// Theorem 2.4 against the generic evaluator on every position with m = 1 (heaps < 200),
    /// m = 2 (< 40), m = 3 (< 14), m = 4 (< 8), in every heap order.
    #[test]
    fn theorem_2_4_matches_brute_force_on_all_small_positions() {
        let mut solver = NormalPlay::new(CommonDivisorNim);
        for (m, bound) in [(1, 200), (2, 40), (3, 14), (4, 8)] {
            let mut checked = 0;
            for p in small_positions(m, bound) {
                let brute = solver.grundy_value(&p).unwrap();
                assert_eq!(grundy_value_u64(&p), brute, "{p:?}");
                let big: Vec<BigUint> = p.iter().map(|&n| n.into()).collect();
                assert_eq!(grundy_value(&big), brute, "{p:?}");
                checked += 1;
            }
            assert_eq!(checked, (bound as usize).pow(m as u32));
        }
    }

    #[test]
    fn the_papers_examples() {
        // Example 2.5: sg(1, 2) = 1 with lambda = 0, iota = 1
        let inv = Invariants::of_u64(&[1, 2]);
        assert_eq!(
            inv,
            Invariants {
                lambda: Some(0),
                iota: 1
            }
        );
        assert_eq!(inv.grundy_value(), 1);
        // Example 2.2's position (6, 3, 2): value 1; its option (6, 2, 2) has value 2
        assert_eq!(grundy_value_u64(&[6, 3, 2]), 1);
        assert_eq!(grundy_value_u64(&[6, 2, 2]), 2);
        // one heap: ord2(n) + 1
        assert_eq!(grundy_value_u64(&[96]), 6);
        // zero position, and zeros do not count towards iota
        assert_eq!(
            Invariants::of_u64(&[0, 0]),
            Invariants {
                lambda: None,
                iota: 2
            }
        );
        assert_eq!(grundy_value_u64(&[0, 0]), 0);
        assert_eq!(grundy_value_u64(&[0, 4, 0]), 3);
        assert_eq!(grundy_value_u64(&[0, 4, 12]), 0);
    }

    #[test]
    fn heaps_of_a_thousand_digits() {
        let big = BigUint::from(10u32).pow(1000); // ord2 = 1000
        let heaps = vec![big.clone(), &big * 3u32, &big * 2u32];
        assert_eq!(
            Invariants::of(&heaps),
            Invariants {
                lambda: Some(1000),
                iota: 2
            }
        );
        assert_eq!(grundy_value(&heaps), 0);
        assert_eq!(grundy_value(&heaps[2..]), 1002);
    }

    #[test]
    fn profiles_predict_the_invariants_after_any_change() {
        let ords = [None, Some(0), Some(1), Some(2), Some(5)];
        for p in crate::games::cdnim::small_positions(4, 5) {
            let heaps: Vec<Option<u64>> = p.iter().map(|&i| ords[i as usize]).collect();
            let profile = ValuationProfile::from_ord2s(heaps.iter().copied());
            assert_eq!(
                profile.invariants(),
                Invariants::from_ord2s(heaps.iter().copied())
            );
            for i in 0..heaps.len() {
                for &new in &ords {
                    let mut q = heaps.clone();
                    q[i] = new;
                    assert_eq!(
                        profile.after_replacing(heaps[i], new),
                        Invariants::from_ord2s(q.iter().copied()),
                        "{heaps:?}: heap {i} -> {new:?}"
                    );
                }
            }
        }
    }

    thread_local! {
        static SHARED: std::cell::RefCell<NormalPlay<CommonDivisorNim>> =
            std::cell::RefCell::new(NormalPlay::new(CommonDivisorNim));
    }

    proptest! {
        /// Random positions of up to 6 heaps below 20: closed form = brute force (one memo
        /// table shared by all cases).
        #[test]
        fn closed_form_equals_brute_force(heaps in prop::collection::vec(0u64..20, 1..=6)) {
            let brute = SHARED.with(|s| s.borrow_mut().grundy_value(&heaps).unwrap());
            prop_assert_eq!(grundy_value_u64(&heaps), brute);
        }
    }
}
