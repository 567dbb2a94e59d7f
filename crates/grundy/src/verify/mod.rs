//! Exhaustive checks of the papers' closed forms against the generic evaluators, on every
//! position of a range, in parallel (rayon), with a count and the first counterexample — what
//! `grundy verify` and `grundy.verify()` run.
//!
//! | check | closed form | paper |
//! |---|---|---|
//! | [`nim`] | nim-sum; misère rule | multiplayer paper, Thm 2.3 |
//! | [`multiplayer`] | Li's sum: every i; exactly one completing heap | multiplayer paper, Thms 4.2, 4.3 |
//! | [`multiplayer_residues`] | class mod d of orders grouped by teams; its parity for d = 2 | ours (docs/multiplayer.md, "Teams") |
//! | [`cdnim`] | lambda + 1 if iota is odd, else 0; its winning moves | common-divisor paper, Thm 2.4 |
//! | [`welter`] | Welter's formula and the moves solved from it | hook paper, Thm 2 |
//! | [`quotient_theorem`] | v(p) = 2 v_phi2(p) + v(p^2) | hook paper, Thm 4 |
//!
//! Every check refuses, before any work, a range too large to finish in reasonable time (each
//! thread keeps a memo table of the positions it has seen).

pub mod cdnim;
pub mod multiplayer;
pub mod multiplayer_residues;
pub mod nim;
pub mod quotient_theorem;
pub mod welter;

use crate::Error;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The result of an exhaustive check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// What was checked, e.g. "Theorem 2.4 (common-divisor Nim)".
    pub check: String,
    /// The range of positions, in words.
    pub scope: String,
    /// How many positions were compared.
    pub positions_checked: usize,
    /// Whether every position agreed.
    pub holds: bool,
    /// The first position (in enumeration order) where they disagree, described.
    pub counterexample: Option<String>,
}

/// Progress of a check: called with (the check's name, positions done, positions in all), from
/// the worker threads.
pub type Progress<'a> = Option<&'a (dyn Fn(&str, usize, usize) + Sync)>;

/// Check every item in parallel; `check` returns `Some(description)` for a counterexample.
/// Returns the report of the first counterexample in `items` order (if any).
pub fn exhaustive<T: Sync>(
    check: &str,
    scope: &str,
    items: &[T],
    check_one: impl Fn(&T) -> Option<String> + Sync,
    progress: Progress<'_>,
) -> CheckReport {
    let total = items.len();
    if let Some(p) = progress {
        p(check, 0, total);
    }
    let done = AtomicUsize::new(0);
    let chunk = (items.len() / 1000).max(1);
    let first_bad = items
        .par_chunks(chunk)
        .enumerate()
        .filter_map(|(ci, block)| {
            let found = block
                .iter()
                .enumerate()
                .find_map(|(i, item)| check_one(item).map(|d| (ci * chunk + i, d)));
            let n = done.fetch_add(block.len(), Ordering::Relaxed) + block.len();
            if let Some(p) = progress {
                p(check, n, total);
            }
            found
        })
        .min_by_key(|(i, _)| *i);
    CheckReport {
        check: check.to_owned(),
        scope: scope.to_owned(),
        positions_checked: items.len(),
        holds: first_bad.is_none(),
        counterexample: first_bad.map(|(_, d)| d),
    }
}

/// All multisets (non-decreasing tuples) of `k` values in `0..max` — every position of a
/// symmetric k-heap game up to order.
pub fn sorted_tuples(k: usize, max: u64) -> Vec<Vec<u64>> {
    let mut out = vec![];
    let mut cur = vec![0u64; k];
    if k == 0 {
        return vec![vec![]];
    }
    if max == 0 {
        return out;
    }
    loop {
        out.push(cur.clone());
        // advance to the next non-decreasing tuple
        let mut i = k;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if cur[i] + 1 < max {
                let v = cur[i] + 1;
                for c in &mut cur[i..] {
                    *c = v;
                }
                break;
            }
        }
    }
}

/// The number of multisets of size `k` from `n` values (positions of `k` heaps below `n` up to
/// order), saturating at `u128::MAX`. More than 1,000 heaps counts as `u128::MAX`: no
/// exhaustive check of that many heaps can run, and the refusal must come at once.
pub fn multisets(n: u64, k: usize) -> u128 {
    if k > 1000 && n > 0 {
        return u128::MAX;
    }
    if n == 0 {
        return if k == 0 { 1 } else { 0 };
    }
    let mut c: u128 = 1;
    for i in 0..k as u128 {
        c = c.saturating_mul(n as u128 + i) / (i + 1);
    }
    c
}

/// Refuse ranges so large that the check would not finish in reasonable time.
pub fn check_budget(count: u128, budget: u128) -> Result<(), Error> {
    if count == 0 {
        return Err(Error::Invalid(
            "that range is empty: nothing would be checked (choose a larger range)".into(),
        ));
    }
    if count > budget {
        // (u128::MAX: a count past u128, from a saturating count)
        let count = if count == u128::MAX {
            "more than 10^38".to_string()
        } else {
            count.to_string()
        };
        return Err(Error::Invalid(format!(
            "that range has {count} positions; at most {budget} are checked in one run (choose a smaller range)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_tuples_counts() {
        assert_eq!(sorted_tuples(2, 3).len(), 6);
        assert_eq!(sorted_tuples(3, 4).len(), 20);
        assert_eq!(
            sorted_tuples(1, 5),
            vec![vec![0], vec![1], vec![2], vec![3], vec![4]]
        );
    }

    #[test]
    fn exhaustive_reports_the_first_counterexample() {
        let items: Vec<u32> = (0..10_000).collect();
        let r = exhaustive(
            "t",
            "s",
            &items,
            |&x| (x % 977 == 976).then(|| x.to_string()),
            None,
        );
        assert!(!r.holds);
        assert_eq!(r.counterexample.as_deref(), Some("976"));
        let r = exhaustive("t", "s", &items, |_| None, None);
        assert!(r.holds);
        assert_eq!(r.positions_checked, 10_000);
    }
}
