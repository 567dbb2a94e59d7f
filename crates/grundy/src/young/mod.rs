//! Young diagrams and the hook-removal game — hook paper §2–§5 (`docs/theory.md` §5).
//!
//! The paper's point is that the Sato–Welter game *is* the game of removing hooks from a Young
//! diagram (the coins are the beta-numbers), and that the diagram view is the fundamental one:
//! cores, quotients and hook lengths explain the Grundy value. This module keeps the diagram
//! side:
//!
//! | module | what |
//! |---|---|
//! | [`partition`] | partitions, beta-numbers (any number of beads), hook lengths, hook removal |
//! | [`abacus`] | r-core and r-quotient (SageMath's component order) |
//! | [`hook_game`] | the hook-removal game (any hook, or hooks divisible by r); value by Welter's formula and by the hook formula |
//! | [`quotient_theorem`](mod@quotient_theorem) | Theorem 4: `v(p) = 2 v_{φ₂}(p) + v(p²)` |
//! | [`picture`] | what a picture of a diagram shows (hook lengths, even hooks, winning hooks), for every front end |
//!
//! The Sato–Welter game on coins is in [`crate::games::welter`]; the plain-game axioms that
//! this game satisfies are in [`crate::graph::plain`].

pub mod abacus;
pub mod hook_game;
pub mod partition;
pub mod picture;
pub mod quotient_theorem;

pub use abacus::{core, quotient};
pub use hook_game::{
    grundy_value, grundy_value_by_hooks, winning_hook_moves, HookMove, HookRemoval,
};
pub use partition::Partition;
pub use picture::{picture_boxes, PictureBox, MAX_PICTURE_SIDE};
pub use quotient_theorem::{quotient_theorem, QuotientTheorem};
