//! Censuses: compute every code that matches a pattern (`0.??`, `4.???`), on every core, and
//! record each result in the catalogue as it arrives.
//!
//! Codes are independent, so the census is where several cores (or machines) pay best. The
//! work per code is the library's resumable run ([`crate::census_task`]); this module only
//! decides what runs where. A [`Session`] is the policy, whoever runs the tasks: codes the
//! catalogue already has with enough values are skipped, each code is claimed with a per-code
//! lock ([`crate::census_lock`]) so that two censuses on one machine never compute it at the
//! same time, and every result comes back to the caller, which records it at once (one writer)
//! — an interrupted census keeps everything finished so far and the next one goes on from
//! there. [`census`] runs the tasks on a pool of threads; the Python package also hands them to
//! any `concurrent.futures` executor or a Dask cluster.

use crate::catalogue::{open_for_recording, Catalogue, RunRecord};
use crate::census_lock::{self, lock_dir, CodeLock};
use crate::census_order;
use crate::census_task::{compute_code, limit_of, CheckpointDir, CodeResult, CodeTask};
use crate::engine::EngineChoice;
use crate::{Error, Message, Result, Tell};
use grundy::takebreak::{Code, Rules};
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Largest number of codes one census may cover.
pub const MAX_CODES: usize = 1 << 15;
/// Largest heap size of a census.
pub const MAX_CENSUS_N: u64 = 10_000_000;
/// Default heap size of a census.
pub const DEFAULT_CENSUS_N: u64 = 100_000;
/// Most worker threads.
pub const MAX_JOBS: u64 = 256;
/// Longest wait between two calls of [`CensusHooks::progress`] (so that a front end can notice
/// an interruption while every worker is busy with a slow code).
const POLL: Duration = Duration::from_millis(100);

/// Every code matching `pattern`, in order (digit by digit, smallest first): `?` stands for
/// any octal digit (0-7) after the point, or for d0 in {0, 4} before it.
pub fn expand_pattern(pattern: &str) -> Result<Vec<Code>> {
    let text = pattern.trim();
    let Some(point) = text.find('.') else {
        // no wildcard possible without a point: let the code parser explain
        return Ok(vec![Code::parse(text)?]);
    };
    let mut inside_brackets = false;
    let mut slots = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '[' => inside_brackets = true,
            ']' => inside_brackets = false,
            '?' if inside_brackets => {
                return Err(Error::input(format!(
                    "pattern '{text}': '?' stands for a whole digit, not inside [ ]"
                )))
            }
            '?' => slots.push(i),
            _ => {}
        }
    }
    let choices: Vec<&[char]> = slots
        .iter()
        .map(|&i| -> &[char] {
            if i < point {
                &['0', '4']
            } else {
                &['0', '1', '2', '3', '4', '5', '6', '7']
            }
        })
        .collect();
    let count = choices
        .iter()
        .try_fold(1usize, |acc, c| acc.checked_mul(c.len()))
        .filter(|&c| c <= MAX_CODES)
        .ok_or_else(|| {
            Error::input(format!(
                "pattern '{text}' matches too many codes: at most {MAX_CODES} (five '?' after the point)"
            ))
        })?;
    let mut codes = Vec::with_capacity(count);
    let mut chars: Vec<char> = text.chars().collect();
    // char positions of the slots (the text may hold non-ASCII characters: let the parser
    // complain about those)
    let char_slots: Vec<usize> = slots.iter().map(|&b| text[..b].chars().count()).collect();
    for index in 0..count {
        let mut rest = index;
        for (slot, options) in char_slots.iter().zip(&choices).rev() {
            chars[*slot] = options[rest % options.len()];
            rest /= options.len();
        }
        let candidate: String = chars.iter().collect();
        let code =
            Code::parse(&candidate).map_err(|e| Error::input(format!("pattern '{text}': {e}")))?;
        codes.push(code);
    }
    Ok(codes)
}

/// Every code matching one of `patterns`, in their order, each once (the first time it
/// appears).
pub fn expand_patterns(patterns: &[String]) -> Result<Vec<Code>> {
    if patterns.is_empty() {
        return Err(Error::input("a census needs at least one code or pattern"));
    }
    let mut seen = std::collections::HashSet::new();
    let mut codes = Vec::new();
    for p in patterns {
        for c in expand_pattern(p)? {
            if seen.insert(c.to_string()) {
                codes.push(c);
            }
        }
        if codes.len() > MAX_CODES {
            return Err(Error::input(format!(
                "the patterns match too many codes: at most {MAX_CODES}"
            )));
        }
    }
    Ok(codes)
}

/// What a census computes and where it records.
#[derive(Debug, Clone, Default)]
pub struct CensusOptions {
    /// The codes and patterns, e.g. `0.??`, `4.??`, `0.137`.
    pub patterns: Vec<String>,
    /// Compute each code up to this heap size (default [`DEFAULT_CENSUS_N`]).
    pub n: Option<u64>,
    /// Compute every value up to n, even after a period is certified.
    pub full: bool,
    /// The engine of every code.
    pub engine: EngineChoice,
    /// Worker threads (default, and 0: one per core).
    pub jobs: Option<u64>,
    /// Do not record the results.
    pub no_record: bool,
    /// The catalogue file (else `$GRUNDY_DB`, else the default place).
    pub db: Option<PathBuf>,
    /// Compute every code, even those the catalogue already has with enough values.
    pub recompute: bool,
    /// Where each code keeps its checkpoint.
    pub checkpoint: CheckpointDir,
    /// Time between two checkpoints of a code (default 60 s).
    pub checkpoint_every: Option<Duration>,
    /// The directory of the per-code locks (default [`census_lock::lock_dir`]).
    pub lock_dir: Option<PathBuf>,
}

/// The result of a census (the keys of `grundy census --json`).
#[derive(Serialize, Debug, Clone)]
pub struct CensusReport {
    pub pattern: String,
    pub n: u64,
    pub until_period: bool,
    pub codes: usize,
    pub certified: usize,
    pub seconds: f64,
    /// Codes computed by this census.
    pub computed: usize,
    /// Codes taken from the catalogue, which had them with enough values (computed earlier,
    /// or meanwhile by another census).
    pub skipped: usize,
    /// Codes computed by this census that resumed from a checkpoint.
    pub resumed: usize,
    /// Codes computed by this census and recorded in the catalogue.
    pub recorded: usize,
    /// One record per code, in the order of the patterns (`id`: the catalogue row).
    pub results: Vec<RunRecord>,
}

/// A finished census.
pub struct Census {
    pub report: CensusReport,
    /// The catalogue every result was recorded in (`None` when not recorded, or when some
    /// record could not be written).
    pub recorded_in: Option<PathBuf>,
    /// Why some results could not be recorded (the first failure), if any.
    pub record_error: Option<String>,
}

impl Census {
    /// The one line to end with when recording was asked for, something was computed, and not
    /// one result could be recorded (the CLI's exit status 1).
    pub fn nothing_recorded(&self) -> Option<String> {
        match &self.record_error {
            Some(e) if self.report.recorded == 0 && self.report.computed > 0 => Some(format!(
                "none of the {} computed codes could be recorded: {e}",
                self.report.computed
            )),
            _ => None,
        }
    }
}

/// Where a census stands (for a progress bar).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CensusProgress {
    /// Codes finished (computed, or taken from the catalogue).
    pub done: usize,
    /// Codes being computed now.
    pub running: usize,
    /// Codes not started.
    pub left: usize,
    /// Codes in all.
    pub total: usize,
    /// Of the finished codes, those taken from the catalogue.
    pub skipped: usize,
}

/// How a front end takes part in a census.
pub struct CensusHooks<'a> {
    /// Receives notes and warnings.
    pub tell: Tell<'a>,
    /// Set to stop: codes not yet started are skipped, running ones save their checkpoints
    /// and stop, and the census ends with [`Error::Interrupted`] (the finished ones are
    /// recorded).
    pub stop: &'a AtomicBool,
    /// Called at the start, after each code, and at least every 100 ms, always on the calling
    /// thread.
    pub progress: Option<&'a dyn Fn(&CensusProgress)>,
}

/// The worker threads of `--jobs J`: J, or one per core for 0 or none.
pub fn jobs(requested: Option<u64>) -> Result<usize> {
    match requested {
        None | Some(0) => Ok(std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)),
        Some(j) if j > MAX_JOBS => Err(Error::input(format!(
            "--jobs {j} is too many: at most {MAX_JOBS} (0 for one per core)"
        ))),
        Some(j) => Ok(j as usize),
    }
}

/// Whether a recorded run has the values a census asks for.
pub fn enough(run: &RunRecord, n: u64, until_period: bool) -> bool {
    run.n >= n || (until_period && run.certified)
}

/// The run a census takes from the catalogue for a code: the certified one that reached
/// furthest, else the furthest; among them the newest.
fn best_of<'r>(runs: impl Iterator<Item = &'r RunRecord>) -> Option<&'r RunRecord> {
    runs.max_by_key(|r| (r.certified, r.n, r.id))
}

/// What [`Session::claim`] found.
#[derive(Debug)]
pub enum Claim {
    /// This census computes the code: hand the task to a worker, then call
    /// [`Session::complete`] (or [`Session::abandon`]).
    Mine(CodeTask),
    /// Another census is computing it now: try again later.
    Busy,
    /// The catalogue has it now (another census finished it): nothing to do.
    Done,
}

#[derive(Debug)]
enum State {
    Pending,
    /// Computed by this census (the lock is released when the state changes).
    Claimed {
        _lock: CodeLock,
    },
    Done,
}

/// A census in progress, held by its one writer (the caller): which codes are left, which are
/// claimed by this census (their locks), what has come back, and the catalogue. Whatever runs
/// the tasks — [`census`]'s threads, a Python executor, a Dask cluster — the policy is this.
pub struct Session {
    label: String,
    n: u64,
    until_period: bool,
    engine: EngineChoice,
    checkpoint: CheckpointDir,
    every: Duration,
    codes: Vec<String>,
    /// Every index of `codes`, in the order they are handed out: the costliest first
    /// ([`census_order::costliest_first`]).
    order: Vec<usize>,
    state: Vec<State>,
    results: Vec<Option<RunRecord>>,
    catalogue: Option<Catalogue>,
    lock_dir: PathBuf,
    skipped: usize,
    computed: usize,
    resumed: usize,
    recorded: usize,
    record_error: Option<String>,
    start: Instant,
}

impl Session {
    /// Check the request (patterns, n, engines: a bad one fails before any work), open the
    /// catalogue and take from it every code it already has with enough values (unless
    /// `recompute`).
    pub fn open(options: &CensusOptions, tell: Tell<'_>) -> Result<Session> {
        let codes = expand_patterns(&options.patterns)?;
        let n = options.n.unwrap_or(DEFAULT_CENSUS_N);
        if n > MAX_CENSUS_N {
            return Err(Error::input(format!(
                "heap size {n} is too large for a census: at most {MAX_CENSUS_N}"
            )));
        }
        let rules: Vec<Rules> = codes.into_iter().map(Rules::Code).collect();
        for r in &rules {
            let limit = limit_of(options.engine, r)?;
            if n > limit {
                return Err(Error::input(format!(
                    "heap size {n} is too large for the naive engine (needed for {r}): at most \
                     {limit}"
                )));
            }
        }
        if let CheckpointDir::At(dir) = &options.checkpoint {
            if !dir.is_dir() {
                return Err(Error::input(format!(
                    "checkpoint directory '{}' does not exist",
                    dir.display()
                )));
            }
        }
        let catalogue = open_for_recording(options.no_record, options.db.as_deref(), tell)?;
        let until_period = !options.full;
        let codes: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
        let mut results: Vec<Option<RunRecord>> = vec![None; codes.len()];
        let mut state: Vec<State> = codes.iter().map(|_| State::Pending).collect();
        let mut skipped = 0;
        if let (Some(cat), false) = (&catalogue, options.recompute) {
            let mut runs: HashMap<String, Vec<RunRecord>> = HashMap::new();
            for r in cat.all()? {
                runs.entry(r.code.clone()).or_default().push(r);
            }
            for (i, code) in codes.iter().enumerate() {
                let had = runs
                    .get(code)
                    .and_then(|rs| best_of(rs.iter().filter(|r| enough(r, n, until_period))));
                if let Some(r) = had {
                    results[i] = Some(r.clone());
                    state[i] = State::Done;
                    skipped += 1;
                }
            }
        }
        // the pending codes, costliest first, then the ones already done
        let pending: Vec<usize> = (0..codes.len())
            .filter(|&i| matches!(state[i], State::Pending))
            .collect();
        let pending_rules: Vec<Rules> = pending.iter().map(|&i| rules[i].clone()).collect();
        let mut order: Vec<usize> = census_order::costliest_first(
            &pending_rules,
            n,
            until_period,
            options.engine,
            jobs(options.jobs)?,
        )
        .into_iter()
        .map(|k| pending[k])
        .collect();
        order.extend((0..codes.len()).filter(|&i| !matches!(state[i], State::Pending)));
        Ok(Session {
            label: options
                .patterns
                .iter()
                .map(|p| p.trim())
                .collect::<Vec<_>>()
                .join(" "),
            n,
            until_period,
            engine: options.engine,
            checkpoint: options.checkpoint.clone(),
            every: options.checkpoint_every.unwrap_or(Duration::from_secs_f64(
                crate::run::DEFAULT_CHECKPOINT_EVERY,
            )),
            codes,
            order,
            state,
            results,
            catalogue,
            lock_dir: options.lock_dir.clone().unwrap_or_else(lock_dir),
            skipped,
            computed: 0,
            resumed: 0,
            recorded: 0,
            record_error: None,
            start: Instant::now(),
        })
    }

    /// The codes of the census (canonical forms), in order.
    pub fn codes(&self) -> &[String] {
        &self.codes
    }

    /// The indices of the codes neither finished nor claimed by this census, in the order to
    /// hand them out: the costliest first (estimated when the census opened, see
    /// [`census_order`]). Every front end submits them in this order.
    pub fn pending(&self) -> Vec<usize> {
        self.order
            .iter()
            .copied()
            .filter(|&i| matches!(self.state[i], State::Pending))
            .collect()
    }

    /// The task of code `i` (for a worker), whether or not it is claimed.
    pub fn task(&self, i: usize) -> CodeTask {
        CodeTask {
            code: self.codes[i].clone(),
            n: self.n,
            until_period: self.until_period,
            engine: self.engine,
            checkpoint: self.checkpoint.clone(),
            every: self.every,
        }
    }

    /// Claim code `i` for this census: take its lock, and look in the catalogue once more (a
    /// census that held the lock may have finished it meanwhile).
    pub fn claim(&mut self, i: usize) -> Result<Claim> {
        if !matches!(self.state[i], State::Pending) {
            return Ok(Claim::Done);
        }
        let Some(lock) = census_lock::try_lock(&self.lock_dir, &self.codes[i])? else {
            return Ok(Claim::Busy);
        };
        if let Some(cat) = &self.catalogue {
            let runs = cat.runs_of(&self.codes[i])?;
            if let Some(r) = best_of(runs.iter().filter(|r| enough(r, self.n, self.until_period))) {
                self.results[i] = Some(r.clone());
                self.state[i] = State::Done;
                self.skipped += 1;
                return Ok(Claim::Done);
            }
        }
        self.state[i] = State::Claimed { _lock: lock };
        Ok(Claim::Mine(self.task(i)))
    }

    /// Code `i` came back: record it (this is the one writer) and release its lock.
    pub fn complete(&mut self, i: usize, result: CodeResult) {
        let mut record = result.record;
        if let Some(cat) = &self.catalogue {
            match cat.record(&record) {
                Ok(id) => {
                    record.id = id;
                    record.recorded_at = cat.recorded_at(id).unwrap_or_default();
                    self.recorded += 1;
                }
                Err(e) => {
                    self.record_error.get_or_insert(e.to_string());
                }
            }
        }
        self.computed += 1;
        if result.resumed_from > 0 {
            self.resumed += 1;
        }
        self.results[i] = Some(record);
        self.state[i] = State::Done;
    }

    /// Code `i` did not come back (interrupted, or its worker failed): release it, it is
    /// pending again.
    pub fn abandon(&mut self, i: usize) {
        if matches!(self.state[i], State::Claimed { .. }) {
            self.state[i] = State::Pending;
        }
    }

    /// Where the census stands; `running` is the caller's count of codes at work.
    pub fn progress(&self, running: usize) -> CensusProgress {
        let done = self
            .state
            .iter()
            .filter(|s| matches!(s, State::Done))
            .count();
        CensusProgress {
            done,
            running,
            left: self.codes.len() - done - running.min(self.codes.len() - done),
            total: self.codes.len(),
            skipped: self.skipped,
        }
    }

    /// The report of a census whose every code is done; [`Error::Interrupted`] (saying what
    /// was kept) when some are not.
    pub fn finish(self, tell: Tell<'_>) -> Result<Census> {
        let total = self.codes.len();
        let done = self.results.iter().filter(|r| r.is_some()).count();
        let recorded_in = self
            .catalogue
            .as_ref()
            .filter(|_| self.record_error.is_none())
            .map(|c| c.path().to_path_buf());
        if let (Some(e), true) = (&self.record_error, self.recorded > 0) {
            tell(Message::Warning(format!(
                "{} of {} computed codes not recorded: {e}",
                self.computed - self.recorded,
                self.computed
            )));
        }
        if done < total {
            return Err(Error::Interrupted(format!(
                "interrupted: {done} of {total} codes done ({} computed now, {} from the \
                 catalogue){}; run the same census again to go on",
                self.computed,
                self.skipped,
                match &recorded_in {
                    Some(p) => format!(", recorded in '{}'", p.display()),
                    None => String::new(),
                }
            )));
        }
        let results: Vec<RunRecord> = self.results.into_iter().flatten().collect();
        Ok(Census {
            report: CensusReport {
                pattern: self.label,
                n: self.n,
                until_period: self.until_period,
                codes: results.len(),
                certified: results.iter().filter(|r| r.certified).count(),
                seconds: self.start.elapsed().as_secs_f64(),
                computed: self.computed,
                skipped: self.skipped,
                resumed: self.resumed,
                recorded: self.recorded,
                results,
            },
            recorded_in,
            record_error: self.record_error,
        })
    }
}

/// How often a census looks again at codes another census holds.
const RETRY_BUSY: Duration = Duration::from_millis(500);

/// Compute every code matching `options.patterns` on a pool of worker threads (one per core
/// by default) and record each result as it arrives.
pub fn census(options: &CensusOptions, hooks: CensusHooks<'_>) -> Result<Census> {
    let jobs = jobs(options.jobs)?;
    let mut session = Session::open(options, hooks.tell)?;
    let stop = hooks.stop;
    let tell = hooks.tell;
    let progress = |s: &Session, running: usize| {
        if let Some(p) = hooks.progress {
            p(&s.progress(running))
        }
    };
    progress(&session, 0);
    let mut queue: VecDeque<usize> = session.pending().into();
    let mut busy: Vec<usize> = Vec::new();
    let mut last_retry = Instant::now();
    let mut first_error: Option<Error> = None;
    let (work_tx, work_rx) = std::sync::mpsc::channel::<(usize, CodeTask)>();
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| -> Result {
        for _ in 0..jobs.min(queue.len()) {
            let done_tx = done_tx.clone();
            let work_rx = &work_rx;
            scope.spawn(move || loop {
                let job = work_rx
                    .lock()
                    .map_err(|_| ())
                    .and_then(|rx| rx.recv().map_err(|_| ()));
                let Ok((i, task)) = job else { break };
                // a panic (a bug) must not leave the census waiting for this code forever
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    compute_code(&task, stop, tell)
                }))
                .unwrap_or_else(|_| {
                    Err(Error::input(format!(
                        "internal error while computing {} (please report)",
                        task.code
                    )))
                });
                if done_tx.send((i, outcome)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut running = 0;
        let result = (|| -> Result {
            loop {
                let stopping = stop.load(Ordering::Relaxed) || first_error.is_some();
                if !stopping && last_retry.elapsed() >= RETRY_BUSY {
                    queue.extend(busy.drain(..));
                    last_retry = Instant::now();
                }
                while running < jobs && !stopping {
                    let Some(i) = queue.pop_front() else { break };
                    match session.claim(i)? {
                        Claim::Mine(task) => {
                            running += 1;
                            // the workers only go away when this thread is gone
                            let _ = work_tx.send((i, task));
                        }
                        Claim::Busy => busy.push(i),
                        Claim::Done => progress(&session, running),
                    }
                }
                if running == 0 && (stopping || (queue.is_empty() && busy.is_empty())) {
                    return Ok(());
                }
                match done_rx.recv_timeout(POLL) {
                    Ok((i, outcome)) => {
                        running -= 1;
                        match outcome {
                            Ok(r) => session.complete(i, r),
                            Err(Error::Interrupted(_)) => session.abandon(i),
                            Err(e) => {
                                session.abandon(i);
                                first_error.get_or_insert(e);
                            }
                        }
                        progress(&session, running);
                    }
                    Err(RecvTimeoutError::Timeout) => progress(&session, running),
                    Err(RecvTimeoutError::Disconnected) => return Ok(()),
                }
            }
        })();
        drop(work_tx);
        result
    })?;
    if let Some(e) = first_error {
        return Err(e);
    }
    session.finish(tell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::takebreak::{compute, Finish};

    #[test]
    fn expands_patterns_in_digit_order() {
        let codes = expand_pattern("0.??").unwrap();
        assert_eq!(codes.len(), 64);
        assert_eq!(codes[0].to_string(), "0.0");
        assert_eq!(codes[1].to_string(), "0.01");
        assert_eq!(codes[8].to_string(), "0.1");
        assert_eq!(codes[63].to_string(), "0.77");
        assert_eq!(expand_pattern("4.???").unwrap().len(), 512);
        let d0 = expand_pattern("?.7").unwrap();
        assert_eq!(
            d0.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            ["0.7", "4.7"]
        );
        assert_eq!(expand_pattern("0.?7").unwrap()[3].to_string(), "0.37");
        assert_eq!(expand_pattern("kayles").unwrap()[0].to_string(), "0.77");
        assert!(expand_pattern("0.??????").is_err());
        assert!(expand_pattern("0.[?]").is_err());
        assert!(expand_pattern("0.?#").is_err());
    }

    fn hooks<'a>(stop: &'a AtomicBool) -> CensusHooks<'a> {
        CensusHooks {
            tell: &|m| panic!("unexpected message {m:?}"),
            stop,
            progress: None,
        }
    }

    #[test]
    fn a_census_agrees_with_single_runs_and_records_every_code() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("c.sqlite3");
        let stop = AtomicBool::new(false);
        let options = CensusOptions {
            patterns: vec!["0.?7".into()],
            n: Some(2000),
            db: Some(db.clone()),
            jobs: Some(2),
            checkpoint: CheckpointDir::Off,
            lock_dir: Some(dir.path().join("locks")),
            ..CensusOptions::default()
        };
        let c = census(&options, hooks(&stop)).unwrap();
        assert_eq!(c.report.codes, 8);
        assert_eq!((c.report.computed, c.report.skipped), (8, 0));
        assert_eq!(c.recorded_in.as_deref(), Some(db.as_path()));
        // each code as one naive run to its certificate gives the same period
        for r in &c.report.results {
            let rules = Rules::parse(&r.code).unwrap();
            let mut naive = grundy::takebreak::Naive::new(rules.clone());
            let one = compute(&rules, 2000, Finish::AtCertificate, &mut naive, None).unwrap();
            assert_eq!(r.period, one.period.map(|p| p.period as u64), "{}", r.code);
            assert_eq!(r.n, one.n() as u64, "{}", r.code);
        }
        let listed = crate::catalogue::list(&crate::catalogue::Query {
            pattern: Some("0.?7".into()),
            db: Some(db.clone()),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(listed.count, 8);
        // again: every code comes from the catalogue, nothing is computed or recorded twice
        let again = census(&options, hooks(&stop)).unwrap();
        assert_eq!((again.report.computed, again.report.skipped), (0, 8));
        assert_eq!(again.report.results, c.report.results);
        // a larger n needs the uncertified codes again, not the certified ones
        let more = census(
            &CensusOptions {
                n: Some(3000),
                ..options.clone()
            },
            hooks(&stop),
        )
        .unwrap();
        assert_eq!(more.report.computed, 8 - c.report.certified);
        // a stop request before the start computes nothing and says so
        stop.store(true, Ordering::SeqCst);
        let e = census(
            &CensusOptions {
                no_record: true,
                db: None,
                ..options
            },
            CensusHooks {
                tell: &|_| {},
                stop: &stop,
                progress: None,
            },
        )
        .err()
        .unwrap();
        assert_eq!(
            e,
            Error::Interrupted(
                "interrupted: 0 of 8 codes done (0 computed now, 0 from the catalogue); run \
                 the same census again to go on"
                    .into()
            )
        );
    }

    #[test]
    fn a_code_locked_by_another_census_is_taken_from_the_catalogue_when_it_is_there() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("c.sqlite3");
        let locks = dir.path().join("locks");
        let stop = AtomicBool::new(false);
        let options = CensusOptions {
            patterns: vec!["0.07".into(), "0.137".into()],
            n: Some(2000),
            db: Some(db.clone()),
            jobs: Some(1),
            checkpoint: CheckpointDir::Off,
            lock_dir: Some(locks.clone()),
            ..CensusOptions::default()
        };
        // "another census" holds 0.07 and finishes it while this one waits
        let held = census_lock::try_lock(&locks, "0.07").unwrap().unwrap();
        let other = std::thread::spawn({
            let db = db.clone();
            move || {
                std::thread::sleep(Duration::from_millis(300));
                let stop = AtomicBool::new(false);
                let r = compute_code(
                    &CodeTask {
                        code: "0.07".into(),
                        n: 2000,
                        until_period: true,
                        engine: EngineChoice::Auto,
                        checkpoint: CheckpointDir::Off,
                        every: Duration::from_secs(60),
                    },
                    &stop,
                    &|_| {},
                )
                .unwrap();
                Catalogue::open(&db).unwrap().record(&r.record).unwrap();
                drop(held);
            }
        });
        let c = census(&options, hooks(&stop)).unwrap();
        other.join().unwrap();
        assert_eq!((c.report.computed, c.report.skipped), (1, 1));
        assert_eq!(c.report.results[0].code, "0.07");
        assert_eq!(c.report.results[0].period, Some(34));
        assert_eq!(Catalogue::open(&db).unwrap().all().unwrap().len(), 2);
    }

    #[test]
    fn codes_are_handed_out_costliest_first_and_reported_in_pattern_order() {
        let dir = tempfile::tempdir().unwrap();
        let options = CensusOptions {
            // 0.767 has no sparse space (values in the thousands); 0.1 and 0.07 are certified
            // within a few hundred values and 0.6 (Officers) is linear. A census to 2^20 runs
            // pilots to 16,384 values, where 0.767's pilot is decisively the costliest (at
            // 2^16 the pilots were a few ms apart and the order flaky under load)
            patterns: vec!["0.1".into(), "0.07".into(), "0.767".into(), "0.6".into()],
            n: Some(1 << 20),
            no_record: true,
            checkpoint: CheckpointDir::Off,
            lock_dir: Some(dir.path().join("locks")),
            ..CensusOptions::default()
        };
        let session = Session::open(&options, &|m| panic!("unexpected message {m:?}")).unwrap();
        let pending = session.pending();
        assert_eq!(pending[0], 2, "{pending:?}");
        let mut sorted = pending.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3]);
        assert_eq!(session.codes()[2], "0.767");
    }

    #[test]
    fn jobs_zero_is_one_per_core_and_too_many_is_refused() {
        assert!(jobs(Some(0)).unwrap() >= 1);
        assert_eq!(jobs(Some(3)).unwrap(), 3);
        assert!(jobs(Some(MAX_JOBS + 1))
            .unwrap_err()
            .to_string()
            .contains("--jobs"));
    }
}
