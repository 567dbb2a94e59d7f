//! Graphviz DOT export, every node labelled by its name and Grundy value.

use super::GameGraph;
use std::fmt::Write;

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The graph in DOT, nodes labelled `name\nsg = v`; P-positions (value 0) are drawn boxed and
/// the root is drawn bold.
pub fn to_dot(graph: &GameGraph) -> String {
    let values = graph.grundy_values();
    let mut s = String::from("digraph game {\n  rankdir=TB;\n  node [fontname=\"Helvetica\"];\n");
    for (i, &value) in values.iter().enumerate() {
        let shape = if value == 0 { "box" } else { "ellipse" };
        let style = if i == graph.root() {
            ", style=bold"
        } else {
            ""
        };
        let label = format!("{}\\nsg = {}", graph.name(i), value);
        let _ = writeln!(
            s,
            "  n{i} [label={}, shape={shape}{style}];",
            quote(&label).replace("\\\\n", "\\n")
        );
    }
    for i in 0..graph.len() {
        for &j in graph.options_of(i) {
            let _ = writeln!(s, "  n{i} -> n{j};");
        }
    }
    s.push_str("}\n");
    s
}
