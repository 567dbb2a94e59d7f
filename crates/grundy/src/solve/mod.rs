//! Evaluators: several readings of the one [`Game`](crate::Game) trait.
//!
//! All of them share one traversal ([`traverse::Solver`]): an iterative depth-first search with
//! an explicit stack (a million-deep chain does not overflow the call stack), a memo table
//! keyed by position, and loop detection. What differs is the [`Reading`]: how the values of a
//! position's options combine into its own value.
//!
//! - [`normal`]: Sprague–Grundy values (normal play), outcomes, winning moves, moves to a target.
//! - [`misere`]: misère outcomes (the player who cannot move wins).
//! - [`misere_genus`]: Conway's genus and misère Grundy values of the heaps of a heap game.
//! - [`misere_quotient`]: misère quotients of heap games (Plambeck–Siegel), certified by
//!   the periodicity theorem when the pretending function repeats long enough.
//! - [`pruned`]: the pruned search (outcome and "is the value v?" queries that stop early,
//!   components, canonical forms, a transposition table with a memory budget) for large games.
//!
//! Multiplayer readings live beside their paper's family in `games::multiplayer`.

pub mod loopy;
pub mod misere;
pub mod misere_genus;
pub mod misere_quotient;
pub mod normal;
pub mod pruned;
pub mod traverse;

pub use misere::{misere_outcome, Misere};
pub use normal::{grundy_value, Normal, NormalPlay};
pub use pruned::PrunedSolver;
pub use traverse::{Reading, Solver};
