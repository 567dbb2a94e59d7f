//! Long sequence runs from the command line: the options of `takebreak` that choose the engine,
//! the checkpoint and the catalogue, the Ctrl-C / SIGTERM handler, and a progress bar that
//! appears once a run lasts a second. The run itself (resume, save, stop, record) is
//! [`grundy_runs::run`]'s.

use crate::common::{tell, CliResult};
use grundy::takebreak::{PeriodDetector, Plan, Rules};
pub use grundy_runs::run::search_words;
use grundy_runs::run::{self as library, CheckpointPlace, Finished, Hooks};
pub use grundy_runs::{Engine, EngineChoice};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// Results catalogue (SQLite) to record the run in [default: $GRUNDY_DB, else
    /// <user data dir>/grundy/catalogue.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Do not record the run in the catalogue
    #[arg(long, conflicts_with = "db")]
    pub no_record: bool,
    /// Threads (0: one per core). With 2 or more, the rare/common engine computes values of 64
    /// and more on two threads (candidates on one, their proofs on the other); other engines
    /// and paths run on one. The values are the same
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        allow_hyphen_values = true
    )]
    pub threads: usize,
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

/// Seconds between two plain progress lines when stderr is not a terminal (a log).
pub const PLAIN_PROGRESS_EVERY: f64 = 30.0;
/// Environment variable that overrides [`PLAIN_PROGRESS_EVERY`] (seconds).
pub const PLAIN_PROGRESS_ENV: &str = "GRUNDY_PROGRESS_SECONDS";

/// Progress on stderr once the run has lasted a second: a bar on a terminal, else (a log) a
/// plain line every [`PLAIN_PROGRESS_EVERY`] seconds with n, rate and ETA. Both carry the
/// period search: the best candidate and where its certificate would complete.
struct LateBar {
    bar: indicatif::ProgressBar,
    start: Instant,
    len: u64,
    label: String,
    shown: std::cell::Cell<bool>,
    /// Seconds between plain lines (`None` on a terminal).
    plain: Option<f64>,
    last_line: std::cell::Cell<Instant>,
    search: std::cell::RefCell<String>,
}

impl LateBar {
    fn new(len: u64, what: &str, label: &str) -> Self {
        let bar = crate::common::progress_bar(len, what);
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        let plain = (!std::io::stderr().is_terminal()).then(|| {
            std::env::var(PLAIN_PROGRESS_ENV)
                .ok()
                .and_then(|t| t.trim().parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
                .unwrap_or(PLAIN_PROGRESS_EVERY)
        });
        let start = Instant::now();
        LateBar {
            bar,
            start,
            len,
            label: label.to_string(),
            shown: std::cell::Cell::new(false),
            plain,
            last_line: std::cell::Cell::new(start),
            search: std::cell::RefCell::new(String::new()),
        }
    }

    fn tick(&self, done: u64) {
        let elapsed = self.start.elapsed();
        if let Some(every) = self.plain {
            if self.last_line.get().elapsed().as_secs_f64() >= every.max(1e-3)
                && elapsed >= Duration::from_secs(1).min(Duration::from_secs_f64(every))
            {
                self.last_line.set(Instant::now());
                eprintln!("{}", self.plain_line(done, elapsed));
            }
            return;
        }
        if !self.shown.get() && elapsed >= Duration::from_secs(1) {
            self.shown.set(true);
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.bar.reset_eta();
        }
        self.bar.set_position(done);
    }

    /// One log line: where the run is, how fast, when it ends, the period search.
    fn plain_line(&self, done: u64, elapsed: Duration) -> String {
        let secs = elapsed.as_secs_f64().max(1e-9);
        let rate = done as f64 / secs;
        let eta = if rate > 0.0 {
            format!("{:.0} s", (self.len.saturating_sub(done)) as f64 / rate)
        } else {
            "unknown".into()
        };
        let mut line = format!(
            "grundy: {}: G(0..{done}) of {} ({:.1}%), {:.0} s, {:.3} M values/s, eta {eta}",
            self.label,
            self.len,
            100.0 * done as f64 / self.len.max(1) as f64,
            secs,
            rate / 1e6
        );
        let search = self.search.borrow();
        if !search.is_empty() {
            line.push_str("; ");
            line.push_str(&search);
        }
        line
    }

    /// Show the period search's state (`done` values seen).
    fn search(&self, detector: &PeriodDetector) {
        let text = search_words(detector);
        if self.plain.is_none() {
            self.bar.set_message(format!("G(n) {text}"));
        }
        *self.search.borrow_mut() = text;
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
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
) -> CliResult<Finished> {
    check_threads(options)?;
    engine.set_threads(options.threads);
    let every = match &options.checkpoint_every {
        Some(text) => library::checkpoint_every(text)?,
        None => Duration::from_secs_f64(library::DEFAULT_CHECKPOINT_EVERY),
    };
    let settings = library::RunOptions {
        checkpoint: match (&options.checkpoint, options.no_checkpoint) {
            (_, true) => CheckpointPlace::Off,
            (Some(p), false) => CheckpointPlace::At(p.clone()),
            (None, false) => CheckpointPlace::Default,
        },
        every,
        no_record: options.no_record,
        db: options.db.clone(),
    };
    let bar = LateBar::new(plan.n as u64 + 1, "G(n)", &rules.to_string());
    let tick = |k: usize| bar.tick(k as u64);
    let search = |d: &PeriodDetector| bar.search(d);
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
        },
    );
    bar.finish();
    let finished = finished?;
    if options.threads != 1 && finished.engine.threads_used() == 1 {
        tell(grundy_runs::Message::Note(format!(
            "--threads {}: only the rare/common engine's values of 64 and more (sparse mode) \
             are computed on two threads; this run computed on one",
            options.threads
        )));
    }
    Ok(finished)
}
