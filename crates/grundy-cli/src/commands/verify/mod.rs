//! `grundy verify ...`: exhaustive checks of a paper's closed form against the generic
//! evaluator, on both cores, with a progress bar, a count and the first counterexample.
//!
//! Each family adds one variant to [`VerifyTarget`] and one module here; the shared
//! [`exhaustive`] runner does the parallel loop, the progress bar and the report.

pub mod cdnim;
pub mod multiplayer;
pub mod nim;
pub mod quotient_theorem;
pub mod welter;

use crate::common::{emit, progress_bar, CliError, CliResult};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Exhaustive checks of closed forms against brute force (exit status 1 on a counterexample).
///
/// Example: `grundy verify nim --heaps 3 --max-heap 16`
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(subcommand)]
    pub target: VerifyTarget,
}

#[derive(clap::Subcommand, Debug)]
pub enum VerifyTarget {
    /// Nim: nim-sum and the misère rule (Thm 2.3) against the evaluators
    ///
    /// Example: `grundy verify nim --heaps 3 --max-heap 16`
    Nim(nim::Args),
    /// Multiplayer Nim: Thm 4.2 (every i) and Thm 4.3 (exactly one n_k) against the evaluator
    ///
    /// Example: `grundy verify multiplayer --players 3 --heaps 4 --max-heap 12`
    Multiplayer(multiplayer::Args),
    /// Common-divisor Nim: Theorem 2.4 and its winning moves against the evaluator
    ///
    /// Example: `grundy verify cdnim --heaps 3 --max-heap 40`
    Cdnim(cdnim::Args),
    /// Sato-Welter game: Welter's formula (hook paper Thm 2) and its winning moves
    ///
    /// Example: `grundy verify welter --coins 4 --max-square 14`
    Welter(welter::Args),
    /// Young diagrams: the quotient theorem (hook paper Thm 4), each term by brute force
    ///
    /// Example: `grundy verify quotient-theorem --max-boxes 20`
    QuotientTheorem(quotient_theorem::Args),
}

pub fn run(args: VerifyArgs, json: bool) -> CliResult {
    match args.target {
        VerifyTarget::Nim(a) => nim::run(a, json),
        VerifyTarget::Multiplayer(a) => multiplayer::run(a, json),
        VerifyTarget::Cdnim(a) => cdnim::run(a, json),
        VerifyTarget::Welter(a) => welter::run(a, json),
        VerifyTarget::QuotientTheorem(a) => quotient_theorem::run(a, json),
    }
}

/// The result of an exhaustive check.
#[derive(Debug, Serialize)]
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

/// Check every item in parallel; `check` returns `Some(description)` for a counterexample.
/// Returns the report of the first counterexample in `items` order (if any).
pub fn exhaustive<T: Sync>(
    check: &str,
    scope: &str,
    items: &[T],
    check_one: impl Fn(&T) -> Option<String> + Sync,
) -> CheckReport {
    let bar = progress_bar(items.len() as u64, check);
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
            bar.set_position(n as u64);
            found
        })
        .min_by_key(|(i, _)| *i);
    bar.finish_and_clear();
    CheckReport {
        check: check.to_owned(),
        scope: scope.to_owned(),
        positions_checked: items.len(),
        holds: first_bad.is_none(),
        counterexample: first_bad.map(|(_, d)| d),
    }
}

/// Print a check report; a counterexample makes the exit status 1.
pub fn finish(report: CheckReport, json: bool) -> CliResult {
    emit(json, &report, || {
        let mut s = format!(
            "{}: {} positions checked ({})\n",
            report.check, report.positions_checked, report.scope
        );
        match &report.counterexample {
            None => s.push_str("holds: yes, no counterexample\n"),
            Some(c) => s.push_str(&format!("holds: NO; first counterexample: {c}\n")),
        }
        s
    })?;
    if report.holds {
        Ok(())
    } else {
        Err(CliError::check_failed("a counterexample was found"))
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
pub fn check_budget(count: u128, budget: u128) -> CliResult {
    if count == 0 {
        return Err(CliError::input(
            "that range is empty: nothing would be checked (choose a larger range)",
        ));
    }
    if count > budget {
        return Err(CliError::input(format!(
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
        let r = exhaustive("t", "s", &items, |&x| {
            (x % 977 == 976).then(|| x.to_string())
        });
        assert!(!r.holds);
        assert_eq!(r.counterexample.as_deref(), Some("976"));
        let r = exhaustive("t", "s", &items, |_| None);
        assert!(r.holds);
        assert_eq!(r.positions_checked, 10_000);
    }
}
