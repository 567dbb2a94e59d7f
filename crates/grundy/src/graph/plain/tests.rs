use super::*;
use crate::games::nim;
use crate::games::welter::Welter;
use crate::graph::explore;
use crate::young::{self, HookRemoval, Partition};
use rustc_hash::FxHashMap;

fn graph(json: &str) -> GameGraph {
    GameGraph::from_json(json).unwrap()
}

fn violation(g: &GameGraph) -> Option<Violation> {
    check_axioms(g, DEFAULT_STEP_LIMIT).unwrap()
}

/// Every plain-game statement of §6 on the principal game `⟨λ⟩` of the hook-removal game.
fn check_young(lambda: &Partition) {
    let g = explore(&HookRemoval::any_hook(), lambda, 100_000).unwrap();
    assert_eq!(violation(&g), None, "{lambda} should be plain");
    assert_eq!(check_proposition_4(&g), None, "{lambda}: Proposition 4");
    let by_name: FxHashMap<&str, usize> = (0..g.len()).map(|i| (g.name(i), i)).collect();

    // The diagram Y_λ is the Young diagram: one cell per box, H_λ(x) has the box's hook length.
    let d = diagram(&g, g.root());
    assert_eq!(d.cells.len() as u64, lambda.boxes());
    for (i, row) in lambda.hook_lengths().iter().enumerate() {
        for (j, &h) in row.iter().enumerate() {
            let x = lambda.remove_hook(i, j as u64).unwrap();
            let k = d.cells.iter().position(|&c| g.name(c) == x.to_string());
            let k = k.unwrap_or_else(|| panic!("{x} is not a cell of Y_{lambda}"));
            assert_eq!(
                d.hooks[k].len() as u64,
                h,
                "{lambda}: hook of box ({i}, {j})"
            );
        }
    }
    // Theorem 5 (i): the diagram is itself plain.
    if let Some(y) = &d.game {
        assert_eq!(violation(y), None, "Y_{lambda} should be plain");
    }

    // φ₂ removes exactly the hooks of even length (Prop. 5's game), and it is plain.
    let phi2 = phi_r(&g, 2);
    assert_eq!(violation(&phi2), None, "phi_2 of {lambda} should be plain");
    let even = HookRemoval::hooks_divisible_by(2);
    for p in 0..g.len() {
        let mut from_graph: Vec<&str> = phi2.options_of(p).iter().map(|&x| g.name(x)).collect();
        let position = by_name_partition(g.name(p));
        let mut from_rules: Vec<String> = crate::Game::options_vec(&even, &position)
            .iter()
            .map(|x| x.to_string())
            .collect();
        from_graph.sort_unstable();
        from_rules.sort_unstable();
        assert_eq!(from_graph, from_rules, "phi_2 at {position}");
    }

    // Prop. 5 for r = 3: φ₃ is plain, and p³ (the unique terminal of ⟨p⟩₃) is the 3-core.
    let phi3 = phi_r(&g, 3);
    assert_eq!(violation(&phi3), None, "phi_3 of {lambda} should be plain");
    for (p, t) in unique_terminals(&phi3).into_iter().enumerate() {
        let position = by_name_partition(g.name(p));
        let core = young::core(&position, 3).unwrap().to_string();
        assert_eq!(t, Some(by_name[core.as_str()]), "3-core of {position}");
    }

    // Theorem 5 at every node, and p² is the 2-core.
    for t in theorem_5(&g) {
        assert!(
            t.holds,
            "{lambda}: Theorem 5 at {}: {t:?}",
            g.name(t.position)
        );
        let position = by_name_partition(g.name(t.position));
        let core = young::core(&position, 2).unwrap().to_string();
        assert_eq!(t.core, Some(by_name[core.as_str()]), "2-core of {position}");
    }
}

/// Parse a node name "[3, 2, 1]" back into a partition.
fn by_name_partition(name: &str) -> Partition {
    let inner = name.trim_start_matches('[').trim_end_matches(']');
    let parts = inner
        .split(", ")
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    Partition::new(parts).unwrap()
}

#[test]
fn the_young_diagram_game_is_plain_and_theorem_5_holds() {
    for n in 0..=7 {
        for lambda in Partition::all_of(n) {
            check_young(&lambda);
        }
    }
    check_young(&Partition::new(vec![4, 3, 2, 1]).unwrap());
    check_young(&Partition::new(vec![5, 3, 3, 1]).unwrap());
}

#[test]
fn the_welter_game_and_nim_are_plain() {
    for coins in [
        vec![1u64, 4, 6],
        vec![2, 3, 7],
        vec![0, 5, 6, 9],
        vec![1, 4, 7, 8],
    ] {
        let g = explore(&Welter, &coins, 100_000).unwrap();
        assert_eq!(violation(&g), None, "{coins:?}");
        assert_eq!(check_proposition_4(&g), None);
        assert!(theorem_5(&g).iter().all(|t| t.holds), "{coins:?}");
    }
    // Theorem 5 also generalises the corollary of Theorem 1: a Nim heap is plain, and so is
    // a sum of heaps (Prop. 2), played as a tuple (heaps in place, not sorted).
    struct HeapTuple;
    impl crate::Game for HeapTuple {
        type Position = Vec<u64>;
        fn options(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
            for i in 0..p.len() {
                for smaller in 0..p[i] {
                    let mut q = p.clone();
                    q[i] = smaller;
                    out.push(q);
                }
            }
        }
    }
    let g = explore(&HeapTuple, &vec![2, 3, 5], 100_000).unwrap();
    assert_eq!(violation(&g), None);
    assert!(theorem_5(&g).iter().all(|t| t.holds));
    // Sorting the heaps identifies positions, and that game is not plain.
    let sorted = explore(&nim::nim(), &vec![2, 3, 5], 100_000).unwrap();
    assert_eq!(violation(&sorted).map(|v| v.axiom), Some(Axiom::PG1));
}

#[test]
fn two_terminal_options_break_pg1() {
    let g = graph(r#"{"nodes":[{"id":"a","options":["b","c"]},{"id":"b"},{"id":"c"}]}"#);
    let v = violation(&g).unwrap();
    assert_eq!(v.axiom, Axiom::PG1);
    assert_eq!(v.nodes, vec![0, 1, 2]);
    assert!(
        v.description.contains("no 2-dimensional cubes"),
        "{}",
        v.description
    );
    // Theorem 5 fails there too: a² is not unique.
    let t = &theorem_5(&g)[0];
    assert_eq!(t.core, None);
    assert!(!t.holds);
}

#[test]
fn a_subtraction_game_breaks_pg2() {
    // Subtraction set {1, 2} from a heap of 3: 3 -> 2 -> 0 but 0 is not an option of 3, and
    // the only other option of 3 (1) is an option of 2.
    let g = graph(
        r#"{"nodes":[{"id":"3","options":["2","1"]},{"id":"2","options":["1","0"]},
            {"id":"1","options":["0"]},{"id":"0"}]}"#,
    );
    let v = violation(&g).unwrap();
    assert_eq!(v.axiom, Axiom::PG2);
    assert_eq!(v.nodes, vec![0, 1, 3]);
}

#[test]
fn two_squares_on_one_move_break_pg3() {
    // PG1 and PG2 hold, but {1,0,3,2} and {1,0,4,2} are squares on the move 1 -> 0 with 4 -> 3,
    // and {3, 4, 2, 2} is not a square. Theorem 5 fails at 4 as well.
    let g = graph(
        r#"{"root":"4","nodes":[{"id":"0"},{"id":"1","options":["0"]},{"id":"2","options":["0"]},
            {"id":"3","options":["1","2"]},{"id":"4","options":["1","2","3"]}]}"#,
    );
    let v = violation(&g).unwrap();
    assert_eq!(v.axiom, Axiom::PG3);
    assert_eq!(v.nodes, vec![1, 0, 3, 2, 4, 2]);
    assert!(!theorem_5(&g)[4].holds);
}

#[test]
fn two_squares_sharing_a_corner_are_plain() {
    // The example of the module doc: the reason PG3's letters are read with a placement.
    let g = graph(
        r#"{"nodes":[{"id":"a","options":["c","d"]},{"id":"b","options":["c","d"]},
            {"id":"c","options":["e"]},{"id":"d","options":["e"]},{"id":"e"}]}"#,
    );
    assert_eq!(violation(&g), None);
}

#[test]
fn a_cube_needs_exactly_one_filling() {
    // Start p with three unrelated options and their pairwise squares, but no common end:
    // PG1 for n = 2 holds, n = 3 fails.
    let g = graph(
        r#"{"nodes":[{"id":"p","options":["a","b","c"]},
            {"id":"a","options":["ab","ac"]},{"id":"b","options":["ab","bc"]},{"id":"c","options":["ac","bc"]},
            {"id":"ab","options":["x"]},{"id":"ac","options":["y"]},{"id":"bc","options":["z"]},
            {"id":"x"},{"id":"y"},{"id":"z"}]}"#,
    );
    let v = violation(&g).unwrap();
    assert_eq!(v.axiom, Axiom::PG1);
    assert_eq!(v.nodes.len(), 4, "{}", v.description);
    assert!(v.description.contains("3-dimensional"), "{}", v.description);
    // With a common end it is a 3-cube (the sum of three 1-cubes), which is plain.
    let cube = graph(
        r#"{"nodes":[{"id":"p","options":["a","b","c"]},
            {"id":"a","options":["ab","ac"]},{"id":"b","options":["ab","bc"]},{"id":"c","options":["ac","bc"]},
            {"id":"ab","options":["e"]},{"id":"ac","options":["e"]},{"id":"bc","options":["e"]},
            {"id":"e"}]}"#,
    );
    assert_eq!(violation(&cube), None);
    assert!(theorem_5(&cube).iter().all(|t| t.holds));
}

#[test]
fn the_step_limit_is_enforced() {
    let g = explore(
        &HookRemoval::any_hook(),
        &Partition::new(vec![4, 3, 2, 1]).unwrap(),
        1000,
    )
    .unwrap();
    assert!(matches!(
        check_axioms(&g, 10),
        Err(crate::Error::TooLarge(_))
    ));
}

#[test]
fn hooks_and_subgames() {
    let g = graph(
        r#"{"nodes":[{"id":"p","options":["a","b","c"]},{"id":"a","options":["b","c"]},
            {"id":"b","options":["c"]},{"id":"c"}]}"#,
    );
    let d = diagram(&g, 0);
    assert_eq!(d.cells, vec![1, 2, 3]);
    assert_eq!(d.hooks, vec![vec![1], vec![2, 1], vec![3, 1, 2]]);
    assert_eq!(d.game.unwrap().len(), 3);
    assert!(diagram(&g, 3).game.is_none());
    assert_eq!(unique_terminals(&g), vec![Some(3); 4]);
}
