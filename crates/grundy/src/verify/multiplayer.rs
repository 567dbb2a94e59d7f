//! Multiplayer Nim: Thm 4.2 (every i) and Thm 4.3 (exactly one completing heap)
//! of the multiplayer paper, against the preference evaluator, on every small Nim position.

use super::{exhaustive, sorted_tuples, CheckReport, Progress};
use crate::games::multiplayer::{li, LastMover, Preferences, MAX_PLAYERS};
use crate::games::nim::{nim, Nim};
use crate::solve::Solver;
use crate::Error;
use num_bigint::BigUint;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};

/// Most positions the memo tables of one thread may hold (over the m profiles).
pub const SOLVER_BUDGET: u128 = 4_000_000;

/// Both checks (the keys of `grundy verify multiplayer --json`).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub players: usize,
    pub heaps: usize,
    pub max_heap: u64,
    pub holds: bool,
    pub checks: Vec<CheckReport>,
    /// The largest `n_k - sum(prefix)` over the completions Thm 4.3's check found (how close
    /// the searched range `0..=sum + 2m` came to being too small).
    pub largest_completion_excess: Option<i64>,
}

/// Which family of profiles a thread-local solver belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Family {
    /// Thm 4.2: GAMES(i, i+1, ..., i-1).
    Rotation,
    /// Thm 4.3: GAMES(i, i-1, ..., i+1).
    Descending,
}

/// The evaluators of one thread: for each (family, m), one per profile i = 0..m.
type Solvers = HashMap<(Family, usize), Vec<Solver<Nim, LastMover>>>;

thread_local! {
    static SOLVERS: RefCell<Solvers> = RefCell::new(HashMap::new());
}

/// Run `f` with this thread's solvers for the m profiles of `family` (i = 0..m).
fn with_solvers<T>(
    family: Family,
    m: usize,
    f: impl FnOnce(&mut [Solver<Nim, LastMover>]) -> T,
) -> T {
    SOLVERS.with(|cell| {
        let mut map = cell.borrow_mut();
        let solvers = map.entry((family, m)).or_insert_with(|| {
            (0..m)
                .map(|i| {
                    let prefs = match family {
                        Family::Rotation => Preferences::rotation(m, i),
                        Family::Descending => Preferences::descending(m, i),
                    };
                    Solver::multiplayer(nim(), prefs.expect("valid m and i"))
                })
                .collect()
        });
        f(solvers)
    })
}

fn binomial(n: u128, k: u128) -> u128 {
    (0..k).fold(1u128, |acc, j| acc.saturating_mul(n - j) / (j + 1))
}

/// Check Thm 4.2 on every position of `heaps` heaps below `max_heap` and Thm 4.3 on every
/// prefix of `heaps - 1` heaps, for `players` players and every profile i.
pub fn check_all(
    players: u64,
    heaps: u64,
    max_heap: u64,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    let (m, k, max) = (players as usize, heaps, max_heap);
    if !(2..=MAX_PLAYERS as u64).contains(&players) {
        return Err(Error::Invalid(format!(
            "--players must be between 2 and {MAX_PLAYERS} (got {m})"
        )));
    }
    if k == 0 || max == 0 {
        return Err(Error::Invalid(
            "--heaps and --max-heap must be at least 1 (nothing would be checked)".into(),
        ));
    }
    if k > 64 {
        return Err(Error::Invalid(format!(
            "--heaps {k} is too many (at most 64)"
        )));
    }
    let k = k as usize;
    // Memo sizes per thread, over the m profiles: Thm 4.2 stores every sorted k-tuple below
    // max; Thm 4.3 stores positions made of k-1 heaps below max and one heap up to
    // (k-1)(max-1) + 2m (the largest n_k searched).
    let stored_42 = binomial(max as u128 + k as u128 - 1, k as u128);
    let last = (k as u128 - 1) * (max as u128 - 1) + 2 * m as u128;
    let stored_43 = binomial(max as u128 + k as u128 - 2, k as u128 - 1).saturating_mul(last + 1);
    let stored = stored_42.max(stored_43).saturating_mul(m as u128);
    if stored > SOLVER_BUDGET {
        return Err(Error::Invalid(format!(
            "that range would keep up to {stored} positions in memory (at most {SOLVER_BUDGET}); choose fewer heaps, a smaller --max-heap or fewer players"
        )));
    }
    let positions = sorted_tuples(k, max);
    let scope = format!(
        "{k} heaps each below {max}; profiles GAMES(i, i+1, ..., i-1) for every i in 0..{m}"
    );
    let thm_4_2 = exhaustive(
        &format!("Thm 4.2 (m = {m}, every i)"),
        &scope,
        &positions,
        |p| {
            let big: Vec<BigUint> = p.iter().map(|&h| h.into()).collect();
            with_solvers(Family::Rotation, m, |solvers| {
                for (i, solver) in solvers.iter_mut().enumerate() {
                    let target = li::thm_4_2_offset(m, i);
                    let offset = match solver.position_offset(p, 0) {
                        Ok(o) => o,
                        Err(e) => return Some(format!("{p:?}: evaluator failed: {e}")),
                    };
                    let closed = li::thm_4_2_is_target(&big, m as u32, i as u32);
                    if (offset == target) != closed {
                        return Some(format!(
                            "{p:?} under GAMES rotation i = {i}: evaluator says a {offset}-position, \
                             Thm 4.2 says {}a {target}-position",
                            if closed { "" } else { "not " }
                        ));
                    }
                }
                None
            })
        },
        progress,
    );

    let prefixes = sorted_tuples(k - 1, max);
    let scope = format!(
        "{} heap{} each below {max}, completed by n_k in 0..=sum+{}; profiles GAMES(i, i-1, ..., i+1) for every i in 0..{m}",
        k - 1,
        if k == 2 { "" } else { "s" },
        2 * m
    );
    let largest_excess = AtomicI64::new(i64::MIN);
    let thm_4_3 = exhaustive(
        &format!("Thm 4.3 (m = {m}, every i): exactly one n_k"),
        &scope,
        &prefixes,
        |prefix| {
            with_solvers(Family::Descending, m, |solvers| {
                for (i, solver) in solvers.iter_mut().enumerate() {
                    let target = li::thm_4_2_offset(m, i);
                    let range = li::completion_range(prefix, m);
                    let shown = format!("{}..={}", range.start, range.end - 1);
                    let found = match li::completions(solver, prefix, range, target) {
                        Ok(f) => f,
                        Err(e) => return Some(format!("{prefix:?}: evaluator failed: {e}")),
                    };
                    let sum: u64 = prefix.iter().sum();
                    for &n in &found {
                        largest_excess.fetch_max(n as i64 - sum as i64, Ordering::Relaxed);
                    }
                    if found.len() != 1 {
                        return Some(format!(
                            "prefix {prefix:?} under GAMES descending i = {i}: n_k in {shown} making a {target}-position: {found:?} (expected exactly one)"
                        ));
                    }
                }
                None
            })
        },
        progress,
    );

    Ok(Report {
        players: m,
        heaps: k,
        max_heap: max,
        holds: thm_4_2.holds && thm_4_3.holds,
        checks: vec![thm_4_2, thm_4_3],
        largest_completion_excess: Some(largest_excess.into_inner()).filter(|&x| x != i64::MIN),
    })
}

#[cfg(test)]
mod tests {
    use super::binomial;

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(10, 0), 1);
        assert_eq!(binomial(19, 3), 969);
    }
}
