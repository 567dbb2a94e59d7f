//! Game families: each file holds a family's rules (a [`Game`](crate::Game)) and, beside them,
//! the closed forms its paper proves.
//!
//! | family | rules | closed form |
//! |---|---|---|
//! | [`nim`] | take any number from one heap | nim-sum; misère rule (multiplayer paper Thm 2.3) |
//! | [`subtraction`] | take an allowed number from one heap | (sequence by dynamic programming) |
//! | [`multiplayer`] | any game, m players with preference orders | Li's mod-m sum (Thms 3.1, 4.2) |
//! | [`loopy_subtraction`] | take from a heap or add tokens back, under a cap (loopy) | (γ by labelling) |
//! | [`wythoff`] | take from one heap, or equally from both | P-positions by the golden ratio |
//! | [`cram`] | place a domino on two adjacent empty cells | 0 on half-turn-symmetric boards |
//! | [`chomp`] | bite a square and all above-right of it | (rectangles are N: strategy stealing) |
//!
//! [`registry`] maps a family's name (`nim`, `subtraction:1,3,4`, `takebreak:0.77`, `cdnim`) to its rules.

pub mod cdnim;
pub mod chomp;
pub mod cram;
pub mod grid;
pub mod heaps;
pub mod loopy_subtraction;
pub mod multiplayer;
pub mod nim;
pub mod registry;
pub mod subtraction;
pub mod welter;
pub mod wythoff;

pub use heaps::{HeapMove, HeapRule, Heaps};
