//! The one trait every game implements: rules only, no solving.
//!
//! A game is a set of positions and, for each position, its options (the positions one move
//! reaches). Evaluators in [`crate::solve`] read these rules in different ways (normal play,
//! misère play, several players with preferences) without the game knowing.

use std::fmt::Debug;
use std::hash::Hash;

/// The rules of a finite impartial game.
///
/// Implementations must describe a *finite* game: every play ends. Evaluators detect a loop
/// (a position reachable from itself) and report it as [`crate::Error::Loop`] instead of hanging.
pub trait Game {
    /// A position. Equal positions must have equal options; canonicalise (e.g. sort heaps) so
    /// that the memo table recognises transpositions.
    type Position: Clone + Eq + Hash + Debug;

    /// Every option of `position`, pushed onto `out` (which the caller has cleared).
    fn options(&self, position: &Self::Position, out: &mut Vec<Self::Position>);

    /// Optionally split `position` into two or more independent components, i.e. `position` is
    /// their disjunctive sum and (in normal play) its value is the nim-sum of theirs.
    ///
    /// Return `None` when the position does not split (the default). Misère and multiplayer
    /// evaluators ignore this: sums do not behave there.
    fn components(&self, _position: &Self::Position) -> Option<Vec<Self::Position>> {
        None
    }

    /// Convenience: the options as a fresh vector.
    fn options_vec(&self, position: &Self::Position) -> Vec<Self::Position> {
        let mut out = Vec::new();
        self.options(position, &mut out);
        out
    }
}

impl<G: Game + ?Sized> Game for &G {
    type Position = G::Position;
    fn options(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
        (**self).options(position, out)
    }
    fn components(&self, position: &Self::Position) -> Option<Vec<Self::Position>> {
        (**self).components(position)
    }
}

impl<G: Game + ?Sized> Game for Box<G> {
    type Position = G::Position;
    fn options(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
        (**self).options(position, out)
    }
    fn components(&self, position: &Self::Position) -> Option<Vec<Self::Position>> {
        (**self).components(position)
    }
}

/// Outcome class of a two-player position: `P` (previous player wins: the player to move
/// loses) or `N` (next player, the one to move, wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// The player to move loses.
    P,
    /// The player to move wins.
    N,
}

impl Outcome {
    /// Normal-play outcome of a position with Grundy value `value`.
    pub fn from_value(value: crate::Nimber) -> Self {
        if value == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// "P" or "N".
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::P => "P",
            Outcome::N => "N",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
