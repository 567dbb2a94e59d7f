//! The foundation commands through the real binary: nim, subtraction, wythoff, graph, verify.

mod common;
use common::{bad_input, grundy, json};
use serde_json::json as j;

#[test]
fn nim_value_outcome_and_winning_moves() {
    let v = json(&["nim", "3", "5", "2"]);
    assert_eq!(v["grundy_value"], 4);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"], j!([{"heap": 1, "from": 5, "to": 1}]));
}

#[test]
fn nim_targets_misere_and_big_heaps() {
    let v = json(&["nim", "3", "5", "2", "--target", "2"]);
    for m in v["moves"].as_array().unwrap() {
        // each move changes one heap; the new nim-sum must be 2
        let mut heaps = [3u64, 5, 2];
        heaps[m["heap"].as_u64().unwrap() as usize] = m["to"].as_u64().unwrap();
        assert_eq!(heaps[0] ^ heaps[1] ^ heaps[2], 2);
    }
    assert!(!v["moves"].as_array().unwrap().is_empty());
    let v = json(&["nim", "3", "5", "2", "--target", "4"]);
    assert_eq!(v["moves"], j!([]));
    assert!(v["reason"]
        .as_str()
        .unwrap()
        .contains("no move keeps the value"));
    assert_eq!(
        json(&["nim", "1", "1", "1", "--misere"])["misere_outcome"],
        "P"
    );
    assert_eq!(json(&["nim", "1", "1", "--misere"])["misere_outcome"], "N");
    let a = "1234567890123456789012345678901234567890";
    let out = grundy().args(["nim", a, a, "--json"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"grundy_value\":0"), "{text}");
    assert!(text.contains(a));
}

#[test]
fn positions_from_a_file_and_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("heaps.txt");
    std::fs::write(&path, "3\n5 2\n").unwrap();
    let v = json(&["nim", "--input", path.to_str().unwrap()]);
    assert_eq!(v["grundy_value"], 4);
    let out = grundy()
        .args(["nim", "--input", "-", "--json"])
        .write_stdin("3 5 2")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["grundy_value"], 4);
}

#[test]
fn subtraction_positions_and_sequences() {
    let v = json(&["subtraction", "--set", "1,3,4", "10", "7"]);
    assert_eq!(v["grundy_value"], 1);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 3);
    let v = json(&["subtraction", "--set", "1,3,4", "--sequence", "13"]);
    assert_eq!(v["values"], j!([0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]));
    let v = json(&["subtraction", "--all-but", "2,5", "--sequence", "8"]);
    assert_eq!(v["values"].as_array().unwrap().len(), 9);
}

#[test]
fn wythoff_formula_and_value() {
    let v = json(&["wythoff", "4", "7"]);
    assert_eq!(v["grundy_value"], 0);
    assert_eq!(v["outcome"], "P");
    let v = json(&["wythoff", "4", "8"]);
    assert_eq!(v["winning_moves"], j!([{"to": [4, 7]}]));
    let v = json(&["wythoff", "100000000000000000000", "5"]);
    assert!(v["grundy_value"].is_null());
    assert_eq!(v["outcome"], "N");
}

#[test]
fn graph_values_misere_and_dot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.json");
    std::fs::write(
        &path,
        r#"{"root":"a","nodes":[{"id":"a","options":["b","c"]},{"id":"b","options":["c"]},{"id":"c","options":[]}]}"#,
    )
    .unwrap();
    let dot = dir.path().join("g.dot");
    let v = json(&[
        "graph",
        path.to_str().unwrap(),
        "--all",
        "--misere",
        "--dot",
        dot.to_str().unwrap(),
    ]);
    assert_eq!(v["grundy_value"], 2);
    assert_eq!(v["winning_moves"], j!(["c"]));
    assert_eq!(v["misere_outcome"], "N");
    assert_eq!(
        v["nodes"][1],
        j!({"id": "b", "grundy_value": 1, "misere_outcome": "P"})
    );
    let text = std::fs::read_to_string(dot).unwrap();
    assert!(text.starts_with("digraph"));
    assert!(text.contains("sg = 2"));
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    bad_input(&["nim", "-3"], "negative");
    bad_input(&["nim", "12x"], "'12x'");
    bad_input(&["nim"], "no heaps");
    bad_input(&["nim", "--input", "/definitely/not/here"], "cannot read");
    bad_input(&["subtraction", "--set", "", "4"], "empty");
    bad_input(&["subtraction", "--set", "0,1", "4"], "positive");
    bad_input(&["wythoff", "1"], "two heaps");
    bad_input(&["nim", "--frobnicate"], "--frobnicate");
    let dir = tempfile::tempdir().unwrap();
    let cyc = dir.path().join("c.json");
    std::fs::write(
        &cyc,
        r#"{"nodes":[{"id":"a","options":["b"]},{"id":"b","options":["a"]}]}"#,
    )
    .unwrap();
    bad_input(&["graph", cyc.to_str().unwrap()], "loop");
    let bad = dir.path().join("b.json");
    std::fs::write(&bad, "{not json").unwrap();
    bad_input(&["graph", bad.to_str().unwrap()], "malformed");
    let unk = dir.path().join("u.json");
    std::fs::write(&unk, r#"{"nodes":[{"id":"a","options":["zz"]}]}"#).unwrap();
    bad_input(&["graph", unk.to_str().unwrap()], "'zz'");
}

#[test]
fn verify_nim_and_tour_run() {
    let v = json(&["verify", "nim", "--heaps", "3", "--max-heap", "10"]);
    assert_eq!(v["holds"], true);
    assert_eq!(v["positions_checked"], 220);
    let v = json(&["tour"]);
    assert!(!v["stops"].as_array().unwrap().is_empty());
}

#[test]
fn argument_errors_keep_the_missing_names_on_one_line() {
    bad_input(&["graph"], "<FILE>");
    bad_input(&["subtraction", "5"], "--set");
}

#[test]
fn every_command_help_says_what_and_gives_an_example() {
    let top = grundy().arg("--help").output().unwrap();
    let top = String::from_utf8(top.stdout).unwrap();
    let names = |text: &str| -> Vec<String> {
        text.lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
            .filter(|n| n != "help")
            .collect()
    };
    let mut commands: Vec<Vec<String>> = names(&top).into_iter().map(|n| vec![n]).collect();
    let verify = grundy().args(["verify", "--help"]).output().unwrap();
    for n in names(&String::from_utf8(verify.stdout).unwrap()) {
        commands.push(vec!["verify".into(), n]);
    }
    assert!(commands.len() >= 15, "{commands:?}");
    for c in commands {
        let out = grundy().args(&c).arg("--help").output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("Example"),
            "`grundy {} --help` has no example:\n{text}",
            c.join(" ")
        );
    }
}

/// Hostile inputs found in review: each must be refused at once with one line and status 2
/// (before: aborts, panics, hangs or silent wrong answers).
#[test]
fn hostile_inputs_are_refused_at_once() {
    let max = "18446744073709551615";
    bad_input(
        &["play", "multiplayer", "--players", "100000000000", "3"],
        "--players",
    );
    bad_input(
        &[
            "play",
            "multiplayer",
            "--players",
            "5",
            "--prefs",
            "0,1,2/1,2,0/2,0,1",
            "3",
        ],
        "--players is 5",
    );
    bad_input(
        &["verify", "nim", "--heaps", "100", "--max-heap", "100"],
        "at most",
    );
    bad_input(
        &["verify", "nim", "--heaps", "4294967296", "--max-heap", "2"],
        "at most",
    );
    bad_input(
        &["verify", "nim", "--heaps", "3", "--max-heap", "0"],
        "empty",
    );
    bad_input(
        &["verify", "quotient-theorem", "--max-boxes", max],
        "too large",
    );
    bad_input(&["young", max], "64 bits");
    bad_input(&["play", "nim", "3", "--set", "1"], "--set");
    bad_input(
        &["catalogue", "--db", "/definitely/not/here.sqlite3"],
        "no catalogue",
    );
    bad_input(
        &["subtraction", "--all-but", "2", "99999999", "99999999"],
        "add up to",
    );
    let v = json(&["wythoff", max, max]);
    assert!(v["grundy_value"].is_null());
    assert_eq!(v["outcome"], "N");
    assert!(v["winning_moves"]
        .as_array()
        .unwrap()
        .contains(&j!({"to": [0, 0]})));
}
