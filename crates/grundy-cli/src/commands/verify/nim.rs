//! `grundy verify nim`: the nim-sum and misère Nim (Thm 2.3) against the evaluators.

use super::{check_budget, exhaustive, finish, multisets, sorted_tuples};
use crate::common::CliResult;
use grundy::games::nim;
use grundy::solve::Solver;
use grundy::NormalPlay;
use num_bigint::BigUint;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Number of heaps
    #[arg(long, default_value_t = 3)]
    pub heaps: usize,
    /// Heaps range over 0..N-1
    #[arg(long, default_value_t = 12)]
    pub max_heap: u64,
}

pub fn run(args: Args, json: bool) -> CliResult {
    check_budget(multisets(args.max_heap, args.heaps), 20_000_000)?;
    let items = sorted_tuples(args.heaps, args.max_heap);
    let scope = format!("{} heaps, each below {}", args.heaps, args.max_heap);
    let report = exhaustive("Nim: nim-sum and misère Thm 2.3", &scope, &items, |p| {
        thread_local! {
            static SOLVERS: std::cell::RefCell<(NormalPlay<nim::Nim>, Solver<nim::Nim, grundy::solve::Misere>)> =
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
    });
    finish(report, json)
}
