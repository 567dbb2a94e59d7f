//! `grundy loopy-subtraction`: subtraction games where some moves add tokens back (loopy), under
//! a cap. Values are the generalized Sprague–Grundy function; several heaps are a sum.

use super::graph_loopy::loopy_outcome_words;
use crate::common::{emit, parse_u64, parse_u64_list, CliError, CliResult, PositionArgs};
use grundy::games::loopy_subtraction::LoopySubtraction;
use grundy::solve::loopy::{sum_moves, sum_value, Analysis, LoopyOutcome, LoopyValue};
use serde::Serialize;

/// Loopy subtraction games: take a number in --take from the heap, or add a number in --add
/// (never above --max). Plays can last forever, so a heap is P, N or D (a draw).
///
/// Example: `grundy loopy-subtraction --take 2,3 --add 1 --max 12` (values of heaps 0..12), or
/// `grundy loopy-subtraction --take 2,3 --add 1 --max 12 4 7` (the sum of heaps 4 and 7).
#[derive(clap::Args, Debug)]
pub struct LoopySubtractionArgs {
    /// Numbers of tokens a move may remove, e.g. 2,3
    #[arg(long, value_name = "LIST")]
    pub take: String,
    /// Numbers of tokens a move may add back, e.g. 1
    #[arg(long, value_name = "LIST", default_value = "")]
    pub add: String,
    /// The cap: no move makes a heap larger than this
    #[arg(long, value_name = "N")]
    pub max: String,
    #[command(flatten)]
    pub position: PositionArgs,
}

#[derive(Serialize)]
struct HeapMove {
    heap: usize,
    from: u64,
    to: u64,
}

#[derive(Serialize)]
struct Report {
    take: Vec<u64>,
    add: Vec<u64>,
    max: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Vec<LoopyValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcomes: Option<Vec<LoopyOutcome>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    heaps: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grundy_value: Option<LoopyValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<LoopyOutcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    winning_moves: Option<Vec<HeapMove>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wins_within: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    drawing_moves: Option<Vec<HeapMove>>,
}

pub fn run(args: LoopySubtractionArgs, json: bool) -> CliResult {
    let take = parse_u64_list("take", &args.take)?;
    let add = parse_u64_list("add", &args.add)?;
    let max = parse_u64("cap", &args.max)?;
    let game = LoopySubtraction::new(take.clone(), add.clone(), max)?;
    let heaps = args.position.u64_heaps()?;
    if let Some(&h) = heaps.iter().find(|&&h| h > max) {
        return Err(CliError::input(format!(
            "heap {h} is above the cap --max {max}"
        )));
    }
    let graph = game.graph()?;
    let a = graph.analyse();
    let mut report = Report {
        take,
        add,
        max,
        values: None,
        outcomes: None,
        heaps: None,
        grundy_value: None,
        outcome: None,
        winning_moves: None,
        wins_within: None,
        drawing_moves: None,
    };
    if heaps.is_empty() {
        report.values = Some((0..=max as usize).map(|n| a.value(n)).collect());
        report.outcomes = Some((0..=max as usize).map(|n| a.outcome(n)).collect());
    } else {
        position_report(&a, &heaps, &mut report);
    }
    emit(json, &report, || human(&report))
}

fn position_report(a: &Analysis, heaps: &[u64], report: &mut Report) {
    let comps: Vec<(&Analysis, usize)> = heaps.iter().map(|&h| (a, h as usize)).collect();
    let value = sum_value(&comps);
    let outcome = value.outcome();
    let moves = sum_moves(&comps);
    let pick = |want: LoopyOutcome| -> Vec<HeapMove> {
        moves
            .iter()
            .filter(|m| m.outcome_after == want)
            .map(|m| HeapMove {
                heap: m.component,
                from: heaps[m.component],
                to: m.to as u64,
            })
            .collect()
    };
    report.winning_moves = Some(pick(LoopyOutcome::P));
    if outcome == LoopyOutcome::D {
        report.drawing_moves = Some(pick(LoopyOutcome::D));
    }
    if let [h] = heaps {
        report.wins_within = a.wins_within(*h as usize);
        // One heap: best (least rank) winning move first.
        if let Some(w) = report.winning_moves.as_mut() {
            w.sort_by_key(|m| a.rank(m.to as usize));
        }
    }
    report.heaps = Some(heaps.to_vec());
    report.grundy_value = Some(value);
    report.outcome = Some(outcome);
}

fn human(r: &Report) -> String {
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let mut s = format!(
        "take {{{}}}, add {{{}}}, heaps at most {}\n",
        list(&r.take),
        list(&r.add),
        r.max
    );
    if let (Some(values), Some(outcomes)) = (&r.values, &r.outcomes) {
        let show =
            |f: &dyn Fn(usize) -> String| (0..values.len()).map(f).collect::<Vec<_>>().join(" ");
        s.push_str(&format!(
            "values (heap 0..{}): {}\n",
            r.max,
            show(&|n| values[n].to_string())
        ));
        s.push_str(&format!(
            "outcomes: {}\n",
            show(&|n| outcomes[n].to_string())
        ));
        return s;
    }
    let moves = |ms: &[HeapMove]| -> String {
        ms.iter()
            .map(|m| format!("heap {}: {} -> {}", m.heap, m.from, m.to))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let (Some(heaps), Some(v), Some(o)) = (&r.heaps, &r.grundy_value, r.outcome) {
        s.push_str(&format!(
            "heaps: {}\ngrundy value: {v}\noutcome: {}\n",
            list(heaps),
            loopy_outcome_words(o)
        ));
    }
    match r.winning_moves.as_deref() {
        Some([]) | None => s.push_str("winning moves: none\n"),
        Some(w) => s.push_str(&format!("winning moves: {}\n", moves(w))),
    }
    if let Some(w) = r.wins_within {
        s.push_str(&format!(
            "the winner ends the game within {w} move{}\n",
            if w == 1 { "" } else { "s" }
        ));
    }
    if let Some(d) = &r.drawing_moves {
        s.push_str(&format!("drawing moves: {}\n", moves(d)));
    }
    s
}
