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
    assert!(t.contains("illegal move: type two numbers"), "{t}");
    let t = play(&["subtraction", "--set", "1,3,4", "10"], "0 -2\nquit\n");
    assert!(t.contains("taking 2 is not allowed"), "{t}");
    let t = play(&["wythoff", "4", "8"], "3 6\nhint\nquit\n");
    assert!(t.contains("illegal move"), "{t}");
    assert!(t.contains("suggested move: 4 7"), "{t}");
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
        "hint\n0 2 2\n",
    );
    assert!(t.contains("a 2-position"), "{t}");
    assert!(t.contains("suggested move: 0 2 2"), "{t}");
    assert!(t.contains("player 1 (engine) plays"), "{t}");
    let t = play(&["multiplayer", "--players", "3", "1"], "0\n");
    assert!(
        t.contains("Player 1 cannot move: the last mover is you."),
        "{t}"
    );
    let t = play(&["multiplayer", "--players", "3", "3"], "5\nquit\n");
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
        t.contains("suggested move: 1 3 6 (to a position of value 0)"),
        "{t}"
    );
    // Kayles from 5: the engine splits into 2 + 2 (value 0), a move that leaves two heaps.
    let t = play(
        &["takebreak:kayles", "5", "--first", "engine"],
        "1 3\nquit\n",
    );
    assert!(
        t.contains("engine plays 2 2: to a position of value 0"),
        "{t}"
    );
    assert!(
        t.contains("illegal move: '1 3' cannot be reached in one move from '2 2'"),
        "{t}"
    );
    let t = play(&["takebreak:0.07", "2"], "(no heaps)\n");
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
