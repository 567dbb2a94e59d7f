//! What `cram` and `chomp` share: the `--memory`, `--outcome-only` and `--no-moves` flags, running the
//! library's pruned search with a late progress spinner and Ctrl-C, and the report's numbers.

use crate::common::{CliError, CliResult};
use grundy::solve::pruned::{PrunedSolver, Stats, ValueMethod};
use grundy::{LabelledMoves, Nimber, Outcome};
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

/// Parse `512M`-style sizes (K, M, G; powers of 1024; a plain number is bytes).
pub fn parse_memory(text: &str) -> CliResult<usize> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => return Err(memory_error(text)),
    };
    let n: usize = digits.parse().map_err(|_| memory_error(text))?;
    n.checked_mul(1usize << shift)
        .filter(|&b| (1 << 12..=1 << 40).contains(&b))
        .ok_or_else(|| {
            CliError::input(format!(
                "--memory {text} is out of range: give between 4K and 1024G (e.g. 512M)"
            ))
        })
}

fn memory_error(text: &str) -> CliError {
    CliError::input(format!(
        "--memory '{text}' is not a size: write a number with K, M or G (e.g. 512M)"
    ))
}

/// The answer and what it cost.
#[derive(Serialize)]
pub struct Answer<M: Serialize> {
    /// null with `--outcome-only`
    pub grundy_value: Option<Nimber>,
    pub outcome: Outcome,
    /// null with `--no-moves`
    pub winning_moves: Option<Vec<M>>,
    pub search: SearchStats,
}

#[derive(Serialize)]
pub struct SearchStats {
    pub nodes: u64,
    pub positions_stored: usize,
    pub positions_replaced: u64,
    pub table_bytes: usize,
}

/// The value (unless `--outcome-only`), the outcome and the winning moves (unless `--no-moves`).
type Found<M> = (Option<Nimber>, Outcome, Option<Vec<M>>);

/// Set by the Ctrl-C handler.
static STOP: AtomicBool = AtomicBool::new(false);

/// Value (unless `--outcome-only`, by `method`), outcome and winning moves of `position`, with a spinner
/// on stderr once the search has lasted a second; Ctrl-C stops it with one line.
pub fn solve<G, M>(
    game: G,
    position: &G::Position,
    args: &SearchArgs,
    method: ValueMethod,
    label: impl Fn(&G::Move) -> M,
) -> CliResult<Answer<M>>
where
    G: LabelledMoves,
    M: Serialize,
{
    let memory = parse_memory(&args.memory)?;
    let mut solver = PrunedSolver::with_memory(game, memory).with_value_method(method);
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    let bar = Arc::new(indicatif::ProgressBar::hidden());
    let start = Instant::now();
    let shown = Arc::new(AtomicBool::new(false));
    {
        let (bar, shown) = (Arc::clone(&bar), Arc::clone(&shown));
        solver.on_progress(Box::new(move |s: &Stats| {
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
        }));
    }
    let mut run = || -> Result<Found<M>, grundy::Error> {
        let (value, outcome) = if args.outcome_only {
            (None, solver.outcome(position)?)
        } else {
            let v = solver.grundy_value(position)?;
            (Some(v), Outcome::from_value(v))
        };
        let moves = match outcome {
            _ if args.no_moves => None,
            Outcome::P => Some(Vec::new()),
            Outcome::N => Some(solver.winning_moves(position)?.iter().map(&label).collect()),
        };
        Ok((value, outcome, moves))
    };
    let result = run();
    bar.finish_and_clear();
    let (grundy_value, outcome, winning_moves) = result.map_err(|e| match e {
        grundy::Error::Invalid(m) if m == "interrupted" => {
            CliError::input("interrupted: the search was stopped before it finished")
        }
        e => e.into(),
    })?;
    let s = solver.stats();
    Ok(Answer {
        grundy_value,
        outcome,
        winning_moves,
        search: SearchStats {
            nodes: s.nodes,
            positions_stored: s.stored,
            positions_replaced: s.replaced,
            table_bytes: s.table_bytes,
        },
    })
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
