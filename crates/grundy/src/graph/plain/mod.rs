//! Plain games — hook paper §6 ("games with hook structure").
//!
//! The paper abstracts what makes the Sato–Welter game special: a *plain game* is a finite game
//! satisfying three axioms about cubes and squares ([`axioms`]: PG1–PG3, quoted there). For such
//! a game the options of a position form a "diagram" with hooks, exactly as the boxes of a Young
//! diagram do, and the binary expansion of the Grundy value can be read off the game:
//!
//! - **Diagram** (Definition 3): `Y_p = φ(p)` as a subgame; by Theorem 5 (fundamental theorem,
//!   (i)) it is itself plain, and (ii) it determines `⟨p⟩` up to isomorphism.
//! - **Hook** (Definition 3): `H_p(x) = {x} ∪ {a ∈ Y_p : x ∈ φ(a)}` for `x ∈ Y_p`.
//! - **Proposition 4**: `|Y_x| = |Y_p| − |H_p(x)|` for `x ∈ φ(p)` — moving to `x` removes the
//!   hook of `x` from the diagram.
//! - **Proposition 5**: `φ_r(p) = {x ∈ φ(p) : |φ(p)| ≡ |φ(x)| (mod r)}` is again a plain game;
//!   by Proposition 3 the principal game `⟨p⟩_r` has a unique terminal position `p^r`
//!   (generalising the r-core).
//! - **Theorem 5** (quotient theorem for plain games; the paper numbers it 5 as well):
//!   `v(p) = 2 · v_{φ₂}(p) + v(p²)`, and `v(p²) = |φ(p)| mod 2`.
//!
//! For the Young-diagram game `Y_p` is the Young diagram itself (its boxes are the options, one
//! per hook), `H_p(x)` is the hook of a box, `φ_r` removes hooks of length divisible by `r`,
//! `p^r` is the r-core and Theorem 5 is Theorem 4. The tests check all of this on the explored
//! hook-removal game, and a small non-plain game is rejected with the axiom it breaks.

pub mod axioms;

pub use axioms::{check_axioms, Axiom, Violation};

use super::GameGraph;
use crate::{Nimber, Result};
use serde::Serialize;

/// Default step budget for [`check_axioms`] in the convenience functions.
pub const DEFAULT_STEP_LIMIT: u64 = 1_000_000_000;

/// Options and "parents" of every node as sorted, duplicate-free lists (the paper's `φ(p)` is
/// a set), for quick membership tests.
pub(crate) struct Moves {
    options: Vec<Vec<usize>>,
    parents: Vec<Vec<usize>>,
}

impl Moves {
    pub(crate) fn new(graph: &GameGraph) -> Self {
        let n = graph.len();
        let mut options: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                let mut o = graph.options_of(i).to_vec();
                o.sort_unstable();
                o.dedup();
                o
            })
            .collect();
        options.shrink_to_fit();
        let mut parents = vec![Vec::new(); n];
        for (i, opts) in options.iter().enumerate() {
            for &j in opts {
                parents[j].push(i);
            }
        }
        Moves { options, parents }
    }
    /// `φ(p)`, sorted.
    pub(crate) fn options(&self, p: usize) -> &[usize] {
        &self.options[p]
    }
    /// `{a : p ∈ φ(a)}`, sorted.
    pub(crate) fn parents(&self, p: usize) -> &[usize] {
        &self.parents[p]
    }
    /// `q ∈ φ(p)`.
    pub(crate) fn has(&self, p: usize, q: usize) -> bool {
        self.options[p].binary_search(&q).is_ok()
    }
    /// One move apart, in either direction.
    pub(crate) fn adjacent(&self, a: usize, b: usize) -> bool {
        self.has(a, b) || self.has(b, a)
    }
}

/// Whether `graph` is a plain game (PG1–PG3), with the default step limit.
pub fn is_plain(graph: &GameGraph) -> Result<bool> {
    Ok(check_axioms(graph, DEFAULT_STEP_LIMIT)?.is_none())
}

/// The subgame of `graph` on `nodes` (induced moves; node `k` of the result is `nodes[k]`), or
/// `None` for an empty set.
pub fn subgame(graph: &GameGraph, nodes: &[usize]) -> Option<GameGraph> {
    if nodes.is_empty() {
        return None;
    }
    let index: rustc_hash::FxHashMap<usize, usize> =
        nodes.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let names = nodes.iter().map(|&i| graph.name(i).to_owned()).collect();
    let options = nodes
        .iter()
        .map(|&i| {
            let mut o: Vec<usize> = graph
                .options_of(i)
                .iter()
                .filter_map(|j| index.get(j).copied())
                .collect();
            o.sort_unstable();
            o.dedup();
            o
        })
        .collect();
    Some(GameGraph::new(names, options, 0).expect("a subgame of an acyclic graph is acyclic"))
}

/// The diagram `Y_p` of a position and the hooks of its cells (Definition 3).
#[derive(Debug, Clone)]
pub struct Diagram {
    /// The position `p`.
    pub position: usize,
    /// The cells: `φ(p)`, sorted by node index.
    pub cells: Vec<usize>,
    /// `Y_p` as a game (node `k` is `cells[k]`); `None` when `p` is terminal.
    pub game: Option<GameGraph>,
    /// `H_p(x)` for each cell `x` (same order as `cells`), as node indices of the graph.
    pub hooks: Vec<Vec<usize>>,
}

/// The diagram `Y_p = φ(p)` and the hook `H_p(x) = {x} ∪ {a ∈ Y_p : x ∈ φ(a)}` of each cell.
pub fn diagram(graph: &GameGraph, p: usize) -> Diagram {
    let moves = Moves::new(graph);
    let cells = moves.options(p).to_vec();
    let hooks = cells
        .iter()
        .map(|&x| {
            let mut h = vec![x];
            h.extend(cells.iter().copied().filter(|&a| moves.has(a, x)));
            h
        })
        .collect();
    Diagram {
        position: p,
        game: subgame(graph, &cells),
        cells,
        hooks,
    }
}

/// The first `(p, x)` with `x ∈ φ(p)` where Proposition 4, `|Y_x| = |Y_p| − |H_p(x)|`, fails.
pub fn check_proposition_4(graph: &GameGraph) -> Option<(usize, usize)> {
    let moves = Moves::new(graph);
    for p in 0..graph.len() {
        let yp = moves.options(p).len();
        for &x in moves.options(p) {
            let hook = 1 + moves
                .parents(x)
                .iter()
                .filter(|&&a| moves.has(p, a))
                .count();
            if moves.options(x).len() + hook != yp {
                return Some((p, x));
            }
        }
    }
    None
}

/// The game `(P, φ_r)` of Proposition 5: keep `p -> x` when `|φ(p)| ≡ |φ(x)| (mod r)`.
pub fn phi_r(graph: &GameGraph, r: u64) -> GameGraph {
    assert!(r >= 1, "phi_r needs r >= 1");
    let moves = Moves::new(graph);
    let count: Vec<u64> = (0..graph.len())
        .map(|i| moves.options(i).len() as u64)
        .collect();
    graph.filter_moves(|p, x| count[p] % r == count[x] % r)
}

/// For every node `p`, the unique terminal position of `⟨p⟩` (what is reachable from `p`), or
/// `None` when several terminal positions are reachable. On `phi_r(graph, r)` this is `p^r`.
pub fn unique_terminals(graph: &GameGraph) -> Vec<Option<usize>> {
    let mut term: Vec<Option<usize>> = vec![None; graph.len()];
    for &p in graph.topological_order() {
        let opts = graph.options_of(p);
        term[p] = if opts.is_empty() {
            Some(p)
        } else {
            let first = term[opts[0]];
            if opts.iter().all(|&x| term[x] == first) {
                first
            } else {
                None
            }
        };
    }
    term
}

/// Theorem 5 (quotient theorem for plain games) at one position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Theorem5 {
    /// The position (node index).
    pub position: usize,
    /// `v(p)`.
    pub grundy_value: Nimber,
    /// `v_{φ₂}(p)`, the value in `(P, φ₂)`.
    pub phi2_value: Nimber,
    /// `p²`, the terminal position of `⟨p⟩₂` (`None` if it is not unique).
    pub core: Option<usize>,
    /// `v(p²)` in the original game.
    pub core_value: Option<Nimber>,
    /// `|φ(p)| mod 2`.
    pub options_parity: Nimber,
    /// `v(p) = 2 v_{φ₂}(p) + v(p²)` and `v(p²) = |φ(p)| mod 2`.
    pub holds: bool,
}

/// Theorem 5 at every node of `graph`.
pub fn theorem_5(graph: &GameGraph) -> Vec<Theorem5> {
    let values = graph.grundy_values();
    let phi2 = phi_r(graph, 2);
    let phi2_values = phi2.grundy_values();
    let cores = unique_terminals(&phi2);
    let moves = Moves::new(graph);
    (0..graph.len())
        .map(|p| {
            let core = cores[p];
            let core_value = core.map(|c| values[c]);
            let options_parity = moves.options(p).len() as Nimber % 2;
            let holds = core_value
                .is_some_and(|cv| values[p] == 2 * phi2_values[p] + cv && cv == options_parity);
            Theorem5 {
                position: p,
                grundy_value: values[p],
                phi2_value: phi2_values[p],
                core,
                core_value,
                options_parity,
                holds,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
