//! Partitions (Young diagrams), beta-numbers, hook lengths and hook removal — hook paper §2–§3.
//!
//! Conventions follow SageMath's `Partition`: parts in non-increasing order, rows numbered from
//! 0 at the top, columns from 0 at the left ("English" notation), hook lengths listed row by row.
//!
//! The beta-numbers of `λ = (λ_0 ≥ λ_1 ≥ ... ≥ λ_{m−1} > 0)` with `N ≥ m` beads are
//! `b_i = λ_i + (N − 1 − i)` for `i = 0..N` (with `λ_i = 0` for `i ≥ m`). With `N = m` they are
//! the first-column hook lengths, Nakayama's β-numbers: `(10,10,8,6,5,5,3,1)` has
//! `[17, 16, 13, 10, 8, 7, 4, 1]` (paper, §3). Removing a hook of length `h` from row `i` is
//! moving bead `b_i` to the free position `b_i − h`; this is why the hook-removal game *is* the
//! Sato–Welter game on the beads.

use crate::{Error, Result};
use std::fmt;

/// A partition: non-increasing positive parts (no trailing zeros). The empty partition has no
/// parts. The number of boxes always fits in a `u64`, and so do its beta-numbers.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize)]
#[serde(transparent)]
pub struct Partition {
    parts: Vec<u64>,
}

impl fmt::Debug for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Printed like SageMath prints a partition: `[3, 2, 1]`, `[]`.
impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        for (i, p) in self.parts.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{p}")?;
        }
        write!(f, "]")
    }
}

/// The most beads [`Partition::beta_numbers_with`] lists beyond the number of rows.
pub const MAX_BEADS: usize = 1_000_000;

impl Partition {
    /// The partition with these parts. Trailing zeros are dropped; parts must not increase.
    pub fn new(mut parts: Vec<u64>) -> Result<Self> {
        while parts.last() == Some(&0) {
            parts.pop();
        }
        if let Some(i) = (1..parts.len()).find(|&i| parts[i] > parts[i - 1]) {
            return Err(Error::Invalid(format!(
                "parts must not increase, but part {} ({}) is larger than part {} ({})",
                i + 1,
                parts[i],
                i,
                parts[i - 1]
            )));
        }
        let boxes = parts.iter().try_fold(0u64, |acc, &p| acc.checked_add(p));
        let first_beta = parts
            .first()
            .map_or(Some(0), |&p| p.checked_add(parts.len() as u64 - 1));
        if boxes.is_none() || first_beta.is_none() {
            return Err(Error::Invalid(
                "the partition is too large: its number of boxes and beta-numbers must fit in 64 bits"
                    .into(),
            ));
        }
        Ok(Partition { parts })
    }

    /// The empty partition.
    pub fn empty() -> Self {
        Partition { parts: Vec::new() }
    }

    /// The parts, non-increasing.
    pub fn parts(&self) -> &[u64] {
        &self.parts
    }

    /// Number of (non-zero) parts, i.e. of rows.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// True for the empty partition.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Number of boxes (the integer being partitioned).
    pub fn boxes(&self) -> u64 {
        self.parts.iter().sum()
    }

    /// Length of column `j`: the number of rows longer than `j` (the conjugate's part `j`).
    pub fn column_length(&self, j: u64) -> u64 {
        self.parts.partition_point(|&p| p > j) as u64
    }

    /// The conjugate partition (rows and columns exchanged). Its size is the first part, so
    /// only call it on partitions you could draw.
    pub fn conjugate(&self) -> Partition {
        let width = self.parts.first().copied().unwrap_or(0);
        Partition {
            parts: (0..width).map(|j| self.column_length(j)).collect(),
        }
    }

    /// The beta-numbers with as many beads as rows, decreasing: `b_i = λ_i + (m − 1 − i)`.
    pub fn beta_numbers(&self) -> Vec<u64> {
        self.beta_numbers_with(self.len())
            .expect("as many beads as rows always fit")
    }

    /// The beta-numbers with `beads` beads (at least the number of rows), decreasing. More
    /// beads shift every bead up and add beads at the bottom; the diagram is the same.
    pub fn beta_numbers_with(&self, beads: usize) -> Result<Vec<u64>> {
        if beads > MAX_BEADS.max(self.len()) {
            return Err(Error::Invalid(format!(
                "{beads} beads: at most {MAX_BEADS} (or the number of rows), since every bead \
                 is listed"
            )));
        }
        if beads < self.len() {
            return Err(Error::Invalid(format!(
                "{beads} beads are too few for a partition of {} rows",
                self.len()
            )));
        }
        (0..beads)
            .map(|i| {
                let part = self.parts.get(i).copied().unwrap_or(0);
                part.checked_add((beads - 1 - i) as u64)
                    .ok_or_else(|| Error::Invalid("beta-numbers do not fit in 64 bits".into()))
            })
            .collect()
    }

    /// The partition whose beta-numbers are `beads` (distinct, any order, any number of beads).
    pub fn from_beta_numbers(beads: &[u64]) -> Result<Self> {
        let mut b = beads.to_vec();
        b.sort_unstable_by(|x, y| y.cmp(x));
        if let Some(w) = b.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::Invalid(format!(
                "beta-number {} appears twice; beta-numbers are distinct",
                w[0]
            )));
        }
        let n = b.len() as u64;
        let parts = b
            .iter()
            .enumerate()
            .map(|(i, &x)| x - (n - 1 - i as u64)) // distinct and decreasing: x >= n-1-i
            .collect();
        Partition::new(parts)
    }

    /// The hook length of box `(row, column)` (0-based): 1 + boxes to its right + boxes below.
    pub fn hook_length(&self, row: usize, column: u64) -> Option<u64> {
        let part = *self.parts.get(row)?;
        if column >= part {
            return None;
        }
        let arm = part - column - 1;
        let leg = self.column_length(column) - row as u64 - 1;
        Some(arm + leg + 1)
    }

    /// Every hook length, row by row (SageMath's `hook_lengths()` layout). O(boxes).
    pub fn hook_lengths(&self) -> Vec<Vec<u64>> {
        let conj = self.conjugate();
        self.parts
            .iter()
            .enumerate()
            .map(|(i, &part)| {
                (0..part)
                    .map(|j| (part - j - 1) + (conj.parts[j as usize] - i as u64 - 1) + 1)
                    .collect()
            })
            .collect()
    }

    /// Remove the hook of box `(row, column)`: delete the hook and slide what falls off back
    /// onto the diagram (paper §2, Fig. 2). In beta-numbers: bead `b_row` moves down by the hook
    /// length. The result has `hook_length(row, column)` fewer boxes.
    pub fn remove_hook(&self, row: usize, column: u64) -> Result<Partition> {
        let h = self.hook_length(row, column).ok_or_else(|| {
            Error::Invalid(format!(
                "box ({row}, {column}) is not in the diagram {self}"
            ))
        })?;
        let mut beta = self.beta_numbers();
        beta[row] -= h;
        Partition::from_beta_numbers(&beta)
    }

    /// The box of row `row` whose hook has length `h`, if any (each row has at most one).
    pub fn box_with_hook(&self, row: usize, h: u64) -> Option<u64> {
        let part = *self.parts.get(row)?;
        // Hook lengths decrease strictly along a row: binary search on the column.
        let (mut lo, mut hi) = (0u64, part);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let hm = self.hook_length(row, mid)?;
            if hm == h {
                return Some(mid);
            }
            if hm > h {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        None
    }

    /// How many partitions there are of 0, 1, ..., n together (p(0) + ... + p(n)), saturating
    /// at `u128::MAX`: a bound on the positions a brute force over diagrams (or multisets of
    /// heaps of total at most n) may meet. A dynamic-programming table of n + 1 numbers.
    pub fn count_up_to(n: u64) -> u128 {
        let n = n as usize;
        let mut p = vec![0u128; n + 1];
        p[0] = 1;
        for part in 1..=n {
            for total in part..=n {
                p[total] = p[total].saturating_add(p[total - part]);
            }
        }
        p.iter().fold(0u128, |a, &x| a.saturating_add(x))
    }

    /// Every partition of `n` (reverse lexicographic order, as SageMath lists them).
    pub fn all_of(n: u64) -> Vec<Partition> {
        fn rec(rest: u64, max: u64, cur: &mut Vec<u64>, out: &mut Vec<Partition>) {
            if rest == 0 {
                out.push(Partition { parts: cur.clone() });
                return;
            }
            for p in (1..=rest.min(max)).rev() {
                cur.push(p);
                rec(rest - p, p, cur, out);
                cur.pop();
            }
        }
        let mut out = Vec::new();
        rec(n, n, &mut Vec::new(), &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(parts: &[u64]) -> Partition {
        Partition::new(parts.to_vec()).unwrap()
    }

    #[test]
    fn papers_beta_numbers() {
        let y = p(&[10, 10, 8, 6, 5, 5, 3, 1]);
        assert_eq!(y.beta_numbers(), vec![17, 16, 13, 10, 8, 7, 4, 1]);
        assert_eq!(y.boxes(), 48);
        assert_eq!(
            Partition::from_beta_numbers(&[1, 4, 7, 8, 10, 13, 16, 17]).unwrap(),
            y
        );
        // more beads: same diagram
        let b10 = y.beta_numbers_with(10).unwrap();
        assert_eq!(b10, vec![19, 18, 15, 12, 10, 9, 6, 3, 1, 0]);
        assert_eq!(Partition::from_beta_numbers(&b10).unwrap(), y);
        assert!(y.beta_numbers_with(7).is_err());
    }

    #[test]
    fn papers_hook_removal() {
        // Fig. 1 -> Fig. 2: removing a hook of length 7 turns beta 10 into 3.
        let y = p(&[10, 10, 8, 6, 5, 5, 3, 1]);
        let col = y.box_with_hook(3, 7).unwrap();
        assert_eq!(y.hook_length(3, col), Some(7));
        let z = y.remove_hook(3, col).unwrap();
        assert_eq!(z.beta_numbers(), vec![17, 16, 13, 8, 7, 4, 3, 1]);
        assert_eq!(z, p(&[10, 10, 8, 4, 4, 2, 2, 1]));
        assert_eq!(z.boxes(), 41);
        assert!(y.remove_hook(8, 0).is_err());
        assert!(y.remove_hook(0, 10).is_err());
    }

    #[test]
    fn sage_hook_lengths_examples() {
        // SageMath reference manual, Partition.hook_lengths():
        // [2,2,1] -> [[4, 2], [3, 1], [1]]; [3,3] -> [[4, 3, 2], [3, 2, 1]];
        // [3,2,1] -> [[5, 3, 1], [3, 1], [1]]; [2,2] -> [[3, 2], [2, 1]].
        assert_eq!(
            p(&[2, 2, 1]).hook_lengths(),
            vec![vec![4, 2], vec![3, 1], vec![1]]
        );
        assert_eq!(
            p(&[3, 3]).hook_lengths(),
            vec![vec![4, 3, 2], vec![3, 2, 1]]
        );
        assert_eq!(
            p(&[3, 2, 1]).hook_lengths(),
            vec![vec![5, 3, 1], vec![3, 1], vec![1]]
        );
        assert_eq!(p(&[2, 2]).hook_lengths(), vec![vec![3, 2], vec![2, 1]]);
        assert_eq!(p(&[5]).hook_lengths(), vec![vec![5, 4, 3, 2, 1]]);
        assert_eq!(Partition::empty().hook_lengths(), Vec::<Vec<u64>>::new());
    }

    #[test]
    fn first_column_hooks_are_the_beta_numbers() {
        for n in 0..=10 {
            for y in Partition::all_of(n) {
                let hooks = y.hook_lengths();
                let first: Vec<u64> = hooks.iter().map(|r| r[0]).collect();
                assert_eq!(first, y.beta_numbers());
                for (i, row) in hooks.iter().enumerate() {
                    for (j, &h) in row.iter().enumerate() {
                        assert_eq!(y.hook_length(i, j as u64), Some(h));
                        assert_eq!(y.box_with_hook(i, h), Some(j as u64));
                        assert_eq!(y.remove_hook(i, j as u64).unwrap().boxes(), n - h);
                    }
                }
            }
        }
    }

    #[test]
    fn partitions_are_counted_and_validated() {
        let counts: Vec<usize> = (0..=10).map(|n| Partition::all_of(n).len()).collect();
        assert_eq!(counts, vec![1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42]);
        assert_eq!(p(&[3, 1, 0, 0]), p(&[3, 1]));
        assert!(Partition::new(vec![1, 2]).is_err());
        assert!(Partition::new(vec![u64::MAX, 1]).is_err());
        assert!(Partition::new(vec![u64::MAX]).is_ok());
        assert!(Partition::from_beta_numbers(&[3, 3]).is_err());
        assert_eq!(p(&[3, 1]).to_string(), "[3, 1]");
        assert_eq!(p(&[4, 2, 1]).conjugate(), p(&[3, 2, 1, 1]));
    }
}
