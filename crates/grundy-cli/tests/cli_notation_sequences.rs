//! Grundy sequences of codes in CGSuite's notation that the octal engines cannot represent
//! (repeating suffixes, `+` / `*` heap counts, `!` `?` `=` qualifiers), through the binary:
//! computed by the general engine and checked against games whose values are known.

mod common;
use common::{bad_input, grundy, json, values_of};

fn sequence(code: &str, n: u64) -> Vec<u64> {
    let v = json(&["takebreak", code, "-n", &n.to_string(), "--print"]);
    assert_eq!(v["engine"], "general", "{code}");
    assert_eq!(v["n"], n, "{code}");
    values_of(&v)
}

#[test]
fn repeating_three_is_nim() {
    assert_eq!(sequence("0.[3]", 200), (0..=200).collect::<Vec<u64>>());
}

#[test]
fn all_but_two_three_seven_matches_the_subtraction_game() {
    let v = json(&["subtraction", "--all-but", "2,3,7", "--sequence", "150"]);
    let expected: Vec<u64> = values_of(&v);
    assert_eq!(sequence("0.3003330[3]", 150), expected);
}

#[test]
fn qualified_grundys_game_matches_the_octal_engines() {
    let named = values_of(&json(&[
        "takebreak",
        "grundys-game",
        "-n",
        "200",
        "--print",
    ]));
    // 4?.0 (two heaps, not equal) is Grundy's game, but run by the general engine.
    assert_eq!(sequence("4?.0", 200), named);
    // 4=.0: split an even heap into two equal halves, which cancel: G = 1 on even heaps.
    let halves = sequence("4=.0", 64);
    for (n, &g) in halves.iter().enumerate() {
        let expected = u64::from(n > 0 && n % 2 == 0);
        assert_eq!(g, expected, "G({n}) of 4=.0");
    }
}

#[test]
fn positions_and_observed_periods() {
    // Nim by the repeating code: 3, 5 has value 6 and one winning move, 5 -> 3.
    let p = json(&["takebreak", "0.[3]", "--heaps", "3,5"]);
    assert_eq!(p["grundy_value"], 6);
    assert_eq!(p["outcome"], "N");
    assert_eq!(
        p["winning_moves"],
        serde_json::json!([{"heap": 1, "from": 5, "removed": 2, "leaves": [3]}])
    );
    // Take one token, or any whole heap: 0, 1, 2, 1, 2, ... observed (never certified).
    let v = json(&["takebreak", "0.3[1]", "-n", "50"]);
    assert_eq!(
        v["period"],
        serde_json::json!({"preperiod": 1, "period": 2, "certified": false, "certified_at": null})
    );
    let out = grundy()
        .args(["takebreak", "{2+}.0", "-n", "12", "--print"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("code: {2+}.0"), "{text}");
}

#[test]
fn too_much_work_and_what_needs_a_finite_code_are_refused_on_one_line() {
    bad_input(&["takebreak", "{2+}.0", "-n", "1000"], "choose a smaller n");
    // the largest n the JSON convention allows: still refused for its options' count
    bad_input(&["takebreak", "0.[3]", "-n", "9007199254740991"], "options");
    // beyond it, the cap itself is named
    bad_input(
        &["takebreak", "0.[3]", "-n", "18446744073709551615"],
        "2^53 - 1",
    );
    bad_input(&["takebreak", "{127}=.0", "-n", "99999999999"], "options");
    bad_input(&["takebreak", "0.[3]", "-n", "-1"], "heap size");
    bad_input(
        &["takebreak", "0.[3]", "--heaps", "4294967296"],
        "too large",
    );
    bad_input(&["takebreak", "0.[3]", "--heaps", ""], "heap");
    bad_input(&["takebreak", "4?.0", "--until-period"], "general engine");
    bad_input(&["takebreak", "0.[3]", "--engine", "sparse"], "--engine");
    bad_input(
        &["takebreak", "0.[3]", "-n", "10", "--png", "x.png"],
        "--png",
    );
    bad_input(&["takebreak", "8!.0", "--fold", "2"], "finite code");
    bad_input(
        &["takebreak", "0.[3]", "--heaps", "1", "--max-moves", "0"],
        "at least 1",
    );
}
