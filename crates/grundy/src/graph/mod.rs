//! Explicit finite game graphs: nodes with option lists.
//!
//! A first-class type because game division, the plain-game axioms and diagrams all operate on
//! whole graphs. A graph is acyclic by construction: [`GameGraph::new`] rejects cycles, unknown
//! node names and duplicate ids, so every [`GameGraph`] is a finite game. Graphs with cycles
//! (loopy games, where a play can last forever) are [`LoopyGraph`]s, read from the same format.
//!
//! ## File format (JSON)
//!
//! ```json
//! {
//!   "root": "a",
//!   "nodes": [
//!     {"id": "a", "options": ["b", "c"]},
//!     {"id": "b", "options": ["c"]},
//!     {"id": "c", "options": []}
//!   ]
//! }
//! ```
//!
//! `root` is optional (default: the first node). Node ids are strings; each option names a node
//! of the same file. Nodes not listed as anybody's option are fine (several sources).

pub mod division;
mod dot;
mod explore;
pub mod loopy;
pub mod plain;

pub use dot::to_dot;
pub use explore::explore;
pub use loopy::LoopyGraph;

use crate::solve::{Misere, Normal, Reading};
use crate::{Error, Game, Nimber, Result};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// A node of the JSON file format.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// The node's name.
    pub id: String,
    /// Names of the nodes one move reaches from this one.
    #[serde(default)]
    pub options: Vec<String>,
}

/// The JSON file format of a game graph.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraphSpec {
    /// Name of the starting node (default: the first node).
    #[serde(default)]
    pub root: Option<String>,
    /// All nodes.
    pub nodes: Vec<NodeSpec>,
}

impl GraphSpec {
    /// Parse the JSON file format (without checking node names).
    pub fn from_json(text: &str) -> Result<Self> {
        serde_json::from_str(text)
            .map_err(|e| Error::Invalid(format!("malformed game graph JSON: {e}")))
    }
}

/// Names, option lists (as indices) and root index of a file's graph; refuses duplicate ids,
/// options naming unknown nodes and an unknown root.
fn resolve(spec: &GraphSpec) -> Result<(Vec<String>, Vec<Vec<usize>>, usize)> {
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    for (i, node) in spec.nodes.iter().enumerate() {
        if index.insert(node.id.as_str(), i).is_some() {
            return Err(Error::Invalid(format!("duplicate node id '{}'", node.id)));
        }
    }
    let mut options = Vec::with_capacity(spec.nodes.len());
    for node in &spec.nodes {
        let mut opts = Vec::with_capacity(node.options.len());
        for o in &node.options {
            match index.get(o.as_str()) {
                Some(&j) => opts.push(j),
                None => {
                    return Err(Error::Invalid(format!(
                        "node '{}' has option '{o}', which is not a node of the graph",
                        node.id
                    )))
                }
            }
        }
        options.push(opts);
    }
    let root = match &spec.root {
        None => 0,
        Some(r) => *index
            .get(r.as_str())
            .ok_or_else(|| Error::Invalid(format!("root '{r}' is not a node of the graph")))?,
    };
    let names = spec.nodes.iter().map(|n| n.id.clone()).collect();
    Ok((names, options, root))
}

/// A finite acyclic game graph. Node `i` has name `names[i]` and options `options[i]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameGraph {
    names: Vec<String>,
    options: Vec<Vec<usize>>,
    root: usize,
    /// Nodes in an order where every option comes before the nodes that reach it.
    topo: Vec<usize>,
}

impl GameGraph {
    /// Build a graph from names and option lists (indices), checking that it is acyclic.
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
        if root >= names.len() {
            return Err(Error::Invalid(format!("root index {root} is out of range")));
        }
        let n = names.len();
        for (i, opts) in options.iter().enumerate() {
            if let Some(&bad) = opts.iter().find(|&&j| j >= n) {
                return Err(Error::Invalid(format!(
                    "node '{}' has an option with index {bad}, out of range",
                    names[i]
                )));
            }
        }
        let topo = topological_order(&names, &options)?;
        Ok(GameGraph {
            names,
            options,
            root,
            topo,
        })
    }

    /// Build from the JSON file format's structure.
    pub fn from_spec(spec: &GraphSpec) -> Result<Self> {
        let (names, options, root) = resolve(spec)?;
        GameGraph::new(names, options, root)
    }

    /// Parse the JSON file format.
    pub fn from_json(text: &str) -> Result<Self> {
        GameGraph::from_spec(&GraphSpec::from_json(text)?)
    }

    /// The JSON file format's structure for this graph.
    pub fn to_spec(&self) -> GraphSpec {
        GraphSpec {
            root: Some(self.names[self.root].clone()),
            nodes: (0..self.len())
                .map(|i| NodeSpec {
                    id: self.names[i].clone(),
                    options: self.options[i]
                        .iter()
                        .map(|&j| self.names[j].clone())
                        .collect(),
                })
                .collect(),
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Always false: a graph has at least one node.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
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

    /// All node names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Index of the node called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Options of node `i`.
    pub fn options_of(&self, i: usize) -> &[usize] {
        &self.options[i]
    }

    /// Nodes ordered so that every option precedes the nodes that reach it.
    pub fn topological_order(&self) -> &[usize] {
        &self.topo
    }

    /// A new graph on the same nodes keeping only the moves `i -> j` for which `keep(i, j)`.
    /// Removing moves cannot create a cycle.
    pub fn filter_moves(&self, mut keep: impl FnMut(usize, usize) -> bool) -> GameGraph {
        let options = (0..self.len())
            .map(|i| {
                self.options[i]
                    .iter()
                    .copied()
                    .filter(|&j| keep(i, j))
                    .collect()
            })
            .collect();
        GameGraph {
            names: self.names.clone(),
            options,
            root: self.root,
            topo: self.topo.clone(),
        }
    }

    /// Every node's value under `reading`, in one pass over the topological order: the same
    /// rules as the generic evaluators, at array speed.
    pub fn evaluate<R: Reading<usize>>(&self, reading: &mut R) -> Vec<R::Value> {
        let mut values: Vec<Option<R::Value>> = vec![None; self.len()];
        let mut option_values = Vec::new();
        for &i in &self.topo {
            option_values.clear();
            option_values.extend(self.options[i].iter().map(|&j| {
                values[j]
                    .clone()
                    .expect("options come first in topological order")
            }));
            values[i] = Some(reading.combine(&i, &option_values));
        }
        values
            .into_iter()
            .map(|v| v.expect("every node is in the topological order"))
            .collect()
    }

    /// The Grundy value of every node.
    pub fn grundy_values(&self) -> Vec<Nimber> {
        self.evaluate(&mut Normal::default())
    }

    /// The misère outcome of every node.
    pub fn misere_outcomes(&self) -> Vec<crate::Outcome> {
        self.evaluate(&mut Misere)
    }
}

/// Kahn's algorithm on the reversed edges; on a cycle, names a node that lies on one.
fn topological_order(names: &[String], options: &[Vec<usize>]) -> Result<Vec<usize>> {
    let n = names.len();
    let mut remaining: Vec<usize> = options.iter().map(|o| o.len()).collect();
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, opts) in options.iter().enumerate() {
        for &j in opts {
            parents[j].push(i);
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| remaining[i] == 0).collect();
    let mut head = 0;
    while head < order.len() {
        let j = order[head];
        head += 1;
        for &i in &parents[j] {
            remaining[i] -= 1;
            if remaining[i] == 0 {
                order.push(i);
            }
        }
    }
    if order.len() < n {
        // Every unfinished node reaches a cycle; walk unfinished options until one repeats.
        let mut seen = vec![false; n];
        let mut x = (0..n)
            .find(|&i| remaining[i] > 0)
            .expect("some node is unfinished");
        while !seen[x] {
            seen[x] = true;
            x = *options[x]
                .iter()
                .find(|&&j| remaining[j] > 0)
                .expect("an unfinished node has an unfinished option");
        }
        return Err(Error::Loop(format!("'{}'", names[x])));
    }
    Ok(order)
}

impl Game for GameGraph {
    type Position = usize;
    fn options(&self, position: &usize, out: &mut Vec<usize>) {
        out.extend_from_slice(&self.options[*position]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NormalPlay, Outcome};

    const SMALL: &str = r#"{"root":"a","nodes":[
        {"id":"a","options":["b","c"]},{"id":"b","options":["c"]},{"id":"c"}]}"#;

    #[test]
    fn values_of_a_small_graph() {
        let g = GameGraph::from_json(SMALL).unwrap();
        assert_eq!(g.grundy_values(), vec![2, 1, 0]);
        assert_eq!(NormalPlay::new(&g).grundy_value(&0).unwrap(), 2);
        assert_eq!(
            g.misere_outcomes(),
            vec![Outcome::N, Outcome::P, Outcome::N]
        );
    }

    #[test]
    fn rejects_cycles_unknown_names_and_duplicates() {
        let cyc = r#"{"nodes":[{"id":"a","options":["b"]},{"id":"b","options":["a"]}]}"#;
        assert!(matches!(GameGraph::from_json(cyc), Err(Error::Loop(_))));
        let selfloop = r#"{"nodes":[{"id":"a","options":["a"]}]}"#;
        assert!(matches!(
            GameGraph::from_json(selfloop),
            Err(Error::Loop(_))
        ));
        let unknown = r#"{"nodes":[{"id":"a","options":["z"]}]}"#;
        let e = GameGraph::from_json(unknown).unwrap_err().to_string();
        assert!(e.contains("'z'"), "{e}");
        let dup = r#"{"nodes":[{"id":"a"},{"id":"a"}]}"#;
        assert!(GameGraph::from_json(dup)
            .unwrap_err()
            .to_string()
            .contains("duplicate"));
        assert!(GameGraph::from_json("{").is_err());
        assert!(GameGraph::from_json(r#"{"nodes":[]}"#).is_err());
    }

    #[test]
    fn generic_solver_detects_loops_too() {
        struct Cyc;
        impl Game for Cyc {
            type Position = u8;
            fn options(&self, p: &u8, out: &mut Vec<u8>) {
                out.push((p + 1) % 3);
            }
        }
        assert!(matches!(
            NormalPlay::new(Cyc).grundy_value(&0),
            Err(Error::Loop(_))
        ));
    }
}
