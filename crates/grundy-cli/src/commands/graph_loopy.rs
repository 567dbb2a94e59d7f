//! `grundy graph --loopy` and sums of graphs: generalized Sprague–Grundy values (γ) of graphs
//! that may have cycles, P/N/D outcomes, winning moves with their bounds, drawing moves.
//! Rendering only: the values, strategies and sum rule are `grundy::solve::loopy`.

use crate::common::{emit, CliError, CliResult};
use grundy::graph::loopy::to_dot_loopy;
use grundy::graph::loopy::LoopyReport;
use grundy::graph::LoopyGraph;
use grundy::solve::loopy::{sum_moves, sum_value, Analysis, LoopyOutcome, LoopyValue};
use serde::Serialize;
use std::path::PathBuf;

/// The words after an outcome letter.
pub fn loopy_outcome_words(o: LoopyOutcome) -> &'static str {
    match o {
        LoopyOutcome::P => "P (the player to move loses)",
        LoopyOutcome::N => "N (the player to move wins)",
        LoopyOutcome::D => "D (a draw: with best play the game never ends)",
    }
}

#[derive(Serialize)]
struct Report {
    #[serde(flatten)]
    base: LoopyReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    dot: Option<String>,
}

/// One graph, cycles allowed: γ and outcome of the root, moves, optionally every node and DOT.
pub fn run_single(graph: &LoopyGraph, all: bool, dot: Option<&PathBuf>, json: bool) -> CliResult {
    let a = graph.analyse();
    if let Some(out) = dot {
        std::fs::write(out, to_dot_loopy(graph, &a))
            .map_err(|e| CliError::input(format!("cannot write '{}': {e}", out.display())))?;
    }
    let report = Report {
        base: graph.report_with(&a, all),
        dot: dot.map(|p| p.display().to_string()),
    };
    emit(json, &report, || human_single(&report))
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn human_single(report: &Report) -> String {
    let r = &report.base;
    let mut s = format!(
        "root: {}\ngrundy value: {} (generalized: {})\noutcome: {}\n",
        r.root,
        r.grundy_value,
        if r.has_cycle {
            "the graph has a cycle"
        } else {
            "the graph is acyclic"
        },
        loopy_outcome_words(r.outcome)
    );
    if r.winning_moves.is_empty() {
        s.push_str("winning moves: none\n");
    } else {
        let moves: Vec<String> = r
            .winning_moves
            .iter()
            .map(|m| {
                format!(
                    "{} (wins within {} move{})",
                    m.to,
                    m.wins_within,
                    plural(m.wins_within)
                )
            })
            .collect();
        s.push_str(&format!("winning moves: {}\n", moves.join(", ")));
    }
    if r.outcome == LoopyOutcome::P {
        if let Some(w) = r.wins_within {
            s.push_str(&format!(
                "the opponent wins within {w} move{} whatever the player to move does\n",
                plural(w)
            ));
        }
    }
    if r.outcome == LoopyOutcome::D {
        s.push_str(&format!("drawing moves: {}\n", r.drawing_moves.join(", ")));
    }
    if let Some(nodes) = &r.nodes {
        s.push_str("node values:\n");
        for n in nodes {
            s.push_str(&format!("  {}: {} ({})\n", n.id, n.grundy_value, n.outcome));
        }
    }
    if let Some(d) = &report.dot {
        s.push_str(&format!("DOT written to {d}\n"));
    }
    s
}

/// A component of a sum as the user named it.
pub struct Named<'g> {
    pub file: String,
    pub graph: &'g LoopyGraph,
    pub node: usize,
}

#[derive(Serialize)]
struct ComponentReport {
    file: String,
    root: String,
    grundy_value: LoopyValue,
    outcome: LoopyOutcome,
}

#[derive(Serialize)]
struct SumMoveReport {
    component: usize,
    from: String,
    to: String,
}

#[derive(Serialize)]
struct SumReport {
    components: Vec<ComponentReport>,
    grundy_value: LoopyValue,
    outcome: LoopyOutcome,
    winning_moves: Vec<SumMoveReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    drawing_moves: Vec<SumMoveReport>,
}

/// A sum of graphs (several files, or several roots of one file): γ from the components' values.
pub fn run_sum(parts: &[Named], json: bool) -> CliResult {
    let analyses: Vec<Analysis> = parts.iter().map(|p| p.graph.analyse()).collect();
    let comps: Vec<(&Analysis, usize)> = analyses
        .iter()
        .zip(parts)
        .map(|(a, p)| (a, p.node))
        .collect();
    let value = sum_value(&comps);
    let outcome = value.outcome();
    let moves = sum_moves(&comps);
    let pick = |want: LoopyOutcome| -> Vec<SumMoveReport> {
        moves
            .iter()
            .filter(|m| m.outcome_after == want)
            .map(|m| {
                let p = &parts[m.component];
                SumMoveReport {
                    component: m.component,
                    from: p.graph.name(p.node).to_owned(),
                    to: p.graph.name(m.to).to_owned(),
                }
            })
            .collect()
    };
    let report = SumReport {
        components: parts
            .iter()
            .zip(&analyses)
            .map(|(p, a)| ComponentReport {
                file: p.file.clone(),
                root: p.graph.name(p.node).to_owned(),
                grundy_value: a.value(p.node),
                outcome: a.outcome(p.node),
            })
            .collect(),
        grundy_value: value,
        outcome,
        winning_moves: pick(LoopyOutcome::P),
        drawing_moves: if outcome == LoopyOutcome::D {
            pick(LoopyOutcome::D)
        } else {
            Vec::new()
        },
    };
    emit(json, &report, || {
        let mut s = format!("sum of {} components:\n", report.components.len());
        for (i, c) in report.components.iter().enumerate() {
            s.push_str(&format!(
                "  [{i}] {} at {}: {} ({})\n",
                c.file, c.root, c.grundy_value, c.outcome
            ));
        }
        s.push_str(&format!(
            "grundy value: {}\noutcome: {}\n",
            report.grundy_value,
            loopy_outcome_words(report.outcome)
        ));
        let list = |ms: &[SumMoveReport]| -> String {
            ms.iter()
                .map(|m| format!("[{}] {} -> {}", m.component, m.from, m.to))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if report.winning_moves.is_empty() {
            s.push_str("winning moves: none\n");
        } else {
            s.push_str(&format!("winning moves: {}\n", list(&report.winning_moves)));
        }
        if report.outcome == LoopyOutcome::D {
            s.push_str(&format!("drawing moves: {}\n", list(&report.drawing_moves)));
        }
        s
    })
}
