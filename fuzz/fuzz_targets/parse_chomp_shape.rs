//! Chomp shapes as typed (`5,3,3,1`): never a panic; small shapes' values equal the plain
//! evaluator's, and the shape prints back as its rows.
#![no_main]
use grundy::games::chomp::{parse_shape, Chomp};
use grundy::solve::PrunedSolver;
use grundy::NormalPlay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(p) = parse_shape(text) else {
        return;
    };
    let rows = Chomp::rows(p);
    assert_eq!(Chomp::shape(&rows).unwrap(), p);
    if rows.iter().sum::<u32>() > 14 {
        return;
    }
    let pruned = PrunedSolver::new(Chomp).grundy_value(&p).unwrap();
    let plain = NormalPlay::new(Chomp).grundy_value(&p).unwrap();
    assert_eq!(pruned, plain, "{rows:?}");
});
