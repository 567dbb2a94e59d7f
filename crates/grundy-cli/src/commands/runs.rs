//! Long sequence runs from the command line: the options of `takebreak` that choose the engine,
//! the checkpoint and the catalogue, the Ctrl-C / SIGTERM handler, and a progress bar that
//! appears once a run lasts a second. The run itself (resume, save, stop, record) is
//! [`grundy_runs::run`]'s.

use crate::common::{tell, CliResult};
use grundy::takebreak::{PeriodDetector, Plan, Rules};
pub use grundy_runs::run::search_words;
use grundy_runs::run::{self as library, CheckpointPlace, Finished, Hooks, Standing};
pub use grundy_runs::{Engine, EngineChoice};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Options of long runs (flattened into `takebreak`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RunOptions {
    /// Engine: auto (for octal codes the faster of sparse and naive, measured during the run;
    /// naive otherwise), sparse or naive
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,
    /// Save progress to FILE every --checkpoint-every seconds (and on Ctrl-C or SIGTERM), and
    /// resume from it when it exists; its directory must exist [default: a file per code and
    /// engine under the user data directory, removed when the run completes]
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Neither save nor resume a checkpoint
    #[arg(long, conflicts_with = "checkpoint")]
    pub no_checkpoint: bool,
    /// Seconds between two checkpoints [default: 60]
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    pub checkpoint_every: Option<String>,
    /// Results catalogue (SQLite) to record the run in; every run is recorded in a catalogue
    /// given here or by $GRUNDY_DB. Without either, runs of 10 s or more are recorded in
    /// <user data dir>/grundy/catalogue.sqlite3 (shorter ones with --record)
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Record the run in the catalogue however short it is
    #[arg(long, conflicts_with = "no_record")]
    pub record: bool,
    /// Do not record the run in the catalogue
    #[arg(long, conflicts_with = "db")]
    pub no_record: bool,
    /// Write a summary of the values at every power of two N from 1024 on, as the run passes
    /// it, to DIR/CODE/N.txt: how often each value occurs in G(1..=N), the largest value and
    /// where it first occurs, the rare heaps, and the SHA-256 of G(0..=N)
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Threads (0: one per core). With 2 or more, the rare/common engine's sparse mode computes
    /// on all of them (candidates on one, their proofs on the others); other engines and modes
    /// run on one. The values are the same
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        allow_hyphen_values = true
    )]
    pub threads: usize,
    /// Keep the values of an Officers-like game (octal codes, the rare/common engine: values
    /// below 512 that all have odd parity under Officers' mask past the last rare heap) in one
    /// byte each, the first ones in two, from 2^16 values on: about half the memory, for 1.04
    /// to 1.11 times the time on a processor with AVX-512 VBMI and GFNI (about 1.3 elsewhere).
    /// The values are the same
    #[arg(long)]
    pub compact_values: bool,
    /// Tiered storage: keep the values in a file in DIR (which must exist) instead of RAM, with
    /// the process's memory bounded by --max-memory (alias --memory, required): the first and
    /// last values stay in RAM, the middle is read back through the page cache when the engine
    /// needs it. The directory is the checkpoint (a run resumes from it); the disk it may take
    /// is said up front and checked against the free space. Octal codes, the sparse engine
    #[arg(long, value_name = "DIR", conflicts_with_all = ["checkpoint", "no_checkpoint"])]
    pub tiered: Option<PathBuf>,
}

/// Refuse a `--threads` above [`grundy_runs::engine::MAX_THREADS`] (the library's check).
pub fn check_threads(options: &RunOptions) -> CliResult {
    Ok(Engine::check_threads(options.threads, "--threads")?)
}

/// Say that `--threads` is ignored by `what` (when it was given).
pub fn note_one_thread(options: &RunOptions, what: &str) {
    if options.threads != 1 {
        tell(grundy_runs::Message::Note(format!(
            "--threads {}: {what} runs on one thread",
            options.threads
        )));
    }
}

/// Set by the Ctrl-C / SIGTERM handler.
static STOP: AtomicBool = AtomicBool::new(false);

fn install_stop_handler() {
    // Ctrl-C, SIGTERM and SIGHUP (the crate's "termination" feature). Only one handler per
    // process; a second call fails harmlessly.
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
}

/// Progress on stderr once the run has lasted a second ([`crate::progress::Progress`]),
/// carrying the period search: the best candidate and where its certificate would complete.
struct LateBar {
    progress: crate::progress::Progress,
    /// The period search's words and the run's standing, shown together.
    words: std::sync::Mutex<(String, String)>,
}

impl LateBar {
    fn new(len: u64, label: &str) -> Self {
        LateBar {
            progress: crate::progress::Progress::new(len, label, "values"),
            words: std::sync::Mutex::new((String::new(), String::new())),
        }
    }

    fn tick(&self, done: u64) {
        self.progress.tick(done);
    }

    fn show(&self, set: impl FnOnce(&mut (String, String))) {
        if let Ok(mut w) = self.words.lock() {
            set(&mut w);
            let detail = [w.0.as_str(), w.1.as_str()]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
            self.progress.set_detail(detail);
        }
    }

    /// Show the period search's state.
    fn search(&self, detector: &PeriodDetector) {
        self.show(|w| w.0 = search_words(detector));
    }

    /// Show the largest value so far and the checkpoint's size.
    /// Show the run's standing; the bar's length follows where the run can get in the width
    /// its values are in (a budget counted in one byte a value holds half as many in two).
    fn standing(&self, s: &Standing) {
        self.progress.set_length(s.reach as u64);
        self.show(|w| w.1 = s.words());
    }

    fn finish(&self) {
        self.progress.finish();
    }
}

/// Compute G(0..=n) (or until a certified period) with the options of a long run: resume from
/// the checkpoint if there is one, save it now and then and on Ctrl-C, show progress, and
/// record the result in the catalogue.
pub fn run_long(
    rules: &Rules,
    plan: Plan,
    options: &RunOptions,
    mut engine: Engine,
    memory: Option<u64>,
) -> CliResult<Finished> {
    check_threads(options)?;
    engine.set_threads(options.threads);
    engine.set_compact_values(options.compact_values);
    let every = match &options.checkpoint_every {
        Some(text) => library::checkpoint_every(text)?,
        None => Duration::from_secs_f64(library::DEFAULT_CHECKPOINT_EVERY),
    };
    let settings =
        library::RunOptions {
            checkpoint: match (&options.checkpoint, options.no_checkpoint) {
                (_, true) => CheckpointPlace::Off,
                (Some(p), false) => CheckpointPlace::At(p.clone()),
                (None, false) => CheckpointPlace::Default,
            },
            every,
            no_record: options.no_record,
            record_after: (!options.record)
                .then(|| Duration::from_secs_f64(library::RECORD_AFTER_SECONDS)),
            db: options.db.clone(),
            results: options.results.clone(),
            tiered: match (&options.tiered, memory) {
                (Some(dir), Some(memory)) => Some(library::Tiered {
                    dir: dir.clone(),
                    memory,
                }),
                (Some(_), None) => return Err(crate::common::CliError::input(
                    "--tiered needs --max-memory SIZE (alias --memory): the RAM the run may use",
                )),
                (None, _) => None,
            },
        };
    // a run its budget stops short of n shows progress (and its ETA) towards where it stops
    let reach = plan.reach() as u64;
    let bar = LateBar::new(reach, &rules.to_string());
    let tick = |k: usize| bar.tick(k as u64);
    let search = |d: &PeriodDetector| bar.search(d);
    let standing = |s: &Standing| bar.standing(s);
    let finished = library::run(
        rules,
        plan,
        &settings,
        engine,
        Hooks {
            tell: &tell,
            stop: &STOP,
            checkpointing: Some(&install_stop_handler),
            progress: Some(&tick),
            search: Some(&search),
            standing: Some(&standing),
        },
    );
    bar.finish();
    let finished = finished?;
    // (a run that only loaded its values computed nothing, on any number of threads)
    if options.threads != 1
        && finished.engine.threads_used() == 1
        && finished.computation.computed() > finished.resumed
    {
        tell(grundy_runs::Message::Note(format!(
            "--threads {}: only the rare/common engine's sparse mode computes on several \
             threads; this run computed on one",
            options.threads
        )));
    }
    if options.compact_values
        && finished.computation.value_bytes() == 2
        && finished.computation.computed() > finished.resumed
    {
        tell(grundy_runs::Message::Note(
            "--compact-values: the values stayed in two bytes; one byte a value needs the \
             rare/common engine in memory (not --engine naive, not --tiered), from 2^16 values \
             on, and an Officers-like game (see --help)"
                .into(),
        ));
    }
    Ok(finished)
}
