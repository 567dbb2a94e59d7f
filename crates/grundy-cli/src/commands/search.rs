//! What `cram` and `chomp` share: the `--memory`, `--outcome-only` and `--no-moves` flags, running the
//! library's pruned search ([`grundy::solve::pruned::answer`]) with a late progress spinner and
//! Ctrl-C, and the report's value lines.

pub use grundy::solve::pruned::Answer;

use crate::common::CliResult;
use grundy::solve::pruned::{answer, ProgressFn, Question, Stats, ValueMethod};
use grundy::text::parse_memory;
use grundy::LabelledMoves;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
}

/// Set by the Ctrl-C handler.
static STOP: AtomicBool = AtomicBool::new(false);

/// The library's answer ([`grundy::solve::pruned::answer`]) to the flags, with a spinner on
/// stderr once the search has lasted a second; Ctrl-C stops it with one line.
pub fn solve<G: LabelledMoves>(
    game: G,
    position: &G::Position,
    args: &SearchArgs,
    method: ValueMethod,
) -> CliResult<Answer<G::Move>> {
    let question = Question {
        memory: parse_memory(&args.memory)?,
        method,
        outcome_only: args.outcome_only,
        moves: !args.no_moves,
    };
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    let bar = Arc::new(indicatif::ProgressBar::hidden());
    let start = Instant::now();
    let shown = Arc::new(AtomicBool::new(false));
    let progress: ProgressFn = {
        let (bar, shown) = (Arc::clone(&bar), Arc::clone(&shown));
        Box::new(move |s: &Stats| {
            if !shown.load(Ordering::Relaxed) && start.elapsed() >= Duration::from_secs(1) {
                shown.store(true, Ordering::Relaxed);
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{spinner} searching [{elapsed_precise}] {msg}",
                    )
                    .expect("valid template"),
                );
            }
            bar.set_message(format!("{} nodes, {} positions stored", s.nodes, s.stored));
            bar.tick();
            !STOP.load(Ordering::SeqCst)
        })
    };
    let result = answer(game, position, &question, Some(progress));
    bar.finish_and_clear();
    Ok(result?)
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
