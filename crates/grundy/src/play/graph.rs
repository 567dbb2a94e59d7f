//! Play on a game graph, cycles allowed. The engine follows the
//! strategy of `crate::solve::loopy`: from an N-position the P-option of least rank (so it wins
//! within the announced number of moves), from a D-position a move that keeps the draw.

use super::{MoveInfo, Playable};
use crate::graph::{GraphSpec, LoopyGraph};
use crate::solve::loopy::{LoopyOutcome, LoopyValue};
use crate::Error;

/// Everything the engine needs, per node, decided once before the game starts.
struct GraphPlay {
    graph: LoopyGraph,
    value: Vec<LoopyValue>,
    outcome: Vec<LoopyOutcome>,
    best: Vec<Option<usize>>,
    wins_within: Vec<Option<u64>>,
    at: usize,
}

impl Playable for GraphPlay {
    fn show(&self) -> String {
        let opts: Vec<&str> = self
            .graph
            .options()
            .options(self.at)
            .map(|v| self.graph.name(v))
            .collect();
        format!(
            "at node '{}'; moves to: {}",
            self.graph.name(self.at),
            if opts.is_empty() {
                "(none)".to_string()
            } else {
                opts.join(", ")
            }
        )
    }
    fn show_position(&self) -> String {
        self.graph.name(self.at).to_owned()
    }
    fn state(&self) -> serde_json::Value {
        let opts: Vec<&str> = self
            .graph
            .options()
            .options(self.at)
            .map(|v| self.graph.name(v))
            .collect();
        serde_json::json!({"kind": "graph", "node": self.graph.name(self.at), "options": opts})
    }
    fn explain(&mut self, _mover: usize) -> Vec<String> {
        let u = self.at;
        let finite: Vec<String> = self
            .graph
            .options()
            .options(u)
            .map(|v| self.value[v].to_string())
            .collect();
        vec![
            format!(
                "The options' values are {{{}}}; a node's value is the mex of its options' finite values, unless a move to an infinite node lets the player to move escape it (then the value is ∞ with the finite values it can reach).",
                finite.join(", ")
            ),
            format!("So node '{}' has value {}.", self.graph.name(u), self.value[u]),
        ]
    }
    fn options(&mut self, _mover: usize, limit: usize) -> Option<Vec<MoveInfo>> {
        let u = self.at;
        if self.graph.options().options(u).len() > limit {
            return None;
        }
        let best = self.best[u];
        Some(
            self.graph
                .options()
                .options(u)
                .map(|v| {
                    let name = self.graph.name(v).to_owned();
                    MoveInfo {
                        after: name.clone(),
                        name,
                        value: match self.value[v] {
                            LoopyValue::Finite(g) => Some(g),
                            LoopyValue::Infinite(_) => None,
                        },
                        verdict: Some(format!("{} ({})", self.value[v], self.outcome[v])),
                        good: Some(v) == best,
                    }
                })
                .collect(),
        )
    }
    fn move_syntax(&self) -> String {
        "Game graph: move the token along an edge. Move: the name of the node to move to.".into()
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        let u = self.at;
        let v = &self.value[u];
        match (self.outcome[u], self.wins_within[u]) {
            (LoopyOutcome::P, Some(w)) => {
                format!("value {v}: P-position: the player to move loses (within {w} moves)")
            }
            (LoopyOutcome::N, Some(w)) => {
                format!("value {v}: N-position: the player to move wins within {w} moves")
            }
            _ => format!("value {v}: D-position: with best play the game is a draw"),
        }
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        let u = self.at;
        let to = self.best[u]?;
        let why = match self.outcome[u] {
            LoopyOutcome::N => {
                let w = self.wins_within[u].unwrap_or(0);
                format!(
                    "to a P-position of least rank: the game ends within {w} move{}",
                    if w == 1 { "" } else { "s" }
                )
            }
            LoopyOutcome::D => "to a D-position: keeps the draw".to_string(),
            LoopyOutcome::P => "no move avoids the loss".to_string(),
        };
        Some((self.graph.name(to).to_owned(), why))
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let target = self
            .graph
            .options()
            .options(self.at)
            .find(|&v| self.graph.name(v) == input)
            .ok_or_else(|| {
                format!(
                    "'{input}' is not a move from '{}'",
                    self.graph.name(self.at)
                )
            })?;
        self.at = target;
        Ok(())
    }
    fn is_over(&self) -> bool {
        self.graph.options().options(self.at).len() == 0
    }
}

/// Nodes a graph for `play` may have (every node's value is kept in memory as text-ready data).
const PLAY_LIMIT: usize = 1_000_000;

/// A game on the graph `text` (the JSON of a graph file named `file`), from `start` (default:
/// the graph's root).
pub fn build(text: &str, file: &str, start: Option<&str>) -> Result<Box<dyn Playable>, Error> {
    let graph = GraphSpec::from_json(text)
        .and_then(|s| LoopyGraph::from_spec(&s))
        .map_err(|e| Error::Invalid(format!("{file}: {e}")))?;
    if graph.len() > PLAY_LIMIT {
        return Err(Error::Invalid(format!(
            "{file}: {} nodes; play takes graphs of at most {PLAY_LIMIT} nodes",
            graph.len()
        )));
    }
    let at = match start {
        None => graph.root(),
        Some(s) => graph.index_of(s).ok_or_else(|| {
            Error::Invalid(format!("start node '{s}' is not a node of the graph"))
        })?,
    };
    let a = graph.analyse();
    let n = graph.len();
    let value = (0..n).map(|u| a.value(u)).collect();
    let outcome = (0..n).map(|u| a.outcome(u)).collect();
    let best = (0..n).map(|u| a.best_move(u)).collect();
    let wins_within = (0..n).map(|u| a.wins_within(u)).collect();
    drop(a);
    Ok(Box::new(GraphPlay {
        graph,
        value,
        outcome,
        best,
        wins_within,
        at,
    }))
}
