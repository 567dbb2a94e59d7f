//! Differential: the pruned search equals the plain evaluator on random games (sums of nodes
//! of a random acyclic graph, split into components), for the value and every query.
#![no_main]
use fuzz_support::DagSum;
use grundy::solve::pruned::ValueMethod;
use grundy::solve::PrunedSolver;
use grundy::NormalPlay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let game = DagSum::from_bytes(data);
    let n = game.moves.len() as u8;
    let tail = data.len().saturating_sub(4);
    let mut pos: Vec<u8> = data[tail..].iter().map(|b| b % n).collect();
    pos.sort_unstable();
    let plain = NormalPlay::new(game.clone()).grundy_value(&pos).unwrap();
    for method in [ValueMethod::Queries, ValueMethod::Mex] {
        let mut s = PrunedSolver::with_memory(game.clone(), 1 << 12).with_value_method(method);
        assert_eq!(s.grundy_value(&pos).unwrap(), plain);
        for v in 0..4 {
            assert_eq!(s.has_value(&pos, v).unwrap(), plain == v);
        }
    }
});
