//! Misère play: the player who makes the last move LOSES.
//!
//! A terminal position is an N-position (the player to move cannot move, and so wins); any
//! other position is N exactly when some option is P. Components are ignored: misère values
//! do not add by nim-sum.

use super::traverse::{Reading, Solver};
use crate::{Error, Game, Outcome};

/// The misère reading: outcome classes under the misère convention.
#[derive(Debug, Default, Clone, Copy)]
pub struct Misere;

impl<P> Reading<P> for Misere {
    type Value = Outcome;
    fn combine(&mut self, _position: &P, option_values: &[Outcome]) -> Outcome {
        if option_values.is_empty() || option_values.contains(&Outcome::P) {
            Outcome::N
        } else {
            Outcome::P
        }
    }
}

impl<G: Game> Solver<G, Misere> {
    /// A misère evaluator for `game`.
    pub fn misere(game: G) -> Self {
        Solver::new(game, Misere)
    }

    /// Every misère winning move: options that are misère P-positions.
    pub fn misere_winning_moves(
        &mut self,
        position: &G::Position,
    ) -> Result<Vec<G::Position>, Error> {
        Ok(self
            .options_with_values(position)?
            .into_iter()
            .filter(|(_, v)| *v == Outcome::P)
            .map(|(o, _)| o)
            .collect())
    }
}

/// The misère outcome of one position.
pub fn misere_outcome<G: Game>(game: G, position: &G::Position) -> Result<Outcome, Error> {
    Solver::misere(game).value(position)
}
