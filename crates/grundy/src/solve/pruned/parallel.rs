//! Parallel search: several threads ask the root's questions at once and share one table.
//!
//! Every entry of a table is a true statement about one position (its value, or values it does
//! not have; see [`super::persist`] for why the search is correct with *any* set of true
//! entries). So threads may share one table freely: whatever one thread learns is true for all,
//! an entry another thread overwrites or that is lost to the budget is only recomputed, and a
//! parallel answer is the single-threaded one. [`SharedTable`] is the table split into shards,
//! each a [`Table`] behind its own lock (one look-up takes one uncontended lock); the
//! single-threaded search keeps its own [`Table`] and pays nothing for this.
//!
//! The work is split at the root, with the questions the single-threaded search asks there
//! ([`answer_parallel`]):
//! - the value, by [`ValueMethod::Mex`]: every option's full value at once, one option per task;
//! - the value, by [`ValueMethod::Queries`]: for `m = 0, 1, ...` "has some option the value
//!   `m`?", every option asked at once; the first option that says yes cancels the others (at
//!   their next progress call), and the first `m` no option has is the value;
//! - the outcome only: the round `m = 0`;
//! - the winning moves: every labelled move's outcome query at once.
//!
//! Threads come from a [rayon] pool of the size asked for, with deep stacks (the search
//! recurses).

use super::answer::{Answer, Question, INTERRUPTED};
use super::{ProgressFn, PrunedSolver, Stats, Table, ValueMethod, PROGRESS_EVERY};
use crate::{Error, Game, LabelledMoves, Nimber, Outcome};
use rayon::prelude::*;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Where the pruned search keeps what it learns: its own [`Table`], or a [`SharedTable`].
pub trait KnowledgeStore<P> {
    /// What is known about `p`.
    fn get(&self, p: &P) -> Knowledge;
    /// Add `k` to what is known about `p`, as one step ([`Table::put`]): exclusions add up,
    /// and partial knowledge never replaces an exact value.
    fn put(&mut self, p: &P, k: Knowledge);
    /// Entries stored.
    fn len(&self) -> usize;
    /// Whether nothing is stored.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Exact values overwritten for lack of room.
    fn replaced(&self) -> u64;
    /// Bytes of the table.
    fn bytes(&self) -> usize;
    /// The byte budget when this store may give part of it to a dense array of exact values
    /// ([`super::Dense`]): an empty table owned by one solver. `None` (the default) otherwise.
    fn dense_budget(&self) -> Option<usize> {
        None
    }
    /// Keep within `bytes` from now on and grow with partial knowledge, the exact values going
    /// to a dense array (only called after [`dense_budget`](Self::dense_budget) said yes).
    fn shrink_for_dense(&mut self, _bytes: usize) {}
}

use super::Knowledge;

impl<P: Eq + Hash + Clone> KnowledgeStore<P> for Table<P> {
    fn get(&self, p: &P) -> Knowledge {
        Table::get(self, p)
    }
    fn put(&mut self, p: &P, k: Knowledge) {
        Table::put(self, p, k)
    }
    fn len(&self) -> usize {
        Table::len(self)
    }
    fn replaced(&self) -> u64 {
        Table::replaced(self)
    }
    fn bytes(&self) -> usize {
        Table::bytes(self)
    }
    fn dense_budget(&self) -> Option<usize> {
        self.is_empty().then(|| self.budget())
    }
    fn shrink_for_dense(&mut self, bytes: usize) {
        *self = Table::with_budget(bytes).growing_with_partial();
    }
}

/// Shards of a [`SharedTable`] (a power of two).
const SHARDS: usize = 64;

/// A table several threads search at once: 64 tables (`SHARDS`), each behind its own lock, a
/// position's shard chosen by its hash. Clones share the same shards.
pub struct SharedTable<P> {
    shards: Arc<[Mutex<Table<P>>]>,
}

impl<P> Clone for SharedTable<P> {
    fn clone(&self) -> Self {
        SharedTable {
            shards: Arc::clone(&self.shards),
        }
    }
}

impl<P: Eq + Hash + Clone> SharedTable<P> {
    /// An empty shared table of at most about `budget_bytes` in all.
    pub fn with_budget(budget_bytes: usize) -> Self {
        SharedTable {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(Table::with_budget(budget_bytes / SHARDS)))
                .collect(),
        }
    }

    fn shard(&self, p: &P) -> MutexGuard<'_, Table<P>> {
        let mut h = FxHasher::default();
        p.hash(&mut h);
        // Top bits of another product than the one that picks a bucket inside the shard.
        let i = (h.finish().wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 58) as usize % SHARDS;
        // A panic elsewhere cannot leave an entry half written: entries are plain values.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    fn sum<T: std::iter::Sum>(&self, f: impl Fn(&Table<P>) -> T) -> T {
        self.shards
            .iter()
            .map(|s| f(&s.lock().unwrap_or_else(|e| e.into_inner())))
            .sum()
    }
}

impl<P: Eq + Hash + Clone> KnowledgeStore<P> for SharedTable<P> {
    fn get(&self, p: &P) -> Knowledge {
        self.shard(p).get(p)
    }
    /// The merge happens under the shard's one lock: a thread's exclusions cannot overwrite
    /// an exact value another thread stored after the first one looked.
    fn put(&mut self, p: &P, k: Knowledge) {
        self.shard(p).put(p, k)
    }
    fn len(&self) -> usize {
        self.sum(Table::len)
    }
    fn replaced(&self) -> u64 {
        self.sum(Table::replaced)
    }
    fn bytes(&self) -> usize {
        self.sum(Table::bytes)
    }
}

/// Stack of each search thread: the search recurses once per nested move.
const STACK_BYTES: usize = 64 << 20;

/// What the tasks of one parallel answer share.
struct Shared<P> {
    table: SharedTable<P>,
    /// Nodes of finished tasks.
    nodes: AtomicU64,
    /// Nodes of all tasks so far, as told to progress (a multiple of the progress interval).
    ticks: AtomicU64,
    /// The current round: a task of an earlier round stops at its next progress call.
    round: AtomicU64,
    /// The user's progress callback said stop.
    stopped: AtomicBool,
    progress: Mutex<Option<ProgressFn>>,
}

impl<P: Eq + Hash + Clone + Send + 'static> Shared<P> {
    /// A solver for one task of round `round`, on the shared table.
    fn solver<G: Game<Position = P> + Clone>(
        self: &Arc<Self>,
        game: &G,
        method: ValueMethod,
        round: u64,
    ) -> PrunedSolver<G, SharedTable<P>> {
        let mut solver =
            PrunedSolver::with_table(game.clone(), self.table.clone()).with_value_method(method);
        let shared = Arc::clone(self);
        solver.on_progress(Box::new(move |_| {
            let nodes = shared.ticks.fetch_add(PROGRESS_EVERY, Ordering::Relaxed) + PROGRESS_EVERY;
            if shared.stopped.load(Ordering::Relaxed)
                || shared.round.load(Ordering::Relaxed) != round
            {
                return false;
            }
            let mut progress = shared.progress.lock().unwrap_or_else(|e| e.into_inner());
            let Some(f) = progress.as_mut() else {
                return true;
            };
            let stats = Stats {
                nodes,
                stored: shared.table.len(),
                replaced: shared.table.replaced(),
                table_bytes: shared.table.bytes(),
            };
            let go = f(&stats);
            if !go {
                shared.stopped.store(true, Ordering::Relaxed);
            }
            go
        }));
        solver
    }

    /// Run `work` on a fresh solver of round `round`, counting its nodes. A task stopped
    /// because its round is over answers `None`; one stopped by the user, the error
    /// [`INTERRUPTED`].
    fn task<G, T>(
        self: &Arc<Self>,
        game: &G,
        method: ValueMethod,
        round: u64,
        work: impl FnOnce(&mut PrunedSolver<G, SharedTable<P>>) -> Result<T, Error>,
    ) -> Result<Option<T>, Error>
    where
        G: Game<Position = P> + Clone,
    {
        if self.round.load(Ordering::Relaxed) != round {
            return Ok(None);
        }
        let mut solver = self.solver(game, method, round);
        let result = work(&mut solver);
        self.nodes
            .fetch_add(solver.stats().nodes, Ordering::Relaxed);
        match result {
            Ok(t) => Ok(Some(t)),
            Err(_) if self.stopped.load(Ordering::Relaxed) => {
                Err(Error::Invalid(INTERRUPTED.into()))
            }
            Err(_) if self.round.load(Ordering::Relaxed) != round => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Round `m`: whether some position of `options` has the value `m` (the first that has
    /// ends the round).
    fn some_has_value<G>(
        self: &Arc<Self>,
        game: &G,
        method: ValueMethod,
        options: &[P],
        m: Nimber,
    ) -> Result<bool, Error>
    where
        G: Game<Position = P> + Clone + Sync,
        P: Sync,
    {
        let round = self.round.load(Ordering::Relaxed);
        let answers = options
            .par_iter()
            .map(|o| {
                let yes = self.task(game, method, round, |s| s.has_value(o, m))?;
                if yes == Some(true) {
                    self.round.fetch_add(1, Ordering::Relaxed);
                }
                Ok(yes == Some(true))
            })
            .collect::<Result<Vec<bool>, Error>>()?;
        if self.round.load(Ordering::Relaxed) == round {
            self.round.fetch_add(1, Ordering::Relaxed);
        }
        Ok(answers.contains(&true))
    }
}

/// [`super::answer()`] on `threads` threads sharing one table (see the module docs): the same
/// answer, in less time when the root has options enough to share out. One thread (or a root
/// that splits into components or whose value the game knows) is exactly [`super::answer()`].
/// `progress` sees the nodes and the table of all threads together.
pub fn answer_parallel<G>(
    game: G,
    position: &G::Position,
    question: &Question,
    threads: usize,
    progress: Option<ProgressFn>,
) -> Result<Answer<G::Move>, Error>
where
    G: LabelledMoves + Clone + Send + Sync,
    G::Position: Send + Sync + 'static,
    G::Move: Send + Sync,
{
    let simple_root = || {
        game.components(position).is_none() && game.known_value(&game.canonical(position)).is_none()
    };
    if threads <= 1 || !simple_root() {
        return super::answer(game, position, question, progress);
    }
    #[cfg(test)]
    tests::SHARED_RUNS.fetch_add(1, Ordering::Relaxed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(STACK_BYTES)
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start {threads} search threads: {e}")))?;
    let shared = Arc::new(Shared {
        table: SharedTable::with_budget(question.memory),
        nodes: AtomicU64::new(0),
        ticks: AtomicU64::new(0),
        round: AtomicU64::new(0),
        stopped: AtomicBool::new(false),
        progress: Mutex::new(progress),
    });
    let method = question.method;
    let options = game.options_vec(position);
    let run = || -> Result<_, Error> {
        let value = if question.outcome_only {
            None
        } else if method == ValueMethod::Mex {
            let round = shared.round.load(Ordering::Relaxed);
            let values = options
                .par_iter()
                .map(|o| shared.task(&game, method, round, |s| s.grundy_value(o)))
                .collect::<Result<Vec<_>, Error>>()?;
            let values: Vec<Nimber> = values.into_iter().flatten().collect();
            Some(
                (0..)
                    .find(|m| !values.contains(m))
                    .expect("a value is missing"),
            )
        } else {
            let mut m = 0;
            while shared.some_has_value(&game, method, &options, m)? {
                m += 1;
            }
            Some(m)
        };
        let outcome = match value {
            Some(v) => Outcome::from_value(v),
            None if shared.some_has_value(&game, method, &options, 0)? => Outcome::N,
            None => Outcome::P,
        };
        let moves = match outcome {
            _ if !question.moves => None,
            Outcome::P => Some(Vec::new()),
            Outcome::N => {
                let mut labelled = Vec::new();
                game.moves(position, &mut labelled);
                let round = shared.round.load(Ordering::Relaxed);
                let wins = labelled
                    .par_iter()
                    .map(|(_, q)| shared.task(&game, method, round, |s| s.has_value(q, 0)))
                    .collect::<Result<Vec<_>, Error>>()?;
                Some(
                    labelled
                        .into_iter()
                        .zip(wins)
                        .filter(|(_, w)| *w == Some(true))
                        .map(|(l, _)| l.0)
                        .collect(),
                )
            }
        };
        Ok((value, outcome, moves))
    };
    let (grundy_value, outcome, winning_moves) = pool.install(run)?;
    let table = &shared.table;
    Ok(Answer {
        grundy_value,
        outcome,
        winning_moves,
        search: Stats {
            nodes: shared.nodes.load(Ordering::Relaxed),
            stored: table.len(),
            replaced: table.replaced(),
            table_bytes: table.bytes(),
        }
        .into(),
    })
}

/// [`ask`] with a solver on a fresh [`SharedTable`], for tests of the shared table alone.
#[cfg(test)]
fn answer_on_shared<G: LabelledMoves>(
    game: G,
    position: &G::Position,
    question: &Question,
) -> Result<Answer<G::Move>, Error> {
    let table = SharedTable::with_budget(question.memory);
    let mut solver = PrunedSolver::with_table(game, table).with_value_method(question.method);
    super::answer::ask(&mut solver, position, question)
}

#[cfg(test)]
mod tests;
