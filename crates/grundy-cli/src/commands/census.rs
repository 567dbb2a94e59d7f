//! `grundy census PATTERN`: compute every code that matches a pattern (`0.??`, `4.???`), on
//! every core, record each result in the catalogue and print the table. The work is
//! [`grundy_runs::census`]'s; this module parses the arguments, draws the progress bar and
//! prints the report.

use crate::common::{emit, parse_u64, tell, CliError, CliResult};
use grundy_runs::census::{census, CensusHooks, CensusOptions, CensusProgress, CensusReport};
use grundy_runs::census_task::CheckpointDir;
use grundy_runs::EngineChoice;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// Misère quotients instead of Grundy sequences: each code's quotient (as
    /// `misere-quotient`), recorded in the catalogue's quotient table (see `catalogue
    /// --misere`); codes recorded certified, to --max-heap, or stopped by a timeout at least
    /// as long are skipped
    #[arg(long, conflicts_with_all = ["n", "full", "checkpoint_dir", "no_checkpoint", "checkpoint_every"])]
    pub misere_quotients: bool,
    /// With --misere-quotients: compute each quotient up to this heap [default: 100]
    #[arg(
        long,
        value_name = "N",
        requires = "misere_quotients",
        allow_hyphen_values = true
    )]
    pub max_heap: Option<String>,
    /// With --misere-quotients: seconds per code; a code stopped by it is recorded with its
    /// partial quotient, not certified [default: none]
    #[arg(
        long,
        value_name = "S",
        requires = "misere_quotients",
        allow_hyphen_values = true
    )]
    pub timeout: Option<String>,
    /// With --misere-quotients: memory per code, e.g. 512M [default: 2G]
    #[arg(long, value_name = "SIZE", requires = "misere_quotients")]
    pub memory: Option<String>,
}

/// Set by the Ctrl-C / SIGTERM handler.
static STOP: AtomicBool = AtomicBool::new(false);

/// Progress on stderr once the census has lasted a second: the shared bar (codes done of all,
/// with how many run and are left), or a log line now and then when stderr is not a terminal.
fn show(bar: &crate::progress::Progress, p: &CensusProgress) {
    bar.set_length(p.total as u64);
    bar.set_detail(format!(
        "{} running, {} left, {} from the catalogue",
        p.running, p.left, p.skipped
    ));
    bar.tick(p.done as u64);
}

pub fn run(args: CensusArgs, json: bool) -> CliResult {
    if args.misere_quotients {
        return super::misere_census::run(args, json, &STOP);
    }
    let n_given = args.n.is_some();
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
    let bar = crate::progress::Progress::new(0, "census", "codes");
    let progress = |p: &CensusProgress| show(&bar, p);
    let result = census(
        &options,
        CensusHooks {
            tell: &tell,
            stop: &STOP,
            progress: Some(&progress),
        },
    );
    bar.finish();
    let done = result?;
    let report = &done.report;
    emit(json, report, || {
        human(report, done.recorded_in.as_deref(), n_given)
    })?;
    match done.nothing_recorded() {
        Some(message) => Err(CliError { message, code: 1 }),
        None => Ok(()),
    }
}

fn human(r: &CensusReport, recorded_in: Option<&std::path::Path>, n_given: bool) -> String {
    let mut s = format!(
        "census of {} up to n = {} ({} code{}{}): {} certified, {} not certified, {:.1} s{}\n",
        r.pattern,
        r.n,
        r.codes,
        if r.codes == 1 { "" } else { "s" },
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
    let uncertified = r.codes - r.certified;
    if r.until_period && uncertified > 0 {
        s.push_str(&format!(
            "{uncertified} code{} stopped at n = {} ({}) without a certified period; -n {} \
             goes ten times as far (grundy takebreak CODE --until-period searches one code \
             further)\n",
            if uncertified == 1 { "" } else { "s" },
            r.n,
            if n_given {
                "the limit given"
            } else {
                "the default limit of a census"
            },
            r.n.saturating_mul(10)
        ));
    }
    if let Some(path) = recorded_in {
        s.push_str(&format!("recorded in {}\n", path.display()));
    }
    s
}
