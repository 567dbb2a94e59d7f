//! Young diagrams: Theorem 4 of the hook paper on every Young diagram up to a
//! number of boxes — each of its three terms by brute force (the evaluator on the hook-removal
//! game, on the even-hook game, on the 2-core) against the closed forms (Welter's formula, the
//! hook formula, the two halves, the parity of the number of boxes).

use super::{check_budget, exhaustive, CheckReport, Progress};
use crate::young::{self, HookRemoval, Partition};
use crate::{Error, NormalPlay};

struct Solvers {
    any: NormalPlay<HookRemoval>,
    even: NormalPlay<HookRemoval>,
}

fn check(p: &Partition, s: &mut Solvers) -> Option<String> {
    let t = match young::quotient_theorem(p) {
        Ok(t) => t,
        Err(e) => return Some(format!("{p}: the quotient theorem's terms failed: {e}")),
    };
    let (v, v2) = match (s.any.grundy_value(p), s.even.grundy_value(p)) {
        (Ok(v), Ok(v2)) => (v, v2),
        (Err(e), _) | (_, Err(e)) => return Some(format!("{p}: the evaluator failed: {e}")),
    };
    let vc = match s.any.grundy_value(&t.two_core) {
        Ok(v) => v,
        Err(e) => return Some(format!("{p}: the evaluator failed on the 2-core: {e}")),
    };
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

/// Above this many boxes the partitions alone exceed the budget (p(0) + ... + p(60) is 6,639,349), so larger requests are refused before any table is built.
pub const MAX_BOXES: u64 = 60;

/// Check every Young diagram of at most `max_boxes` boxes.
pub fn check_all(max_boxes: u64, progress: Progress<'_>) -> Result<CheckReport, Error> {
    if max_boxes > MAX_BOXES {
        return Err(Error::Invalid(format!(
            "--max-boxes {max_boxes} is too large: at most {MAX_BOXES} (the diagrams are enumerated one by one)"
        )));
    }
    check_budget(Partition::count_up_to(max_boxes), 2_000_000)?;
    let items: Vec<Partition> = (0..=max_boxes).flat_map(Partition::all_of).collect();
    let scope = format!("every Young diagram of at most {max_boxes} boxes");
    Ok(exhaustive(
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
        progress,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_counts() {
        assert_eq!(Partition::count_up_to(0), 1);
        assert_eq!(Partition::count_up_to(12), 272);
        let listed: usize = (0..=12).map(|n| Partition::all_of(n).len()).sum();
        assert_eq!(listed, 272);
    }
}
