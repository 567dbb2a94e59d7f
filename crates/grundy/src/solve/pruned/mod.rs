//! Pruned search: outcomes and "is the value v?" queries that stop early, over components,
//! with a compact transposition table — the engine for games too large for the plain
//! evaluator ([`crate::NormalPlay`], which computes every option's full value).
//!
//! # The method
//!
//! Everything reduces to one question, *is the disjunctive sum `G1 + ... + Gk` of value `v`?*
//! (equivalently: is `G1 + ... + Gk + *v` a P-position?).
//!
//! - **Components.** Each `Gi` is first split by [`Game::components`] and the parts are
//!   canonicalised ([`Game::canonical`]). Parts whose value is known (table, or
//!   [`Game::known_value`]) are nim-added into `v` and dropped — parts known to be 0 simply
//!   vanish — and equal pairs cancel (`G + G = 0`). Sums are never stored in the table; only
//!   single components are.
//! - **Nimbers are inevitable** (Lemoine & Viennot, "Nimbers are inevitable", Theoretical
//!   Computer Science 462, 2012): to decide a sum of several unknown components it pays to
//!   compute the full nimbers of all of them but one, and to search only the last — we keep the
//!   component with the most options for the search.
//! - **One component, one target.** `G` has value `v` iff no option of `G` has value `v`, and
//!   every `m < v` is the value of some option. The first check stops at the first option found
//!   of value `v`; the second, for each `m` in turn, at the first option of value `m`; a missing
//!   `m` proves the value is exactly `m`. For `v = 0` this is the plain outcome search (`G` is a
//!   P-position iff no option is), which never needs any option's full value. This is the
//!   search over `G + *v` in which the moves in the nim-heap `*v` are replaced by what is
//!   already known about `G` — the pruning studied by Beling & Rogalski ("On pruning search
//!   trees of impartial games", Artificial Intelligence 283, 2020).
//! - **What the table keeps.** For each component either its exact value or the set of values
//!   it is known *not* to have ([`Knowledge`]): a failed query is remembered too, and when all
//!   values below `m` are present among the options, "the value is not `m`" proves `m` present
//!   without searching again.
//! - **The full value** is computed with the same machinery: the least `m` that no option has.
//! - **Move ordering.** Options whose answer the table (or [`Game::known_value`]) already gives
//!   are settled first, without search; the others are searched in order of more parts first
//!   (a split leaves small, often known parts), then fewest replies (mobility), then the game's
//!   order ([`Game::options`]).
//! - **Two ways to the full value** ([`ValueMethod`]): by queries as above (the default; few
//!   positions when values are small, as in Cram), or as the mex of every option's full value
//!   (when values are large and nearly every position must be valued anyway, as in Chomp).
//!
//! Every answer equals the plain evaluator's; the tests compare the two on random games, on
//! every Cram board up to 20 cells and every Chomp shape up to 25 squares.
//!
//! # Example: a game that splits into independent regions
//!
//! The competitive-programming pattern: Kayles on several rows of pins (knock down one pin or
//! two adjacent ones); a move in a row splits it in two, and every row is its own game. Say so
//! in [`Game::components`] and the engine works on rows, never on whole positions:
//!
//! ```
//! use grundy::solve::PrunedSolver;
//! use grundy::{Game, Outcome};
//!
//! struct Kayles;
//! impl Game for Kayles {
//!     /// Row lengths, sorted, rows of 0 pins left out.
//!     type Position = Vec<u32>;
//!     fn options(&self, rows: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
//!         for (i, &n) in rows.iter().enumerate() {
//!             for take in 1..=2.min(n) {
//!                 for left in 0..=n - take {
//!                     let mut next = rows.clone();
//!                     next.remove(i);
//!                     next.extend([left, n - take - left].into_iter().filter(|&k| k > 0));
//!                     next.sort();
//!                     out.push(next);
//!                 }
//!             }
//!         }
//!     }
//!     fn components(&self, rows: &Vec<u32>) -> Option<Vec<Vec<u32>>> {
//!         (rows.len() > 1).then(|| rows.iter().map(|&n| vec![n]).collect())
//!     }
//! }
//!
//! let mut solver = PrunedSolver::new(Kayles);
//! // Kayles is the octal game 0.77: G(1..=11) = 1 2 3 1 4 3 2 1 4 2 6.
//! let g: Vec<u64> = (1..=11).map(|n| solver.grundy_value(&vec![n]).unwrap()).collect();
//! assert_eq!(g, [1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
//! // Rows of 5, 9 and 40 pins: an outcome query searches only what it must.
//! assert_eq!(solver.outcome(&vec![5, 9, 40]).unwrap(), Outcome::N);
//! assert_eq!(solver.has_value(&vec![4, 8], 0).unwrap(), true); // 1 xor 1
//! ```

pub mod table;

use crate::solve::traverse::components_error;
use crate::{Error, Game, LabelledMoves, Nimber, Outcome};
pub use table::{Knowledge, Table};

/// Nested moves the search may follow before it gives up (it recurses on the call stack).
pub const MAX_DEPTH: usize = 1000;

/// Default memory budget of the transposition table.
pub const DEFAULT_MEMORY: usize = 512 << 20;

/// Counters of one search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Components whose options were generated.
    pub nodes: u64,
    /// Entries in the transposition table.
    pub stored: usize,
    /// Entries overwritten because the table was at its budget.
    pub replaced: u64,
    /// Bytes of the table.
    pub table_bytes: usize,
}

/// A callback told of progress every few thousand nodes; returning `false` stops the search
/// with an "interrupted" error (the table keeps what was learnt).
pub type ProgressFn = Box<dyn FnMut(&Stats) -> bool + Send>;

/// How [`PrunedSolver::grundy_value`] finds the full value of a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueMethod {
    /// The least `m` for which no option has value `m`, each "some option has value m?" a
    /// pruned query (the default: best when values are small, as in Cram).
    #[default]
    Queries,
    /// The mex of every option's full value (best when values are large and most positions
    /// must be valued anyway, as in Chomp). Outcome queries stay pruned.
    Mex,
}

/// The pruned normal-play engine for one game, with its transposition table.
pub struct PrunedSolver<G: Game> {
    game: G,
    table: Table<G::Position>,
    nodes: u64,
    progress: Option<ProgressFn>,
    method: ValueMethod,
    mex: crate::MexScratch,
}

const PROGRESS_EVERY: u64 = 1 << 14;

impl<G: Game> PrunedSolver<G> {
    /// An engine with the default memory budget ([`DEFAULT_MEMORY`]).
    pub fn new(game: G) -> Self {
        Self::with_memory(game, DEFAULT_MEMORY)
    }

    /// An engine whose table uses at most about `bytes` (then it replaces old entries).
    pub fn with_memory(game: G, bytes: usize) -> Self {
        PrunedSolver {
            game,
            table: Table::with_budget(bytes),
            nodes: 0,
            progress: None,
            method: ValueMethod::default(),
            mex: crate::MexScratch::default(),
        }
    }

    /// Choose how full values are computed (see [`ValueMethod`]).
    pub fn with_value_method(mut self, method: ValueMethod) -> Self {
        self.method = method;
        self
    }

    /// Call `f` every few thousand nodes; `f` returning `false` interrupts the search.
    pub fn on_progress(&mut self, f: ProgressFn) {
        self.progress = Some(f);
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Counters so far.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            stored: self.table.len(),
            replaced: self.table.replaced(),
            table_bytes: self.table.bytes(),
        }
    }

    /// The Grundy value of `position`.
    pub fn grundy_value(&mut self, position: &G::Position) -> Result<Nimber, Error> {
        let parts = self.flatten(position)?;
        let mut v = 0;
        for p in &parts {
            v ^= self.single_value(p, 0)?;
        }
        Ok(v)
    }

    /// Whether the value of `position` is `v`, searching no more than that needs.
    pub fn has_value(&mut self, position: &G::Position, v: Nimber) -> Result<bool, Error> {
        let parts = self.flatten(position)?;
        self.sum_is(&parts, v, 0)
    }

    /// P if the player to move loses, N otherwise (a pruned search: no full values needed).
    pub fn outcome(&mut self, position: &G::Position) -> Result<Outcome, Error> {
        Ok(if self.has_value(position, 0)? {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// Every option of `position` that is a P-position (the winning moves), in option order.
    pub fn winning_options(&mut self, position: &G::Position) -> Result<Vec<G::Position>, Error> {
        let mut out = Vec::new();
        for o in self.game.options_vec(position) {
            if self.has_value(&o, 0)? {
                out.push(o);
            }
        }
        Ok(out)
    }

    /// The parts of `p` after splitting as far as [`Game::components`] goes, canonicalised.
    fn flatten(&self, p: &G::Position) -> Result<Vec<G::Position>, Error> {
        let mut out = Vec::new();
        self.flatten_into(p, &mut out)?;
        Ok(out)
    }

    /// [`flatten`](Self::flatten), appending to `out`.
    fn flatten_into(&self, p: &G::Position, out: &mut Vec<G::Position>) -> Result<(), Error> {
        let Some(first) = self.game.components(p) else {
            out.push(self.game.canonical(p));
            return Ok(());
        };
        if first.contains(p) {
            return Err(components_error(p));
        }
        let mut work = first;
        let mut splits = 0usize;
        while let Some(x) = work.pop() {
            match self.game.components(&x) {
                Some(parts) => {
                    if parts.contains(&x) {
                        return Err(components_error(&x));
                    }
                    splits += 1;
                    if splits > 1_000_000 {
                        // Splitting that never ends is a part that is not strictly simpler.
                        return Err(components_error(&x));
                    }
                    work.extend(parts);
                }
                None => out.push(self.game.canonical(&x)),
            }
        }
        Ok(())
    }

    /// The value of a single (canonical) component, if known without search.
    fn known(&mut self, c: &G::Position) -> Option<Nimber> {
        if let Some(v) = self.table.get(c).value() {
            return Some(v);
        }
        let v = self.game.known_value(c)?;
        self.table.put(c, Knowledge::exact(v));
        Some(v)
    }

    fn learn_exact(&mut self, c: &G::Position, v: Nimber) {
        self.table.put(c, Knowledge::exact(v));
    }

    fn learn_not(&mut self, c: &G::Position, v: Nimber) {
        let k = self.table.get(c);
        self.table.put(c, k.exclude(v));
    }

    /// Is the sum of `parts` (already flattened and canonical) of value `v`?
    fn sum_is(
        &mut self,
        parts: &[G::Position],
        mut v: Nimber,
        depth: usize,
    ) -> Result<bool, Error> {
        if let [single] = parts {
            return self.single_is(single, v, depth);
        }
        let mut rest: Vec<G::Position> = Vec::with_capacity(parts.len());
        for p in parts {
            if let Some(x) = self.known(p) {
                v ^= x;
            } else if let Some(i) = rest.iter().position(|q| q == p) {
                rest.swap_remove(i); // G + G = 0
            } else {
                rest.push(p.clone());
            }
        }
        match rest.len() {
            0 => Ok(v == 0),
            1 => self.single_is(&rest[0], v, depth),
            _ => {
                // Lemoine–Viennot: full nimbers for all parts but the largest, then one query.
                let mut counts = Vec::with_capacity(rest.len());
                let mut buf = Vec::new();
                for p in &rest {
                    buf.clear();
                    self.game.options(p, &mut buf);
                    counts.push(buf.len());
                }
                let big = (0..rest.len())
                    .max_by_key(|&i| counts[i])
                    .expect("at least two parts");
                for (i, p) in rest.iter().enumerate() {
                    if i != big {
                        v ^= self.single_value(p, depth)?;
                    }
                }
                self.single_is(&rest[big], v, depth)
            }
        }
    }

    fn enter(&mut self, depth: usize) -> Result<(), Error> {
        if depth >= MAX_DEPTH {
            return Err(Error::TooLarge(format!(
                "the pruned search follows at most {MAX_DEPTH} nested moves (is the game finite? \
                 the plain evaluator NormalPlay has no such limit)"
            )));
        }
        self.nodes += 1;
        if self.nodes % PROGRESS_EVERY == 0 {
            let stats = self.stats();
            if let Some(f) = self.progress.as_mut() {
                if !f(&stats) {
                    return Err(Error::Invalid("interrupted".into()));
                }
            }
        }
        Ok(())
    }

    /// The options of `c`, each flattened into canonical parts.
    fn expanded_options(&self, c: &G::Position) -> Result<Expanded<G::Position>, Error> {
        let mut opts = Vec::new();
        self.game.options(c, &mut opts);
        let mut e = Expanded {
            parts: Vec::with_capacity(opts.len()),
            ends: Vec::with_capacity(opts.len()),
        };
        for o in &opts {
            self.flatten_into(o, &mut e.parts)?;
            e.ends.push(e.parts.len());
        }
        Ok(e)
    }

    /// Does some option (each given as its parts) have value `m`?
    fn some_option_is(
        &mut self,
        options: &Expanded<G::Position>,
        m: Nimber,
        depth: usize,
    ) -> Result<bool, Error> {
        // Ordering: first what the table answers at once, then a search in the game's order.
        let mut unknown = Vec::new();
        for i in 0..options.len() {
            let parts = options.get(i);
            let mut x = 0;
            let mut open = 0;
            let mut last = None;
            for p in parts {
                match self.known(p) {
                    Some(v) => x ^= v,
                    None => {
                        open += 1;
                        last = Some(p);
                    }
                }
            }
            match (open, last) {
                (0, _) if x == m => return Ok(true),
                (0, _) => {}
                // One unknown part: skip it when the table already rules out the needed value.
                (1, Some(p)) if self.table.get(p).excludes(m ^ x) => {}
                _ => unknown.push(i),
            }
        }
        // Options that split into more parts first: their parts are smaller and often known.
        if unknown.len() > 1 {
            let mut buf = Vec::new();
            let mut keyed: Vec<(std::cmp::Reverse<usize>, usize, usize)> = unknown
                .iter()
                .map(|&i| {
                    let parts = options.get(i);
                    let mut mobility = 0;
                    for p in parts {
                        buf.clear();
                        self.game.options(p, &mut buf);
                        mobility += buf.len();
                    }
                    (std::cmp::Reverse(parts.len()), mobility, i)
                })
                .collect();
            keyed.sort_unstable();
            unknown = keyed.into_iter().map(|k| k.2).collect();
        }
        for i in unknown {
            if self.sum_is(options.get(i), m, depth + 1)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Is the single canonical component `c` of value `v`?
    fn single_is(&mut self, c: &G::Position, v: Nimber, depth: usize) -> Result<bool, Error> {
        if let Some(x) = self.known(c) {
            return Ok(x == v);
        }
        if self.table.get(c).excludes(v) {
            return Ok(false);
        }
        self.enter(depth)?;
        let options = self.expanded_options(c)?;
        if options.len() == 0 {
            self.learn_exact(c, 0);
            return Ok(v == 0);
        }
        // An option of value v: then c's value is not v.
        if self.some_option_is(&options, v, depth)? {
            self.learn_not(c, v);
            return Ok(false);
        }
        // Every m < v must be present; the first missing one is c's value.
        for m in 0..v {
            if self.table.get(c).excludes(m) {
                continue; // all below m are present and the value is not m: m is present
            }
            if !self.some_option_is(&options, m, depth)? {
                self.learn_exact(c, m);
                return Ok(false);
            }
        }
        self.learn_exact(c, v);
        Ok(true)
    }

    /// The full value of the single canonical component `c`: the least `m` no option has.
    fn single_value(&mut self, c: &G::Position, depth: usize) -> Result<Nimber, Error> {
        if let Some(x) = self.known(c) {
            return Ok(x);
        }
        self.enter(depth)?;
        let options = self.expanded_options(c)?;
        if self.method == ValueMethod::Mex {
            let mut values = Vec::with_capacity(options.len());
            for i in 0..options.len() {
                let mut x = 0;
                for p in options.get(i) {
                    x ^= self.single_value(p, depth + 1)?;
                }
                values.push(x);
            }
            let m = self.mex.mex(values);
            self.learn_exact(c, m);
            return Ok(m);
        }
        let mut m = 0;
        loop {
            if !self.table.get(c).excludes(m) && !self.some_option_is(&options, m, depth)? {
                self.learn_exact(c, m);
                return Ok(m);
            }
            m += 1;
        }
    }
}

/// A node's options, each as its flattened canonical parts, in one allocation.
struct Expanded<P> {
    parts: Vec<P>,
    /// Option `i` is `parts[ends[i - 1]..ends[i]]`.
    ends: Vec<usize>,
}

impl<P> Expanded<P> {
    fn len(&self) -> usize {
        self.ends.len()
    }
    fn get(&self, i: usize) -> &[P] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.parts[start..self.ends[i]]
    }
}

impl<G: LabelledMoves> PrunedSolver<G> {
    /// Every winning move of `position` (to a P-position), as the game labels it.
    pub fn winning_moves(&mut self, position: &G::Position) -> Result<Vec<G::Move>, Error> {
        let mut moves = Vec::new();
        self.game.moves(position, &mut moves);
        let mut out = Vec::new();
        for (m, q) in moves {
            if self.has_value(&q, 0)? {
                out.push(m);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
