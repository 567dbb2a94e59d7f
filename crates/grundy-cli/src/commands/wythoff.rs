//! `grundy wythoff`: Wythoff's game; outcome and winning moves by the golden-ratio formula on
//! heaps of any size, the Grundy value by the generic evaluator when small enough.

use crate::common::{emit, outcome_words, parse_big, Big, CliError, CliResult, PositionArgs};
use grundy::games::wythoff;
use grundy::{Nimber, Outcome};
use serde::Serialize;

/// Wythoff's game: take from one heap, or the same number from both.
///
/// Example: `grundy wythoff 4 7` (a P-position: (4, 7) = (floor(3φ), floor(3φ²))).
#[derive(clap::Args, Debug)]
pub struct WythoffArgs {
    #[command(flatten)]
    pub position: PositionArgs,
}

#[derive(Serialize)]
struct Move {
    to: [Big; 2],
}

#[derive(Serialize)]
struct Report {
    heaps: [Big; 2],
    /// null when the position is too large for the generic evaluator
    grundy_value: Option<Nimber>,
    outcome: Outcome,
    winning_moves: Vec<Move>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

pub fn run(args: WythoffArgs, json: bool) -> CliResult {
    let words = args.position.words()?;
    if words.len() != 2 {
        return Err(CliError::input(format!(
            "Wythoff's game has two heaps; got {} numbers (e.g. 'grundy wythoff 4 7')",
            words.len()
        )));
    }
    let a = parse_big("heap", &words[0])?;
    let b = parse_big("heap", &words[1])?;
    let outcome = wythoff::outcome(&a, &b);
    let grundy_value = wythoff::grundy_value_if_small(&a, &b);
    if grundy_value.is_some_and(|v| Outcome::from_value(v) != outcome) {
        return Err(CliError::input(
            "internal disagreement between the formula and the table (please report)",
        ));
    }
    let note = grundy_value.is_none().then(wythoff::too_large_note);
    let winning_moves = wythoff::winning_moves(&a, &b)
        .into_iter()
        .map(|(x, y)| Move {
            to: [Big(x), Big(y)],
        })
        .collect();
    let report = Report {
        heaps: [Big(a), Big(b)],
        grundy_value,
        outcome,
        winning_moves,
        note,
    };
    emit(json, &report, || {
        let mut s = String::new();
        match report.grundy_value {
            Some(v) => s.push_str(&format!("grundy value: {v}\n")),
            None => s.push_str("grundy value: not computed (too large to brute-force)\n"),
        }
        s.push_str(&format!("outcome: {}\n", outcome_words(report.outcome)));
        if report.winning_moves.is_empty() {
            s.push_str("winning moves: none\n");
        } else {
            s.push_str(&format!(
                "winning moves ({}):\n",
                report.winning_moves.len()
            ));
            for m in &report.winning_moves {
                s.push_str(&format!(
                    "  ({}, {}) -> ({}, {})\n",
                    report.heaps[0], report.heaps[1], m.to[0], m.to[1]
                ));
            }
        }
        if let Some(n) = &report.note {
            s.push_str(&format!("note: {n}\n"));
        }
        s
    })
}
