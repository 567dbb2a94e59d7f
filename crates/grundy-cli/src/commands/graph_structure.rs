//! `grundy graph FILE --divide A` and `--plain`: game division (hook paper Thm 3) and the
//! plain-game axioms with their consequences (hook paper §6), as reports for `graph`.

use crate::common::{CliError, CliResult};
use grundy::graph::division::divide;
use grundy::graph::plain::{self, Axiom};
use grundy::graph::GameGraph;
use grundy::Nimber;
use serde::Serialize;

/// Steps the plain-game axiom check may take before giving up.
pub const PLAIN_STEP_LIMIT: u64 = plain::DEFAULT_STEP_LIMIT;

#[derive(Serialize)]
pub struct DivisionNode {
    id: String,
    grundy_value: Nimber,
    quotient_value: Nimber,
    remainder_value: Nimber,
    quotient_options: Vec<String>,
    remainder_options: Vec<String>,
}

#[derive(Serialize)]
pub struct DivisionReport {
    divisor: u64,
    /// Root: v, ⌊v/a⌋, v mod a, and the values of the two games.
    grundy_value: Nimber,
    quotient: Nimber,
    remainder: Nimber,
    quotient_game_value: Nimber,
    remainder_game_value: Nimber,
    moves: usize,
    quotient_game_moves: usize,
    remainder_game_moves: usize,
    nodes_checked: usize,
    holds: bool,
    pub counterexample: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<Vec<DivisionNode>>,
}

fn count_moves(g: &GameGraph) -> usize {
    (0..g.len()).map(|i| g.options_of(i).len()).sum()
}

fn names(g: &GameGraph, ids: &[usize]) -> Vec<String> {
    ids.iter().map(|&j| g.name(j).to_owned()).collect()
}

/// Theorem 3 for divisor `a` on every node of `graph`.
pub fn division_report(graph: &GameGraph, a: u64, all: bool) -> CliResult<DivisionReport> {
    let d = divide(graph, a)?;
    let root = graph.root();
    let counterexample = d.first_failure.map(|i| {
        format!(
            "node '{}': v = {}, quotient game {} (expected {}), remainder game {} (expected {})",
            graph.name(i),
            d.values[i],
            d.quotient_values[i],
            d.values[i] / a,
            d.remainder_values[i],
            d.values[i] % a
        )
    });
    Ok(DivisionReport {
        divisor: a,
        grundy_value: d.values[root],
        quotient: d.values[root] / a,
        remainder: d.values[root] % a,
        quotient_game_value: d.quotient_values[root],
        remainder_game_value: d.remainder_values[root],
        moves: count_moves(graph),
        quotient_game_moves: count_moves(&d.quotient_game),
        remainder_game_moves: count_moves(&d.remainder_game),
        nodes_checked: graph.len(),
        holds: d.holds(),
        counterexample,
        nodes: all.then(|| {
            (0..graph.len())
                .map(|i| DivisionNode {
                    id: graph.name(i).to_owned(),
                    grundy_value: d.values[i],
                    quotient_value: d.quotient_values[i],
                    remainder_value: d.remainder_values[i],
                    quotient_options: names(graph, d.quotient_game.options_of(i)),
                    remainder_options: names(graph, d.remainder_game.options_of(i)),
                })
                .collect()
        }),
    })
}

impl DivisionReport {
    pub fn human(&self) -> String {
        let a = self.divisor;
        let mut s = format!(
            "game division by {a} (Kayata, Thm 3): v = {a}·Q + R at the root: {} = {a}·{} + {}\n",
            self.grundy_value, self.quotient, self.remainder
        );
        s.push_str(&format!(
            "  quotient game (moves keeping R; {} of {} moves): value {}\n",
            self.quotient_game_moves, self.moves, self.quotient_game_value
        ));
        s.push_str(&format!(
            "  remainder game (moves keeping Q; {} of {} moves): value {}\n",
            self.remainder_game_moves, self.moves, self.remainder_game_value
        ));
        match &self.counterexample {
            None => s.push_str(&format!(
                "  holds at all {} nodes: quotient game = floor(v/{a}), remainder game = v mod {a}\n",
                self.nodes_checked
            )),
            Some(c) => s.push_str(&format!("  FAILS: {c}\n")),
        }
        if let Some(nodes) = &self.nodes {
            for n in nodes {
                s.push_str(&format!(
                    "  {}: v {} = {a}·{} + {}; quotient moves [{}]; remainder moves [{}]\n",
                    n.id,
                    n.grundy_value,
                    n.quotient_value,
                    n.remainder_value,
                    n.quotient_options.join(", "),
                    n.remainder_options.join(", ")
                ));
            }
        }
        s
    }
}

#[derive(Serialize)]
pub struct Cell {
    id: String,
    /// `H_p(x)`: the cell and every cell that moves to it.
    hook: Vec<String>,
    hook_length: usize,
}

#[derive(Serialize)]
pub struct Diagram {
    position: String,
    cells: Vec<Cell>,
    /// Theorem 5 (i): `Y_p` is itself plain.
    is_plain: bool,
}

#[derive(Serialize)]
pub struct Theorem5Root {
    grundy_value: Nimber,
    phi2_value: Nimber,
    core: Option<String>,
    core_value: Option<Nimber>,
    options_parity: Nimber,
}

/// An axiom violation with node names instead of indices.
#[derive(Serialize)]
pub struct NamedViolation {
    axiom: Axiom,
    nodes: Vec<String>,
    description: String,
}

#[derive(Serialize)]
pub struct PlainReport {
    is_plain: bool,
    violation: Option<NamedViolation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    diagram: Option<Diagram>,
    /// Proposition 4 at every (p, x ∈ φ(p)): null when it holds, else the pair.
    #[serde(skip_serializing_if = "Option::is_none")]
    proposition_4_counterexample: Option<Option<String>>,
    /// Proposition 5: (P, φ₂) is plain.
    #[serde(skip_serializing_if = "Option::is_none")]
    phi_2_is_plain: Option<bool>,
    /// Theorem 5 at every node.
    #[serde(skip_serializing_if = "Option::is_none")]
    theorem_5_holds: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    theorem_5_counterexample: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    theorem_5_root: Option<Theorem5Root>,
    /// Whether a statement the paper proves for plain games failed (exit status 1).
    #[serde(skip)]
    pub paper_contradicted: bool,
}

/// The axioms; when they hold, the diagram of the root, Proposition 4, Proposition 5 (for
/// r = 2) and Theorem 5 at every node.
pub fn plain_report(graph: &GameGraph) -> CliResult<PlainReport> {
    let violation = plain::check_axioms(graph, PLAIN_STEP_LIMIT).map_err(CliError::from)?;
    let mut report = PlainReport {
        is_plain: violation.is_none(),
        violation: violation.map(|v| NamedViolation {
            axiom: v.axiom,
            nodes: names(graph, &v.nodes),
            description: v.description,
        }),
        diagram: None,
        proposition_4_counterexample: None,
        phi_2_is_plain: None,
        theorem_5_holds: None,
        theorem_5_counterexample: None,
        theorem_5_root: None,
        paper_contradicted: false,
    };
    if !report.is_plain {
        return Ok(report);
    }
    let root = graph.root();
    let d = plain::diagram(graph, root);
    let diagram_plain = match &d.game {
        Some(y) => plain::check_axioms(y, PLAIN_STEP_LIMIT)?.is_none(),
        None => true,
    };
    report.diagram = Some(Diagram {
        position: graph.name(root).to_owned(),
        cells: d
            .cells
            .iter()
            .zip(&d.hooks)
            .map(|(&x, hook)| Cell {
                id: graph.name(x).to_owned(),
                hook: names(graph, hook),
                hook_length: hook.len(),
            })
            .collect(),
        is_plain: diagram_plain,
    });
    let prop4 = plain::check_proposition_4(graph)
        .map(|(p, x)| format!("p = '{}', x = '{}'", graph.name(p), graph.name(x)));
    let phi2_plain = plain::check_axioms(&plain::phi_r(graph, 2), PLAIN_STEP_LIMIT)?.is_none();
    let rows = plain::theorem_5(graph);
    let bad = rows.iter().find(|t| !t.holds).map(|t| {
        format!(
            "node '{}': v = {}, v_phi2 = {}, p^2 = {}, v(p^2) = {}, |phi(p)| mod 2 = {}",
            graph.name(t.position),
            t.grundy_value,
            t.phi2_value,
            t.core
                .map_or("not unique".to_string(), |c| format!("'{}'", graph.name(c))),
            t.core_value.map_or("-".to_string(), |v| v.to_string()),
            t.options_parity
        )
    });
    let r = &rows[root];
    report.theorem_5_root = Some(Theorem5Root {
        grundy_value: r.grundy_value,
        phi2_value: r.phi2_value,
        core: r.core.map(|c| graph.name(c).to_owned()),
        core_value: r.core_value,
        options_parity: r.options_parity,
    });
    report.paper_contradicted = !diagram_plain || prop4.is_some() || !phi2_plain || bad.is_some();
    report.proposition_4_counterexample = Some(prop4);
    report.phi_2_is_plain = Some(phi2_plain);
    report.theorem_5_holds = Some(bad.is_none());
    report.theorem_5_counterexample = Some(bad);
    Ok(report)
}

impl PlainReport {
    pub fn human(&self) -> String {
        let mut s = String::new();
        match &self.violation {
            Some(v) => {
                s.push_str(&format!("plain game: no, {} fails\n", v.axiom));
                s.push_str(&format!("  {}\n", v.description));
                return s;
            }
            None => s.push_str("plain game: yes (axioms PG1, PG2, PG3 hold)\n"),
        }
        if let Some(d) = &self.diagram {
            s.push_str(&format!(
                "diagram Y_p of '{}' ({} cells; plain: {}):\n",
                d.position,
                d.cells.len(),
                if d.is_plain { "yes" } else { "NO" }
            ));
            for c in &d.cells {
                s.push_str(&format!(
                    "  cell '{}': hook H_p(x) = {{{}}}, length {}\n",
                    c.id,
                    c.hook.join(", "),
                    c.hook_length
                ));
            }
        }
        if let Some(p4) = &self.proposition_4_counterexample {
            s.push_str(&match p4 {
                None => "Prop. 4 |Y_x| = |Y_p| - |H_p(x)|: holds at every move\n".to_string(),
                Some(c) => format!("Prop. 4 FAILS at {c}\n"),
            });
        }
        if let Some(p) = self.phi_2_is_plain {
            s.push_str(&format!(
                "Prop. 5 (P, phi_2) is plain: {}\n",
                if p { "yes" } else { "NO" }
            ));
        }
        if let Some(r) = &self.theorem_5_root {
            s.push_str(&format!(
                "Thm 5 at the root: v(p) = 2·v_phi2(p) + v(p^2): {} = 2·{} + {}; p^2 = {}; |phi(p)| mod 2 = {}\n",
                r.grundy_value,
                r.phi2_value,
                r.core_value.map_or("-".to_string(), |v| v.to_string()),
                r.core.as_deref().map_or("not unique".to_string(), |c| format!("'{c}'")),
                r.options_parity
            ));
        }
        if let Some(Some(c)) = &self.theorem_5_counterexample {
            s.push_str(&format!("Thm 5 FAILS at {c}\n"));
        } else if self.theorem_5_holds == Some(true) {
            s.push_str("Thm 5 holds at every node\n");
        }
        s
    }
}
