//! Cram and Chomp through the real binary: values, outcomes, winning moves as moves, --json,
//! boards from files, memory budgets, bad input.

mod common;
use common::{bad_input, grundy, json};
use serde_json::json as j;

/// Apply a domino to a board drawn as text.
fn after_domino(board: &[Vec<char>], cells: &serde_json::Value) -> String {
    let mut b = board.to_vec();
    for cell in cells.as_array().unwrap() {
        let (r, c) = (
            cell[0].as_u64().unwrap() as usize,
            cell[1].as_u64().unwrap() as usize,
        );
        assert_eq!(b[r][c], '.', "the domino covers an empty cell");
        b[r][c] = '#';
    }
    b.iter()
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect()
}

#[test]
fn cram_rectangles_values_and_theorem() {
    let v = json(&["cram", "3x4"]);
    assert_eq!(v["grundy_value"], 1);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["symmetric"], false);
    let v = json(&["cram", "5x5"]);
    assert_eq!(v["grundy_value"], 0);
    assert_eq!(v["winning_moves"], j!([]));
    // Even x even: the symmetry theorem, no search.
    let v = json(&["cram", "6x8"]);
    assert_eq!(
        (v["grundy_value"].clone(), v["symmetric"].clone()),
        (j!(0), j!(true))
    );
    assert_eq!(v["search"]["nodes"], 0);
    let text = grundy().args(["cram", "4x4"]).output().unwrap().stdout;
    assert!(String::from_utf8(text)
        .unwrap()
        .contains("by the symmetry theorem"));
}

#[test]
fn no_moves_skips_the_winning_moves_and_says_so() {
    let v = json(&["cram", "3x4", "--no-moves"]);
    assert_eq!(v["grundy_value"], 1);
    assert_eq!(v["winning_moves"], serde_json::Value::Null);
    let v = json(&["chomp", "5x5", "--no-moves"]);
    assert_eq!(
        (v["outcome"].clone(), v["winning_moves"].clone()),
        (j!("N"), serde_json::Value::Null)
    );
    let text = grundy()
        .args(["cram", "3x4", "--no-moves"])
        .output()
        .unwrap()
        .stdout;
    assert!(String::from_utf8(text)
        .unwrap()
        .contains("winning moves: not listed (--no-moves)"));
}

#[test]
fn cram_winning_moves_lead_to_p_positions() {
    let dir = tempfile::tempdir().unwrap();
    let board: Vec<Vec<char>> = ["...#", "....", "...."]
        .iter()
        .map(|r| r.chars().collect())
        .collect();
    let path = dir.path().join("board.txt");
    std::fs::write(&path, after_domino(&board, &j!([]))).unwrap();
    let v = json(&["cram", "--board", path.to_str().unwrap()]);
    assert_eq!(v["outcome"], "N");
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        let next = dir.path().join("next.txt");
        std::fs::write(&next, after_domino(&board, &m["cells"])).unwrap();
        let w = json(&["cram", "--board", next.to_str().unwrap(), "--outcome-only"]);
        assert_eq!(w["outcome"], "P", "{m}");
        assert_eq!(w["grundy_value"], serde_json::Value::Null);
    }
}

#[test]
fn chomp_rectangles_are_n_and_squares_win_by_biting_1_1() {
    for (size, value) in [("2x2", 2), ("3x3", 5), ("6x6", 13), ("4x7", 19)] {
        let v = json(&["chomp", size]);
        assert_eq!(v["grundy_value"], value, "{size}");
        assert_eq!(v["outcome"], "N");
    }
    let v = json(&["chomp", "5x5"]);
    assert_eq!(v["winning_moves"], j!([{"row": 1, "col": 1}]));
    // The L left by that bite is a P-position.
    let v = json(&["chomp", "--shape", "5,1,1,1,1"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["squares"], 9);
    let v = json(&["chomp", "1x1"]);
    assert_eq!(
        (v["grundy_value"].clone(), v["outcome"].clone()),
        (j!(0), j!("P"))
    );
}

#[test]
fn a_tiny_memory_budget_replaces_entries_and_gives_the_same_answer() {
    let roomy = json(&["cram", "4x5"]);
    let tight = json(&["cram", "4x5", "--memory", "4K"]);
    assert_eq!(roomy["grundy_value"], tight["grundy_value"]);
    assert_eq!(roomy["winning_moves"], tight["winning_moves"]);
    assert!(tight["search"]["table_bytes"].as_u64().unwrap() <= 4096);
    assert!(tight["search"]["positions_replaced"].as_u64().unwrap() > 0);
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    bad_input(&["cram", "9x9"], "64 cells");
    bad_input(&["cram", "3by4"], "ROWSxCOLS");
    bad_input(&["cram", "0x4"], "64 cells");
    bad_input(
        &["cram", "--board", "/nonexistent/board.txt"],
        "cannot read",
    );
    bad_input(&["cram", "3x4", "--memory", "lots"], "--memory");
    bad_input(&["cram", "3x4", "--memory", "1"], "out of range");
    bad_input(&["chomp", "40x40"], "at most 64");
    bad_input(&["chomp", "--shape", "3,4"], "must not increase");
    bad_input(&["chomp", "--shape", "3,x"], "row length");
    bad_input(&["chomp", "--shape", "3,0"], "no empty rows");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, "..\n.o\n").unwrap();
    bad_input(&["cram", "--board", path.to_str().unwrap()], "'o'");
    std::fs::write(&path, "\n\n").unwrap();
    bad_input(&["cram", "--board", path.to_str().unwrap()], "empty");
}
