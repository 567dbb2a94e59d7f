//! The hook-removal game on Young diagrams and its Grundy value — hook paper §3 and §5.
//!
//! A move removes one hook (paper §2). [`HookRemoval`] also plays the restricted game (P, φ_r)
//! in which only hooks of length divisible by `r` may be removed: for `r = 2` this is the
//! paper's "quotient by 2" of §5 (game ② of the four isomorphic descriptions), and in general
//! it is the game φ_r of Proposition 5, since `|φ(λ)|` is the number of boxes and removing a
//! hook of length `h` leaves `|λ| − h` boxes.
//!
//! Two closed forms give the value, and they must agree:
//! - **Welter's formula** (Theorem 2) on the beta-numbers, since the game is the Sato–Welter
//!   game on the beads;
//! - the **hook formula** (Remark 2; "the hook formula for the Sprague–Grundy value" of §5):
//!   `sg(λ) = ⨁_{boxes x} (h(x) ⊕ (h(x) − 1))`. It is Theorem 2 rewritten: the hooks of the
//!   row of bead `b` are `b − b'` for the free squares `b' < b`, and
//!   `⨁_{h=1..b} (h ⊕ (h − 1)) = b` telescopes.

use super::Partition;
use crate::games::welter::Coins;
use crate::{Game, Nimber};

/// The hook-removal game: from a diagram remove any hook whose length is a multiple of
/// `multiple_of` (1: any hook, the Sato–Welter game itself).
#[derive(Debug, Clone, Copy)]
pub struct HookRemoval {
    /// Only hooks of length divisible by this may be removed (at least 1).
    pub multiple_of: u64,
}

impl HookRemoval {
    /// The game removing any hook.
    pub fn any_hook() -> Self {
        HookRemoval { multiple_of: 1 }
    }

    /// The game removing hooks of length divisible by `r` (`r >= 1`).
    pub fn hooks_divisible_by(r: u64) -> Self {
        assert!(r >= 1, "hook lengths are divisible by r >= 1 only");
        HookRemoval { multiple_of: r }
    }
}

impl Game for HookRemoval {
    type Position = Partition;

    fn options(&self, position: &Partition, out: &mut Vec<Partition>) {
        let beta = position.beta_numbers();
        let r = self.multiple_of;
        for (i, &b) in beta.iter().enumerate() {
            let mut h = r;
            while h <= b {
                let target = b - h;
                // `beta` is decreasing: a bead at `target` would be after position i.
                if beta[i + 1..].binary_search_by(|x| target.cmp(x)).is_err() {
                    let mut next = beta.clone();
                    next[i] = target;
                    out.push(
                        Partition::from_beta_numbers(&next)
                            .expect("moving a bead to a free square"),
                    );
                }
                h += r;
            }
        }
    }
}

/// The Grundy value of the hook-removal game by Welter's formula on the beta-numbers.
pub fn grundy_value(p: &Partition) -> Nimber {
    Coins::new(p.beta_numbers())
        .expect("beta-numbers are distinct")
        .grundy_value()
}

/// The Grundy value by the hook formula `⨁_x (h(x) ⊕ (h(x) − 1))`, one term per box (O(boxes)).
pub fn grundy_value_by_hooks(p: &Partition) -> Nimber {
    p.hook_lengths()
        .iter()
        .flatten()
        .fold(0, |acc, &h| acc ^ h ^ (h - 1))
}

/// A move of the hook-removal game read both ways: remove the hook of box (`row`, `column`)
/// (0-based, row 0 on top), of length `hook_length`; on the beta-numbers (as many beads as
/// rows) the bead `bead_from` of that row slides to the free square `bead_to` (hook paper §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct HookMove {
    /// The row of the hook's box.
    pub row: usize,
    /// The column of the hook's box.
    pub column: u64,
    /// The hook's length, `bead_from - bead_to`.
    pub hook_length: u64,
    /// The bead that moves.
    pub bead_from: u64,
    /// The free square it moves to.
    pub bead_to: u64,
}

/// Every winning move of the diagram `p` as a hook to remove: the Sato–Welter winning moves of
/// its beta-numbers (Theorem 2), each turned into the box whose hook the bead's move removes.
pub fn winning_hook_moves(p: &Partition) -> Vec<HookMove> {
    let beta = p.beta_numbers();
    let coins = Coins::new(beta.clone()).expect("beta-numbers are distinct");
    coins
        .winning_moves()
        .into_iter()
        .map(|m| {
            // beta is decreasing; row i holds bead beta[i]
            let row = beta
                .binary_search_by(|b| m.from.cmp(b))
                .expect("a winning move starts on a bead");
            let hook_length = m.from - m.to;
            let column = p
                .box_with_hook(row, hook_length)
                .expect("moving a bead to a free square removes a hook of that row");
            HookMove {
                row,
                column,
                hook_length,
                bead_from: m.from,
                bead_to: m.to,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NormalPlay;

    #[test]
    fn winning_hook_moves_lead_to_value_zero() {
        for n in 0..=9 {
            for p in Partition::all_of(n) {
                let moves = winning_hook_moves(&p);
                assert_eq!(moves.is_empty(), grundy_value(&p) == 0, "{p}");
                for m in moves {
                    assert_eq!(p.hook_length(m.row, m.column), Some(m.hook_length), "{p}");
                    let after = p.remove_hook(m.row, m.column).unwrap();
                    assert_eq!(grundy_value(&after), 0, "{p} -> {after}");
                }
            }
        }
    }

    #[test]
    fn papers_example() {
        let y = Partition::new(vec![10, 10, 8, 6, 5, 5, 3, 1]).unwrap();
        assert_eq!(grundy_value(&y), 28);
        assert_eq!(grundy_value_by_hooks(&y), 28);
    }

    #[test]
    fn options_are_hook_removals() {
        let y = Partition::new(vec![3, 2, 1]).unwrap();
        let mut by_game = HookRemoval::any_hook().options_vec(&y);
        let mut by_boxes = Vec::new();
        for (i, row) in y.hook_lengths().iter().enumerate() {
            for j in 0..row.len() {
                by_boxes.push(y.remove_hook(i, j as u64).unwrap());
            }
        }
        by_game.sort();
        by_boxes.sort();
        assert_eq!(by_game, by_boxes);
        // |φ(λ)| = number of boxes: distinct hooks give distinct diagrams
        by_game.dedup();
        assert_eq!(by_game.len(), 6);
        // even hooks of (3,2,1): none ((3,2,1) is a 2-core)
        assert!(HookRemoval::hooks_divisible_by(2)
            .options_vec(&y)
            .is_empty());
    }

    #[test]
    fn hook_formula_welter_and_brute_force_agree_up_to_12_boxes() {
        let mut solver = NormalPlay::new(HookRemoval::any_hook());
        let mut checked = 0;
        for n in 0..=12 {
            for y in Partition::all_of(n) {
                let brute = solver.grundy_value(&y).unwrap();
                assert_eq!(grundy_value(&y), brute, "{y}");
                assert_eq!(grundy_value_by_hooks(&y), brute, "{y}");
                checked += 1;
            }
        }
        assert_eq!(checked, 272); // p(0) + ... + p(12)
    }
}
