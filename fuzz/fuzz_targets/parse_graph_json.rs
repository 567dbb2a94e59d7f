//! Graph and loopy-graph JSON: never a panic; small graphs are evaluated both ways.
#![no_main]
use grundy::graph::{GameGraph, GraphSpec, LoopyGraph};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(spec) = GraphSpec::from_json(text) else {
        return;
    };
    if spec.nodes.len() > 2000 {
        return;
    }
    if let Ok(g) = GameGraph::from_spec(&spec) {
        let values = g.grundy_values();
        // An acyclic graph's loopy values are its Grundy values.
        if let Ok(l) = LoopyGraph::from_spec(&spec) {
            let a = l.analyse();
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(a.value(i), grundy::solve::loopy::LoopyValue::Finite(v));
            }
        }
    } else if let Ok(l) = LoopyGraph::from_spec(&spec) {
        let a = l.analyse();
        let _ = l.report_with(&a, true);
    }
});
