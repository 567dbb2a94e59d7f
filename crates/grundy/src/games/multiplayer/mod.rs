//! Multiplayer impartial games with preference orders (`multiplayer-nim-preferences.ja.txt`).
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
//!
//! Conventions: players are `0..m` in turn order and player 0 moves first; player numbers in
//! orders and results are absolute. A position is an *i-position* (Def. 4.3) when the last
//! mover is the player `i` turns after the player to move (so with player 0 to move the offset
//! and the last mover coincide). Sums do not behave as in two-player play (§5), so these
//! readings ignore [`Game::components`](crate::Game::components).

pub mod li;
pub mod prefs;
pub mod propp;
pub mod reading;

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
