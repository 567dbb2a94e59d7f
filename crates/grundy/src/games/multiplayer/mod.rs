//! Multiplayer impartial games with preference orders (Suetsugu; `docs/theory.md` §4).
//!
//! With three or more players the player to move may be unable to win yet able to choose WHICH
//! other player wins, so "who wins" is not determined by the position alone. The paper fixes
//! this by giving every player a total preference order over who should make the last move
//! (Def. 4.1); play is then fully determined. This module is that idea for ANY game of the
//! [`Game`](crate::Game) trait, not just Nim:
//!
//! | file | what |
//! |---|---|
//! | [`prefs`] | preference profiles (one order per player), the `GAMES(k1..km)` shorthand |
//! | [`reading`] | the evaluator (a [`Reading`](crate::solve::Reading) of the shared traversal): last mover, i-position offset, principal line |
//! | [`li`] | Li's `oplus_m`, Thm 3.1, Thm 4.2 (closed forms for Nim), Thm 4.3's completions |
//! | [`propp`] | Propp's classes N, O, P, Q: who can force being last against everybody |
//! | [`tables`] | fast exhaustive class tables of Nim under every symmetric order, and their file format |
//! | [`explore`] | the search for closed forms over those tables (a small language of candidate statements) |
//! | [`residues`] | teams: orders grouped by residues mod d reduce to d players (ours, with proof) |
//! | [`sums`] | which classes of the parts determine the class of a sum (§5's question) |
//!
//! Conventions: players are `0..m` in turn order and player 0 moves first; player numbers in
//! orders and results are absolute. A position is an *i-position* (Def. 4.3) when the last
//! mover is the player `i` turns after the player to move (so with player 0 to move the offset
//! and the last mover coincide). Sums do not behave as in two-player play (§5), so these
//! readings ignore [`Game::components`](crate::Game::components).
//!
//! ```
//! use grundy::games::multiplayer::{oplus_m, Preferences};
//! use grundy::games::nim::nim;
//! use grundy::solve::Solver;
//!
//! // §5 of the paper: under GAMES(0,1,2), Nim (2,2,2) is a 2-position ...
//! let mut solver = Solver::multiplayer(nim(), Preferences::games(&[0, 1, 2]).unwrap());
//! assert_eq!(solver.position_offset(&vec![2, 2, 2], 0).unwrap(), 2);
//! // ... and player 0 moves to (2,2,1,1,3) from (2,2,2,1,3), where oplus_3 = 0.
//! let play = solver.play(&vec![1, 2, 2, 2, 3], 0).unwrap();
//! assert_eq!(play.line[0].position, vec![1, 1, 2, 2, 3]);
//! assert_eq!(oplus_m(&[2u32, 2, 1, 1, 3].map(Into::into), 3), 0u32.into());
//! // Propp's class: nobody can force a win from (1,2).
//! let mut propp = Solver::propp(nim());
//! assert_eq!(propp.propp_class(&vec![1, 2]).unwrap().as_str(), "Q");
//! ```

pub mod explore;
pub mod li;
pub mod prefs;
pub mod propp;
pub mod reading;
pub mod residues;
pub mod sums;
pub mod tables;

pub use li::{li_previous_player_wins, oplus_m, thm_4_2_is_target, thm_4_2_offset};
pub use prefs::{Preferences, MAX_PLAYERS};
pub use propp::{ForcedWinner, ProppClass};
pub use reading::{LastMover, LastMovers, LineMove, Play};

#[cfg(test)]
pub(crate) mod tests_support {
    /// Every non-decreasing tuple of `k` heaps in `0..max` (each Nim position up to order).
    pub fn sorted_tuples(k: usize, max: u64) -> Vec<Vec<u64>> {
        let mut out = vec![Vec::new()];
        for _ in 0..k {
            out = out
                .into_iter()
                .flat_map(|t: Vec<u64>| {
                    let lo = t.last().copied().unwrap_or(0);
                    (lo..max).map(move |h| {
                        let mut u = t.clone();
                        u.push(h);
                        u
                    })
                })
                .collect();
        }
        out
    }
}
