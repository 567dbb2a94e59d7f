//! Differential: the loopy labelling's P/N/D outcomes equal a plain retrograde analysis on
//! random graphs with cycles and self-loops.
#![no_main]
use grundy::solve::loopy::{analyse, Csr, LoopyOutcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let n = (n % 40) as usize + 1;
    let mut lists = vec![Vec::new(); n];
    for pair in rest.chunks_exact(2) {
        let (u, v) = (pair[0] as usize % n, pair[1] as usize % n);
        if !lists[u].contains(&v) {
            lists[u].push(v);
        }
    }
    let csr = Csr::from_lists(&lists).unwrap();
    let a = analyse(&csr);
    // Retrograde: P when every option is N (no option: P), N when some option is P, until
    // nothing changes; the rest are draws.
    let mut outcome = vec![None; n];
    loop {
        let mut changed = false;
        for u in 0..n {
            if outcome[u].is_some() {
                continue;
            }
            let opts = &lists[u];
            let new = if opts.iter().any(|&v| outcome[v] == Some(LoopyOutcome::P)) {
                Some(LoopyOutcome::N)
            } else if opts.iter().all(|&v| outcome[v] == Some(LoopyOutcome::N)) {
                Some(LoopyOutcome::P)
            } else {
                None
            };
            if new.is_some() {
                outcome[u] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for u in 0..n {
        assert_eq!(a.outcome(u), outcome[u].unwrap_or(LoopyOutcome::D), "node {u} of {lists:?}");
    }
});
