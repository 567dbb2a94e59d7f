//! Games on a row of heaps where a move turns one heap into one smaller heap (Nim, subtraction
//! games). A position of several heaps is the disjunctive sum of its heaps.

use crate::{Error, Game, Nimber, NormalPlay};
use serde::Serialize;

/// The rule for one heap: which heap sizes one move reaches from `n`.
pub trait HeapRule {
    /// Push every heap size reachable in one move from a heap of `n`.
    fn heap_options(&self, n: u64, out: &mut Vec<u64>);
}

/// A row of heaps played with one [`HeapRule`]. Positions are sorted heap lists, so that the
/// memo table sees through permutations.
#[derive(Debug, Clone)]
pub struct Heaps<R>(pub R);

impl<R> Heaps<R> {
    /// The canonical (sorted) position of a list of heaps.
    pub fn position(heaps: &[u64]) -> Vec<u64> {
        let mut p = heaps.to_vec();
        p.sort_unstable();
        p
    }
}

impl<R: HeapRule> Game for Heaps<R> {
    type Position = Vec<u64>;

    fn options(&self, position: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        let mut targets = Vec::new();
        for (i, &n) in position.iter().enumerate() {
            if i > 0 && position[i - 1] == n {
                continue; // same heap size: same options
            }
            targets.clear();
            self.0.heap_options(n, &mut targets);
            for &t in &targets {
                let mut q = position.clone();
                q[i] = t;
                q.sort_unstable();
                out.push(q);
            }
        }
    }

    fn components(&self, position: &Vec<u64>) -> Option<Vec<Vec<u64>>> {
        (position.len() > 1).then(|| position.iter().map(|&n| vec![n]).collect())
    }
}

/// A move in a heap game: heap `heap` (0-based, in the order given) goes from `from` to `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapMove<N = u64> {
    /// Index of the heap, 0-based, in the order the position was given.
    pub heap: usize,
    /// Its size before the move.
    pub from: N,
    /// Its size after the move.
    pub to: N,
}

impl<R: HeapRule> NormalPlay<Heaps<R>> {
    /// Every move (heap index, from, to) from the unsorted position `heaps` to a position of
    /// value `target`, computed from single-heap values.
    pub fn heap_moves_to(&mut self, heaps: &[u64], target: Nimber) -> Result<Vec<HeapMove>, Error> {
        let mut single = Vec::with_capacity(heaps.len());
        for &n in heaps {
            single.push(self.grundy_value(&vec![n])?);
        }
        let total = crate::nim_sum(single.iter().copied());
        let mut moves = Vec::new();
        let mut targets = Vec::new();
        for (i, &n) in heaps.iter().enumerate() {
            let need = total ^ single[i] ^ target;
            targets.clear();
            self.game().0.heap_options(n, &mut targets);
            for &t in &targets {
                if self.grundy_value(&vec![t])? == need {
                    moves.push(HeapMove {
                        heap: i,
                        from: n,
                        to: t,
                    });
                }
            }
        }
        Ok(moves)
    }
}
