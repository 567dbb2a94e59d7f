//! Game division — hook paper §4, Theorem 3 (Kayata).
//!
//! For any finite game `(P, φ)` and any integer `a ≥ 1`, write `v(p) = a · Q(p) + R(p)` with
//! `0 ≤ R(p) < a`. The **quotient game** `(P, Qφ)` keeps only the moves that preserve the
//! remainder, `Qφ(p) = {q ∈ φ(p) : R(q) = R(p)}`; the **remainder game** `(P, Rφ)` keeps only
//! the moves that preserve the quotient, `Rφ(p) = {q ∈ φ(p) : Q(q) = Q(p)}`.
//!
//! **Theorem 3.** The Sprague–Grundy function of `(P, Qφ)` is `Q` and that of `(P, Rφ)` is `R`;
//! so `(P, φ) = a (P, Qφ) + (P, Rφ)` in the sense `v = a · v_Q + v_R`.
//!
//! The construction needs `v` itself, so it does not compute values faster (the paper says as
//! much); it is a structural fact, and here it is checked on explicit graphs: [`divide`] builds
//! both games and compares their values with `⌊v/a⌋` and `v mod a` at every node.

use super::GameGraph;
use crate::{Error, Nimber, Result};

/// The quotient and remainder games of a graph for a divisor, with the check of Theorem 3.
#[derive(Debug, Clone)]
pub struct Division {
    /// The divisor `a`.
    pub divisor: u64,
    /// `v` on the original graph.
    pub values: Vec<Nimber>,
    /// The quotient game (moves preserving `v mod a`).
    pub quotient_game: GameGraph,
    /// The remainder game (moves preserving `⌊v / a⌋`).
    pub remainder_game: GameGraph,
    /// Values of the quotient game, node by node.
    pub quotient_values: Vec<Nimber>,
    /// Values of the remainder game, node by node.
    pub remainder_values: Vec<Nimber>,
    /// The first node (by index) where Theorem 3 fails, if any.
    pub first_failure: Option<usize>,
}

impl Division {
    /// Whether Theorem 3 holds at every node.
    pub fn holds(&self) -> bool {
        self.first_failure.is_none()
    }
}

/// Build the quotient and remainder games of `graph` for divisor `a >= 1` and check Theorem 3
/// at every node.
pub fn divide(graph: &GameGraph, a: u64) -> Result<Division> {
    if a == 0 {
        return Err(Error::Invalid(
            "the divisor must be at least 1 (v = a·Q + R)".into(),
        ));
    }
    let values = graph.grundy_values();
    let quotient_game = graph.filter_moves(|p, q| values[q] % a == values[p] % a);
    let remainder_game = graph.filter_moves(|p, q| values[q] / a == values[p] / a);
    let quotient_values = quotient_game.grundy_values();
    let remainder_values = remainder_game.grundy_values();
    let first_failure = (0..graph.len())
        .find(|&i| quotient_values[i] != values[i] / a || remainder_values[i] != values[i] % a);
    Ok(Division {
        divisor: a,
        values,
        quotient_game,
        remainder_game,
        quotient_values,
        remainder_values,
        first_failure,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A random acyclic graph: node i may move to any j < i (edge kept with the given bits).
    fn random_graph(n: usize, edges: &[bool]) -> GameGraph {
        let mut k = 0;
        let options = (0..n)
            .map(|i| {
                (0..i)
                    .filter(|_| {
                        k += 1;
                        edges[(k - 1) % edges.len()]
                    })
                    .collect()
            })
            .collect();
        let names = (0..n).map(|i| i.to_string()).collect();
        GameGraph::new(names, options, n - 1).unwrap()
    }

    #[test]
    fn a_chain_of_nim_heaps() {
        // Heap of 10 as a graph: node i moves to every j < i, values 0..=10.
        let g = random_graph(11, &[true]);
        let d = divide(&g, 3).unwrap();
        assert!(d.holds());
        assert_eq!(
            d.quotient_values,
            (0..=10).map(|v| v / 3).collect::<Vec<_>>()
        );
        assert_eq!(
            d.remainder_values,
            (0..=10).map(|v| v % 3).collect::<Vec<_>>()
        );
        // a = 1: the quotient game is the game, the remainder game has no moves
        let d = divide(&g, 1).unwrap();
        assert!(d.holds());
        assert_eq!(d.quotient_values, d.values);
        assert!(d.remainder_values.iter().all(|&v| v == 0));
        assert!(divide(&g, 0).is_err());
    }

    #[test]
    fn a_deliberately_wrong_division_is_caught() {
        // Keep the remainder-preserving moves for the *remainder* game instead: the check
        // must notice (guards against a check that cannot fail).
        let g = random_graph(11, &[true]);
        let values = g.grundy_values();
        let wrong = g.filter_moves(|p, q| values[q] % 3 == values[p] % 3);
        let wrong_values = wrong.grundy_values();
        assert!((0..g.len()).any(|i| wrong_values[i] != values[i] % 3));
    }

    proptest! {
        #[test]
        fn theorem_3_on_random_graphs(n in 1usize..40, edges in proptest::collection::vec(any::<bool>(), 1..200), a in 1u64..7) {
            let g = random_graph(n, &edges);
            let d = divide(&g, a).unwrap();
            prop_assert!(d.holds(), "fails at node {:?}", d.first_failure);
        }
    }
}
