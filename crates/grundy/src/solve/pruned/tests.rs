//! The pruned engine against the plain evaluator on random games with components.

use super::PrunedSolver;
use crate::{Error, Game, NormalPlay};
use proptest::prelude::*;

/// A random finite game: position `i`'s options are smaller positions; some positions are
/// declared sums of two others (with exactly the options of the sum).
#[derive(Debug, Clone)]
struct RandomGame {
    options: Vec<Vec<usize>>,
    split: Vec<Option<Vec<usize>>>,
}

impl Game for RandomGame {
    type Position = usize;
    fn options(&self, p: &usize, out: &mut Vec<usize>) {
        out.extend(self.options[*p].iter().copied());
    }
    fn components(&self, p: &usize) -> Option<Vec<usize>> {
        self.split[*p].clone()
    }
}

/// Random games in which every declared sum really is the sum of its parts: the split
/// position's options are exactly the declared positions `a' + b` / `a + b'`.
fn arb_game() -> impl Strategy<Value = RandomGame> {
    (2usize..40, any::<u64>()).prop_map(|(n, seed)| {
        let mut rng = seed | 1;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut options: Vec<Vec<usize>> = Vec::new();
        let mut split: Vec<Option<Vec<usize>>> = Vec::new();
        for i in 0..n {
            let opts: Vec<usize> = (0..i).filter(|_| next() % 3 == 0).collect();
            options.push(opts);
            split.push(None);
        }
        // Add sums of two existing simple positions: their options are sums too, so build
        // them recursively as new positions (memoised by the pair).
        let mut pairs = std::collections::HashMap::new();
        fn sum(
            a: usize,
            b: usize,
            options: &mut Vec<Vec<usize>>,
            split: &mut Vec<Option<Vec<usize>>>,
            pairs: &mut std::collections::HashMap<(usize, usize), usize>,
        ) -> usize {
            if let Some(&s) = pairs.get(&(a, b)) {
                return s;
            }
            let mut opts = Vec::new();
            for a2 in options[a].clone() {
                opts.push(sum(a2, b, options, split, pairs));
            }
            for b2 in options[b].clone() {
                opts.push(sum(a, b2, options, split, pairs));
            }
            let s = options.len();
            options.push(opts);
            split.push(Some(vec![a, b]));
            pairs.insert((a, b), s);
            s
        }
        let simple = n;
        for _ in 0..3 {
            let a = (next() as usize) % simple;
            let b = (next() as usize) % simple;
            if options[a].len() + options[b].len() < 12 {
                sum(a, b, &mut options, &mut split, &mut pairs);
            }
        }
        RandomGame { options, split }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn pruned_answers_equal_the_plain_evaluator(game in arb_game(), budget in 0usize..3, mex in any::<bool>()) {
        let mut plain = NormalPlay::new(game.clone());
        // Budget 0 is a tiny table that must replace entries all the time.
        let bytes = [256, 4096, 1 << 20][budget];
        let method = if mex { super::ValueMethod::Mex } else { super::ValueMethod::Queries };
        let mut pruned = PrunedSolver::with_memory(game.clone(), bytes).with_value_method(method);
        for p in 0..game.options.len() {
            let v = plain.grundy_value(&p).unwrap();
            prop_assert_eq!(pruned.grundy_value(&p).unwrap(), v);
            prop_assert_eq!(pruned.outcome(&p).unwrap(), crate::Outcome::from_value(v));
        }
        // Queries in a fresh engine, so they are answered by pruned search, not the table.
        for p in 0..game.options.len() {
            let v = plain.grundy_value(&p).unwrap();
            for t in 0..=v + 1 {
                let mut fresh = PrunedSolver::with_memory(game.clone(), bytes);
                prop_assert_eq!(fresh.has_value(&p, t).unwrap(), t == v, "position {} target {}", p, t);
            }
        }
    }

    /// The set query itself: an exact answer is the value; "not in the set" is true; a value
    /// in the set is always found. Fresh engines, shared engines and tiny tables alike.
    #[test]
    fn set_queries_answer_exactly_or_rightly_refuse(
        game in arb_game(),
        sets in proptest::collection::vec(0u64..1 << 10, 1..6),
        tiny in any::<bool>(),
    ) {
        let mut plain = NormalPlay::new(game.clone());
        let bytes = if tiny { 256 } else { 1 << 20 };
        let mut shared = PrunedSolver::with_memory(game.clone(), bytes);
        for p in 0..game.options.len() {
            let v = plain.grundy_value(&p).unwrap();
            for &bits in &sets {
                let mut want = super::NimSet::EMPTY;
                (0..10).filter(|i| bits >> i & 1 == 1).for_each(|i| want.insert(i));
                let mut fresh = PrunedSolver::with_memory(game.clone(), bytes);
                for solver in [&mut fresh, &mut shared] {
                    let parts = solver.flatten(&p).unwrap();
                    match solver.sum_in(&parts, want, 0).unwrap() {
                        Some(x) => prop_assert_eq!(x, v, "position {} set {:b}", p, bits),
                        None => prop_assert!(!want.contains(v), "position {} set {:b}", p, bits),
                    }
                }
            }
        }
    }
}

/// A game whose `components()` returns the position itself.
struct SelfSplit;
impl Game for SelfSplit {
    type Position = u32;
    fn options(&self, p: &u32, out: &mut Vec<u32>) {
        out.extend(0..*p);
    }
    fn components(&self, p: &u32) -> Option<Vec<u32>> {
        (*p == 3).then(|| vec![1, 3])
    }
}

/// A game whose parts split back into the position.
struct SplitBack;
impl Game for SplitBack {
    type Position = u32;
    fn options(&self, p: &u32, out: &mut Vec<u32>) {
        out.extend(0..*p);
    }
    fn components(&self, p: &u32) -> Option<Vec<u32>> {
        match *p {
            5 => Some(vec![6, 1]),
            6 => Some(vec![5, 1]),
            _ => None,
        }
    }
}

fn names_components(e: Error) -> bool {
    matches!(&e, Error::Invalid(m) if m.contains("components()"))
}

#[test]
fn a_part_equal_to_the_position_is_blamed_on_components_not_a_loop() {
    for solver_result in [
        NormalPlay::new(SelfSplit).grundy_value(&3),
        NormalPlay::new(SelfSplit).grundy_value(&4),
        PrunedSolver::new(SelfSplit).grundy_value(&3),
        PrunedSolver::new(SelfSplit).grundy_value(&4),
        NormalPlay::new(SplitBack).grundy_value(&5),
        PrunedSolver::new(SplitBack).grundy_value(&5),
    ] {
        let e = solver_result.unwrap_err();
        assert!(names_components(e.clone()), "{e}");
    }
}

#[test]
fn sums_are_never_stored() {
    // Position 10 splits into 3 + 4; only components enter either table.
    struct Split;
    impl Game for Split {
        type Position = u32;
        fn options(&self, p: &u32, out: &mut Vec<u32>) {
            out.extend(0..*p);
        }
        fn components(&self, p: &u32) -> Option<Vec<u32>> {
            (*p >= 10).then(|| vec![p - 7, p - 6])
        }
    }
    let mut plain = NormalPlay::new(Split);
    assert_eq!(plain.grundy_value(&10).unwrap(), 3 ^ 4);
    assert_eq!(plain.positions_evaluated(), 5); // 0..=4, not 10
    let mut pruned = PrunedSolver::new(Split);
    assert_eq!(pruned.grundy_value(&10).unwrap(), 3 ^ 4);
    assert!(pruned.stats().stored <= 5);
}

#[test]
fn a_loop_is_refused_not_followed_forever() {
    struct Loop;
    impl Game for Loop {
        type Position = u32;
        fn options(&self, p: &u32, out: &mut Vec<u32>) {
            out.push((p + 1) % 3);
        }
    }
    assert!(matches!(
        PrunedSolver::new(Loop).grundy_value(&0),
        Err(Error::TooLarge(_))
    ));
}
