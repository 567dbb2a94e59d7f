//! The labelling algorithm for γ (Fraenkel & Yesha 1986, §2; Smith 1966): values are decided
//! in increasing order, each by a retrograde pass like the one that finds P-positions.
//!
//! Stage m starts with the *candidates*: unlabelled positions that have options of every value
//! below m (and, since no m has been given yet, none of value m). An unlabelled position is
//! *killed* in stage m when one of its options receives the value m (its mex can no longer be m,
//! and a move to it can be answered by a move back to value m). A
//! candidate receives m once every option it has that is still unlabelled has been killed: then
//! any move to such an option can be answered by a move back to value m (condition (B)). After
//! the stage, an unlabelled position without an option of value m can never receive a finite
//! value, so it keeps γ = ∞ — the unkilled unlabelled option that blocked it witnesses (C).
//!
//! The counter of (B) is the **rank**: a candidate labelled at the start of its stage has rank 0,
//! otherwise 1 + the largest rank among the first m-valued options of the options that blocked
//! it. For P-positions this bounds the length of the win: the winner, always moving to the P-option
//! of least rank, ends the game within 2·rank moves from a P-position.
//!
//! Cost: every labelled position walks its parents once; a position killed in stage m walks its
//! parents once in that stage, and it is killed only in stages m where it has an option of value
//! m. So the time is O(|V| + |E|·(1 + number of distinct finite values among a
//! position's options)) — linear for graphs whose values stay small, O(|E| · largest value) in
//! the worst case (a Nim heap's graph, where k moves to every j < k) — and memory O(|V| + |E|).

use super::{LoopyOutcome, LoopyValue};
use crate::{Error, Result};

/// The value of an unlabelled (infinite) position in [`Analysis`]'s table.
const INFINITE: u32 = u32::MAX;

/// Option lists in compressed form: the options of node `u` are
/// `targets[starts[u]..starts[u + 1]]`. Node and move counts must fit in 32 bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Csr {
    starts: Vec<usize>,
    targets: Vec<u32>,
}

impl Csr {
    /// From one option list per node; refuses options out of range and more than 2^32 − 2
    /// nodes or moves.
    pub fn from_lists(lists: &[Vec<usize>]) -> Result<Self> {
        let n = lists.len();
        let edges: usize = lists.iter().map(Vec::len).sum();
        if n >= INFINITE as usize || edges >= INFINITE as usize {
            return Err(Error::TooLarge(format!(
                "the graph is too large: {n} nodes and {edges} moves, at most {} of each",
                INFINITE - 1
            )));
        }
        let mut starts = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(edges);
        starts.push(0);
        for (u, list) in lists.iter().enumerate() {
            for &v in list {
                if v >= n {
                    return Err(Error::Invalid(format!(
                        "node {u} has an option with index {v}, out of range"
                    )));
                }
                targets.push(v as u32);
            }
            starts.push(targets.len());
        }
        Ok(Csr { starts, targets })
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of moves (edges, with multiplicity).
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The options of node `u`.
    pub fn options(&self, u: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.targets[self.starts[u]..self.starts[u + 1]]
            .iter()
            .map(|&v| v as usize)
    }

    /// The reversed graph: the parents of every node, with multiplicity.
    pub fn reversed(&self) -> Csr {
        let n = self.len();
        let mut count = vec![0usize; n + 1];
        for &v in &self.targets {
            count[v as usize + 1] += 1;
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let starts = count.clone();
        let mut fill = count;
        let mut targets = vec![0u32; self.targets.len()];
        for u in 0..n {
            for v in self.options(u) {
                targets[fill[v]] = u as u32;
                fill[v] += 1;
            }
        }
        Csr { starts, targets }
    }

    /// Whether some node can reach itself (a cycle or a self-loop).
    pub fn has_cycle(&self) -> bool {
        // Kahn's algorithm: peel nodes whose options are all peeled.
        let parents = self.reversed();
        let mut remaining: Vec<usize> = (0..self.len()).map(|u| self.options(u).len()).collect();
        let mut stack: Vec<usize> = (0..self.len()).filter(|&u| remaining[u] == 0).collect();
        let mut peeled = 0;
        while let Some(v) = stack.pop() {
            peeled += 1;
            for u in parents.options(v) {
                remaining[u] -= 1;
                if remaining[u] == 0 {
                    stack.push(u);
                }
            }
        }
        peeled < self.len()
    }
}

/// γ and the rank (counter) of every node of a graph.
#[derive(Debug, Clone)]
pub struct Analysis<'g> {
    graph: &'g Csr,
    value: Vec<u32>,
    rank: Vec<u32>,
}

/// Label every node of `graph` with γ and its rank, in one run of the staged algorithm above.
pub fn analyse(graph: &Csr) -> Analysis<'_> {
    let n = graph.len();
    let parents = graph.reversed();
    let mut value = vec![INFINITE; n];
    let mut rank = vec![0u32; n];
    // Options not yet labelled (decided values below the current stage are not counted).
    let mut unlabelled: Vec<u32> = (0..n).map(|u| graph.options(u).len() as u32).collect();
    // next[u] = m: u has options of every value below m, so it is a candidate in stage m.
    let mut next = vec![0u32; n];
    // killed_in[u] = m: u has an option of value m (whether or not u is a candidate).
    let mut killed_in = vec![INFINITE; n];
    // Per stage, reset lazily by `stamp`: options of u killed so far, and the largest rank of
    // their first killers.
    let mut stamp = vec![INFINITE; n];
    let mut killed = vec![0u32; n];
    let mut killer_rank = vec![0u32; n];

    let mut candidates: Vec<u32> = (0..n as u32).collect();
    let mut queue: Vec<u32> = Vec::new();
    let mut m: u32 = 0;
    while !candidates.is_empty() {
        queue.clear();
        queue.extend(
            candidates
                .iter()
                .copied()
                .filter(|&u| unlabelled[u as usize] == 0),
        );
        for &u in &queue {
            rank[u as usize] = 0;
        }
        candidates.clear();
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head] as usize;
            head += 1;
            if killed_in[u] == m {
                continue; // killed after it was queued
            }
            value[u] = m;
            for p in parents.options(u) {
                unlabelled[p] -= 1;
                if value[p] != INFINITE || killed_in[p] == m {
                    continue;
                }
                // p now has an option of value m: it cannot take m, and every move to p can be
                // answered by the move to u.
                killed_in[p] = m;
                if next[p] == m {
                    next[p] = m + 1;
                    candidates.push(p as u32);
                }
                for q in parents.options(p) {
                    if value[q] != INFINITE || next[q] != m || killed_in[q] == m {
                        continue;
                    }
                    if stamp[q] != m {
                        stamp[q] = m;
                        killed[q] = 0;
                        killer_rank[q] = 0;
                    }
                    killed[q] += 1;
                    killer_rank[q] = killer_rank[q].max(rank[u]);
                    if killed[q] == unlabelled[q] {
                        rank[q] = killer_rank[q] + 1;
                        queue.push(q as u32);
                    }
                }
            }
        }
        m += 1;
    }
    for u in 0..n {
        if value[u] == INFINITE {
            rank[u] = 0;
        }
    }
    Analysis { graph, value, rank }
}

impl Analysis<'_> {
    /// The graph analysed.
    pub fn graph(&self) -> &Csr {
        self.graph
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.value.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.value.is_empty()
    }

    /// The finite value of `u`, or `None` when γ(u) is infinite.
    pub fn finite_value(&self, u: usize) -> Option<u64> {
        (self.value[u] != INFINITE).then(|| u64::from(self.value[u]))
    }

    /// γ(u): a finite value, or ∞(K) with K read off u's options.
    pub fn value(&self, u: usize) -> LoopyValue {
        match self.finite_value(u) {
            Some(g) => LoopyValue::Finite(g),
            None => LoopyValue::infinite(
                self.graph
                    .options(u)
                    .filter_map(|v| self.finite_value(v))
                    .collect(),
            ),
        }
    }

    /// The outcome of `u` with best play.
    pub fn outcome(&self, u: usize) -> LoopyOutcome {
        match self.finite_value(u) {
            Some(0) => LoopyOutcome::P,
            Some(_) => LoopyOutcome::N,
            None if self.graph.options(u).any(|v| self.value[v] == 0) => LoopyOutcome::N,
            None => LoopyOutcome::D,
        }
    }

    /// The counter of condition (B) for a finitely-valued node (0 for infinite ones). For a
    /// P-position, the winner ends the game within 2·rank moves.
    pub fn rank(&self, u: usize) -> u32 {
        self.rank[u]
    }
}
