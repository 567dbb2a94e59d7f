//! r-cores and r-quotients on James's r-abacus — hook paper §2 (Nakayama's "remainder of a
//! Young diagram divided by r") and §5 (the quotient, for r = 2).
//!
//! Put the beta-numbers with `N` beads, `N` a multiple of `r`, on `r` runners: bead `b` sits on
//! runner `b mod r` at height `b div r`. Removing a hook of length `r` moves one bead down one
//! step on its runner. Hence:
//!
//! - the **r-core** is what remains when every bead has slid as far down its runner as it can
//!   (independent of the order of removals, as the paper says);
//! - the **r-quotient** is the list of the `r` partitions whose beta-numbers are the heights of
//!   the beads on runner `0, 1, ..., r − 1`.
//!
//! Taking `N` a multiple of `r` is what fixes the order of the quotient's components: it is the
//! order of SageMath's `Partition.quotient(r)` (checked against Sage's documented examples in
//! the tests). For `r = 2` runner 0 holds the even squares and runner 1 the odd squares: the
//! upper and lower boards of the paper's Fig. 4.

use super::Partition;
use crate::{Error, Result};

/// The largest `r` for which [`quotient`] lists its `r` components.
pub const MAX_QUOTIENT_R: u64 = 1 << 16;

fn check_r(r: u64) -> Result<()> {
    if r == 0 {
        return Err(Error::Invalid(
            "r must be at least 1 for cores and quotients".into(),
        ));
    }
    Ok(())
}

/// The heights of the beads on each runner of the r-abacus, with the number of beads rounded
/// up to a multiple of `r` (each runner's list decreasing). `r` is at most [`MAX_QUOTIENT_R`].
pub fn runners(p: &Partition, r: u64) -> Result<Vec<Vec<u64>>> {
    check_r(r)?;
    if r > MAX_QUOTIENT_R {
        return Err(Error::TooLarge(format!(
            "too large: an r-quotient has r components; r is limited to {MAX_QUOTIENT_R}"
        )));
    }
    let beads = p.len().div_ceil(r as usize) * r as usize;
    let beta = p.beta_numbers_with(beads)?;
    let mut out = vec![Vec::new(); r as usize];
    for b in beta {
        out[(b % r) as usize].push(b / r);
    }
    Ok(out)
}

/// The r-core: the partition left after removing hooks of length `r` for as long as possible.
/// Any `r >= 1` (the core does not depend on the number of beads, so the beads of the rows
/// are enough: each slides to the bottom of its runner).
pub fn core(p: &Partition, r: u64) -> Result<Partition> {
    check_r(r)?;
    let mut per_runner: rustc_hash::FxHashMap<u64, u64> = Default::default();
    for b in p.beta_numbers() {
        *per_runner.entry(b % r).or_default() += 1;
    }
    let mut beads = Vec::with_capacity(p.len());
    for (&j, &count) in &per_runner {
        beads.extend((0..count).map(|height| height * r + j));
    }
    Partition::from_beta_numbers(&beads)
}

/// The r-quotient, components in SageMath's order (runner 0 first, with a multiple of `r`
/// beads). `r` is at most [`MAX_QUOTIENT_R`].
pub fn quotient(p: &Partition, r: u64) -> Result<Vec<Partition>> {
    runners(p, r)?
        .iter()
        .map(|runner| Partition::from_beta_numbers(runner))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(parts: &[u64]) -> Partition {
        Partition::new(parts.to_vec()).unwrap()
    }

    fn ps(list: &[&[u64]]) -> Vec<Partition> {
        list.iter().map(|x| p(x)).collect()
    }

    #[test]
    fn sage_core_examples() {
        // SageMath reference manual, Partition.core(length), EXAMPLES and TESTS.
        assert_eq!(core(&p(&[6, 3, 2, 2]), 3).unwrap(), p(&[2, 1, 1]));
        assert_eq!(core(&p(&[]), 3).unwrap(), p(&[]));
        assert_eq!(
            core(&p(&[8, 7, 7, 4, 1, 1, 1, 1, 1]), 3).unwrap(),
            p(&[2, 1, 1])
        );
        assert_eq!(core(&p(&[3, 3, 3, 2, 1]), 3).unwrap(), p(&[]));
        assert_eq!(core(&p(&[10, 8, 7, 7]), 4).unwrap(), p(&[]));
        assert_eq!(
            core(&p(&[21, 15, 15, 9, 6, 6, 6, 3, 3]), 3).unwrap(),
            p(&[])
        );
    }

    #[test]
    fn sage_quotient_examples() {
        // SageMath reference manual, Partition.quotient(length), EXAMPLES and TESTS.
        type Case<'a> = (&'a [u64], u64, &'a [&'a [u64]]);
        let cases: &[Case] = &[
            (&[7, 7, 5, 3, 3, 3, 1], 3, &[&[2], &[1], &[2, 2, 2]]),
            (&[8, 7, 7, 4, 1, 1, 1, 1, 1], 3, &[&[2, 1], &[2, 2], &[2]]),
            (&[10, 8, 7, 7], 4, &[&[2], &[3], &[2], &[1]]),
            (&[6, 3, 3], 3, &[&[1], &[1], &[2]]),
            (&[3, 3, 3, 2, 1], 3, &[&[1], &[1, 1], &[1]]),
            (&[6, 6, 6, 3, 3, 3], 3, &[&[2, 1], &[2, 1], &[2, 1]]),
            (
                &[21, 15, 15, 9, 6, 6, 6, 3, 3],
                3,
                &[&[5, 2, 1], &[5, 2, 1], &[7, 3, 2]],
            ),
            (
                &[21, 15, 15, 9, 6, 6, 3, 3],
                3,
                &[&[5, 2], &[5, 2, 1], &[7, 3, 1]],
            ),
            (
                &[14, 12, 11, 10, 10, 10, 10, 9, 6, 4, 3, 3, 2, 1],
                5,
                &[&[3, 3], &[2, 2, 1], &[], &[3, 3, 3], &[1]],
            ),
        ];
        for (parts, r, expected) in cases {
            assert_eq!(
                quotient(&p(parts), *r).unwrap(),
                ps(expected),
                "{parts:?} quotient {r}"
            );
        }
    }

    #[test]
    fn papers_fig_4_halves() {
        // Fig. 4: even squares give beta [8,5,4,2]; odd squares (square 1 dead) give [7,5,2].
        let y = p(&[10, 10, 8, 6, 5, 5, 3, 1]);
        let q = quotient(&y, 2).unwrap();
        assert_eq!(q[0], Partition::from_beta_numbers(&[8, 5, 4, 2]).unwrap());
        assert_eq!(q[1], Partition::from_beta_numbers(&[7, 5, 2]).unwrap());
    }

    #[test]
    fn core_and_quotient_determine_the_partition() {
        // |λ| = |core| + r · Σ|quotient_j|, and the core has no hook of length divisible by r.
        for n in 0..=12 {
            for y in Partition::all_of(n) {
                for r in 1..=5 {
                    let c = core(&y, r).unwrap();
                    let q = quotient(&y, r).unwrap();
                    assert_eq!(q.len(), r as usize);
                    let qsize: u64 = q.iter().map(|x| x.boxes()).sum();
                    assert_eq!(c.boxes() + r * qsize, n, "{y} r={r}");
                    assert!(c.hook_lengths().iter().flatten().all(|h| h % r != 0));
                }
            }
        }
        assert!(core(&p(&[1]), 0).is_err());
        assert!(quotient(&p(&[1]), 0).is_err());
        assert!(quotient(&p(&[1]), MAX_QUOTIENT_R + 1).is_err());
        assert_eq!(core(&p(&[3, 1]), u64::MAX).unwrap(), p(&[3, 1]));
    }
}
