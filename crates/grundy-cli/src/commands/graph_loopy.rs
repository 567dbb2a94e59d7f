//! `grundy graph --loopy` and sums of graphs: generalized Sprague–Grundy values (γ) of graphs
//! that may have cycles, P/N/D outcomes, winning moves with their bounds, drawing moves.
//! Rendering only: the values, strategies and sum rule are `grundy::solve::loopy`.

use crate::common::{emit, CliError, CliResult};
use grundy::graph::loopy::to_dot_loopy;
use grundy::graph::loopy::{LoopyNode, LoopyReport};
use grundy::graph::LoopyGraph;
use grundy::solve::loopy::{sum_moves, sum_value, Analysis, LoopyOutcome, LoopyValue};
use serde::Serialize;
use std::io::Write;
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
///
/// With `--all` the nodes are written as they are read from the analysis, never gathered into
/// one document first: the memory stays that of the graph and its analysis (a 15-million-node
/// graph's `--json` went past 11 GB when the whole document was built).
pub fn run_single(graph: &LoopyGraph, all: bool, dot: Option<&PathBuf>, json: bool) -> CliResult {
    let a = graph.analyse();
    if let Some(out) = dot {
        std::fs::write(out, to_dot_loopy(graph, &a))
            .map_err(|e| CliError::input(format!("cannot write '{}': {e}", out.display())))?;
    }
    let report = Report {
        base: graph.report_with(&a, false),
        dot: dot.map(|p| p.display().to_string()),
    };
    if !all {
        return emit(json, &report, || human_single(&report));
    }
    let out = std::io::stdout().lock();
    let mut w = std::io::BufWriter::with_capacity(1 << 16, out);
    let written = if json {
        stream_json(&mut w, &report, graph, &a)
    } else {
        stream_human(&mut w, &report, graph, &a)
    };
    match written.and_then(|()| w.flush()) {
        Ok(()) => Ok(()),
        // The reader went away (`grundy ... | head`): nothing left to say to anybody.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(CliError::input(format!("cannot write the output: {e}"))),
    }
}

/// One node's report (what `--all` lists).
fn node(graph: &LoopyGraph, a: &Analysis, i: usize) -> LoopyNode {
    LoopyNode {
        id: graph.name(i).to_owned(),
        grundy_value: a.value(i),
        outcome: a.outcome(i),
    }
}

/// The `--json` object with `nodes` last, written node by node.
fn stream_json(
    w: &mut impl Write,
    report: &Report,
    graph: &LoopyGraph,
    a: &Analysis,
) -> std::io::Result<()> {
    let head = json_text(report)?;
    let head = head.strip_suffix('}').unwrap_or(&head);
    w.write_all(head.as_bytes())?;
    w.write_all(if head.len() > 1 {
        b",\"nodes\":["
    } else {
        b"\"nodes\":["
    })?;
    for i in 0..graph.len() {
        if i > 0 {
            w.write_all(b",")?;
        }
        w.write_all(json_text(&node(graph, a, i))?.as_bytes())?;
    }
    w.write_all(b"]}\n")
}

/// The human report with every node's line, written line by line.
fn stream_human(
    w: &mut impl Write,
    report: &Report,
    graph: &LoopyGraph,
    a: &Analysis,
) -> std::io::Result<()> {
    let head = human_single(&Report {
        base: report.base.clone(),
        dot: None,
    });
    w.write_all(head.as_bytes())?;
    w.write_all(b"node values:\n")?;
    for i in 0..graph.len() {
        writeln!(w, "  {}: {} ({})", graph.name(i), a.value(i), a.outcome(i))?;
    }
    if let Some(d) = &report.dot {
        writeln!(w, "DOT written to {d}")?;
    }
    Ok(())
}

/// JSON text with the integers above 2^53 - 1 as strings, as every `--json` report.
fn json_text<T: Serialize>(v: &T) -> std::io::Result<String> {
    serde_json::to_value(v)
        .and_then(|v| serde_json::to_string(&crate::common::exact_integers(v)))
        .map_err(std::io::Error::other)
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
