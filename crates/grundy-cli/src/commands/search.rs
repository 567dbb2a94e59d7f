//! What `cram` and `chomp` share: the `--memory`, `--outcome-only`, `--no-moves`,
//! `--checkpoint` and `--threads` flags, read into the library's
//! [`grundy::solve::pruned::SearchOptions`] and answered by [`grundy::solve::pruned::search`]
//! with a late progress spinner and Ctrl-C, and the report's value lines.

pub use grundy::solve::pruned::Answer;

use crate::common::{CliError, CliResult};
use grundy::solve::pruned::persist::{SavedTable, Saving, TableKey};
use grundy::solve::pruned::{search, ProgressFn, Question, SearchOptions, Stats, ValueMethod};
use grundy::text::parse_memory;
use grundy::LabelledMoves;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Flags of the pruned search.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Memory budget of the transposition table, e.g. 64M, 2G (when full, old entries are
    /// replaced)
    #[arg(long, value_name = "SIZE", default_value = "512M")]
    pub memory: String,
    /// Only decide the outcome (P or N) and the winning moves, not the full Grundy value
    #[arg(long)]
    pub outcome_only: bool,
    /// Skip the winning moves: on a large board, proving each winning move costs about as
    /// much again as the value (the list is then empty)
    #[arg(long)]
    pub no_moves: bool,
    /// Keep the search's table in FILE: loaded when it exists (a search stopped by Ctrl-C or
    /// killed goes on from what it knew), saved every --checkpoint-every seconds, on Ctrl-C and
    /// at the end; its directory must exist
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between two saves of the --checkpoint table [default: 30]
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "checkpoint",
        allow_hyphen_values = true
    )]
    pub checkpoint_every: Option<String>,
    /// Search on N threads sharing one table (0: one per core); the answer is the same
    /// (not with --checkpoint)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
}

/// Set by the Ctrl-C handler.
static STOP: AtomicBool = AtomicBool::new(false);

/// The library's answer ([`grundy::solve::pruned::search`]) to the flags, with a spinner on
/// stderr once the search has lasted a second; Ctrl-C stops it with one line.
pub fn solve<G>(
    game: G,
    position: &G::Position,
    args: &SearchArgs,
    method: ValueMethod,
) -> CliResult<Answer<G::Move>>
where
    G: LabelledMoves + SavedTable + Clone + Send + Sync,
    G::Position: TableKey + Send + Sync + 'static,
    G::Move: Send + Sync,
{
    let options = SearchOptions {
        question: Question {
            memory: parse_memory(&args.memory)?,
            method,
            outcome_only: args.outcome_only,
            moves: !args.no_moves,
        },
        threads: args.threads,
        saving: match &args.checkpoint {
            Some(path) => Some(Saving {
                path: path.clone(),
                every: match &args.checkpoint_every {
                    Some(text) => grundy_runs::run::checkpoint_every(text)?,
                    None => grundy::solve::pruned::persist::DEFAULT_SAVE_EVERY,
                },
            }),
            None => None,
        },
    };
    // Refused before Ctrl-C is taken over or anything is shown.
    options.thread_count()?;
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    let bar = Arc::new(crate::progress::Progress::open_ended("searching"));
    let progress: ProgressFn = {
        let bar = Arc::clone(&bar);
        Box::new(move |s: &Stats| {
            bar.set_detail(format!("{} nodes, {} positions stored", s.nodes, s.stored));
            bar.tick(s.nodes);
            !STOP.load(Ordering::SeqCst)
        })
    };
    let tell = |n| bar.suspend(|| crate::common::tell(grundy_runs::Message::from(n)));
    let result = search(game, position, &options, Some(progress), &tell);
    bar.finish();
    match result {
        // 128 + SIGINT, as a shell reports a process ended by Ctrl-C (and as `takebreak` does)
        Err(e) if STOP.load(Ordering::SeqCst) => Err(CliError {
            message: e.to_string(),
            code: 130,
        }),
        r => Ok(r?),
    }
}

/// The value and outcome lines of the human report.
pub fn value_lines<M: Serialize>(a: &Answer<M>) -> String {
    let mut s = String::new();
    match a.grundy_value {
        Some(v) => s.push_str(&format!("grundy value: {v}\n")),
        None => s.push_str("grundy value: not computed (--outcome-only)\n"),
    }
    s.push_str(&format!(
        "outcome: {}\n",
        crate::common::outcome_words(a.outcome)
    ));
    s
}
