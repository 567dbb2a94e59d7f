//! Propp's outcome classes (Propp, "Three-player impartial games", 2000; reference \[3\] of the
//! multiplayer paper, which mentions the classification in §3 without restating it).
//!
//! Propp asks no player to be rational: a player *can win* a position if it has a strategy
//! that makes it the last mover against EVERY way the other players may play (alone or as a
//! coalition). At most one player can win (two such strategies played against each other would
//! both have to succeed). With three players the classes are named after that player, counted
//! from the player to move:
//!
//! - **N**: the Next player (the one to move) can win;
//! - **O**: the Other player (the one moving second) can win;
//! - **P**: the Previous player (the one who moved last, third from now) can win;
//! - **Q**: no single player can win (e.g. Nim `(1, 2)`: the mover cannot win, but chooses
//!   which of the other two does).
//!
//! Our reading, for any number `m` of players, computes the offset `j` (from the mover) of the
//! player who can win, if any. It follows from the definition by induction on the game:
//!
//! - a terminal position: `j = m - 1` (the previous player already moved last);
//! - otherwise the mover (`j = 0`) can win iff SOME option has `j = m - 1` (it moves there and
//!   is then the previous player); a player at `j > 0` can win iff EVERY option has `j - 1`
//!   (whatever the mover does, that player is one step closer to moving).
//!
//! For `m = 3` this is Propp's characterisation: N iff some option is P; O iff the position
//! has options and all are N; P iff it is terminal or all options are O; Q otherwise. For
//! `m = 2` it is normal play (N or P, never Q).
//!
//! Cross-check (tested): player `X` can win exactly when `X` is the last mover under the
//! preference profile in which `X` wants itself first and every other player wants `X` last —
//! the coalition that plays against `X` is then the evaluator of [`super::reading`].

use crate::solve::{Reading, Solver};
use crate::{Error, Game};
use serde::Serialize;

/// Who can force being the last mover: the offset (from the player to move) of that player,
/// or `None` when nobody can.
#[derive(Debug, Clone, Copy)]
pub struct ForcedWinner {
    players: usize,
}

impl ForcedWinner {
    /// The reading for `players` players (at least 2).
    pub fn new(players: usize) -> Result<Self, Error> {
        if !(2..=super::MAX_PLAYERS).contains(&players) {
            return Err(Error::Invalid(format!(
                "the forced-winner reading needs 2..={} players (got {players})",
                super::MAX_PLAYERS
            )));
        }
        Ok(ForcedWinner { players })
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }
}

impl<P> Reading<P> for ForcedWinner {
    /// The offset of the only player who can force being the last mover, if any.
    type Value = Option<u8>;

    fn combine(&mut self, _position: &P, option_values: &[Option<u8>]) -> Option<u8> {
        let previous = (self.players - 1) as u8;
        let Some(first) = option_values.first() else {
            return Some(previous);
        };
        if option_values.contains(&Some(previous)) {
            return Some(0);
        }
        // A player at offset j > 0 wins iff every option has it at offset j - 1.
        match *first {
            Some(j) if option_values.iter().all(|v| *v == Some(j)) => Some(j + 1),
            _ => None,
        }
    }
}

/// Propp's class of a three-player position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum ProppClass {
    /// The Next player (the one to move) can win.
    N,
    /// The Other player (the one moving second) can win.
    O,
    /// The Previous player can win.
    P,
    /// No single player can win.
    Q,
}

impl ProppClass {
    /// The class from the forced winner's offset (three players).
    pub fn from_offset(offset: Option<u8>) -> Self {
        match offset {
            Some(0) => ProppClass::N,
            Some(1) => ProppClass::O,
            Some(_) => ProppClass::P,
            None => ProppClass::Q,
        }
    }

    /// "N", "O", "P" or "Q".
    pub fn as_str(self) -> &'static str {
        match self {
            ProppClass::N => "N",
            ProppClass::O => "O",
            ProppClass::P => "P",
            ProppClass::Q => "Q",
        }
    }

    /// What the class means, in words.
    pub fn meaning(self) -> &'static str {
        match self {
            ProppClass::N => "the player to move can force being the last mover",
            ProppClass::O => "the player moving second can force being the last mover",
            ProppClass::P => "the previous player (moving third) can force being the last mover",
            ProppClass::Q => "no single player can force being the last mover",
        }
    }
}

impl std::fmt::Display for ProppClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<G: Game> Solver<G, ForcedWinner> {
    /// An evaluator of forced winners for `players` players.
    pub fn forced_winner(game: G, players: usize) -> Result<Self, Error> {
        Ok(Solver::new(game, ForcedWinner::new(players)?))
    }

    /// Propp's three-player evaluator.
    pub fn propp(game: G) -> Self {
        Solver::new(game, ForcedWinner { players: 3 })
    }

    /// The offset (from the player to move) of the player who can force being the last mover.
    pub fn forced_winner_offset(&mut self, position: &G::Position) -> Result<Option<usize>, Error> {
        Ok(self.value(position)?.map(usize::from))
    }

    /// Propp's class of `position` (a three-player evaluator is required).
    pub fn propp_class(&mut self, position: &G::Position) -> Result<ProppClass, Error> {
        if self.reading().players() != 3 {
            return Err(Error::Invalid(format!(
                "Propp's classes N, O, P, Q are for 3 players (this evaluator has {})",
                self.reading().players()
            )));
        }
        Ok(ProppClass::from_offset(self.value(position)?))
    }
}

#[cfg(test)]
mod tests {
    use super::super::prefs::Preferences;
    use super::super::tests_support::sorted_tuples;
    use super::*;
    use crate::games::nim::nim;
    use crate::{NormalPlay, Outcome};

    /// The profile in which `x` wants itself first and everybody else wants `x` last (the
    /// rest of each order is arbitrary but fixed).
    fn against(x: usize, m: usize) -> Preferences {
        let orders = (0..m)
            .map(|y| {
                let mut order: Vec<usize> =
                    (0..m).map(|k| (y + k) % m).filter(|&z| z != x).collect();
                if y == x {
                    order.insert(0, x);
                } else {
                    order.push(x);
                }
                order
            })
            .collect();
        Preferences::new(orders).unwrap()
    }

    #[test]
    fn classes_of_small_nim_positions() {
        let mut s = Solver::propp(nim());
        let mut class = |h: &[u64]| s.propp_class(&h.to_vec()).unwrap();
        assert_eq!(class(&[]), ProppClass::P);
        assert_eq!(class(&[1]), ProppClass::N);
        assert_eq!(class(&[1, 1]), ProppClass::O);
        assert_eq!(class(&[1, 1, 1]), ProppClass::P);
        // Propp's (and Loeb's) example: from (1,2) the mover only chooses who wins.
        assert_eq!(class(&[1, 2]), ProppClass::Q);
        assert_eq!(class(&[5]), ProppClass::N);
    }

    #[test]
    fn a_player_can_win_iff_it_wins_against_everybody_else() {
        for m in 2..=4 {
            let mut forced = Solver::forced_winner(nim(), m).unwrap();
            let mut coalitions: Vec<_> = (0..m)
                .map(|x| Solver::multiplayer(nim(), against(x, m)))
                .collect();
            for pos in sorted_tuples(3, if m == 4 { 5 } else { 6 }) {
                let f = forced.forced_winner_offset(&pos).unwrap();
                for (x, solver) in coalitions.iter_mut().enumerate() {
                    let wins = solver.last_mover(&pos, 0).unwrap() == x;
                    assert_eq!(f == Some(x), wins, "m={m} {pos:?} player {x}");
                }
            }
        }
    }

    #[test]
    fn two_players_is_normal_play() {
        let mut forced = Solver::forced_winner(nim(), 2).unwrap();
        let mut normal = NormalPlay::new(nim());
        for pos in sorted_tuples(3, 7) {
            let expected = match normal.outcome(&pos).unwrap() {
                Outcome::N => Some(0),
                Outcome::P => Some(1),
            };
            assert_eq!(
                forced.forced_winner_offset(&pos).unwrap(),
                expected,
                "{pos:?}"
            );
        }
    }

    #[test]
    fn player_counts_are_checked() {
        assert!(ForcedWinner::new(1).is_err());
        assert!(ForcedWinner::new(17).is_err());
        let mut four = Solver::forced_winner(nim(), 4).unwrap();
        assert!(four.propp_class(&vec![1]).is_err());
    }
}
