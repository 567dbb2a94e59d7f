//! Common-divisor Nim: Theorem 2.4 of the common-divisor Nim paper, and the winning moves
//! derived from it, against the generic evaluator on every position of a range.

use super::{check_budget, exhaustive, multisets, sorted_tuples, CheckReport, Progress};
use crate::games::cdnim::{self, rules, CommonDivisorNim};
use crate::{Error, Nimber, NormalPlay};
use num_bigint::BigUint;
use std::cell::RefCell;

/// At most this many positions (multisets of heaps) per run: each thread keeps a memo table of
/// every position it has seen.
pub const BUDGET: u128 = 1_500_000;

/// Number of multisets of `k` values from `0..n`: C(n + k - 1, k).
/// Compare one position: the value by Theorem 2.4 (`closed_form`) with the evaluator's, and
/// the closed-form winning moves with the options of value 0. `Some(description)` on a mismatch.
fn check_position(
    solver: &mut NormalPlay<CommonDivisorNim>,
    heaps: &[u64],
    closed_form: impl Fn(&[u64]) -> Nimber,
) -> Option<String> {
    let brute = match solver.grundy_value(&CommonDivisorNim::position(heaps)) {
        Ok(v) => v,
        Err(e) => return Some(format!("{heaps:?}: the evaluator failed: {e}")),
    };
    let closed = closed_form(heaps);
    if closed != brute {
        let inv = cdnim::Invariants::of_u64(heaps);
        return Some(format!(
            "{heaps:?}: evaluator {brute}, Theorem 2.4 {closed} (lambda {}, iota {})",
            inv.lambda.map_or("+inf".into(), |l| l.to_string()),
            inv.iota
        ));
    }
    let big: Vec<BigUint> = heaps.iter().map(|&h| h.into()).collect();
    let listed = cdnim::winning_moves(&big, usize::MAX);
    let listed: Vec<(usize, u64)> = listed
        .moves
        .iter()
        .map(|m| (m.heap, u64::try_from(&m.divisor).unwrap_or(u64::MAX)))
        .collect();
    let mut expected = Vec::new();
    for (i, d) in rules::legal_moves(heaps) {
        let mut q = heaps.to_vec();
        q[i] -= d;
        match solver.grundy_value(&CommonDivisorNim::position(&q)) {
            Ok(0) => expected.push((i, d)),
            Ok(_) => {}
            Err(e) => return Some(format!("{q:?}: the evaluator failed: {e}")),
        }
    }
    (listed != expected).then(|| {
        format!("{heaps:?}: winning moves (heap, divisor) {listed:?}, evaluator {expected:?}")
    })
}

/// Check every position of `heaps` heaps, each below `max_heap`, up to order.
pub fn check_all(
    heaps: usize,
    max_heap: u64,
    progress: Progress<'_>,
) -> Result<CheckReport, Error> {
    if heaps == 0 {
        return Err(Error::Invalid("--heaps must be at least 1".into()));
    }
    check_budget(multisets(max_heap, heaps), BUDGET)?;
    let items = sorted_tuples(heaps, max_heap);
    let scope = format!(
        "{heaps} heap{}, each below {max_heap}, up to order",
        if heaps == 1 { "" } else { "s" },
    );
    thread_local! {
        static SOLVER: RefCell<NormalPlay<CommonDivisorNim>> =
            RefCell::new(NormalPlay::new(CommonDivisorNim));
    }
    Ok(exhaustive(
        "Theorem 2.4 (common-divisor Nim) and its winning moves",
        &scope,
        &items,
        |p| SOLVER.with(|s| check_position(&mut s.borrow_mut(), p, cdnim::grundy_value_u64)),
        progress,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_multisets() {
        assert_eq!(multisets(16, 3), sorted_tuples(3, 16).len() as u128);
        assert_eq!(multisets(7, 4), sorted_tuples(4, 7).len() as u128);
        assert_eq!(multisets(0, 2), 0);
    }

    #[test]
    fn a_wrong_closed_form_is_caught_with_its_first_counterexample() {
        // lambda instead of lambda + 1: wrong exactly where the value is non-zero
        let wrong = |h: &[u64]| cdnim::grundy_value_u64(h).saturating_sub(1);
        let items = sorted_tuples(2, 6);
        let report = exhaustive(
            "t",
            "s",
            &items,
            |p| check_position(&mut NormalPlay::new(CommonDivisorNim), p, wrong),
            None,
        );
        assert!(!report.holds);
        assert_eq!(
            report.counterexample.as_deref(),
            Some("[0, 1]: evaluator 1, Theorem 2.4 0 (lambda 0, iota 1)")
        );
        let right = exhaustive(
            "t",
            "s",
            &items,
            |p| {
                check_position(
                    &mut NormalPlay::new(CommonDivisorNim),
                    p,
                    cdnim::grundy_value_u64,
                )
            },
            None,
        );
        assert!(right.holds);
        assert_eq!(right.positions_checked, 21);
    }
}
