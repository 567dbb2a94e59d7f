//! Game graphs that may have cycles (loopy games): loading, exploring a game's rules, DOT.
//!
//! Same JSON format as [`GameGraph`](super::GameGraph) — cycles and self-loops allowed. The
//! values are the generalized Sprague–Grundy function of [`crate::solve::loopy`].
//!
//! Size limit: at most [`MAX_NODES`] nodes and [`MAX_MOVES`] moves; larger graphs are refused
//! with [`Error::TooLarge`] before they are built. Memory at the node limit, measured
//! (`scripts/bench-memory.sh`, `PART=loopy`): `grundy graph FILE --loopy --all` on 2^24 nodes
//! (a 255 MB file, 2^20 moves) peaks at 3.5 GiB resident, with or without `--json` — most of it
//! the parsed file (an id string and an option list per node) and the id index, held while the
//! graph is built.

use super::explore::explore_lists;
use super::{resolve, GraphSpec};
use crate::solve::loopy::{analyse, Analysis, Csr, LoopyOutcome, LoopyValue};
use crate::{Error, Game, Result};
use std::fmt::Write;

/// Most nodes a loopy graph may have.
pub const MAX_NODES: usize = 1 << 24;
/// Most moves (edges) a loopy graph may have.
pub const MAX_MOVES: usize = 1 << 25;

/// A finite game graph, cycles allowed. Node `i` is called `names[i]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopyGraph {
    names: Vec<String>,
    options: Csr,
    root: usize,
}

fn check_size(nodes: usize, moves: usize) -> Result<()> {
    if nodes > MAX_NODES || moves > MAX_MOVES {
        return Err(Error::TooLarge(format!(
            "the graph is too large: it has {nodes} nodes and {moves} moves; the limit is {MAX_NODES} nodes and \
             {MAX_MOVES} moves"
        )));
    }
    Ok(())
}

impl LoopyGraph {
    /// From names, option lists (indices) and the root index.
    pub fn new(names: Vec<String>, options: Vec<Vec<usize>>, root: usize) -> Result<Self> {
        if names.is_empty() {
            return Err(Error::Invalid(
                "a game graph needs at least one node".into(),
            ));
        }
        if names.len() != options.len() {
            return Err(Error::Invalid(
                "names and option lists differ in length".into(),
            ));
        }
        check_size(names.len(), options.iter().map(Vec::len).sum())?;
        if root >= names.len() {
            return Err(Error::Invalid(format!("root index {root} is out of range")));
        }
        let options = Csr::from_lists(&options)?;
        Ok(LoopyGraph {
            names,
            options,
            root,
        })
    }

    /// Build from the JSON file format's structure (same checks as for acyclic graphs, plus the
    /// size limit).
    pub fn from_spec(spec: &GraphSpec) -> Result<Self> {
        check_size(
            spec.nodes.len(),
            spec.nodes.iter().map(|n| n.options.len()).sum(),
        )?;
        let (names, options, root) = resolve(spec)?;
        LoopyGraph::new(names, options, root)
    }

    /// Parse the JSON file format.
    pub fn from_json(text: &str) -> Result<Self> {
        LoopyGraph::from_spec(&GraphSpec::from_json(text)?)
    }

    /// Every position of `game` reachable from `root` (node 0, names are the positions' `Debug`
    /// text); refuses with [`Error::TooLarge`] past `limit` positions (or [`MAX_NODES`]).
    pub fn explore<G: Game>(game: &G, root: &G::Position, limit: usize) -> Result<Self> {
        let (names, options) = explore_lists(game, root, limit.min(MAX_NODES))?;
        LoopyGraph::new(names, options, 0)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Always false: a graph has at least one node.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Number of moves (edges).
    pub fn move_count(&self) -> usize {
        self.options.edge_count()
    }

    /// The starting node.
    pub fn root(&self) -> usize {
        self.root
    }

    /// The same graph with another starting node.
    pub fn with_root(mut self, root: usize) -> Result<Self> {
        if root >= self.len() {
            return Err(Error::Invalid(format!("root index {root} is out of range")));
        }
        self.root = root;
        Ok(self)
    }

    /// Name of node `i`.
    pub fn name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// Index of the node called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The option table.
    pub fn options(&self) -> &Csr {
        &self.options
    }

    /// Whether a play can return to a position (a cycle or a self-loop).
    pub fn has_cycle(&self) -> bool {
        self.options.has_cycle()
    }

    /// γ and ranks of every node.
    pub fn analyse(&self) -> Analysis<'_> {
        analyse(&self.options)
    }

    /// What `grundy graph --loopy` reports about the root (and with `all`, every node): γ, the
    /// P/N/D outcome, winning moves with their bounds, drawing moves. Analyses the graph; use
    /// [`report_with`](Self::report_with) to reuse an analysis.
    pub fn report(&self, all: bool) -> LoopyReport {
        self.report_with(&self.analyse(), all)
    }

    /// [`report`](Self::report) from an analysis of this graph.
    pub fn report_with(&self, a: &Analysis, all: bool) -> LoopyReport {
        let root = self.root();
        let name = |i: usize| self.name(i).to_owned();
        LoopyReport {
            root: name(root),
            has_cycle: self.has_cycle(),
            grundy_value: a.value(root),
            outcome: a.outcome(root),
            winning_moves: a
                .winning_moves(root)
                .iter()
                .map(|m| LoopyWin {
                    to: name(m.to),
                    wins_within: m.wins_within,
                })
                .collect(),
            wins_within: a.wins_within(root),
            drawing_moves: a.drawing_moves(root).into_iter().map(name).collect(),
            nodes: all.then(|| {
                (0..self.len())
                    .map(|i| LoopyNode {
                        id: name(i),
                        grundy_value: a.value(i),
                        outcome: a.outcome(i),
                    })
                    .collect()
            }),
        }
    }
}

/// A winning move of a loopy graph: the option it moves to and the most moves the game then
/// lasts when the winner keeps playing the engine's moves.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LoopyWin {
    /// The option's name.
    pub to: String,
    /// The game ends within this many moves (this one included).
    pub wins_within: u64,
}

/// One node's generalized value and outcome.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LoopyNode {
    /// The node's name.
    pub id: String,
    /// γ of the node.
    pub grundy_value: LoopyValue,
    /// P, N or D.
    pub outcome: LoopyOutcome,
}

/// The report on a loopy graph's root, shared by the CLI (`--json`) and the Python package.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LoopyReport {
    /// The root's name.
    pub root: String,
    /// Whether the graph has a cycle (else γ is the ordinary Grundy value).
    pub has_cycle: bool,
    /// γ of the root.
    pub grundy_value: LoopyValue,
    /// P, N or D.
    pub outcome: LoopyOutcome,
    /// Moves to P-positions, best (fewest moves to the win) first.
    pub winning_moves: Vec<LoopyWin>,
    /// Most moves the game lasts when the winner plays the best moves (P and N only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins_within: Option<u64>,
    /// From a D-position, the moves that keep the draw.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drawing_moves: Vec<String>,
    /// Every node, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<Vec<LoopyNode>>,
}

/// The generalized Sprague–Grundy value of `root` in a game given by rules whose reachable
/// positions are finite (at most `limit` of them), cycles allowed.
pub fn loopy_value<G: Game>(game: &G, root: &G::Position, limit: usize) -> Result<LoopyValue> {
    let graph = LoopyGraph::explore(game, root, limit)?;
    Ok(graph.analyse().value(0))
}

/// A DOT string's inside: backslashes and quotes escaped.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The graph in Graphviz DOT, nodes labelled `name\nsg = value`: P-positions boxed, draws
/// (D-positions) drawn as dashed diamonds with "draw" in the label, the root bold.
pub fn to_dot_loopy(graph: &LoopyGraph, analysis: &Analysis) -> String {
    let mut s = String::from("digraph game {\n  rankdir=TB;\n  node [fontname=\"Helvetica\"];\n");
    for i in 0..graph.len() {
        let outcome = analysis.outcome(i);
        let (shape, mut style, draw) = match outcome {
            LoopyOutcome::P => ("box", String::new(), ""),
            LoopyOutcome::N => ("ellipse", String::new(), ""),
            LoopyOutcome::D => ("diamond", "dashed".to_string(), "\\ndraw"),
        };
        if i == graph.root() {
            style = if style.is_empty() {
                "bold".into()
            } else {
                format!("{style},bold")
            };
        }
        let style = if style.is_empty() {
            String::new()
        } else {
            format!(", style=\"{style}\"")
        };
        let _ = writeln!(
            s,
            "  n{i} [label=\"{}\\nsg = {}{draw}\", shape={shape}{style}];",
            escape(graph.name(i)),
            analysis.value(i)
        );
    }
    for i in 0..graph.len() {
        for j in graph.options().options(i) {
            let _ = writeln!(s, "  n{i} -> n{j};");
        }
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_cycles_and_refuses_bad_files() {
        let g = LoopyGraph::from_json(
            r#"{"root":"a","nodes":[{"id":"a","options":["b","a"]},{"id":"b","options":["a"]}]}"#,
        )
        .unwrap();
        assert!(g.has_cycle());
        assert_eq!(g.move_count(), 3);
        let a = g.analyse();
        assert_eq!(a.value(0).to_string(), "∞{}");
        assert_eq!(a.outcome(0), LoopyOutcome::D);
        let dot = to_dot_loopy(&g, &a);
        assert!(
            dot.contains("shape=diamond, style=\"dashed,bold\""),
            "{dot}"
        );
        let unknown = r#"{"nodes":[{"id":"a","options":["z"]}]}"#;
        assert!(LoopyGraph::from_json(unknown)
            .unwrap_err()
            .to_string()
            .contains("'z'"));
        let dup = r#"{"nodes":[{"id":"a"},{"id":"a"}]}"#;
        assert!(LoopyGraph::from_json(dup)
            .unwrap_err()
            .to_string()
            .contains("duplicate"));
        assert!(LoopyGraph::from_json(r#"{"nodes":[]}"#).is_err());
        assert!(matches!(
            check_size(MAX_NODES + 1, 0),
            Err(Error::TooLarge(_))
        ));
        assert!(matches!(
            check_size(1, MAX_MOVES + 1),
            Err(Error::TooLarge(_))
        ));
    }

    #[test]
    fn explores_a_game_with_loops_within_a_limit() {
        // From n: go to n + 1 (mod 5) or, from 4, to the end position 5.
        struct Ring;
        impl Game for Ring {
            type Position = u8;
            fn options(&self, p: &u8, out: &mut Vec<u8>) {
                if *p < 5 {
                    out.push((p + 1) % 5);
                }
                if *p == 4 {
                    out.push(5);
                }
            }
        }
        let g = LoopyGraph::explore(&Ring, &0, 10).unwrap();
        assert_eq!(g.len(), 6);
        let a = g.analyse();
        // 4 -> 5 wins; 3 -> 4 only: P; 2 -> 3: N; 1: P; 0: N.
        let outcomes: Vec<String> = (0..g.len()).map(|u| a.outcome(u).to_string()).collect();
        let by_name = |n: &str| outcomes[g.index_of(n).unwrap()].clone();
        assert_eq!(
            ["0", "1", "2", "3", "4", "5"].map(by_name),
            ["N", "P", "N", "P", "N", "P"].map(String::from)
        );
        assert_eq!(g.move_count(), 6);
        assert_eq!(loopy_value(&Ring, &0, 10).unwrap(), LoopyValue::Finite(1));
        assert!(matches!(
            LoopyGraph::explore(&Ring, &0, 3),
            Err(Error::TooLarge(_))
        ));
    }
}
