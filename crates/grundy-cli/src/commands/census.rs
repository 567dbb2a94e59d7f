//! `grundy census PATTERN`: compute every code that matches a pattern (`0.??`, `4.???`), on
//! every core, record each result in the catalogue and print the table. The work is
//! [`grundy_runs::census`]'s; this module parses the arguments, draws the progress bar and
//! prints the report.

use super::runs::{PLAIN_PROGRESS_ENV, PLAIN_PROGRESS_EVERY};
use crate::common::{emit, parse_u64, tell, CliError, CliResult};
use grundy_runs::census::{census, CensusHooks, CensusOptions, CensusProgress, CensusReport};
use grundy_runs::census_task::CheckpointDir;
use grundy_runs::EngineChoice;
use std::cell::Cell;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Compute every code matching a pattern and record the results.
///
/// PATTERN is a code in which `?` stands for any octal digit (0-7) after the point, or for
/// d0 in {0, 4} before it: `0.??` (64 codes), `4.???` (512 codes), `0.?7`. Several patterns
/// and codes make one census.
///
/// Resumable: codes the catalogue already has with enough values are taken from it (see
/// --recompute), Ctrl-C keeps every finished code (and the running ones' checkpoints), and two
/// censuses on one machine never compute the same code at the same time.
///
/// Examples: `grundy census 0.?? -n 10000`, `grundy census 0.?? 4.?? --jobs 0`,
/// `grundy census 4.??? --json`.
#[derive(clap::Args, Debug, Clone)]
pub struct CensusArgs {
    /// The patterns or codes, e.g. 0.?? or 4.??? 0.137
    #[arg(value_name = "PATTERN", required = true)]
    pub patterns: Vec<String>,
    /// Compute each code up to N [default: 100000]
    #[arg(short = 'n', long = "n", value_name = "N", allow_hyphen_values = true)]
    pub n: Option<String>,
    /// Compute every value up to N even after a period is certified (by default a code stops
    /// at its certificate, which proves every later value)
    #[arg(long)]
    pub full: bool,
    /// Engine: auto (rare/common for octal codes, naive otherwise), sparse or naive
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,
    /// Codes computed at once, one per worker thread (0: one per core) [default: one per core]
    #[arg(long, value_name = "J", allow_hyphen_values = true)]
    pub jobs: Option<String>,
    /// Results catalogue (SQLite) [default: $GRUNDY_DB, else <user data dir>/grundy/catalogue.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Do not record the results
    #[arg(long, conflicts_with = "db")]
    pub no_record: bool,
    /// Compute every code, even those the catalogue already has with enough values
    #[arg(long)]
    pub recompute: bool,
    /// Keep each code's checkpoint in DIR (it must exist) until the code completes [default:
    /// <user data dir>/grundy/checkpoints]
    #[arg(long, value_name = "DIR")]
    pub checkpoint_dir: Option<PathBuf>,
    /// Neither save nor resume checkpoints
    #[arg(long, conflicts_with = "checkpoint_dir")]
    pub no_checkpoint: bool,
    /// Seconds between two checkpoints of a code [default: 60]
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    pub checkpoint_every: Option<String>,
}

/// Set by the Ctrl-C / SIGTERM handler.
static STOP: AtomicBool = AtomicBool::new(false);

/// Progress on stderr once the census has lasted a second: a bar on a terminal (codes done of
/// all, running, left, rate), else a plain line now and then.
struct Progress {
    bar: indicatif::ProgressBar,
    start: Instant,
    /// Seconds between plain lines (`None` on a terminal).
    plain: Option<f64>,
    last_line: Cell<Instant>,
    shown: Cell<bool>,
}

impl Progress {
    fn new() -> Self {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "codes [{elapsed_precise}] {wide_bar} {pos}/{len} done, {msg} ({per_sec}, eta {eta})",
            )
            .expect("valid template"),
        );
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        let plain = (!std::io::stderr().is_terminal()).then(|| {
            std::env::var(PLAIN_PROGRESS_ENV)
                .ok()
                .and_then(|t| t.trim().parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
                .unwrap_or(PLAIN_PROGRESS_EVERY)
        });
        let start = Instant::now();
        Progress {
            bar,
            start,
            plain,
            last_line: Cell::new(start),
            shown: Cell::new(false),
        }
    }

    fn update(&self, p: &CensusProgress) {
        let elapsed = self.start.elapsed();
        if let Some(every) = self.plain {
            if self.last_line.get().elapsed().as_secs_f64() >= every.max(1e-3)
                && elapsed >= Duration::from_secs(1).min(Duration::from_secs_f64(every))
            {
                self.last_line.set(Instant::now());
                let computed = p.done - p.skipped;
                eprintln!(
                    "grundy: census: {} of {} codes done ({} from the catalogue), {} running, \
                     {} left, {:.0} s, {:.2} codes/s",
                    p.done,
                    p.total,
                    p.skipped,
                    p.running,
                    p.left,
                    elapsed.as_secs_f64(),
                    computed as f64 / elapsed.as_secs_f64().max(1e-9)
                );
            }
            return;
        }
        self.bar.set_length(p.total as u64);
        self.bar.set_position(p.done as u64);
        self.bar
            .set_message(format!("{} running, {} left", p.running, p.left));
        if !self.shown.get() && elapsed >= Duration::from_secs(1) {
            self.shown.set(true);
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.bar.reset_eta();
        }
    }
}

pub fn run(args: CensusArgs, json: bool) -> CliResult {
    let n = args
        .n
        .as_deref()
        .map(|w| parse_u64("heap size", w))
        .transpose()?;
    let jobs = args
        .jobs
        .as_deref()
        .map(|w| parse_u64("--jobs", w))
        .transpose()?;
    let checkpoint_every = args
        .checkpoint_every
        .as_deref()
        .map(grundy_runs::run::checkpoint_every)
        .transpose()?;
    let options = CensusOptions {
        patterns: args.patterns,
        n,
        full: args.full,
        engine: args.engine,
        jobs,
        no_record: args.no_record,
        db: args.db,
        recompute: args.recompute,
        checkpoint: match (args.checkpoint_dir, args.no_checkpoint) {
            (_, true) => CheckpointDir::Off,
            (Some(d), false) => CheckpointDir::At(d),
            (None, false) => CheckpointDir::Default,
        },
        checkpoint_every,
        lock_dir: None,
    };
    // Ctrl-C, SIGTERM, SIGHUP: running codes save their checkpoints and stop, finished ones
    // are recorded already
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    let bar = Progress::new();
    let progress = |p: &CensusProgress| bar.update(p);
    let result = census(
        &options,
        CensusHooks {
            tell: &tell,
            stop: &STOP,
            progress: Some(&progress),
        },
    );
    bar.bar.finish_and_clear();
    let done = result?;
    let report = &done.report;
    emit(json, report, || human(report, done.recorded_in.as_deref()))?;
    match done.nothing_recorded() {
        Some(message) => Err(CliError { message, code: 1 }),
        None => Ok(()),
    }
}

fn human(r: &CensusReport, recorded_in: Option<&std::path::Path>) -> String {
    let mut s = format!(
        "census of {} up to n = {} ({} codes{}): {} certified, {} not certified, {:.1} s{}\n",
        r.pattern,
        r.n,
        r.codes,
        if r.until_period {
            ", each stopping at its certified period"
        } else {
            ", every value computed"
        },
        r.certified,
        r.codes - r.certified,
        r.seconds,
        if r.skipped > 0 {
            format!(
                " ({} computed now, {} already in the catalogue)",
                r.computed, r.skipped
            )
        } else {
            String::new()
        }
    );
    s.push_str(&super::catalogue::table(&r.results, false));
    if let Some(path) = recorded_in {
        s.push_str(&format!("recorded in {}\n", path.display()));
    }
    s
}
