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
//!   heaviest component ([`Game::weight`]) for the search.
//! - **Set queries.** The basic question is *is the value of component `G` in the set `R`?*,
//!   answered with the exact value or with "no" (Beling & Rogalski, "On pruning search trees
//!   of impartial games", Artificial Intelligence 283, 2020). `G` with `n` options has a value
//!   in `P = {0, ..., n}`; each option in turn removes one candidate — its own value if that
//!   is a candidate other than the largest, else the largest — so each option is asked only
//!   about the candidates below the largest (cut at `max R`), and the search stops as soon as
//!   no candidate is in `R`. The last candidate is the value when every option was answered,
//!   or when it is at most `max R`. Outcome queries are the set `{0}`.
//! - **Known options first, one at a time** (an enhanced transposition cutoff, as in Beling's
//!   igsolve): a node's options are split and looked up in the game's order, each settled at
//!   once when its value is known, and the search stops as soon as the candidates miss `R` —
//!   before the remaining options are even split. The candidates keep the value whatever the
//!   order of the options (each step of the argument above holds for any order).
//! - **What the table keeps.** For each component either its exact value or the values below
//!   63 it is known *not* to have ([`Knowledge`]): a refused query is remembered too, with the
//!   values of the options seen on the way (a mex is none of its options' values), and shrinks
//!   the next query's set. The table grows with the exact values; partial knowledge
//!   fills the room left and is the first to go ([`Table`]). Values from
//!   [`Game::known_value`] are not stored. When the game numbers its positions densely
//!   ([`Game::dense_index`]) and the numbering's bytes fit half the budget, exact values below
//!   255 go to a byte array instead ([`Dense`]) and the table keeps the rest.
//! - **The full value** of the position asked about: for `m = 0, 1, ...`, every option not yet
//!   valued is asked whether its value is `m` (keeping the exact answers it gives), and the
//!   first `m` no option has is the value. Inner full values are set queries for every value.
//! - **Move ordering.** Options whose value the table (or [`Game::known_value`]) already gives
//!   are settled first, without search; the others are searched lightest first: more parts
//!   first, then the least sum of squared part weights ([`Game::weight`], by default the number
//!   of options), then the game's order ([`Game::options`]).
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

pub mod answer;
pub mod dense;
pub mod nimset;
pub mod parallel;
pub mod persist;
pub mod run;
pub mod table;

use crate::solve::traverse::components_error;
use crate::{Error, Game, LabelledMoves, Nimber, Outcome};
pub use answer::{answer, Answer, Question, SearchStats};
pub use dense::Dense;
pub use nimset::NimSet;
pub use parallel::{KnowledgeStore, SharedTable};
pub use run::{search, SearchOptions};
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
    /// Entries in the transposition table, with the values in the dense array ([`Dense`]).
    pub stored: usize,
    /// Exact values overwritten for lack of room (partial knowledge gives way uncounted).
    pub replaced: u64,
    /// Bytes of the table, with the dense array's.
    pub table_bytes: usize,
}

/// A callback told of progress every few thousand nodes; returning `false` stops the search
/// with an "interrupted" error (the table keeps what was learnt).
pub type ProgressFn = Box<dyn FnMut(&Stats) -> bool + Send>;

/// A callback shown the table (of type `T`) every few thousand nodes (after the
/// [`ProgressFn`]), e.g. to save it now and then ([`persist`]).
pub type SnapshotFn<T> = Box<dyn FnMut(&T) + Send>;

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

/// The pruned normal-play engine for one game, with its transposition table (by default its
/// own [`Table`]; a [`SharedTable`] when several threads search at once, see [`parallel`]).
pub struct PrunedSolver<G: Game, T = Table<<G as Game>::Position>> {
    game: G,
    table: T,
    /// Exact values by the game's dense numbering ([`Game::dense_index`]), when it has one
    /// that fits half the budget and the table can give up room for it
    /// ([`KnowledgeStore::dense_budget`]); decided at the first query.
    dense: Option<Dense<G::Position>>,
    dense_decided: bool,
    /// The raw options of the node being expanded, kept between nodes to save allocations.
    scratch: Vec<G::Position>,
    nodes: u64,
    progress: Option<ProgressFn>,
    method: ValueMethod,
    /// Vectors of finished nodes, for the next ones ([`NodeBuffers`]).
    spare: Vec<NodeBuffers<G::Position>>,
    snapshot: Option<SnapshotFn<T>>,
}

const PROGRESS_EVERY: u64 = 1 << 14;

impl<G: Game> PrunedSolver<G> {
    /// An engine with the default memory budget ([`DEFAULT_MEMORY`]).
    pub fn new(game: G) -> Self {
        Self::with_memory(game, DEFAULT_MEMORY)
    }

    /// An engine whose table uses at most about `bytes` (then it replaces old entries).
    pub fn with_memory(game: G, bytes: usize) -> Self {
        PrunedSolver::with_table(game, Table::with_budget(bytes))
    }
}

impl<G: Game, T: KnowledgeStore<G::Position>> PrunedSolver<G, T> {
    /// An engine that keeps what it learns in `table`.
    pub fn with_table(game: G, table: T) -> Self {
        PrunedSolver {
            game,
            table,
            dense: None,
            dense_decided: false,
            scratch: Vec::new(),
            nodes: 0,
            progress: None,
            method: ValueMethod::default(),
            spare: Vec::new(),
            snapshot: None,
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

    /// Show the table to `f` every few thousand nodes (see [`SnapshotFn`]).
    pub fn on_snapshot(&mut self, f: SnapshotFn<T>) {
        self.snapshot = Some(f);
    }

    /// The transposition table.
    pub fn table(&self) -> &T {
        &self.table
    }

    /// The transposition table, to fill it with knowledge from elsewhere (a saved table): any
    /// true facts about positions are safe to add (see [`persist`]).
    pub fn table_mut(&mut self) -> &mut T {
        &mut self.table
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Counters so far.
    pub fn stats(&self) -> Stats {
        let (dense_len, dense_bytes) = self.dense.as_ref().map_or((0, 0), |d| (d.len(), d.bytes()));
        Stats {
            nodes: self.nodes,
            stored: self.table.len() + dense_len,
            replaced: self.table.replaced(),
            table_bytes: self.table.bytes() + dense_bytes,
        }
    }

    /// The Grundy value of `position`.
    pub fn grundy_value(&mut self, position: &G::Position) -> Result<Nimber, Error> {
        self.prepare(position);
        let parts = self.flatten(position)?;
        let mut rest = Vec::new();
        let mut v = self.fold(&parts, &mut rest);
        for p in &rest {
            v ^= self.value_of(p, 0)?;
        }
        Ok(v)
    }

    /// Whether the value of `position` is `v`, searching no more than that needs.
    pub fn has_value(&mut self, position: &G::Position, v: Nimber) -> Result<bool, Error> {
        let Some(want) = NimSet::single(v) else {
            return Ok(self.grundy_value(position)? == v);
        };
        self.prepare(position);
        let parts = self.flatten(position)?;
        Ok(self.sum_in(&parts, want, 0)? == Some(v))
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
        self.prepare(position);
        let mut out = Vec::new();
        for o in self.game.options_vec(position) {
            if self.has_value(&o, 0)? {
                out.push(o);
            }
        }
        Ok(out)
    }

    /// At the first query: keep exact values in a dense array when the game numbers the
    /// positions from `start` ([`Game::dense_size`]) in at most half the memory budget; the
    /// hashed table gets the rest of the budget.
    fn prepare(&mut self, start: &G::Position) {
        if self.dense_decided {
            return;
        }
        self.dense_decided = true;
        // Only an empty table owned by this solver gives up room (not one loaded from a saved
        // file, nor one shared between threads).
        let Some(memory) = self.table.dense_budget() else {
            return;
        };
        self.dense = Dense::for_start(&self.game, start, memory / 2);
        if let Some(d) = &self.dense {
            // Exact values go to the array: this table grows with partial knowledge.
            self.table.shrink_for_dense(memory - d.bytes());
        }
    }

    /// This engine without the dense array: every exact value stays in its table (for a
    /// table that is saved to a file, see [`persist`]).
    pub fn without_dense(mut self) -> Self {
        self.dense_decided = true;
        self
    }

    /// What is known about the single canonical component `c`: the dense array's exact
    /// value, else the hashed table's knowledge.
    fn lookup(&self, c: &G::Position) -> Knowledge {
        if let Some(d) = &self.dense {
            if let Some(v) = d.index(&self.game, c).and_then(|i| d.get(i)) {
                return Knowledge::exact(v);
            }
        }
        self.table.get(c)
    }

    /// The parts of `p` after splitting as far as [`Game::components`] goes, canonicalised.
    fn flatten(&self, p: &G::Position) -> Result<Vec<G::Position>, Error> {
        let mut out = Vec::new();
        self.flatten_into(p, &mut out)?;
        Ok(out)
    }

    /// [`flatten`](Self::flatten), appending to `out`.
    fn flatten_into(&self, p: &G::Position, out: &mut Vec<G::Position>) -> Result<(), Error> {
        let start = out.len();
        if !self.game.components_into(p, out) {
            out.truncate(start);
            out.push(self.game.canonical(p));
            return Ok(());
        }
        if out[start..].contains(p) {
            return Err(components_error(p));
        }
        if self.game.parts_are_final() {
            for x in &mut out[start..] {
                *x = self.game.canonical(x);
            }
            return Ok(());
        }
        let mut work = out.split_off(start);
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
        if let Some(v) = self.lookup(c).value() {
            return Some(v);
        }
        self.game.known_value(c)
    }

    fn learn_exact(&mut self, c: &G::Position, v: Nimber) {
        if let Some(d) = &mut self.dense {
            if let Some(i) = d.index(&self.game, c) {
                if d.put(i, v) {
                    return;
                }
            }
        }
        self.table.put(c, Knowledge::exact(v));
    }

    /// Remember that the value of `c` is none of `set`'s elements nor of the bits of `also`
    /// (those below 63). The store merges this with what it holds, under one lock when
    /// threads share it ([`KnowledgeStore::put`]): an exact value stored meanwhile stays. (The
    /// dense array cannot hold `c`'s value here: `c` had none when its search began, and no
    /// position below `c` is `c`.)
    fn learn_not_in(&mut self, c: &G::Position, set: &NimSet, also: u64) {
        self.table
            .put(c, Knowledge::NONE.exclude_all(set.low_bits() | also));
    }

    /// `v` as a bit of an exclusion mask (0 when `v` is 63 or more).
    fn low_bit(v: Nimber) -> u64 {
        if v < 63 {
            1 << v
        } else {
            0
        }
    }

    /// Split flattened `parts` into the nim-sum of those whose value is known (returned) and
    /// the others (`rest`, cleared first), equal pairs of unknown parts cancelled (`G + G = 0`).
    fn fold(&mut self, parts: &[G::Position], rest: &mut Vec<G::Position>) -> Nimber {
        rest.clear();
        let mut x = 0;
        for p in parts {
            if let Some(v) = self.known(p) {
                x ^= v;
            } else if let Some(i) = rest.iter().position(|q| q == p) {
                rest.swap_remove(i);
            } else {
                rest.push(p.clone());
            }
        }
        x
    }

    /// The value of the sum of `parts` when [`fold`](Self::fold) leaves nothing unknown.
    fn folded_value(
        &mut self,
        parts: &[G::Position],
        rest: &mut Vec<G::Position>,
    ) -> Option<Nimber> {
        let x = self.fold(parts, rest);
        rest.is_empty().then_some(x)
    }

    /// The game's [`Game::weight`] of a single component, or its number of options.
    fn weight(&self, p: &G::Position, buf: &mut Vec<G::Position>) -> u64 {
        self.game.weight(p).unwrap_or_else(|| {
            buf.clear();
            self.game.options(p, buf);
            buf.len() as u64
        })
    }

    /// The value of the sum of `parts` (flattened, canonical) if it lies in `want`; `None`
    /// only when it provably does not (an exact value outside `want` may also be returned).
    ///
    /// Lemoine–Viennot ("Nimbers are inevitable", TCS 462, 2012): the full values of all
    /// unknown parts but the heaviest, then one set query on the heaviest with `want` shifted
    /// by their nim-sum.
    fn sum_in(
        &mut self,
        parts: &[G::Position],
        want: NimSet,
        depth: usize,
    ) -> Result<Option<Nimber>, Error> {
        if let [single] = parts {
            return self.in_set(single, want, depth);
        }
        let mut rest = Vec::new();
        let mut x = self.fold(parts, &mut rest);
        if rest.is_empty() {
            return Ok(Some(x));
        }
        let mut buf = Vec::new();
        let big = (0..rest.len())
            .max_by_key(|&i| self.weight(&rest[i], &mut buf))
            .expect("at least one part");
        for (i, p) in rest.iter().enumerate() {
            if i != big {
                x ^= self.full_value(p, depth)?;
            }
        }
        match want.xor_each(x) {
            Some(shifted) => Ok(self.in_set(&rest[big], shifted, depth)?.map(|v| v ^ x)),
            None => Ok(Some(x ^ self.full_value(&rest[big], depth)?)),
        }
    }

    /// The full value of the single canonical component `c` by set queries.
    fn full_value(&mut self, c: &G::Position, depth: usize) -> Result<Nimber, Error> {
        match self.in_set(c, NimSet::all(), depth)? {
            Some(v) => Ok(v),
            // Only a value above every element of the set escapes a query for all of them.
            None => self.value_of(c, depth),
        }
    }

    /// The value of the single canonical component `c` if it lies in `want`; `None` only
    /// when it provably does not. The set-query search of Beling & Rogalski ("On pruning
    /// search trees of impartial games", Artificial Intelligence 283, 2020, §4), in our words:
    ///
    /// `c` with `n` options has a value in `P = {0, ..., n}`. Each option in turn removes one
    /// element of `P`: its own value when that is in `P` minus its largest element (so the
    /// option is asked only about that set, cut at `max(want)`), else the largest element.
    /// The last element left is the mex — exactly when every option was answered, and
    /// whenever it is at most `max(want)` otherwise. The search stops as soon as `P` and
    /// `want` are disjoint.
    fn in_set(
        &mut self,
        c: &G::Position,
        want: NimSet,
        depth: usize,
    ) -> Result<Option<Nimber>, Error> {
        let k = self.lookup(c);
        if let Some(v) = k.value() {
            return Ok(Some(v));
        }
        if let Some(v) = self.game.known_value(c) {
            // Not stored: a theorem is asked again rather than fill the table.
            return Ok(Some(v));
        }
        let want = want.without_low(k.excluded_bits());
        let Some(top) = want.max() else {
            return Ok(None);
        };
        self.enter(depth)?;
        // The vectors of a node come from a pool and go back to it: no allocation per node.
        let mut bufs = self.spare.pop().unwrap_or_default();
        let answer = self.search_in_set(c, want, top, depth, &mut bufs);
        self.spare.push(bufs);
        answer
    }

    /// [`in_set`](Self::in_set) once the table and the theorems did not answer: the search
    /// of node `c` for the candidates of `want` (whose largest is `top`), in `bufs`.
    fn search_in_set(
        &mut self,
        c: &G::Position,
        want: NimSet,
        top: Nimber,
        depth: usize,
        bufs: &mut NodeBuffers<G::Position>,
    ) -> Result<Option<Nimber>, Error> {
        let NodeBuffers {
            raw,
            options,
            open,
            scratch,
        } = bufs;
        raw.clear();
        options.parts.clear();
        options.ends.clear();
        open.clear();
        self.game.options(c, raw);
        let n = raw.len();
        if n >= NimSet::CAPACITY {
            return self.value_of(c, depth).map(Some);
        }
        let mut cand = NimSet::below(n + 1);
        let upto = NimSet::below(top as usize + 1);
        // Options are split and looked up one at a time, so that those whose values are known
        // can end the search before the rest are even split (an enhanced transposition
        // cutoff): a candidate set that misses `want` stays missing it whatever comes next.
        //
        // The values of options are values `c` does not have (a mex is none of them): those
        // seen (below 63) are remembered with the refusal, so that a later query about them
        // stops at once.
        let mut seen = 0u64;
        for (i, o) in raw.iter().enumerate() {
            self.flatten_into(o, &mut options.parts)?;
            options.ends.push(options.parts.len());
            match self.folded_value(options.get(i), scratch) {
                Some(x) => {
                    seen |= Self::low_bit(x);
                    Self::settle(&mut cand, Some(x));
                    if cand.is_disjoint(&want) {
                        self.learn_not_in(c, &want, seen);
                        return Ok(None);
                    }
                }
                None => open.push(i),
            }
        }
        self.order(options, open);
        let mut exact = true;
        for &i in open.iter() {
            if cand.is_disjoint(&want) {
                self.learn_not_in(c, &want, seen);
                return Ok(None);
            }
            let mut below_max = cand;
            below_max.remove(cand.max().expect("one element per unanswered option"));
            let ask = below_max.and(&upto);
            let answer = if ask.is_empty() {
                None
            } else {
                self.sum_in(options.get(i), ask, depth + 1)?
            };
            exact &= answer.is_some();
            seen |= answer.map_or(0, Self::low_bit);
            Self::settle(&mut cand, answer);
        }
        let v = cand.min().expect("one element is left");
        if exact || v <= top {
            self.learn_exact(c, v);
            Ok(Some(v))
        } else {
            self.learn_not_in(c, &want, seen);
            Ok(None)
        }
    }

    /// One option's answer removes one candidate: its value when that is a candidate other
    /// than the largest, else the largest.
    fn settle(cand: &mut NimSet, answer: Option<Nimber>) {
        let max = cand.max().expect("one element per unanswered option");
        match answer {
            Some(v) if v != max && cand.contains(v) => cand.remove(v),
            _ => cand.remove(max),
        }
    }

    /// Order unanswered options: lightest (sum of squared part weights) first, then the
    /// game's order.
    fn order(&self, options: &Expanded<G::Position>, open: &mut Vec<usize>) {
        if open.len() < 2 {
            return;
        }
        let mut buf = Vec::new();
        // One u128 per option, sorted: most parts first, then the weight, then the index.
        let mut keyed: Vec<u128> = open
            .iter()
            .map(|&i| {
                let w: u64 = options
                    .get(i)
                    .iter()
                    .map(|p| {
                        let w = self.weight(p, &mut buf);
                        w.saturating_mul(w)
                    })
                    .fold(0, u64::saturating_add);
                let fewer_parts = u32::MAX - options.get(i).len().min(u32::MAX as usize) as u32;
                u128::from(fewer_parts) << 96 | u128::from(w) << 32 | i as u128
            })
            .collect();
        keyed.sort_unstable();
        open.clear();
        open.extend(keyed.into_iter().map(|k| k as u32 as usize));
    }

    /// The full value of the single canonical component `c`, by the [`ValueMethod`]: either
    /// asking "is it m?" for m = 0, 1, ... over the options (each option asked about one
    /// value at a time, its exact answers kept), or the mex of every option's full value.
    fn value_of(&mut self, c: &G::Position, depth: usize) -> Result<Nimber, Error> {
        if let Some(x) = self.known(c) {
            return Ok(x);
        }
        self.enter(depth)?;
        let options = self.expanded_options(c)?;
        let n = options.len();
        let mut present = vec![false; n + 1];
        if self.method == ValueMethod::Mex || n >= NimSet::CAPACITY {
            for i in 0..n {
                let v = self.sum_value(options.get(i), depth + 1)?;
                if v <= n as u64 {
                    present[v as usize] = true;
                }
            }
            let m = present
                .iter()
                .position(|&p| !p)
                .expect("n values miss one of 0..=n");
            self.learn_exact(c, m as u64);
            return Ok(m as u64);
        }
        let mut open = Vec::new();
        let mut scratch = Vec::new();
        for i in 0..n {
            match self.folded_value(options.get(i), &mut scratch) {
                None => open.push(i),
                Some(x) if x <= n as u64 => present[x as usize] = true,
                Some(_) => {}
            }
        }
        self.order(&options, &mut open);
        'values: for m in 0..=n {
            let known_absent = self.lookup(c).excludes(m as u64);
            if present[m] || known_absent {
                // With every value below m present, "the value is not m" means m is present.
                continue;
            }
            let want = NimSet::single(m as u64).expect("n is below the capacity");
            let mut j = 0;
            while j < open.len() {
                match self.sum_in(options.get(open[j]), want, depth + 1)? {
                    Some(v) => {
                        open.remove(j);
                        if v == m as u64 {
                            continue 'values;
                        }
                        if v <= n as u64 {
                            present[v as usize] = true;
                        }
                    }
                    None => j += 1,
                }
            }
            self.learn_exact(c, m as u64);
            return Ok(m as u64);
        }
        // n options cannot have all of the n + 1 values 0..=n: only a false exclusion (from a
        // saved table that was not checked everywhere) leads here.
        Err(Error::Invalid(
            "the table says this position has none of the values its options allow: it holds \
             false knowledge (delete the saved table)"
                .into(),
        ))
    }

    /// The full value of a sum of flattened parts.
    fn sum_value(&mut self, parts: &[G::Position], depth: usize) -> Result<Nimber, Error> {
        if let [single] = parts {
            // One look-up, in value_of.
            return self.value_of(single, depth);
        }
        let mut rest = Vec::new();
        let mut x = self.fold(parts, &mut rest);
        for p in &rest {
            x ^= self.value_of(p, depth)?;
        }
        Ok(x)
    }

    fn enter(&mut self, depth: usize) -> Result<(), Error> {
        if depth >= MAX_DEPTH {
            return Err(Error::TooLarge(format!(
                "too deep: the pruned search follows at most {MAX_DEPTH} nested moves (is the game finite? \
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
            if let Some(f) = self.snapshot.as_mut() {
                f(&self.table);
            }
        }
        Ok(())
    }

    /// The options of `c`, each flattened into canonical parts.
    fn expanded_options(&mut self, c: &G::Position) -> Result<Expanded<G::Position>, Error> {
        // One buffer for every node's raw options (they are flattened before any recursion).
        let mut opts = std::mem::take(&mut self.scratch);
        opts.clear();
        self.game.options(c, &mut opts);
        let mut e = Expanded::with_capacity(opts.len());
        for o in &opts {
            self.flatten_into(o, &mut e.parts)?;
            e.ends.push(e.parts.len());
        }
        self.scratch = opts;
        Ok(e)
    }
}

/// The vectors one node of the set-query search works in: its options as the game lists
/// them, the same flattened, the indices of those still open, and room to fold a sum.
struct NodeBuffers<P> {
    raw: Vec<P>,
    options: Expanded<P>,
    open: Vec<usize>,
    scratch: Vec<P>,
}

impl<P> Default for NodeBuffers<P> {
    fn default() -> Self {
        NodeBuffers {
            raw: Vec::new(),
            options: Expanded::with_capacity(0),
            open: Vec::new(),
            scratch: Vec::new(),
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
    fn with_capacity(n: usize) -> Self {
        Expanded {
            parts: Vec::with_capacity(n),
            ends: Vec::with_capacity(n),
        }
    }
    fn len(&self) -> usize {
        self.ends.len()
    }
    fn get(&self, i: usize) -> &[P] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.parts[start..self.ends[i]]
    }
}

impl<G: LabelledMoves, T: KnowledgeStore<G::Position>> PrunedSolver<G, T> {
    /// Every winning move of `position` (to a P-position), as the game labels it.
    pub fn winning_moves(&mut self, position: &G::Position) -> Result<Vec<G::Move>, Error> {
        self.prepare(position);
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
