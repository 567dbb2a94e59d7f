//! `grundy graph --loopy` and sums of graphs: generalized Sprague–Grundy values (γ) of graphs
//! that may have cycles, P/N/D outcomes, winning moves with their bounds, drawing moves.
//! Rendering only: the values, strategies and sum rule are `grundy::solve::loopy`.

use crate::common::{emit, CliError, CliResult};
use grundy::graph::loopy::to_dot_loopy;
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
struct Win {
    to: String,
    wins_within: u64,
}

#[derive(Serialize)]
struct NodeValue {
    id: String,
    grundy_value: LoopyValue,
    outcome: LoopyOutcome,
}

#[derive(Serialize)]
struct Report {
    root: String,
    has_cycle: bool,
    grundy_value: LoopyValue,
    outcome: LoopyOutcome,
    /// Moves to P-positions, best (fewest moves to the win) first.
    winning_moves: Vec<Win>,
    /// Most moves the game lasts when the winner plays the best moves (P and N only).
    #[serde(skip_serializing_if = "Option::is_none")]
    wins_within: Option<u64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    drawing_moves: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<Vec<NodeValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dot: Option<String>,
}

/// One graph, cycles allowed: γ and outcome of the root, moves, optionally every node and DOT.
pub fn run_single(graph: &LoopyGraph, all: bool, dot: Option<&PathBuf>, json: bool) -> CliResult {
    let a = graph.analyse();
    let root = graph.root();
    if let Some(out) = dot {
        std::fs::write(out, to_dot_loopy(graph, &a))
            .map_err(|e| CliError::input(format!("cannot write '{}': {e}", out.display())))?;
    }
    let name = |i: usize| graph.name(i).to_owned();
    let report = Report {
        root: name(root),
        has_cycle: graph.has_cycle(),
        grundy_value: a.value(root),
        outcome: a.outcome(root),
        winning_moves: a
            .winning_moves(root)
            .iter()
            .map(|m| Win {
                to: name(m.to),
                wins_within: m.wins_within,
            })
            .collect(),
        wins_within: a.wins_within(root),
        drawing_moves: a.drawing_moves(root).into_iter().map(name).collect(),
        nodes: all.then(|| {
            (0..graph.len())
                .map(|i| NodeValue {
                    id: name(i),
                    grundy_value: a.value(i),
                    outcome: a.outcome(i),
                })
                .collect()
        }),
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

fn human_single(r: &Report) -> String {
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
    if let Some(d) = &r.dot {
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
