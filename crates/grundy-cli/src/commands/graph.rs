//! `grundy graph`: explicit game graphs from a JSON file (format in the README and in
//! `grundy::graph`).

use super::graph_loopy::{run_single, run_sum, Named};
use super::graph_structure::{division_report, plain_report, DivisionReport, PlainReport};
use crate::common::{emit, outcome_words, read_text_capped, CliError, CliResult};
use grundy::graph::{to_dot, GameGraph, GraphSpec, LoopyGraph};
use grundy::{Nimber, Outcome};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Explicit game graphs: value and outcome of the root (or every node), misère outcome, DOT;
/// with --loopy, graphs with cycles (values ∞{...}, draws); several files or roots: their sum.
///
/// Example: `grundy graph docs/examples/small-graph.json --all --dot game.dot`. The file is JSON:
/// {"root": "a", "nodes": [{"id": "a", "options": ["b"]}, {"id": "b", "options": []}]}
#[derive(clap::Args, Debug)]
pub struct GraphArgs {
    /// The graph file (JSON); `-` reads standard input. Several files: their sum
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Evaluate from this node instead of the file's root. Repeated with one file: the sum of
    /// tokens on those nodes; with several files: one root per file, in order
    #[arg(long, value_name = "ID")]
    pub root: Vec<String>,
    /// Graphs with cycles: the generalized Sprague-Grundy value (∞{K} values, P/N/D outcomes,
    /// winning moves with a bound on the game's length, drawing moves)
    #[arg(long)]
    pub loopy: bool,
    /// List every node's value
    #[arg(long)]
    pub all: bool,
    /// Also give the misère outcome
    #[arg(long)]
    pub misere: bool,
    /// Write the graph in Graphviz DOT, every node labelled with its value
    #[arg(long, value_name = "OUT")]
    pub dot: Option<PathBuf>,
    /// Game division (hook paper Thm 3): build the quotient and remainder games for divisor A
    /// and check that their values are floor(v/A) and v mod A at every node
    #[arg(long, value_name = "A")]
    pub divide: Option<u64>,
    /// Check the plain-game axioms PG1-PG3 (hook paper §6); for a plain game also the
    /// diagram and hooks of the root, Prop. 4, Prop. 5 and Thm 5
    #[arg(long)]
    pub plain: bool,
}

#[derive(Serialize)]
struct NodeValue {
    id: String,
    grundy_value: Nimber,
    #[serde(skip_serializing_if = "Option::is_none")]
    misere_outcome: Option<Outcome>,
}

#[derive(Serialize)]
struct Report {
    root: String,
    grundy_value: Nimber,
    outcome: Outcome,
    winning_moves: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    misere_outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<Vec<NodeValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dot: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    division: Option<DivisionReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plain: Option<PlainReport>,
}

/// The largest game-graph file read: 256 MiB (a graph of about a million nodes; see also the
/// node and move limits of `grundy::graph::loopy`).
pub const MAX_GRAPH_BYTES: u64 = 256 << 20;

/// Read and parse a graph file's JSON, with the file name in any error.
fn load_spec(file: &Path) -> CliResult<GraphSpec> {
    let text = read_text_capped(file, MAX_GRAPH_BYTES)?;
    GraphSpec::from_json(&text).map_err(|e| CliError::input(format!("{}: {e}", file.display())))
}

fn in_file(file: &Path) -> impl Fn(grundy::Error) -> CliError + '_ {
    move |e| match e {
        grundy::Error::Loop(_) => CliError::input(format!(
            "{}: {e}; --loopy evaluates graphs with cycles",
            file.display()
        )),
        e => CliError::input(format!("{}: {e}", file.display())),
    }
}

/// Load a graph file (acyclic), with the file name in any error.
pub fn load(file: &Path) -> CliResult<GameGraph> {
    GameGraph::from_spec(&load_spec(file)?).map_err(in_file(file))
}

fn node_of(graph: &LoopyGraph, id: &str) -> CliResult<usize> {
    graph
        .index_of(id)
        .ok_or_else(|| CliError::input(format!("--root '{id}' is not a node of the graph")))
}

/// `--loopy` or a sum: every graph loaded as a loopy graph.
fn run_loopy(args: &GraphArgs, json: bool) -> CliResult {
    let sum = args.files.len() > 1 || args.root.len() > 1;
    let refused = [
        (args.misere, "--misere"),
        (args.divide.is_some(), "--divide"),
        (args.plain, "--plain"),
        (sum && args.all, "--all"),
        (sum && args.dot.is_some(), "--dot"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(on, _)| *on) {
        let what = if sum { "a sum of graphs" } else { "--loopy" };
        return Err(CliError::input(format!(
            "{flag} does not apply to {what}; evaluate one acyclic graph without --loopy for it"
        )));
    }
    if args.files.len() > 1 && !args.root.is_empty() && args.root.len() != args.files.len() {
        return Err(CliError::input(format!(
            "{} files but {} --root options: give none or one per file",
            args.files.len(),
            args.root.len()
        )));
    }
    let mut graphs = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let graph = LoopyGraph::from_spec(&load_spec(file)?).map_err(in_file(file))?;
        if !args.loopy && graph.has_cycle() {
            return Err(CliError::input(format!(
                "{}: the graph has a cycle; --loopy evaluates graphs with cycles",
                file.display()
            )));
        }
        graphs.push(graph);
    }
    let mut parts = Vec::new();
    for (i, graph) in graphs.iter().enumerate() {
        let file = args.files[i].display().to_string();
        let roots: Vec<usize> = if args.files.len() == 1 && !args.root.is_empty() {
            args.root
                .iter()
                .map(|r| node_of(graph, r))
                .collect::<CliResult<_>>()?
        } else if let Some(r) = args.root.get(i) {
            vec![node_of(graph, r)?]
        } else {
            vec![graph.root()]
        };
        for node in roots {
            parts.push(Named {
                file: file.clone(),
                graph,
                node,
            });
        }
    }
    if sum {
        return run_sum(&parts, json);
    }
    let node = parts[0].node;
    drop(parts);
    let graph = graphs.pop().expect("one file");
    let graph = graph.with_root(node)?;
    run_single(&graph, args.all, args.dot.as_ref(), json)
}

pub fn run(args: GraphArgs, json: bool) -> CliResult {
    if let Some(out) = &args.dot {
        crate::common::check_output_path("--dot", out)?;
    }
    if args.loopy || args.files.len() > 1 || args.root.len() > 1 {
        return run_loopy(&args, json);
    }
    let mut graph = load(&args.files[0])?;
    if let Some(r) = args.root.first() {
        let i = graph
            .index_of(r)
            .ok_or_else(|| CliError::input(format!("--root '{r}' is not a node of the graph")))?;
        graph = graph.with_root(i)?;
    }
    let values = graph.grundy_values();
    let misere = args.misere.then(|| graph.misere_outcomes());
    let root = graph.root();
    if let Some(out) = &args.dot {
        std::fs::write(out, to_dot(&graph))
            .map_err(|e| CliError::input(format!("cannot write '{}': {e}", out.display())))?;
    }
    let report = Report {
        root: graph.name(root).to_owned(),
        grundy_value: values[root],
        outcome: Outcome::from_value(values[root]),
        winning_moves: graph
            .options_of(root)
            .iter()
            .filter(|&&j| values[j] == 0)
            .map(|&j| graph.name(j).to_owned())
            .collect(),
        misere_outcome: misere.as_ref().map(|m| m[root]),
        nodes: args.all.then(|| {
            (0..graph.len())
                .map(|i| NodeValue {
                    id: graph.name(i).to_owned(),
                    grundy_value: values[i],
                    misere_outcome: misere.as_ref().map(|m| m[i]),
                })
                .collect()
        }),
        dot: args.dot.as_ref().map(|p| p.display().to_string()),
        division: match args.divide {
            Some(a) => Some(division_report(&graph, a, args.all)?),
            None => None,
        },
        plain: if args.plain {
            Some(plain_report(&graph)?)
        } else {
            None
        },
    };
    let failed = report
        .division
        .as_ref()
        .is_some_and(|d| d.counterexample.is_some())
        || report.plain.as_ref().is_some_and(|p| p.paper_contradicted);
    emit(json, &report, || {
        let mut s = format!(
            "root: {}\ngrundy value: {}\noutcome: {}\n",
            report.root,
            report.grundy_value,
            outcome_words(report.outcome)
        );
        if report.winning_moves.is_empty() {
            s.push_str("winning moves: none\n");
        } else {
            s.push_str(&format!(
                "winning moves: {}\n",
                report.winning_moves.join(", ")
            ));
        }
        if let Some(m) = report.misere_outcome {
            s.push_str(&format!("misère outcome: {}\n", outcome_words(m)));
        }
        if let Some(nodes) = &report.nodes {
            s.push_str("node values:\n");
            for n in nodes {
                match n.misere_outcome {
                    Some(m) => {
                        s.push_str(&format!("  {}: {} (misère {m})\n", n.id, n.grundy_value))
                    }
                    None => s.push_str(&format!("  {}: {}\n", n.id, n.grundy_value)),
                }
            }
        }
        if let Some(d) = &report.dot {
            s.push_str(&format!("DOT written to {d}\n"));
        }
        if let Some(d) = &report.division {
            s.push_str(&d.human());
        }
        if let Some(p) = &report.plain {
            s.push_str(&p.human());
        }
        s
    })?;
    if failed {
        return Err(CliError::check_failed(
            "a theorem of the hook paper failed on this graph (see the report)",
        ));
    }
    Ok(())
}
