//! The game graph of a small position of any family: every position reachable from it, each
//! with the positions it moves to, in the JSON form `grundy graph` reads (so the plain graph
//! evaluator values it, and the web page's Explore draws it with each node's value and the
//! P-positions marked). `grundy play FAMILY POSITION --report --graph-out FILE` writes it.
//!
//! Positions are found through the move model itself: a position is reached by replaying the
//! moves that lead to it, and two positions are one node when the family writes them alike
//! (heap games: the same multiset of non-empty heaps).

use super::{build, play_input, position_key, Playable, Setup, OPTION_LIMIT};
use crate::Error;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};

/// One position and the positions its moves lead to (by id).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Node {
    pub id: String,
    pub options: Vec<String>,
}

/// A game graph as `grundy graph` reads it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct GameGraph {
    pub root: String,
    pub nodes: Vec<Node>,
}

/// A node's id: the position as the family writes it on one line (heap games: the non-empty
/// heaps, smallest first; `0` for no heaps).
fn node_id(game: &dyn Playable, text: &str) -> String {
    let words = position_key(text, game.heap_multiset());
    if words.is_empty() {
        "0".into()
    } else {
        words.join(" ")
    }
}

/// The game graph of `family` from `words` (as [`build`] reads them) after the moves
/// `played` (as front ends replay them, player 0 first), at most `max_nodes` positions (more is
/// an error saying so).
pub fn game_graph(
    family: &str,
    words: &[String],
    played: &[String],
    setup: &Setup,
    max_nodes: usize,
) -> Result<GameGraph, Error> {
    let start = || -> Result<Box<dyn Playable>, Error> {
        let mut game = build(family, words, setup)?;
        let m = game.players();
        for (k, mv) in played.iter().enumerate() {
            play_input(game.as_mut(), k % m, mv)
                .map_err(|e| Error::Invalid(format!("move {} '{mv}': {e}", k + 1)))?;
        }
        Ok(game)
    };
    let root = start()?;
    let root_id = node_id(root.as_ref(), &root.show_position());
    let mut index: HashMap<String, usize> = HashMap::from([(root_id.clone(), 0)]);
    let mut nodes = vec![Node {
        id: root_id.clone(),
        options: Vec::new(),
    }];
    // positions to expand, with the moves that reach them from the root
    let mut queue: VecDeque<(usize, Vec<String>)> = VecDeque::from([(0, Vec::new())]);
    while let Some((at, path)) = queue.pop_front() {
        let mut game = start()?;
        for (k, mv) in path.iter().enumerate() {
            game.play(mv)
                .map_err(|e| Error::Invalid(format!("replaying move {k} '{mv}': {e}")))?;
        }
        let mover = (played.len() + path.len()) % game.players();
        let options = game.options(mover, OPTION_LIMIT).ok_or_else(|| {
            Error::Invalid(format!(
                "the position '{}' has too many moves (over {OPTION_LIMIT}) to draw its game graph",
                game.show_position()
            ))
        })?;
        let mut out = Vec::with_capacity(options.len());
        for o in options {
            let id = node_id(game.as_ref(), &o.after);
            if !index.contains_key(&id) {
                if nodes.len() >= max_nodes {
                    return Err(Error::Invalid(format!(
                        "the game graph of '{}' has more than {max_nodes} positions; choose a smaller position",
                        root.show_position()
                    )));
                }
                index.insert(id.clone(), nodes.len());
                let mut next = path.clone();
                next.push(o.name.clone());
                queue.push_back((nodes.len(), next));
                nodes.push(Node {
                    id: id.clone(),
                    options: Vec::new(),
                });
            }
            if !out.contains(&id) {
                out.push(id);
            }
        }
        nodes[at].options = out;
    }
    Ok(GameGraph {
        root: root_id,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    /// Plain values of an acyclic graph: the mex of the options' values, by recursion.
    fn values(g: &GameGraph) -> HashMap<String, u64> {
        fn value(g: &GameGraph, id: &str, memo: &mut HashMap<String, u64>) -> u64 {
            if let Some(&v) = memo.get(id) {
                return v;
            }
            let node = g.nodes.iter().find(|n| n.id == id).unwrap();
            let seen: Vec<u64> = node.options.iter().map(|o| value(g, o, memo)).collect();
            let v = (0..).find(|x| !seen.contains(x)).unwrap();
            memo.insert(id.to_owned(), v);
            v
        }
        let mut memo = HashMap::new();
        for n in &g.nodes {
            value(g, &n.id, &mut memo);
        }
        memo
    }

    #[test]
    fn nim_positions_are_multisets_and_their_values_are_the_nim_sums() {
        let g = game_graph("nim", &words("2 3"), &[], &Setup::default(), 100).unwrap();
        assert_eq!(g.root, "2 3");
        // every multiset {a, b} with a <= 2, b <= 3, (a, b) != ... reachable: 0,1,2,3 singly
        // and pairs {1,1},{1,2},{1,3},{2,2},{2,3}
        let mut ids: Vec<&str> = g.nodes.iter().map(|n| n.id.as_str()).collect();
        ids.sort();
        assert_eq!(ids, ["0", "1", "1 1", "1 2", "1 3", "2", "2 2", "2 3", "3"]);
        for (id, v) in values(&g) {
            let nim_sum = id
                .split_whitespace()
                .map(|w| w.parse::<u64>().unwrap())
                .fold(0, |a, b| a ^ b);
            assert_eq!(v, nim_sum, "{id}");
        }
    }

    #[test]
    fn take_and_break_splits_and_the_node_limit() {
        let setup = Setup::default();
        let g = game_graph("takebreak:0.07", &words("6"), &[], &setup, 100).unwrap();
        // Dawson's Kayles: G(0..=6) = 0 0 1 1 2 0 3
        let v = values(&g);
        assert_eq!(v["6"], 3);
        assert_eq!(v["4"], 2);
        assert_eq!(v["1 3"], 1);
        assert!(
            g.nodes.iter().any(|n| n.id.contains(' ')),
            "a split appears"
        );
        let err = game_graph("nim", &words("5 6 7"), &[], &setup, 20).unwrap_err();
        assert!(err.to_string().contains("more than 20 positions"), "{err}");
        // after a move: the graph of the position reached
        let g = game_graph("nim", &words("2 3"), &words("1 1")[..0], &setup, 100).unwrap();
        assert_eq!(g.root, "2 3");
        let after = game_graph("nim", &words("2 3"), &["1 1".to_string()], &setup, 100).unwrap();
        assert_eq!(after.root, "1 2");
        assert_eq!(after.nodes.len(), 5); // 1 2, 2, 1 1, 1, 0
    }
}
