//! `grundy play` driven through standard input, end to end.

mod common;
use common::{bad_input, grundy};

fn play(args: &[&str], input: &str) -> String {
    let out = grundy()
        .arg("play")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn following_the_hints_wins_nim() {
    // From an N-position, always play the hinted move: the engine must lose.
    let mut input = String::new();
    let mut transcript = String::new();
    for _ in 0..20 {
        transcript = play(&["nim", "3", "5", "2"], &input);
        if transcript.contains("you win") {
            break;
        }
        let hint = play(&["nim", "3", "5", "2"], &format!("{input}hint\n"));
        let suggested = hint
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("suggested move: "))
            .unwrap();
        let mv = suggested.split(" (").next().unwrap();
        input.push_str(mv);
        input.push('\n');
    }
    assert!(
        transcript.contains("The engine cannot move: you win!"),
        "{transcript}"
    );
}

#[test]
fn the_engine_wins_from_an_n_position_and_explains() {
    let t = play(&["nim", "1", "2", "--first", "engine"], "0 0\n");
    assert!(
        t.contains("engine plays 1 1: to a position of value 0"),
        "{t}"
    );
    assert!(t.contains("You cannot move: the engine wins."), "{t}");
}

#[test]
fn illegal_moves_are_refused_with_a_reason() {
    let t = play(&["nim", "3", "5"], "1 7\n9 1\nfoo\nquit\n");
    assert!(
        t.contains("illegal move: heap 1 has 5 tokens; a move must make it smaller"),
        "{t}"
    );
    assert!(t.contains("illegal move: there is no heap 9"), "{t}");
    assert!(
        t.contains("illegal move: type the heap's number and what it becomes"),
        "{t}"
    );
    let t = play(&["subtraction", "--set", "1,3,4", "10"], "0 -2\nquit\n");
    assert!(t.contains("taking 2 is not allowed"), "{t}");
    let t = play(&["wythoff", "4", "8"], "3 6\nhint\nquit\n");
    assert!(t.contains("illegal move"), "{t}");
    // Wythoff moves are typed like Nim's (heap 1 becomes 7), or 'both -K'
    assert!(t.contains("suggested move: 1 7"), "{t}");
    let t = play(&["wythoff", "3", "4"], "both -2\nquit\n");
    assert!(t.contains("heaps: [0]=1  [1]=2"), "{t}");
}

#[test]
fn bad_play_arguments() {
    bad_input(&["play", "chess", "1"], "unknown family");
    bad_input(&["play", "nim"], "no heaps");
    bad_input(&["play", "subtraction", "5"], "--set");
}

#[test]
fn multiplayer_engines_fill_the_other_seats() {
    // GAMES(0,1,2) on (2,2,2) is a 2-position (paper §5): with everyone following the
    // engine's choices the last mover is player 2.
    let t = play(
        &["multiplayer", "--players", "3", "2", "2", "2"],
        "hint\n0 0\n",
    );
    assert!(t.contains("a 2-position"), "{t}");
    assert!(t.contains("suggested move: 0 0"), "{t}");
    assert!(t.contains("player 1 (engine) plays"), "{t}");
    let t = play(&["multiplayer", "--players", "3", "1"], "0 0\n");
    assert!(
        t.contains("Player 1 cannot move: the last mover is you."),
        "{t}"
    );
    let t = play(&["multiplayer", "--players", "3", "3"], "0 5\n= 5\nquit\n");
    assert!(
        t.contains("illegal move: heap 0 (3) cannot become 5 in one move"),
        "{t}"
    );
    assert!(
        t.contains("illegal move: '5' cannot be reached in one move from '3'"),
        "{t}"
    );
    bad_input(
        &["play", "multiplayer", "--players", "3", "--seat", "3", "1"],
        "--seat 3",
    );
    bad_input(
        &["play", "multiplayer", "--order", "0,0,1", "1"],
        "not a permutation",
    );
}

#[test]
fn registry_games_play_with_values_and_splits() {
    let t = play(&["cdnim", "6", "3", "2"], "hint\n");
    assert!(t.contains("value 1: N-position"), "{t}");
    assert!(
        t.contains("suggested move: 2 1 (to a position of value 0)"),
        "{t}"
    );
    // Kayles from 5: the engine splits into 2 + 2 (value 0), a move that leaves two heaps.
    let t = play(
        &["takebreak:kayles", "5", "--first", "engine"],
        "1 3\nquit\n",
    );
    assert!(
        t.contains("engine plays 0 2 2: to a position of value 0"),
        "{t}"
    );
    assert!(
        t.contains("illegal move: heap 1 (2) cannot become 3 in one move"),
        "{t}"
    );
    let t = play(&["takebreak:0.07", "2"], "= (no heaps)\n");
    assert!(t.contains("The engine cannot move: you win!"), "{t}");
    bad_input(&["play", "takebreak:0.7#", "3"], "'#'");
}

#[test]
fn welter_moves_from_the_formula_and_legality() {
    let t = play(&["welter", "1", "4", "7"], "hint\n7 4\n7 9\n3 2\n4 2\n");
    assert!(t.contains("value 1 (Welter's formula)"), "{t}");
    assert!(
        t.contains("suggested move: 7 6 (to a position of value 0)"),
        "{t}"
    );
    assert!(t.contains("illegal move: square 4 is not empty"), "{t}");
    assert!(t.contains("illegal move: a coin moves left"), "{t}");
    assert!(
        t.contains("illegal move: there is no coin on square 3"),
        "{t}"
    );
    assert!(
        t.contains("engine plays 7 0: to a position of value 0"),
        "{t}"
    );
    assert!(t.contains("You cannot move: the engine wins."), "{t}");
    bad_input(&["play", "welter", "3", "3"], "3");
}

fn report(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--report", "--json"]);
    let out = grundy().args(&all).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn the_report_values_every_option_as_the_families_own_commands_do() {
    // Nim: every option's value is what `grundy nim` says of the position after it.
    let r = report(&["nim", "3", "5", "2"]);
    assert_eq!(r["to_move"], 0);
    assert_eq!(r["best_move"], "1 1");
    let options = r["options"].as_array().unwrap();
    assert_eq!(options.len(), 10);
    for o in options {
        let after: Vec<&str> = o["after"].as_str().unwrap().split(' ').collect();
        let mut args = vec!["nim"];
        args.extend(after);
        let v = common::json(&args);
        assert_eq!(o["value"], v["grundy_value"], "{o}");
        assert_eq!(o["good"], v["grundy_value"] == 0, "{o}");
    }
    assert!(r["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l == "3 ⊕ 5 ⊕ 2 = 4"));
    // Welter: the report after moves agrees with `grundy welter`.
    let r = report(&["welter", "1", "4", "7", "--move", "7 6"]);
    assert_eq!(r["position"], "1 4 6");
    assert_eq!(r["to_move"], 1);
    let v = common::json(&["welter", "1", "4", "6"]);
    assert_eq!(v["grundy_value"], 0);
    assert!(r["evaluation"].as_str().unwrap().starts_with("value 0"));
    // The engine's turn: one move, reported with why.
    let r = report(&["nim", "1", "2", "--engine-turn"]);
    assert_eq!(r["engine_move"]["move"], "1 1");
    assert_eq!(r["moves_played"], 1);
    // Cram and Chomp: the value is the one `grundy cram` / `grundy chomp` find.
    let r = report(&["cram", "3x4"]);
    let v = common::json(&["cram", "3x4"]);
    assert!(
        r["evaluation"]
            .as_str()
            .unwrap()
            .starts_with(&format!("value {}", v["grundy_value"])),
        "{r} {v}"
    );
    let r = report(&["chomp", "3x3", "--move", "1 1"]);
    assert_eq!(r["state"]["rows"], serde_json::json!([3, 1, 1]));
    // A bad move in --move is one line naming it.
    bad_input(
        &["play", "nim", "3", "--move", "0 5", "--report"],
        "--move '0 5' (move 1)",
    );
}

#[test]
fn cram_chomp_undo_random_and_positions_after_the_move() {
    // Cram: a domino by its two cells; '= POSITION' is the board after the move.
    let t = play(&["cram", "2x2"], "hint\n0 0 1 1\n0 0 0 1\n");
    assert!(t.contains("illegal move: cells (0,0) and (1,1)"), "{t}");
    assert!(t.contains("You cannot move: the engine wins."), "{t}");
    let t = play(&["chomp", "1x3", "--first", "engine"], "");
    assert!(
        t.contains("engine plays 0 1: to a position of value 0"),
        "{t}"
    );
    // undo takes back your move and the engine's answer
    let t = play(&["nim", "3", "5", "2"], "0 0\nundo\n1 1\nquit\n");
    assert!(t.contains("undone; back to move 1"), "{t}");
    assert!(t.contains("heaps: [0]=3  [1]=1  [2]=2"), "{t}");
    // a random engine with a seed is reproducible and plays legal moves to the end
    let a = play(
        &[
            "nim", "4", "4", "--first", "engine", "--engine", "random", "--seed", "5",
        ],
        "",
    );
    let b = play(
        &[
            "nim", "4", "4", "--first", "engine", "--engine", "random", "--seed", "5",
        ],
        "",
    );
    assert_eq!(a, b);
    assert!(
        a.contains("engine plays") && a.contains("a random move"),
        "{a}"
    );
    // the position after the move, heaps in any order
    let t = play(&["nim", "3", "5", "2"], "= 2 1 3\nquit\n");
    assert!(t.contains("heaps: [0]=3  [1]=1  [2]=2"), "{t}");
    // subtraction: all but some numbers
    let t = play(
        &["subtraction", "--all-but", "2", "5"],
        "0 -2\n0 -3\nquit\n",
    );
    assert!(t.contains("taking 2 is not allowed"), "{t}");
    assert!(!t.contains("taking 3 is not allowed"), "{t}");
}
