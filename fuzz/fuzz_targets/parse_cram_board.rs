//! Cram boards drawn as text: never a panic; small boards' values equal the plain evaluator's.
#![no_main]
use grundy::games::cram::Cram;
use grundy::solve::PrunedSolver;
use grundy::NormalPlay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok((cram, empty)) = Cram::from_text(text) else {
        return;
    };
    if empty.count_ones() > 14 {
        return;
    }
    let pruned = PrunedSolver::new(cram).grundy_value(&empty).unwrap();
    let plain = NormalPlay::new(cram).grundy_value(&empty).unwrap();
    assert_eq!(pruned, plain, "{text:?}");
});
