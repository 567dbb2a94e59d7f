//! Game families: each file holds a family's rules (a [`Game`](crate::Game)) and, beside them,
//! the closed forms its paper proves.
//!
//! | family | rules | closed form |
//! |---|---|---|
//! | [`nim`] | take any number from one heap | nim-sum; misère rule (multiplayer paper Thm 2.3) |
//! | [`subtraction`] | take an allowed number from one heap | (sequence by dynamic programming) |
//! | [`wythoff`] | take from one heap, or equally from both | P-positions by the golden ratio |

pub mod heaps;
pub mod nim;
pub mod subtraction;
pub mod welter;
pub mod wythoff;

pub use heaps::{HeapMove, HeapRule, Heaps};
