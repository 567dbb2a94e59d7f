//! Normal play: the Sprague–Grundy value (primer paper §1).
//!
//! `sg(P) = mex{ sg(Q) : Q an option of P }`; a sum's value is the nim-sum of its components'
//! values; `sg(P) = 0` exactly when the player to move loses.

use super::traverse::{Reading, Solver};
use crate::nimber::{MexScratch, Nimber};
use crate::{Error, Game, Outcome};

/// The normal-play reading: mex of the options, nim-sum over components.
#[derive(Debug, Default)]
pub struct Normal {
    scratch: MexScratch,
}

impl<P> Reading<P> for Normal {
    type Value = Nimber;
    fn combine(&mut self, _position: &P, option_values: &[Nimber]) -> Nimber {
        // Fewer than 64 options (the common case): their mex is below 64, so one word of bits
        // holds every value that matters.
        if option_values.len() < 64 {
            let seen = option_values
                .iter()
                .filter(|&&v| v < 64)
                .fold(0u64, |seen, &v| seen | 1 << v);
            return Nimber::from((!seen).trailing_zeros());
        }
        self.scratch.mex(option_values.iter().copied())
    }
    fn uses_components(&self) -> bool {
        true
    }
    fn sum(&mut self, component_values: &[Nimber]) -> Nimber {
        crate::nim_sum(component_values.iter().copied())
    }
}

/// A normal-play evaluator for one game, with its memo table.
pub struct NormalPlay<G: Game> {
    solver: Solver<G, Normal>,
}

impl<G: Game> NormalPlay<G> {
    /// An evaluator for `game`.
    pub fn new(game: G) -> Self {
        NormalPlay {
            solver: Solver::new(game, Normal::default()),
        }
    }

    /// Refuse to explore more than `limit` positions (see [`Solver::with_limit`]).
    pub fn with_limit(self, limit: usize) -> Self {
        NormalPlay {
            solver: self.solver.with_limit(limit),
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        self.solver.game()
    }

    /// Number of positions evaluated so far.
    pub fn positions_evaluated(&self) -> usize {
        self.solver.positions_evaluated()
    }

    /// The Grundy value of `position`.
    pub fn grundy_value(&mut self, position: &G::Position) -> Result<Nimber, Error> {
        self.solver.value(position)
    }

    /// P if the player to move loses, N otherwise.
    pub fn outcome(&mut self, position: &G::Position) -> Result<Outcome, Error> {
        Ok(Outcome::from_value(self.grundy_value(position)?))
    }

    /// Every option with its value, in the game's option order.
    pub fn options_with_values(
        &mut self,
        position: &G::Position,
    ) -> Result<Vec<(G::Position, Nimber)>, Error> {
        self.solver.options_with_values(position)
    }

    /// Every option of value `target`. By the definition of mex such a move exists for every
    /// `target` below the position's value, and never for the value itself.
    pub fn moves_to(
        &mut self,
        position: &G::Position,
        target: Nimber,
    ) -> Result<Vec<G::Position>, Error> {
        Ok(self
            .options_with_values(position)?
            .into_iter()
            .filter(|(_, v)| *v == target)
            .map(|(o, _)| o)
            .collect())
    }

    /// Every winning move: the options of value 0 (empty when the position is a P-position).
    pub fn winning_moves(&mut self, position: &G::Position) -> Result<Vec<G::Position>, Error> {
        self.moves_to(position, 0)
    }
}

/// The Grundy value of one position (a fresh memo table; use [`NormalPlay`] for many).
pub fn grundy_value<G: Game>(game: G, position: &G::Position) -> Result<Nimber, Error> {
    NormalPlay::new(game).grundy_value(position)
}
