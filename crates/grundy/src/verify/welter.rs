//! The Sato-Welter game: Welter's formula (hook paper, Theorem 2) and the winning moves solved
//! from it, against the generic evaluator on every position of a range.

use super::{check_budget, exhaustive, CheckReport, Progress};
use crate::games::welter::{Coins, Welter, WelterMove};
use crate::{Error, NormalPlay};

/// Positions times options per position that one run may check.
pub const WORK_BUDGET: u128 = 50_000_000;

/// Every set of at most `k` distinct squares below `n`, smaller sets first.
pub fn all_positions(k: usize, n: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![]];
    let mut frontier: Vec<Vec<u64>> = vec![vec![]];
    // (no more than n coins fit on n squares: k may be any number the user typed)
    for _ in 0..k.min(n.try_into().unwrap_or(usize::MAX)) {
        let mut next = Vec::new();
        for p in &frontier {
            let start = p.last().map_or(0, |&l| l + 1);
            for s in start..n {
                let mut q = p.clone();
                q.push(s);
                next.push(q);
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

/// `C(n, 0) + C(n, 1) + ... + C(n, k)`, or `u128::MAX` past it (`n` and `k` are the user's).
fn binomial_sum(k: usize, n: u64) -> u128 {
    let mut total = 0u128;
    let mut c = 1u128; // C(n, 0)
    for i in 0..=k as u128 {
        total = total.saturating_add(c);
        if i as u64 >= n {
            break;
        }
        // C(n, i) · (n - i) / (i + 1) = C(n, i + 1), exactly
        match c.checked_mul(n as u128 - i) {
            Some(x) => c = x / (i + 1),
            None => return u128::MAX,
        }
    }
    total
}

/// Compare one position: the value, and for every target value up to value + 1 the moves
/// solved from the formula against the options of that value.
fn check(p: &Vec<u64>, solver: &mut NormalPlay<Welter>) -> Option<String> {
    let coins = match Coins::new(p.clone()) {
        Ok(c) => c,
        Err(e) => return Some(format!("{p:?}: not a Welter position: {e}")),
    };
    let analysis = coins.analyse();
    let brute = match solver.grundy_value(p) {
        Ok(v) => v,
        Err(e) => return Some(format!("{p:?}: evaluator failed: {e}")),
    };
    if analysis.grundy_value() != brute {
        return Some(format!(
            "{p:?}: evaluator {brute}, Welter's formula {}",
            analysis.grundy_value()
        ));
    }
    let options = match solver.options_with_values(p) {
        Ok(o) => o,
        Err(e) => return Some(format!("{p:?}: the evaluator failed: {e}")),
    };
    for target in 0..=brute + 1 {
        let mut expected: Vec<WelterMove> = options
            .iter()
            .filter(|(_, v)| *v == target)
            .map(|(q, _)| WelterMove {
                from: *p.iter().find(|c| !q.contains(c)).expect("a coin moved"),
                to: *q.iter().find(|c| !p.contains(c)).expect("to a new square"),
            })
            .collect();
        expected.sort();
        let solved = analysis.moves_to(target);
        if solved != expected {
            return Some(format!(
                "{p:?}: moves to value {target}: evaluator {expected:?}, formula {solved:?}"
            ));
        }
    }
    None
}

/// Check every position of at most `coins` coins on squares below `max_square`.
pub fn check_all(
    coins: usize,
    max_square: u64,
    progress: Progress<'_>,
) -> Result<CheckReport, Error> {
    // Each position has up to max_square options for the evaluator: budget the product.
    let positions = binomial_sum(coins, max_square);
    check_budget(positions, 2_000_000)?;
    let work = positions.saturating_mul(max_square as u128);
    if work > WORK_BUDGET {
        return Err(Error::Invalid(format!(
            "that range has {positions} positions with up to {max_square} options each; at most {WORK_BUDGET} position-options are checked in one run (choose a smaller range)"
        )));
    }
    let items = all_positions(coins, max_square);
    let scope = format!(
        "every position of at most {coins} coins on squares below {max_square}; value and moves to every value up to value + 1"
    );
    Ok(exhaustive(
        "Sato-Welter game: Welter's formula (Thm 2) and the moves solved from it",
        &scope,
        &items,
        |p| {
            thread_local! {
                static SOLVER: std::cell::RefCell<NormalPlay<Welter>> =
                    std::cell::RefCell::new(NormalPlay::new(Welter));
            }
            SOLVER.with(|s| check(p, &mut s.borrow_mut()))
        },
        progress,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(all_positions(4, 14).len() as u128, binomial_sum(4, 14));
        assert_eq!(binomial_sum(4, 14), 1 + 14 + 91 + 364 + 1001);
        assert_eq!(binomial_sum(5, 3), 8);
        assert_eq!(all_positions(5, 3).len(), 8);
        // any number the user types: no overflow, no loop over the coins that cannot fit
        assert_eq!(binomial_sum(3, u64::MAX), u128::MAX);
        assert_eq!(binomial_sum(usize::MAX, 5), 32);
        assert_eq!(all_positions(usize::MAX, 5).len(), 32);
    }
}
