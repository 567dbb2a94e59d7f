//! `grundy census PATTERN`: compute every code that matches a pattern (`0.??`, `4.???`), on
//! every core, record each result in the catalogue and print the table. The work is
//! [`grundy_runs::census`]'s; this module parses the arguments, draws the progress bar and
//! prints the report.

use crate::common::{emit, parse_u64, tell, CliResult};
use grundy_runs::census::{census, CensusHooks, CensusOptions, CensusReport};
use grundy_runs::EngineChoice;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Compute every code matching a pattern and record the results.
///
/// PATTERN is a code in which `?` stands for any octal digit (0-7) after the point, or for
/// d0 in {0, 4} before it: `0.??` (64 codes), `4.???` (512 codes), `0.?7`.
///
/// Examples: `grundy census 0.?? -n 10000`, `grundy census 4.??? -n 2000 --json`.
#[derive(clap::Args, Debug, Clone)]
pub struct CensusArgs {
    /// The pattern, e.g. 0.?? or 4.???
    #[arg(value_name = "PATTERN")]
    pub pattern: String,
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
    /// Worker threads [default: one per core]
    #[arg(long, value_name = "J", allow_hyphen_values = true)]
    pub jobs: Option<String>,
    /// Results catalogue (SQLite) [default: $GRUNDY_DB, else <user data dir>/grundy/catalogue.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Do not record the results
    #[arg(long, conflicts_with = "db")]
    pub no_record: bool,
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
    let options = CensusOptions {
        pattern: args.pattern,
        n,
        full: args.full,
        engine: args.engine,
        jobs,
        no_record: args.no_record,
        db: args.db,
    };
    let bar = crate::progress::Progress::new(0, &format!("census of {}", options.pattern), "codes");
    let progress = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.tick(done as u64);
    };
    // Nothing sets it: a census is stopped by Ctrl-C like any command (finished codes are
    // already recorded).
    let stop = AtomicBool::new(false);
    let result = census(
        &options,
        CensusHooks {
            tell: &tell,
            stop: &stop,
            progress: Some(&progress),
        },
    );
    bar.finish();
    let done = result?;
    let report = done.report;
    emit(json, &report, || {
        human(&report, done.recorded_in.as_deref(), args.n.is_some())
    })
}

fn human(r: &CensusReport, recorded_in: Option<&std::path::Path>, n_given: bool) -> String {
    let mut s = format!(
        "census of {} up to n = {} ({} code{}{}): {} certified, {} not certified, {:.1} s\n",
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
        r.seconds
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
