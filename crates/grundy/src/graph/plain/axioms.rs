//! The axioms PG1–PG3 of a plain game, checked on an explicit graph (hook paper §6).
//!
//! Vocabulary (paper §6). A *subgame* of `(P, φ)` on `Q ⊂ P` has `φ_Q(q) = φ(q) ∩ Q` (the
//! induced subgraph). The *1-dimensional cube* is `{p, q}` with `φ(p) = {q}`, `φ(q) = ∅`; the
//! *n-dimensional cube* is the sum of `n` of them: positions `c_X` for `X ⊂ {1..n}`, with
//! `φ(c_X) = {c_Y : Y ⊂ X, |X \ Y| = 1}`; its *start* is `c_{1..n}`, its *end* `c_∅`, and its
//! *base* is `{c_X : |X| = n − 1}`. A 2-dimensional cube is a *square*.
//!
//! The axioms, in English:
//!
//! - **(PG1)** Let `p ∈ P` and `q_1, ..., q_n ∈ φ(p)` with `q_i ≠ q_j` (`i ≠ j`) and
//!   `q_i ∉ φ(q_j)` (`1 ≤ i, j ≤ n`). Then there is exactly one n-dimensional cube, as a subgame
//!   of `P`, with start `p` and base `{q_1, ..., q_n}`.
//! - **(PG2)** Let `p, q, s ∈ P` with `q ∈ φ(p)`, `s ∈ φ(q)`, `s ∉ φ(p)`. Then there is exactly
//!   one `r ∈ P` such that `{p, q, r, s}` is a square.
//! - **(PG3)** Let `p, q, r_1, r_2, s_1, s_2 ∈ P` be such that `{p, q, r_1, s_1}` and
//!   `{p, q, r_2, s_2}` are both squares, and `p ∈ φ(q)` or `q ∈ φ(p)`. If any one of
//!   `r_1 ∈ φ(r_2)`, `r_2 ∈ φ(r_1)`, `s_1 ∈ φ(s_2)`, `s_2 ∈ φ(s_1)` holds, then
//!   `{r_1, r_2, s_1, s_2}` is a square.
//!
//! **Reading of "`{p, q, r, s}` is a square".** The paper writes squares as sets, but in PG2 the
//! letters are placed so that `p`–`q`, `p`–`r`, `q`–`s`, `r`–`s` are the four moves (`p` and `s`
//! opposite, `q` and `r` opposite). We read PG3 with the same placement: `r_i` is the corner
//! next to `p` and `s_i` the corner next to `q`. Reading the sets with no placement cannot be
//! meant: it would let `r_2` be the corner `s_1` of another square on the same move, and then
//! `{r_1, r_2, s_1, s_2}` has only three distinct elements, so even the game with two starting
//! positions `a`, `b`, both with options `{c, d}`, and `c`, `d` both moving to `e` (two squares
//! sharing a corner) would not be plain.
//!
//! n = 0 and n = 1 in PG1 hold in every finite game (the cube is `{p}` or `{p, q_1}`), so the
//! check starts at n = 2. PG1 ranges over every set of pairwise unrelated options, which can be
//! exponentially many: [`check_axioms`] counts its steps and refuses past a limit.

use super::Moves;
use crate::graph::GameGraph;
use crate::{Error, Result};
use serde::Serialize;

/// One of the three axioms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Axiom {
    PG1,
    PG2,
    PG3,
}

impl std::fmt::Display for Axiom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Axiom::PG1 => "PG1",
            Axiom::PG2 => "PG2",
            Axiom::PG3 => "PG3",
        })
    }
}

/// The first configuration found that breaks an axiom.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Which axiom.
    pub axiom: Axiom,
    /// The nodes of the configuration, in the order the description names them.
    pub nodes: Vec<usize>,
    /// What goes wrong, naming the nodes.
    pub description: String,
}

/// Largest cube PG1 is checked for (2^20 corners).
const MAX_CUBE_DIMENSION: usize = 20;

pub(crate) struct Budget {
    left: u64,
    limit: u64,
}

impl Budget {
    fn spend(&mut self, n: u64) -> Result<()> {
        if self.left < n {
            return Err(Error::TooLarge(format!(
                "too large: checking the plain-game axioms needs more than {} steps on this graph",
                self.limit
            )));
        }
        self.left -= n;
        Ok(())
    }
}

/// Check PG1, PG2 and PG3 (in that order, nodes in index order) and return the first
/// violation, or `None` if the graph is a plain game. Refuses with [`Error::TooLarge`] after
/// `step_limit` elementary steps.
pub fn check_axioms(graph: &GameGraph, step_limit: u64) -> Result<Option<Violation>> {
    let moves = Moves::new(graph);
    let mut budget = Budget {
        left: step_limit,
        limit: step_limit,
    };
    if let Some(v) = check_pg1(graph, &moves, &mut budget)? {
        return Ok(Some(v));
    }
    if let Some(v) = check_pg2(graph, &moves, &mut budget)? {
        return Ok(Some(v));
    }
    check_pg3(graph, &moves, &mut budget)
}

fn names(graph: &GameGraph, nodes: &[usize]) -> String {
    nodes
        .iter()
        .map(|&i| format!("'{}'", graph.name(i)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the subgame on four distinct nodes is a square (in any placement).
pub(crate) fn is_square(moves: &Moves, set: [usize; 4]) -> bool {
    for i in 0..4 {
        for j in i + 1..4 {
            if set[i] == set[j] {
                return false;
            }
        }
    }
    let mut outdeg = [0; 4];
    let mut indeg = [0; 4];
    let mut edges = 0;
    for i in 0..4 {
        for j in 0..4 {
            if i != j && moves.has(set[i], set[j]) {
                outdeg[i] += 1;
                indeg[j] += 1;
                edges += 1;
            }
        }
    }
    if edges != 4 {
        return false;
    }
    let (mut sources, mut sinks, mut middles) = (0, 0, 0);
    for i in 0..4 {
        match (indeg[i], outdeg[i]) {
            (0, 2) => sources += 1,
            (2, 0) => sinks += 1,
            (1, 1) => middles += 1,
            _ => return false,
        }
    }
    // With these degrees and four edges the only other shape would need source -> sink, which
    // leaves a middle without an in- or out-move; so this is the square.
    sources == 1 && sinks == 1 && middles == 2
}

/// Number of n-cubes with start `p` and base `base` (stopping at 2), by filling the corners
/// `c_X` level by level: `c_X` must be an option of every `c_{X ∪ {i}}`, and the subgame on
/// the corners must have exactly the cube's moves.
fn count_cubes(moves: &Moves, p: usize, base: &[usize], budget: &mut Budget) -> Result<usize> {
    let n = base.len();
    if n > MAX_CUBE_DIMENSION {
        return Err(Error::TooLarge(format!(
            "too large: a position has {n} pairwise unrelated options: checking PG1 would need {n}-dimensional cubes (at most {MAX_CUBE_DIMENSION})"
        )));
    }
    budget.spend(1 << n)?;
    let full = (1usize << n) - 1;
    let mut corner = vec![usize::MAX; 1 << n];
    corner[full] = p;
    for (i, &q) in base.iter().enumerate() {
        corner[full ^ (1 << i)] = q;
    }
    // Corners still to fill: every X with |X| <= n - 2, larger sets first.
    let mut order: Vec<usize> = (0..full)
        .filter(|x| (x.count_ones() as usize) + 2 <= n)
        .collect();
    order.sort_by_key(|x| std::cmp::Reverse(x.count_ones()));
    let mut assigned: Vec<usize> = std::iter::once(full)
        .chain((0..n).map(|i| full ^ (1 << i)))
        .collect();
    let mut found = 0;
    fill(
        moves,
        &order,
        0,
        &mut corner,
        &mut assigned,
        &mut found,
        budget,
    )?;
    Ok(found)
}

fn fill(
    moves: &Moves,
    order: &[usize],
    k: usize,
    corner: &mut [usize],
    assigned: &mut Vec<usize>,
    found: &mut usize,
    budget: &mut Budget,
) -> Result<()> {
    if *found >= 2 {
        return Ok(());
    }
    if k == order.len() {
        *found += 1;
        return Ok(());
    }
    let x = order[k];
    let n = corner.len().trailing_zeros() as usize;
    let parents: Vec<usize> = (0..n)
        .filter(|i| x & (1 << i) == 0)
        .map(|i| x | (1 << i))
        .collect();
    let first_parent = corner[parents[0]];
    for &cand in moves.options(first_parent) {
        budget.spend(1 + assigned.len() as u64)?;
        if !parents.iter().all(|&y| moves.has(corner[y], cand)) {
            continue;
        }
        // No other move between the candidate and any corner placed so far.
        let clash = assigned.iter().any(|&y| {
            let c = corner[y];
            c == cand
                || moves.has(cand, c)
                || (moves.has(c, cand) && !(y & x == x && (y ^ x).count_ones() == 1))
        });
        if clash {
            continue;
        }
        corner[x] = cand;
        assigned.push(x);
        fill(moves, order, k + 1, corner, assigned, found, budget)?;
        assigned.pop();
        corner[x] = usize::MAX;
        if *found >= 2 {
            break;
        }
    }
    Ok(())
}

fn check_pg1(graph: &GameGraph, moves: &Moves, budget: &mut Budget) -> Result<Option<Violation>> {
    for p in 0..graph.len() {
        let opts = moves.options(p);
        // Depth-first over sets of pairwise unrelated options, in increasing index order.
        let mut stack: Vec<(Vec<usize>, usize)> = vec![(Vec::new(), 0)];
        while let Some((set, from)) = stack.pop() {
            if set.len() >= 2 {
                let cubes = count_cubes(moves, p, &set, budget)?;
                if cubes != 1 {
                    let mut nodes = vec![p];
                    nodes.extend_from_slice(&set);
                    let description = format!(
                        "start '{}' with base {{{}}} (options of '{}', none an option of another): {} {}-dimensional cubes, expected exactly one",
                        graph.name(p),
                        names(graph, &set),
                        graph.name(p),
                        if cubes >= 2 { "at least 2".to_string() } else { "no".to_string() },
                        set.len()
                    );
                    return Ok(Some(Violation {
                        axiom: Axiom::PG1,
                        nodes,
                        description,
                    }));
                }
            }
            // Push extensions in reverse so that smaller sets (and lower indices) come first.
            for k in (from..opts.len()).rev() {
                budget.spend(1)?;
                let q = opts[k];
                if set.iter().all(|&s| !moves.adjacent(s, q)) {
                    let mut bigger = set.clone();
                    bigger.push(q);
                    stack.push((bigger, k + 1));
                }
            }
        }
    }
    Ok(None)
}

fn check_pg2(graph: &GameGraph, moves: &Moves, budget: &mut Budget) -> Result<Option<Violation>> {
    for p in 0..graph.len() {
        for &q in moves.options(p) {
            for &s in moves.options(q) {
                if moves.has(p, s) {
                    continue;
                }
                let mut rs = Vec::new();
                for &r in moves.options(p) {
                    budget.spend(1)?;
                    if r != q && moves.has(r, s) && !moves.adjacent(q, r) {
                        rs.push(r);
                    }
                }
                if rs.len() != 1 {
                    let mut nodes = vec![p, q, s];
                    nodes.extend_from_slice(&rs);
                    let description = if rs.is_empty() {
                        format!(
                            "'{}' -> '{}' -> '{}' (and '{}' is not an option of '{}'): no r makes {{'{}', '{}', r, '{}'}} a square, expected exactly one",
                            graph.name(p), graph.name(q), graph.name(s), graph.name(s), graph.name(p),
                            graph.name(p), graph.name(q), graph.name(s)
                        )
                    } else {
                        format!(
                            "'{}' -> '{}' -> '{}' (and '{}' is not an option of '{}'): {} nodes r make {{'{}', '{}', r, '{}'}} a square ({}), expected exactly one",
                            graph.name(p), graph.name(q), graph.name(s), graph.name(s), graph.name(p),
                            rs.len(), graph.name(p), graph.name(q), graph.name(s), names(graph, &rs)
                        )
                    };
                    return Ok(Some(Violation {
                        axiom: Axiom::PG2,
                        nodes,
                        description,
                    }));
                }
            }
        }
    }
    Ok(None)
}

/// Every `(x, y)` such that `{u, v, x, y}` is a square with `x` next to `u` and `y` next to `v`,
/// for a move `u -> v`.
fn squares_on_move(moves: &Moves, u: usize, v: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // u is the start, v a middle: x the other middle, y the end.
    for &x in moves.options(u) {
        if x == v {
            continue;
        }
        for &y in moves.options(x) {
            if moves.has(v, y) && is_square(moves, [u, v, x, y]) {
                out.push((x, y));
            }
        }
    }
    // u is a middle, v the end: x the start, y the other middle.
    for &x in moves.parents(u) {
        for &y in moves.options(x) {
            if y != u && moves.has(y, v) && is_square(moves, [u, v, x, y]) {
                out.push((x, y));
            }
        }
    }
    out
}

fn check_pg3(graph: &GameGraph, moves: &Moves, budget: &mut Budget) -> Result<Option<Violation>> {
    for p in 0..graph.len() {
        for &q in moves.options(p) {
            // The pair {p, q} with q ∈ φ(p); the case p ∈ φ(q) is the same pair seen from q,
            // and swapping p and q swaps every r with its s, which leaves PG3 unchanged.
            let corners = squares_on_move(moves, p, q);
            budget.spend(1 + (corners.len() * corners.len()) as u64)?;
            for (i, &(r1, s1)) in corners.iter().enumerate() {
                for &(r2, s2) in &corners[i + 1..] {
                    let related = moves.adjacent(r1, r2) || moves.adjacent(s1, s2);
                    if related && !is_square(moves, [r1, r2, s1, s2]) {
                        let nodes = vec![p, q, r1, s1, r2, s2];
                        let description = format!(
                            "{{p, q, r1, s1}} = {{{}}} and {{p, q, r2, s2}} = {{{}}} are squares and {} but {{r1, r2, s1, s2}} = {{{}}} is not a square",
                            names(graph, &[p, q, r1, s1]),
                            names(graph, &[p, q, r2, s2]),
                            if moves.adjacent(r1, r2) {
                                "r1, r2 are one move apart"
                            } else {
                                "s1, s2 are one move apart"
                            },
                            names(graph, &[r1, r2, s1, s2])
                        );
                        return Ok(Some(Violation {
                            axiom: Axiom::PG3,
                            nodes,
                            description,
                        }));
                    }
                }
            }
        }
    }
    Ok(None)
}
