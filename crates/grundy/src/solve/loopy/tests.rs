//! γ against independent checks: a plain retrograde P/N/D analysis, the defining conditions
//! (A), (B), (C) themselves, the sum rule against the product graph, and the strategies played
//! against every reply.

use super::*;
use proptest::prelude::*;

fn csr(lists: &[Vec<usize>]) -> Csr {
    Csr::from_lists(lists).unwrap()
}

/// Plain retrograde analysis to a fixpoint: terminal = P; a P-option makes N; all options N makes
/// P; whatever is left is a draw.
fn retrograde(lists: &[Vec<usize>]) -> Vec<LoopyOutcome> {
    let n = lists.len();
    let mut out: Vec<Option<LoopyOutcome>> = vec![None; n];
    loop {
        let mut changed = false;
        for u in 0..n {
            if out[u].is_some() {
                continue;
            }
            if lists[u].iter().any(|&v| out[v] == Some(LoopyOutcome::P)) {
                out[u] = Some(LoopyOutcome::N);
                changed = true;
            } else if lists[u].iter().all(|&v| out[v] == Some(LoopyOutcome::N)) {
                out[u] = Some(LoopyOutcome::P);
                changed = true;
            }
        }
        if !changed {
            return out
                .into_iter()
                .map(|o| o.unwrap_or(LoopyOutcome::D))
                .collect();
        }
    }
}

fn mex_of(values: impl Iterator<Item = u64>) -> u64 {
    let v: Vec<u64> = values.collect();
    (0..).find(|x| !v.contains(x)).unwrap()
}

/// Conditions (A), (B) with the rank as counter, and (C), checked literally.
fn check_conditions(lists: &[Vec<usize>], a: &Analysis) {
    for (u, opts) in lists.iter().enumerate() {
        let finite = || opts.iter().filter_map(|&v| a.finite_value(v));
        match a.finite_value(u) {
            Some(g) => {
                assert_eq!(g, mex_of(finite()), "(A) at {u}");
                for &v in opts {
                    if a.finite_value(v).is_none_or(|h| h > g) {
                        assert!(
                            lists[v]
                                .iter()
                                .any(|&w| a.finite_value(w) == Some(g) && a.rank(w) < a.rank(u)),
                            "(B) at {u} -> {v}"
                        );
                    }
                }
            }
            None => {
                let m = mex_of(finite());
                assert!(
                    opts.iter().any(|&v| a.finite_value(v).is_none()
                        && !lists[v].iter().any(|&w| a.finite_value(w) == Some(m))),
                    "(C) at {u}"
                );
            }
        }
    }
}

/// The sum graph: node (a, b) is a * nb + b; a move changes exactly one component.
fn product(x: &[Vec<usize>], y: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let nb = y.len();
    let mut lists = Vec::with_capacity(x.len() * nb);
    for (a, xa) in x.iter().enumerate() {
        for (b, yb) in y.iter().enumerate() {
            let mut o: Vec<usize> = xa.iter().map(|&a2| a2 * nb + b).collect();
            o.extend(yb.iter().map(|&b2| a * nb + b2));
            lists.push(o);
        }
    }
    lists
}

/// The engine plays `best_move` as the winner from `start` (an N-position, engine to move) against
/// every possible reply: it must always win, within `wins_within(start)` moves.
fn check_win(a: &Analysis, start: usize) {
    let bound = a.wins_within(start).unwrap();
    // Depth-first over the opponent's replies; positions with the engine to move.
    let mut stack = vec![(start, 0u64)];
    while let Some((u, played)) = stack.pop() {
        assert_eq!(
            a.outcome(u),
            LoopyOutcome::N,
            "engine to move at a lost position"
        );
        let v = a.best_move(u).unwrap();
        let played = played + 1;
        let replies: Vec<usize> = a.graph().options(v).collect();
        if replies.is_empty() {
            assert!(played <= bound, "won in {played} moves, bound {bound}");
        }
        for w in replies {
            assert!(played + 1 < bound, "the game outlasts its bound {bound}");
            stack.push((w, played + 1));
        }
    }
}

/// From a D-position the engine keeps the draw against every reply: it is never to move at a
/// P-position (so it never loses), visiting each reachable position once.
fn check_draw(a: &Analysis, start: usize) {
    let mut seen = vec![false; a.len()];
    let mut stack = vec![start];
    while let Some(u) = stack.pop() {
        if std::mem::replace(&mut seen[u], true) {
            continue;
        }
        assert_ne!(
            a.outcome(u),
            LoopyOutcome::P,
            "the engine lost a drawn game"
        );
        if a.outcome(u) == LoopyOutcome::N {
            continue; // the opponent blundered: check_win covers N-positions
        }
        let v = a.best_move(u).expect("a D-position has a move");
        assert_eq!(a.outcome(v), LoopyOutcome::D);
        stack.extend(a.graph().options(v));
    }
}

fn check_all(lists: &[Vec<usize>]) {
    let g = csr(lists);
    let a = analyse(&g);
    let expected = retrograde(lists);
    for (u, &want) in expected.iter().enumerate() {
        assert_eq!(a.outcome(u), want, "outcome of node {u} in {lists:?}");
        assert_eq!(a.value(u).outcome(), want);
        match want {
            LoopyOutcome::N => check_win(&a, u),
            LoopyOutcome::D => check_draw(&a, u),
            LoopyOutcome::P => {}
        }
    }
    check_conditions(lists, &a);
}

fn random_graph() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (1usize..12)
        .prop_flat_map(|n| proptest::collection::vec(proptest::collection::vec(0..n, 0..4), n))
}

#[test]
fn small_examples() {
    // A self-loop alone: a draw with no finite option.
    let g = csr(&[vec![0]]);
    assert_eq!(analyse(&g).value(0), LoopyValue::Infinite(vec![]));
    // a <-> b, b -> c: c = 0, b = 1, a = 0 (b's move back to a is reversed through c).
    let g = csr(&[vec![1], vec![0, 2], vec![]]);
    let a = analyse(&g);
    assert_eq!(
        (0..3).map(|u| a.value(u)).collect::<Vec<_>>(),
        vec![
            LoopyValue::Finite(0),
            LoopyValue::Finite(1),
            LoopyValue::Finite(0)
        ]
    );
    assert_eq!(a.wins_within(0), Some(2));
    // a -> a, a -> b (terminal): ∞{0}, N; the only winning move is to b.
    let g = csr(&[vec![0, 1], vec![]]);
    let a = analyse(&g);
    assert_eq!(a.value(0).to_string(), "∞{0}");
    assert_eq!(a.outcome(0), LoopyOutcome::N);
    assert_eq!(
        a.winning_moves(0),
        vec![WinningMoveAlias {
            to: 1,
            wins_within: 1
        }]
    );
}

type WinningMoveAlias = strategy::WinningMove;

#[test]
fn careless_p_option_would_cycle() {
    // 1 is terminal; 2 -> {3, 1}; 3 -> {2}. Both options of 2 are P-positions, but always moving
    // 2 -> 3 lets the opponent answer 3 -> 2 forever. The least-rank choice is the terminal.
    let lists = vec![vec![1, 3], vec![], vec![3, 1], vec![2], vec![0, 2]];
    let g = csr(&lists);
    let a = analyse(&g);
    assert_eq!(a.outcome(3), LoopyOutcome::P);
    let moves: Vec<(usize, u64)> = a
        .winning_moves(2)
        .iter()
        .map(|m| (m.to, m.wins_within))
        .collect();
    assert_eq!(moves, vec![(1, 1), (3, 3)]);
    assert_eq!(a.best_move(2), Some(1));
    check_all(&lists);
}

#[test]
fn every_graph_on_three_nodes() {
    // All 2^9 graphs on 3 nodes (self-loops included).
    for mask in 0u32..512 {
        let lists: Vec<Vec<usize>> = (0..3)
            .map(|u| (0..3).filter(|v| mask >> (3 * u + v) & 1 == 1).collect())
            .collect();
        check_all(&lists);
    }
}

#[test]
fn sums_follow_smith() {
    let f = LoopyValue::Finite;
    assert_eq!(f(3).sum(&f(5)), f(6));
    assert_eq!(
        f(1).sum(&LoopyValue::infinite(vec![0, 2])).to_string(),
        "∞{1,3}"
    );
    assert_eq!(
        LoopyValue::infinite(vec![0]).sum(&LoopyValue::infinite(vec![0])),
        LoopyValue::Infinite(vec![])
    );
    assert_eq!(LoopyValue::sum_all([]), f(0));
    assert_eq!(
        serde_json::to_string(&LoopyValue::infinite(vec![2, 0])).unwrap(),
        r#"{"infinite":true,"k":[0,2]}"#
    );
    assert_eq!(serde_json::to_string(&f(7)).unwrap(), "7");
}

#[test]
fn acyclic_graphs_get_their_grundy_values() {
    // A chain with jumps: values follow the mex rule alone.
    let lists: Vec<Vec<usize>> = (0..50)
        .map(|u| (0..u).filter(|v| (u - v) % 3 != 0).collect())
        .collect();
    let g = csr(&lists);
    assert!(!g.has_cycle());
    let a = analyse(&g);
    let mut values = Vec::new();
    for opts in &lists {
        let v = mex_of(opts.iter().map(|&o: &usize| values[o]));
        values.push(v);
    }
    for (u, &v) in values.iter().enumerate() {
        assert_eq!(a.value(u), LoopyValue::Finite(v));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn random_graphs_match_retrograde_and_conditions(lists in random_graph()) {
        check_all(&lists);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]
    #[test]
    fn sum_values_equal_the_product_graph(x in random_graph(), y in random_graph()) {
        let (gx, gy) = (csr(&x), csr(&y));
        let (ax, ay) = (analyse(&gx), analyse(&gy));
        let lists = product(&x, &y);
        let gp = csr(&lists);
        let ap = analyse(&gp);
        let expected = retrograde(&lists);
        for a in 0..x.len() {
            for b in 0..y.len() {
                let node = a * y.len() + b;
                let sum = sum_value(&[(&ax, a), (&ay, b)]);
                prop_assert_eq!(&ap.value(node), &sum);
                prop_assert_eq!(sum.outcome(), expected[node]);
                // Moves judged from component values lead where the product graph says.
                for m in sum_moves(&[(&ax, a), (&ay, b)]) {
                    let after = if m.component == 0 { m.to * y.len() + b } else { a * y.len() + m.to };
                    prop_assert_eq!(m.outcome_after, expected[after]);
                }
            }
        }
    }
}
