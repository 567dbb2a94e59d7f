//! `grundy multiplayer` and `grundy verify multiplayer` through the real binary.

mod common;
use common::{bad_input, grundy, json};
use serde_json::{json as j, Value};

fn offset(args: &[&str]) -> u64 {
    json(args)["position_offset"].as_u64().unwrap()
}

#[test]
fn section_5_example_under_games_0_1_2() {
    let base = ["multiplayer", "--players", "3", "--order", "0,1,2"];
    let with = |heaps: &[&'static str]| [&base[..], heaps].concat();
    assert_eq!(offset(&with(&["2", "2", "2"])), 2);
    assert_eq!(offset(&with(&["1", "3"])), 1);
    assert_eq!(offset(&with(&["2", "2", "2", "1", "3"])), 0);
    let v = json(&with(&["2", "2", "2", "1", "3"]));
    // Player 0 moves first to a position with oplus_3 = 0 (the paper: (2,2,1,1,3)).
    let first = &v["line"][0];
    assert_eq!(first["player"], 0);
    assert_eq!(
        (first["from"].as_u64(), first["to"].clone()),
        (Some(2), j!([1]))
    );
}

#[test]
fn json_keys_of_the_issue() {
    let v = json(&[
        "multiplayer",
        "--players",
        "3",
        "--order",
        "1,2,0",
        "2",
        "2",
        "2",
    ]);
    assert_eq!(v["players"], 3);
    assert_eq!(v["position_offset"], 0);
    assert_eq!(v["last_mover"], 0);
    assert_eq!(v["oplus_m"], 0);
    assert_eq!(v["preferences"], "GAMES(1,2,0)");
    assert_eq!(
        v["theorem_4_2"],
        j!({"i": 1, "target_offset": 0, "is_target": true})
    );
    assert!(v.get("propp_class").is_none());
    check_line(&v, &[2, 2, 2], 3);
}

/// Replaying the line from `heaps` reproduces every listed position, players take turns from
/// player 0, and the last move is the last mover's.
fn check_line(v: &Value, heaps: &[u64], m: u64) {
    let mut current = heaps.to_vec();
    let line = v["line"].as_array().unwrap();
    for (k, step) in line.iter().enumerate() {
        assert_eq!(step["player"].as_u64().unwrap(), k as u64 % m);
        let h = step["heap"].as_u64().unwrap() as usize;
        assert_eq!(step["from"].as_u64().unwrap(), current[h]);
        let to: Vec<u64> = step["to"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        current.splice(h..=h, to);
        let listed: Vec<u64> = step["position"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(listed, current);
    }
    let last = line
        .last()
        .map_or((m - 1) as usize, |s| s["player"].as_u64().unwrap() as usize);
    assert_eq!(v["last_mover"].as_u64().unwrap() as usize, last);
}

#[test]
fn an_asymmetric_profile_and_propp_classes() {
    let v = json(&[
        "multiplayer",
        "--prefs",
        "0,2,1/1,0,2/2,0,1",
        "--propp",
        "1",
        "2",
    ]);
    assert_eq!(v["last_mover"], 2);
    assert_eq!(v["orders"], j!([[0, 2, 1], [1, 0, 2], [2, 0, 1]]));
    assert_eq!(v["propp_class"], "Q");
    assert!(v.get("theorem_4_2").is_none());
    check_line(&v, &[1, 2], 3);
    assert_eq!(
        json(&["multiplayer", "--propp", "1", "1", "1"])["propp_class"],
        "P"
    );
    assert_eq!(
        json(&["multiplayer", "--propp", "1", "1"])["propp_class"],
        "O"
    );
    assert_eq!(json(&["multiplayer", "--propp", "3"])["propp_class"], "N");
}

#[test]
fn misere_two_player_play_is_games_1_0() {
    for heaps in [&["1", "1", "1"][..], &["1", "1"], &["2", "3"], &["2", "2"]] {
        let mut args = vec!["multiplayer", "--order", "1,0"];
        args.extend_from_slice(heaps);
        let mover_moves_last = offset(&args) == 0;
        let mut nim = vec!["nim", "--misere"];
        nim.extend_from_slice(heaps);
        let mover_loses = json(&nim)["misere_outcome"] == "P";
        assert_eq!(mover_moves_last, mover_loses, "{heaps:?}");
    }
}

#[test]
fn other_games_and_default_profile() {
    let v = json(&[
        "multiplayer",
        "--game",
        "subtraction:1,2",
        "--players",
        "4",
        "5",
        "4",
    ]);
    assert_eq!(v["game"], "subtraction:1,2");
    assert_eq!(v["preferences"], "GAMES(0,1,2,3)");
    assert!(v.get("oplus_m").is_none());
    check_line(&v, &[5, 4], 4);
    let v = json(&["multiplayer", "--players", "4", "3", "5"]);
    assert_eq!(v["players"], 4);
    check_line(&v, &[3, 5], 4);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("heaps.txt");
    std::fs::write(&path, "3 1\n2\n").unwrap();
    let v = json(&["multiplayer", "--input", path.to_str().unwrap()]);
    assert_eq!(v["heaps"], j!([3, 1, 2]));
    check_line(&v, &[3, 1, 2], 3);
    bad_input(
        &["multiplayer", "--input", "/nonexistent/heaps.txt"],
        "cannot read",
    );
    let v = json(&["multiplayer", "0"]);
    assert_eq!(
        (v["last_mover"].as_u64(), v["line"].clone()),
        (Some(2), j!([]))
    );
}

#[test]
fn human_output() {
    let out = grundy()
        .args(["multiplayer", "--order", "0,1,2", "--propp", "2", "2", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("a 2-position"), "{text}");
    assert!(text.contains("principal line"), "{text}");
    assert!(text.contains("oplus_3: 0"), "{text}");
    assert!(text.contains("Propp class:"), "{text}");
}

#[test]
fn bad_input_is_refused_clearly() {
    let mp = |extra: &[&'static str]| [&["multiplayer"][..], extra].concat();
    bad_input(&mp(&["--order", "1,1,0", "2"]), "not a permutation");
    bad_input(&mp(&["--order", "0,1,3", "2"]), "names 3");
    bad_input(
        &mp(&["--order", "0,1,2", "--players", "4", "2"]),
        "--order describes 3 players",
    );
    bad_input(
        &mp(&["--prefs", "0,1,2/1,2,0", "2"]),
        "has 3 entries but there are 2 players",
    );
    bad_input(
        &mp(&["--prefs", "0,1/1,x", "2"]),
        "'x' is not a player number",
    );
    bad_input(
        &mp(&["--order", "0,1", "--prefs", "0,1/1,0", "2"]),
        "cannot be used with",
    );
    bad_input(&mp(&["--players", "1", "2"]), "between 2 and 16");
    bad_input(&mp(&["--players", "-2", "2"]), "negative");
    bad_input(
        &mp(&["--propp", "--players", "4", "2"]),
        "--propp needs 3 players",
    );
    bad_input(&mp(&["--game", "chess", "2"]), "unknown game 'chess'");
    bad_input(&mp(&["--game", "subtraction:0,1", "2"]), "positive");
    bad_input(&mp(&["2", "-1"]), "negative");
    bad_input(&mp(&[]), "no heaps given");
    bad_input(
        &mp(&["100000", "100000", "100000"]),
        "too large for the brute-force evaluator",
    );
    bad_input(&mp(&["99999999999999999999999"]), "too large");
}

#[test]
fn verify_multiplayer_holds_on_small_ranges() {
    let v = json(&[
        "verify",
        "multiplayer",
        "--players",
        "3",
        "--heaps",
        "3",
        "--max-heap",
        "6",
    ]);
    assert_eq!(v["holds"], true);
    let checks = v["checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2);
    assert_eq!(checks[0]["positions_checked"], 56); // sorted triples below 6
    assert_eq!(checks[1]["positions_checked"], 21); // sorted pairs below 6
    assert!(checks.iter().all(|c| c["counterexample"].is_null()));
    // The completions found lie inside the searched range 0..=sum+2m, below its top.
    assert!(v["largest_completion_excess"].as_i64().unwrap() < 6);
    let v = json(&[
        "verify",
        "multiplayer",
        "--players",
        "4",
        "--heaps",
        "2",
        "--max-heap",
        "9",
    ]);
    assert_eq!(v["holds"], true);
    let out = grundy()
        .args([
            "verify",
            "multiplayer",
            "--players",
            "2",
            "--heaps",
            "2",
            "--max-heap",
            "5",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Thm 4.2") && text.contains("Thm 4.3"),
        "{text}"
    );
    assert!(!text.contains("NO"), "{text}");
}

#[test]
fn verify_multiplayer_refuses_bad_ranges() {
    let v = |extra: &[&'static str]| [&["verify", "multiplayer"][..], extra].concat();
    bad_input(&v(&["--players", "1"]), "between 2 and 16");
    bad_input(&v(&["--heaps", "0"]), "at least 1");
    bad_input(&v(&["--max-heap", "x"]), "not a non-negative whole number");
    bad_input(&v(&["--heaps", "6", "--max-heap", "40"]), "at most");
}
