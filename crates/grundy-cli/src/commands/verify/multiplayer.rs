//! `grundy verify multiplayer`: Thm 4.2 (every i) and Thm 4.3 (exactly one completing heap)
//! of the multiplayer paper, against the preference evaluator, on every small Nim position.

use super::{exhaustive, sorted_tuples, CheckReport};
use crate::common::{emit, parse_u64, CliError, CliResult};
use grundy::games::multiplayer::{li, LastMover, Preferences, MAX_PLAYERS};
use grundy::games::nim::{nim, Nim};
use grundy::solve::Solver;
use num_bigint::BigUint;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};

/// Most positions the memo tables of one thread may hold (over the m profiles).
const SOLVER_BUDGET: u128 = 4_000_000;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Number of players M (2..=16)
    #[arg(long, default_value = "3")]
    pub players: String,
    /// Number of heaps K (Thm 4.3 completes K-1 heaps with a K-th)
    #[arg(long, default_value = "3")]
    pub heaps: String,
    /// Heaps range over 0..N-1
    #[arg(long, default_value = "8")]
    pub max_heap: String,
}

#[derive(Serialize)]
struct Report {
    players: usize,
    heaps: usize,
    max_heap: u64,
    holds: bool,
    checks: Vec<CheckReport>,
    /// The largest `n_k - sum(prefix)` over the completions Thm 4.3's check found (how close
    /// the searched range `0..=sum + 2m` came to being too small).
    largest_completion_excess: Option<i64>,
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

pub fn run(args: Args, json: bool) -> CliResult {
    let m = parse_u64("player count", &args.players)? as usize;
    let k = parse_u64("heap count", &args.heaps)?;
    let max = parse_u64("heap bound", &args.max_heap)?;
    if !(2..=MAX_PLAYERS).contains(&m) {
        return Err(CliError::input(format!(
            "--players must be between 2 and {MAX_PLAYERS} (got {m})"
        )));
    }
    if k == 0 || max == 0 {
        return Err(CliError::input(
            "--heaps and --max-heap must be at least 1 (nothing would be checked)",
        ));
    }
    if k > 64 {
        return Err(CliError::input(format!(
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
        return Err(CliError::input(format!(
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
    );

    let report = Report {
        players: m,
        heaps: k,
        max_heap: max,
        holds: thm_4_2.holds && thm_4_3.holds,
        checks: vec![thm_4_2, thm_4_3],
        largest_completion_excess: Some(largest_excess.into_inner()).filter(|&x| x != i64::MIN),
    };
    emit(json, &report, || {
        let mut s = String::new();
        for c in &report.checks {
            s.push_str(&format!(
                "{}: {} {} checked ({})\n",
                c.check,
                c.positions_checked,
                if c.check.starts_with("Thm 4.3") {
                    "prefixes"
                } else {
                    "positions"
                },
                c.scope
            ));
            match &c.counterexample {
                None => s.push_str("  holds: yes, no counterexample\n"),
                Some(x) => s.push_str(&format!("  holds: NO; first counterexample: {x}\n")),
            }
        }
        if let Some(x) = report.largest_completion_excess {
            s.push_str(&format!(
                "largest completing n_k found: sum(prefix) {} {}\n",
                if x < 0 { '-' } else { '+' },
                x.abs()
            ));
        }
        s
    })?;
    if report.holds {
        Ok(())
    } else {
        Err(CliError::check_failed("a counterexample was found"))
    }
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
