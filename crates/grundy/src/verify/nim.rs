//! Nim: the nim-sum and the misère rule (multiplayer paper, Thm 2.3) against the normal-play
//! and misère evaluators, on every position of `heaps` heaps below `max_heap` (up to order).

use super::{check_budget, exhaustive, multisets, sorted_tuples, CheckReport, Progress};
use crate::games::nim;
use crate::solve::Solver;
use crate::{Error, NormalPlay};
use num_bigint::BigUint;

/// Most positions one check covers.
pub const BUDGET: u128 = 20_000_000;

/// Check every position of `heaps` heaps, each below `max_heap`.
pub fn check_all(
    heaps: usize,
    max_heap: u64,
    progress: Progress<'_>,
) -> Result<CheckReport, Error> {
    check_budget(multisets(max_heap, heaps), BUDGET)?;
    let items = sorted_tuples(heaps, max_heap);
    let scope = format!("{heaps} heaps, each below {max_heap}");
    let check_one = |p: &Vec<u64>| {
        thread_local! {
            static SOLVERS: std::cell::RefCell<(NormalPlay<nim::Nim>, Solver<nim::Nim, crate::solve::Misere>)> =
                std::cell::RefCell::new((NormalPlay::new(nim::nim()), Solver::misere(nim::nim())));
        }
        SOLVERS.with(|s| {
            let (normal, misere) = &mut *s.borrow_mut();
            let big: Vec<BigUint> = p.iter().map(|&h| h.into()).collect();
            let v = match normal.grundy_value(p) {
                Ok(v) => v,
                Err(e) => return Some(format!("{p:?}: evaluator failed: {e}")),
            };
            if BigUint::from(v) != nim::nim_value(&big) {
                return Some(format!(
                    "{p:?}: evaluator {v}, nim-sum {}",
                    nim::nim_value(&big)
                ));
            }
            let m = match misere.value(p) {
                Ok(m) => m,
                Err(e) => return Some(format!("{p:?}: misère evaluator failed: {e}")),
            };
            (m != nim::misere_outcome(&big)).then(|| {
                format!(
                    "{p:?}: misère evaluator {m}, Thm 2.3 {}",
                    nim::misere_outcome(&big)
                )
            })
        })
    };
    Ok(exhaustive(
        "Nim: nim-sum and misère Thm 2.3",
        &scope,
        &items,
        check_one,
        progress,
    ))
}
