//! `grundy subtraction`: subtraction games with a finite or "all but" subtraction set.

use crate::common::{
    emit, join, outcome_words, parse_u64, parse_u64_list, CliError, CliResult, PositionArgs,
};
use grundy::games::subtraction::{self, sequence, SubtractionSet};
use grundy::games::HeapMove;
use grundy::{Nimber, Outcome};
use serde::Serialize;

/// Largest heap (and --sequence length) accepted: the values are kept in memory.
const MAX_HEAP: u64 = 100_000_000;

/// Subtraction games: remove an allowed number of tokens from one heap.
///
/// Example: `grundy subtraction --set 1,3,4 10 7` (a position of two heaps), or
/// `grundy subtraction --all-but 2,5 --sequence 20`.
#[derive(clap::Args, Debug)]
pub struct SubtractionArgs {
    /// The subtraction set, e.g. 1,3,4
    #[arg(
        long,
        value_name = "LIST",
        conflicts_with = "all_but",
        required_unless_present = "all_but"
    )]
    pub set: Option<String>,
    /// Allow every positive number except these, e.g. 2,5
    #[arg(long, value_name = "LIST")]
    pub all_but: Option<String>,
    /// Print G(0..=N) of a single heap
    #[arg(long, value_name = "N")]
    pub sequence: Option<String>,
    /// List every move to a position of value H instead of the winning moves
    #[arg(long, value_name = "H")]
    pub target: Option<u64>,
    /// Misère play: with --sequence N, the misère Grundy values and Conway's genus of heaps
    /// 0..=N (positions: see 'grundy misere-quotient --set LIST --position ...')
    #[arg(long, conflicts_with = "target")]
    pub misere: bool,
    #[command(flatten)]
    pub position: PositionArgs,
}

#[derive(Serialize)]
struct Report {
    set: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Vec<Nimber>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    heaps: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grundy_value: Option<Nimber>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winning_moves: Option<Vec<HeapMove>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<Nimber>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<HeapMove>>,
}

fn parse_set(args: &SubtractionArgs) -> CliResult<SubtractionSet> {
    Ok(match (&args.set, &args.all_but) {
        (Some(s), None) => SubtractionSet::finite(parse_u64_list("subtraction", s)?)?,
        (None, Some(s)) => SubtractionSet::all_but(parse_u64_list("excluded number", s)?)?,
        _ => return Err(CliError::input("give exactly one of --set and --all-but")),
    })
}

fn check_size(what: &str, n: u64) -> CliResult {
    if n > MAX_HEAP {
        return Err(CliError::input(format!(
            "{what} {n} is too large: at most {MAX_HEAP} (the sequence is kept in memory)"
        )));
    }
    Ok(())
}

pub fn run(args: SubtractionArgs, json: bool) -> CliResult {
    let set = parse_set(&args)?;
    if args.misere {
        if !args.position.words()?.is_empty() {
            return Err(CliError::input(
                "--misere gives single heaps' genera with --sequence N; for positions use \
                 'grundy misere-quotient --set LIST --position H...'",
            ));
        }
        return super::misere_genus::run(&set, args.sequence.as_deref(), true, json);
    }
    let mut report = Report {
        set: set.to_string(),
        values: None,
        heaps: None,
        grundy_value: None,
        outcome: None,
        winning_moves: None,
        target: None,
        moves: None,
    };
    let heaps = args.position.u64_heaps()?;
    if let Some(n) = &args.sequence {
        let n = parse_u64("sequence length", n)?;
        check_size("--sequence", n)?;
        report.values = Some(sequence(&set, n)?);
    } else if heaps.is_empty() {
        return Err(CliError::input(
            "no heaps given (e.g. 'grundy subtraction --set 1,3,4 10 7', or --sequence N)",
        ));
    }
    if !heaps.is_empty() {
        let max = *heaps.iter().max().expect("non-empty");
        check_size("heap", max)?;
        if let SubtractionSet::AllBut(_) = set {
            // Every smaller heap but a few is a move: the search is linear in the heap sizes.
            let total = heaps.iter().fold(0u64, |a, &h| a.saturating_add(h));
            if total > MAX_HEAP {
                return Err(CliError::input(format!(
                    "with an all-but set every smaller heap is a move: the heaps may add up to at most {MAX_HEAP} (they add up to {total})"
                )));
            }
        }
        let target = args.target.unwrap_or(0);
        let (value, moves) = subtraction::moves_to(&set, &heaps, target)?;
        report.heaps = Some(heaps);
        report.grundy_value = Some(value);
        report.outcome = Some(Outcome::from_value(value));
        if args.target.is_some() {
            report.target = Some(target);
            report.moves = Some(moves);
        } else {
            report.winning_moves = Some(moves);
        }
    }
    emit(json, &report, || {
        let mut s = format!("subtraction set: {}\n", report.set);
        if let Some(v) = &report.values {
            s.push_str(&format!("G(0..={}): {}\n", v.len() - 1, join(v)));
        }
        if let (Some(v), Some(o)) = (report.grundy_value, report.outcome) {
            s.push_str(&format!(
                "grundy value: {v}\noutcome: {}\n",
                outcome_words(o)
            ));
            let (label, list) = match (&report.moves, &report.winning_moves) {
                (Some(m), _) => (format!("moves to value {}", report.target.unwrap_or(0)), m),
                (None, Some(m)) => ("winning moves".to_string(), m),
                _ => unreachable!(),
            };
            if list.is_empty() {
                s.push_str(&format!("{label}: none\n"));
            } else {
                s.push_str(&format!("{label} ({}):\n", list.len()));
                for m in list {
                    s.push_str(&format!(
                        "  heap {} (0-based): {} -> {}\n",
                        m.heap, m.from, m.to
                    ));
                }
            }
        }
        s
    })
}
