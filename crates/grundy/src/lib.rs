//! # grundy
//!
//! Sprague–Grundy values, outcomes and winning moves of impartial combinatorial games, with the
//! closed forms of our five source papers (cited and stated in `docs/theory.md` in the repository).
//!
//! The crate is organised around one idea: every game is *rules only* ([`Game`]: positions and
//! their options), and several evaluators in [`solve`] read those rules (normal play, misère
//! play, ...). Each family in [`games`] keeps its rules and its paper's closed form side by side,
//! and tests compare the two on every small position.
//!
//! | where | what |
//! |---|---|
//! | [`nimber`] | mex, nim-sum |
//! | [`game`] | the [`Game`] trait, [`Outcome`] |
//! | [`solve`] | the shared traversal; normal-play and misère evaluators |
//! | [`graph`] | explicit finite game graphs: JSON, DOT, exploring a game |
//! | [`games`] | Nim, subtraction games, Wythoff's game, ...; the registry of families by name |
//! | [`takebreak`] | take-and-break codes, Grundy sequences, periods, transforms |
//! | [`young`] | Young diagrams: beta-numbers, hooks, cores, quotients, the hook-removal game |
//! | [`play`] | the rules of play against a perfect opponent, per family |
//! | [`verify`] | exhaustive checks of the papers' closed forms against the evaluators |
//! | [`text`] | reading typed numbers; quoting input in one-line messages |

pub mod game;
pub mod games;
pub mod graph;
pub mod nimber;
pub mod play;
pub mod solve;
pub mod takebreak;
pub mod text;
pub mod verify;
pub mod young;

pub use game::{Game, LabelledMoves, OptionParts, Outcome};
pub use nimber::{mex, nim_sum, MexScratch, Nimber};
pub use solve::{grundy_value, misere_outcome, NormalPlay};

/// Errors the library reports instead of panicking or hanging.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// The game is not finite: a position can be reached from itself.
    #[error(
        "the game has a loop: position {0} can be reached from itself, so it is not a finite game"
    )]
    Loop(String),
    /// A brute-force computation was refused because it would be too large.
    #[error("{0}")]
    TooLarge(String),
    /// Malformed input (a game graph file, a code, a position).
    #[error("{0}")]
    Invalid(String),
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
