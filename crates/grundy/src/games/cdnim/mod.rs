//! m-heap common-divisor Nim (Nohagi; `docs/theory.md` §2).
//!
//! A move subtracts a positive common divisor of *all* heaps from one heap (Definition 2.1).
//! The heaps are not independent games, so the Sprague–Grundy sum theorem does not apply; the
//! paper's Theorem 2.4 nevertheless gives the value in closed form from 2-adic valuations:
//! `sg(P) = lambda(P) + 1` when `iota(P)` is odd, else 0.
//!
//! - [`rules`]: the game for the generic evaluators (machine-word heaps).
//! - [`theorem`]: Theorem 2.4 on heaps of any size.
//! - [`moves`]: every winning move, derived from Theorem 2.4 without exploring positions.
//! - [`options()`]: every option (the paper's N(P)) with its value, for heaps of any size.
//! - [`arith`]: the gcd of many big heaps, factoring its odd part, listing divisors.

pub mod arith;
pub mod moves;
pub mod options;
pub mod rules;
pub mod theorem;

pub use moves::{winning_moves, DivisorMove, WinningMoves};
pub use options::{options, Options};
pub use rules::CommonDivisorNim;
pub use theorem::{grundy_value, grundy_value_u64, ord2, Invariants, ValuationProfile};

/// Every position of `m` heaps below `bound`, in every heap order (for exhaustive tests).
#[cfg(test)]
pub(crate) fn small_positions(m: usize, bound: u64) -> Vec<Vec<u64>> {
    let mut all = vec![vec![]];
    for _ in 0..m {
        all = all
            .into_iter()
            .flat_map(|p: Vec<u64>| {
                (0..bound).map(move |h| {
                    let mut q = p.clone();
                    q.push(h);
                    q
                })
            })
            .collect();
    }
    all
}
