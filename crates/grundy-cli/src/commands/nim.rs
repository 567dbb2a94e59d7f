//! `grundy nim`: Nim positions by the closed forms (nim-sum; misère Thm 2.3), any heap size.

use crate::common::{emit, outcome_words, parse_big, Big, CliError, CliResult, PositionArgs};
use grundy::games::nim;
use grundy::Outcome;
use num_bigint::BigUint;
use num_traits::Zero;
use serde::Serialize;

/// Nim: value (nim-sum), outcome and every winning move of a position of heaps of any size.
///
/// Example: `grundy nim 3 5 2` (value 4; the winning move takes heap 1 from 5 to 1).
#[derive(clap::Args, Debug)]
pub struct NimArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// List every move to a position of value H instead of the winning moves
    #[arg(long, value_name = "H", conflicts_with = "misere")]
    pub target: Option<String>,
    /// Misère play: the player who takes the last token loses
    #[arg(long)]
    pub misere: bool,
}

#[derive(Serialize)]
struct Move {
    heap: usize,
    from: Big,
    to: Big,
}

fn moves(list: Vec<grundy::games::HeapMove<BigUint>>) -> Vec<Move> {
    list.into_iter()
        .map(|m| Move {
            heap: m.heap,
            from: Big(m.from),
            to: Big(m.to),
        })
        .collect()
}

#[derive(Serialize)]
struct Report {
    heaps: Vec<Big>,
    grundy_value: Big,
    outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    winning_moves: Option<Vec<Move>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<Big>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<Move>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    misere_outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    misere_winning_moves: Option<Vec<Move>>,
}

fn render_moves(out: &mut String, list: &[Move]) {
    for m in list {
        out.push_str(&format!(
            "  heap {} (0-based): {} -> {}\n",
            m.heap, m.from, m.to
        ));
    }
}

pub fn run(args: NimArgs, json: bool) -> CliResult {
    let words = args.position.words()?;
    if words.is_empty() {
        return Err(CliError::input("no heaps given (e.g. 'grundy nim 3 5 2')"));
    }
    let heaps = words
        .iter()
        .map(|w| parse_big("heap", w))
        .collect::<CliResult<Vec<_>>>()?;
    let value = nim::nim_value(&heaps);
    let outcome = if value.is_zero() {
        Outcome::P
    } else {
        Outcome::N
    };
    let mut report = Report {
        heaps: heaps.iter().cloned().map(Big).collect(),
        grundy_value: Big(value.clone()),
        outcome,
        winning_moves: None,
        target: None,
        moves: None,
        reason: None,
        misere_outcome: None,
        misere_winning_moves: None,
    };
    if args.misere {
        report.misere_outcome = Some(nim::misere_outcome(&heaps));
        report.misere_winning_moves = Some(moves(nim::misere_winning_moves(&heaps)));
    } else if let Some(t) = &args.target {
        let target = parse_big("target value", t)?;
        let list = moves(nim::moves_to(&heaps, &target));
        if list.is_empty() {
            report.reason = Some(if target == value {
                format!("no move keeps the value: every option differs from {value} (definition of mex)")
            } else {
                format!("no heap can be changed to reach value {target} (only values below {value} are guaranteed to be reachable)")
            });
        }
        report.target = Some(Big(target));
        report.moves = Some(list);
    } else {
        report.winning_moves = Some(moves(nim::winning_moves(&heaps)));
    }
    emit(json, &report, || {
        let mut s = String::new();
        s.push_str(&format!("grundy value: {}\n", report.grundy_value));
        s.push_str(&format!("outcome: {}\n", outcome_words(report.outcome)));
        if let Some(w) = &report.winning_moves {
            if w.is_empty() && heaps.iter().all(Zero::is_zero) {
                s.push_str("winning moves: none (every heap is empty: there is no move)\n");
            } else if w.is_empty() {
                s.push_str("winning moves: none (every move leads to a non-zero value)\n");
            } else {
                s.push_str(&format!("winning moves ({}):\n", w.len()));
                render_moves(&mut s, w);
            }
        }
        if let (Some(t), Some(m)) = (&report.target, &report.moves) {
            if m.is_empty() {
                s.push_str(&format!(
                    "moves to value {t}: no such move: {}\n",
                    report.reason.as_deref().unwrap_or("")
                ));
            } else {
                s.push_str(&format!("moves to value {t} ({}):\n", m.len()));
                render_moves(&mut s, m);
            }
        }
        if let (Some(o), Some(m)) = (&report.misere_outcome, &report.misere_winning_moves) {
            s.push_str(&format!("misère outcome: {}\n", outcome_words(*o)));
            if m.is_empty() {
                s.push_str("misère winning moves: none\n");
            } else {
                s.push_str(&format!("misère winning moves ({}):\n", m.len()));
                render_moves(&mut s, m);
            }
        }
        s
    })
}
