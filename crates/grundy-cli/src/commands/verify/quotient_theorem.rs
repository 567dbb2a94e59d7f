//! `grundy verify quotient-theorem`: Theorem 4 of the hook paper on every Young diagram up to a
//! number of boxes — each of its three terms by brute force (the evaluator on the hook-removal
//! game, on the even-hook game, on the 2-core) against the closed forms (Welter's formula, the
//! hook formula, the two halves, the parity of the number of boxes).

use super::{check_budget, exhaustive, finish};
use crate::common::CliResult;
use grundy::young::{self, HookRemoval, Partition};
use grundy::NormalPlay;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Every Young diagram with at most N boxes
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub max_boxes: u64,
}

/// Number of partitions of 0..=n (Euler's recurrence would do; a DP table is plenty).
fn partitions_up_to(n: u64) -> u128 {
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

struct Solvers {
    any: NormalPlay<HookRemoval>,
    even: NormalPlay<HookRemoval>,
}

fn check(p: &Partition, s: &mut Solvers) -> Option<String> {
    let t = young::quotient_theorem(p);
    let v = s.any.grundy_value(p).ok()?;
    let v2 = s.even.grundy_value(p).ok()?;
    let vc = s.any.grundy_value(&t.two_core).ok()?;
    let hooks = young::grundy_value_by_hooks(p);
    if v != t.grundy_value || v != hooks {
        return Some(format!(
            "{p}: evaluator {v}, Welter's formula {}, hook formula {hooks}",
            t.grundy_value
        ));
    }
    if v2 != t.even_hook_value {
        return Some(format!(
            "{p}: even-hook game: evaluator {v2}, v(p0) xor v(p1) = {}",
            t.even_hook_value
        ));
    }
    if vc != t.two_core_value || vc != p.boxes() % 2 {
        return Some(format!(
            "{p}: 2-core {}: evaluator {vc}, boxes mod 2 = {}",
            t.two_core,
            p.boxes() % 2
        ));
    }
    if v != 2 * v2 + vc || !t.holds {
        return Some(format!(
            "{p}: v = {v} but 2·v_phi2 + v(p^2) = 2·{v2} + {vc} (stone rule m = {})",
            t.stone_difference
        ));
    }
    None
}

pub fn run(args: Args, json: bool) -> CliResult {
    check_budget(partitions_up_to(args.max_boxes), 2_000_000)?;
    let items: Vec<Partition> = (0..=args.max_boxes).flat_map(Partition::all_of).collect();
    let scope = format!("every Young diagram of at most {} boxes", args.max_boxes);
    let report = exhaustive(
        "Quotient theorem (Thm 4): v(p) = 2 v_phi2(p) + v(p^2), each term by brute force",
        &scope,
        &items,
        |p| {
            thread_local! {
                static SOLVERS: std::cell::RefCell<Solvers> = std::cell::RefCell::new(Solvers {
                    any: NormalPlay::new(HookRemoval::any_hook()),
                    even: NormalPlay::new(HookRemoval::hooks_divisible_by(2)),
                });
            }
            SOLVERS.with(|s| check(p, &mut s.borrow_mut()))
        },
    );
    finish(report, json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_counts() {
        assert_eq!(partitions_up_to(0), 1);
        assert_eq!(partitions_up_to(12), 272);
        let listed: usize = (0..=12).map(|n| Partition::all_of(n).len()).sum();
        assert_eq!(listed, 272);
    }
}
