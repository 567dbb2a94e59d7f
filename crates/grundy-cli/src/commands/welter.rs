//! `grundy welter`: the Sato–Welter (Maya) game by Welter's formula (hook paper, Theorem 2):
//! value, outcome and every winning move, for up to millions of coins.

use crate::common::{emit, outcome_words, parse_u64, read_text, CliError, CliResult, PositionArgs};
use grundy::games::welter::{Coins, WelterMove};
use grundy::{Nimber, Outcome};
use serde::Serialize;

/// How many moves the human-readable output lists before summarising.
const SHOWN_MOVES: usize = 50;

/// The Sato–Welter game: coins on distinct squares 0, 1, 2, ...; a move slides one coin to an
/// empty square further left.
///
/// Example: `grundy welter 2 3 5 7 11 13 17 19 23`. Squares are 64-bit (at most 2^64 - 1);
/// large positions are best read from a file with `--input FILE`.
#[derive(clap::Args, Debug)]
pub struct WelterArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// List every move to a position of value H instead of the winning moves
    #[arg(long, value_name = "H", conflicts_with = "value_only")]
    pub target: Option<String>,
    /// Only the value and the outcome (skip the search for moves)
    #[arg(long)]
    pub value_only: bool,
}

#[derive(Serialize)]
struct Report {
    coins: usize,
    grundy_value: Nimber,
    outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    winning_moves: Option<Vec<WelterMove>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<Nimber>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<WelterMove>>,
}

/// Parse one square; the common case (plain digits that fit) skips the big-number path.
fn parse_square(word: &str) -> CliResult<u64> {
    if word.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(v) = word.parse::<u64>() {
            return Ok(v);
        }
    }
    parse_u64("square", word)
}

/// Read and validate a Sato–Welter position from the arguments. (Parses the file's words in
/// place rather than through `PositionArgs::words`: a million coins should not cost a million
/// string allocations.)
pub fn read_coins(position: &PositionArgs) -> CliResult<Coins> {
    let mut squares = position
        .values
        .iter()
        .map(|w| parse_square(w))
        .collect::<CliResult<Vec<_>>>()?;
    if let Some(path) = &position.input {
        let text = read_text(path)?;
        for w in text.split_ascii_whitespace() {
            squares.push(parse_square(w)?);
        }
    }
    if squares.is_empty() {
        return Err(CliError::input(
            "no squares given (e.g. 'grundy welter 2 3 5 7 11')",
        ));
    }
    Ok(Coins::new(squares)?)
}

fn render_moves(s: &mut String, moves: &[WelterMove]) {
    for m in moves.iter().take(SHOWN_MOVES) {
        s.push_str(&format!("  coin on {} -> square {}\n", m.from, m.to));
    }
    if moves.len() > SHOWN_MOVES {
        s.push_str(&format!(
            "  ... and {} more (--json lists them all)\n",
            moves.len() - SHOWN_MOVES
        ));
    }
}

pub fn run(args: WelterArgs, json: bool) -> CliResult {
    let coins = read_coins(&args.position)?;
    let analysis = coins.analyse();
    let value = analysis.grundy_value();
    let mut report = Report {
        coins: coins.len(),
        grundy_value: value,
        outcome: Outcome::from_value(value),
        winning_moves: None,
        target: None,
        moves: None,
    };
    match &args.target {
        _ if args.value_only => {}
        Some(t) => {
            let target = parse_u64("target value", t)?;
            report.moves = Some(analysis.moves_to(target));
            report.target = Some(target);
        }
        None => report.winning_moves = Some(analysis.moves_to(0)),
    }
    emit(json, &report, || {
        let mut s = format!(
            "coins: {}\ngrundy value: {}\noutcome: {}\n",
            report.coins,
            report.grundy_value,
            outcome_words(report.outcome)
        );
        if let Some(w) = &report.winning_moves {
            if w.is_empty() {
                s.push_str("winning moves: none (every move leads to a non-zero value)\n");
            } else {
                s.push_str(&format!("winning moves ({}):\n", w.len()));
                render_moves(&mut s, w);
            }
        }
        if let (Some(t), Some(m)) = (report.target, &report.moves) {
            if m.is_empty() {
                let why = if t == value {
                    "no move keeps the value (definition of mex)".to_string()
                } else {
                    format!("no coin can reach value {t} (only values below {value} are guaranteed to be reachable)")
                };
                s.push_str(&format!("moves to value {t}: none: {why}\n"));
            } else {
                s.push_str(&format!("moves to value {t} ({}):\n", m.len()));
                render_moves(&mut s, m);
            }
        }
        s
    })
}
