//! The quotient engine against plain search, and the published quotients.

use super::*;
use crate::games::subtraction::SubtractionSet;
use crate::takebreak::Rules;

fn run(code: &str, n: u32) -> MisereQuotient {
    let rules = Rules::parse(code).unwrap();
    compute(Box::new(rules), n, false, &|| false, &mut |_, _| {}).unwrap()
}

/// Every position of heaps up to `n` with at most `total` tokens: the quotient's outcome is
/// the plain search's; and the presentation's relations hold in the monoid.
fn check(game: Box<dyn HeapGame + Send + Sync>, n: u32, total: u32) {
    let name = game.name();
    let brute = brute::all_outcomes(game.as_ref(), n, total, 2_000_000).unwrap();
    let q = compute(game, n, false, &|| false, &mut |_, _| {}).unwrap();
    for (pos, &p) in &brute {
        let heaps: Vec<u64> = pos.iter().map(|&h| h as u64).collect();
        let o = q.outcome(&heaps).unwrap();
        assert_eq!(o == Outcome::P, p, "{name}: position {pos:?}");
        if !p && !pos.is_empty() {
            // A non-P position with options has a winning move, and it leads to P.
            if let Some(mv) = q.winning_move(&heaps).unwrap() {
                let mut next: Vec<u32> = pos.clone();
                let i = next.iter().position(|&h| h as u64 == mv.from).unwrap();
                next.remove(i);
                next.extend(mv.to.iter().map(|&h| h as u32));
                next.sort_unstable();
                if let Some(&np) = brute.get(&next) {
                    assert!(
                        np,
                        "{name}: move from {pos:?} to {next:?} is not to a P-position"
                    );
                }
            }
        }
    }
    check_presentation(&q);
}

fn check_presentation(q: &MisereQuotient) {
    let m = &q.quotient().monoid;
    let pres = q.presentation();
    for (l, r) in &pres.relations {
        assert_eq!(
            pres.evaluate(m, l),
            pres.evaluate(m, r),
            "relation {l:?} = {r:?}"
        );
    }
    let mut seen = std::collections::HashSet::new();
    for (x, w) in pres.normal_forms.iter().enumerate() {
        assert_eq!(pres.evaluate(m, w) as usize, x);
        assert!(seen.insert(w.clone()));
    }
    assert!(m.is_commutative_monoid() || m.size() > 64);
}

#[test]
fn every_two_digit_octal_code_matches_plain_search() {
    for d1 in 0..8u8 {
        for d2 in 0..8u8 {
            let code = format!("0.{d1}{d2}");
            check(Box::new(Rules::parse(&code).unwrap()), 9, 13);
        }
    }
}

#[test]
fn sample_of_three_digit_codes_matches_plain_search() {
    for code in [
        "0.137", "0.007", "0.777", "0.451", "0.156", "0.355", "0.73", "4.7", "0.F", "0.6",
    ] {
        check(Box::new(Rules::parse(code).unwrap()), 9, 12);
    }
    check(
        Box::new(SubtractionSet::finite(vec![1, 3, 4]).unwrap()),
        10,
        13,
    );
    check(Box::new(SubtractionSet::all_but(vec![]).unwrap()), 7, 12);
}

#[test]
fn nim_quotients_are_tame() {
    for (n, name) in [(1u32, "T1"), (3, "T2"), (7, "T3")] {
        let q = compute(
            Box::new(SubtractionSet::all_but(vec![]).unwrap()),
            n,
            false,
            &|| false,
            &mut |_, _| {},
        )
        .unwrap();
        let r = q.report();
        assert_eq!(r.recognised.as_deref(), Some(name));
        assert!(r.tame);
    }
}

#[test]
fn kayles_and_dawsons_kayles_small_quotients() {
    let r = run("0.75", 30).report();
    eprintln!("0.75: {} {:?} {}", r.order, r.p_portion, r.presentation);
    let r = run("0.77", 30).report();
    eprintln!("0.77: {} {:?} {}", r.order, r.p_portion, r.presentation);
}

#[test]
fn dawsons_kayles_q30_has_order_360() {
    let r = run("0.07", 30).report();
    eprintln!(
        "0.07: {} {} {} changes {:?}",
        r.order, r.p_portion_size, r.presentation, r.presentation_changes
    );
    assert_eq!((r.order, r.p_portion_size), (360, 65));
}
