//! The user's game checked as a user would check theirs: the library's answers against values
//! written out by hand, both engines against each other, and the graph file the command line
//! reads against the game itself.

use grundy::graph::{explore, GameGraph};
use grundy::solve::PrunedSolver;
use grundy::NormalPlay;
use my_game::{values_by_hand, SquareTake};

#[test]
fn one_heap_matches_the_definition() {
    let by_hand = values_by_hand(300);
    // subtract-a-square starts 0 1 0 1 2 0 1 0 1 2 (heaps 0..=9)
    assert_eq!(&by_hand[..10], &[0, 1, 0, 1, 2, 0, 1, 0, 1, 2]);
    let mut solver = NormalPlay::new(SquareTake);
    for (h, &v) in by_hand.iter().enumerate() {
        assert_eq!(solver.grundy_value(&vec![h as u64]).unwrap(), v, "heap {h}");
    }
}

#[test]
fn several_heaps_are_the_xor_and_both_engines_agree() {
    let by_hand = values_by_hand(60);
    let mut plain = NormalPlay::new(SquareTake);
    let mut pruned = PrunedSolver::new(SquareTake);
    for a in 0..30u64 {
        for b in (0..60u64).step_by(7) {
            let heaps = vec![a, b, 5];
            let xor = by_hand[a as usize] ^ by_hand[b as usize] ^ by_hand[5];
            assert_eq!(plain.grundy_value(&heaps).unwrap(), xor, "{heaps:?}");
            assert_eq!(pruned.grundy_value(&heaps).unwrap(), xor, "{heaps:?}");
        }
    }
    // a winning move leads to a position of value 0
    for to in plain.winning_moves(&vec![10, 7, 3]).unwrap() {
        assert_eq!(plain.grundy_value(&to).unwrap(), 0, "{to:?}");
    }
}

#[test]
fn the_graph_file_has_the_games_values() {
    let start = vec![6u64, 4];
    let graph = explore(&SquareTake, &start, 10_000).unwrap();
    let text = serde_json::to_string(&graph.to_spec()).unwrap();
    let read = GameGraph::from_json(&text).unwrap();
    let mut solver = NormalPlay::new(SquareTake);
    assert_eq!(
        read.grundy_values()[read.root()],
        solver.grundy_value(&start).unwrap()
    );
}

#[test]
fn the_program_prints_the_value_and_writes_the_graph() {
    let dir = std::env::temp_dir().join(format!("my-game-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_my-game"))
        .args(["10", "7", "3", "--graph", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("heaps [10, 7, 3]: grundy value "),
        "{text}"
    );
    assert!(text.contains("wrote the game graph"), "{text}");
    assert!(GameGraph::from_json(&std::fs::read_to_string(&file).unwrap()).is_ok());
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_my-game"))
        .arg("x")
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_graph_file_in_the_docs_is_current() {
    // docs/own-game.md shows `grundy graph` on this file: `my-game 6 4 --graph FILE` writes it
    let graph = explore(&SquareTake, &vec![6, 4], 10_000).unwrap();
    let text = serde_json::to_string_pretty(&graph.to_spec()).unwrap() + "\n";
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/examples/square-take-6-4.json"
    );
    assert_eq!(std::fs::read_to_string(file).unwrap(), text);
}
