//! What a newcomer meets in the first hour (issue 28): searches that stop at a limit say which
//! and how to go further, names get one "did you mean", files written are named, long summaries
//! stay readable.

mod common;
use common::{bad_input, grundy, json};

#[test]
fn a_search_stopped_at_the_given_limit_says_so_and_how_to_go_further() {
    let out = grundy()
        .args([
            "takebreak",
            "0.1777",
            "--until-period",
            "-n",
            "20000",
            "--no-record",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("period: none certified up to n = 20000 — the limit given (-n 20000)"),
        "{text}"
    );
    assert!(
        text.contains("to go further: grundy takebreak 0.1777 --until-period -n ")
            && text.contains("of memory"),
        "{text}"
    );
    let v = json(&[
        "takebreak",
        "0.1777",
        "--until-period",
        "-n",
        "20000",
        "--no-record",
    ]);
    let limit = &v["until_period_limit"];
    assert_eq!(limit["n"], 20000);
    assert_eq!(limit["default"], false);
    assert_eq!(limit["certifiable"], true);
    assert!(limit["next_n"].as_u64().unwrap() > 20000, "{limit}");
    // a certified period has no limit to report
    let v = json(&["takebreak", "kayles", "--until-period", "--no-record"]);
    assert!(v.get("until_period_limit").is_none(), "{v}");
}

#[test]
fn the_default_limit_is_memory_and_named() {
    // 66 MB leave about a million values beyond the fixed allowance
    let v = json(&[
        "takebreak",
        "0.1777",
        "--until-period",
        "--max-memory",
        "66M",
        "--no-record",
        "--no-checkpoint",
    ]);
    let limit = &v["until_period_limit"];
    assert_eq!(limit["default"], true, "{limit}");
    assert!(
        limit["reason"].as_str().unwrap().contains("--max-memory"),
        "{limit}"
    );
    let n = v["n"].as_u64().unwrap();
    assert!((500_000..2_000_000).contains(&n), "{n}");
}

#[test]
fn rules_without_the_theorem_say_no_certificate_can_come() {
    let out = grundy()
        .args([
            "takebreak",
            "0.F",
            "-n",
            "300",
            "--until-period",
            "--no-record",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no certificate can end the search"), "{text}");
}

#[test]
fn names_get_a_suggestion() {
    bad_input(&["takebreak", "kaylse"], "did you mean 'kayles'?");
    bad_input(&["takebreak", "kayle"], "did you mean 'kayles'?");
    bad_input(&["takebreak", "officer"], "did you mean 'officers'?");
    bad_input(
        &["takebreak", "dawson"],
        "did you mean 'dawsons-kayles' or 'dawsons-chess'?",
    );
    bad_input(&["takebreak", "nim"], "Nim is the code 0.[3]");
    bad_input(
        &["multiplayer", "--game", "nmi", "1", "2"],
        "did you mean 'nim'?",
    );
    bad_input(&["play", "wytoff", "3", "4"], "did you mean 'wythoff'?");
    // the name inside a --game spec goes through the same lookup
    bad_input(
        &["multiplayer", "--game", "takebreak:kaylse", "1", "2"],
        "did you mean 'kayles'?",
    );
}

#[test]
fn verify_without_a_check_names_the_checks() {
    bad_input(&["verify"], "verify needs a check: nim, multiplayer");
}

#[test]
fn pictures_say_where_they_went() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("d.png");
    let out = grundy()
        .args(["takebreak", "0.07", "-n", "100", "--no-record", "--png"])
        .arg(&png)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "wrote the plot of G(0..=100) to {}",
            png.display()
        )),
        "{text}"
    );
    let svg = dir.path().join("d.svg");
    let v = json(&[
        "takebreak",
        "0.07",
        "-n",
        "100",
        "--no-record",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(v["files"][0], svg.to_str().unwrap());
}

#[test]
fn long_value_count_lines_are_summarised() {
    let out = grundy()
        .args([
            "takebreak",
            "officers",
            "-n",
            "20000",
            "--no-record",
            "--no-checkpoint",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("value counts"))
        .unwrap();
    assert!(
        line.contains("distinct values, the first 32 shown"),
        "{line}"
    );
    assert!(line.split_whitespace().count() < 50, "{line}");
}

#[test]
fn a_census_of_one_code_says_code() {
    let out = grundy()
        .args(["census", "0.07", "-n", "1000", "--no-record"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(1 code, "), "{text}");
}

#[test]
fn wythoff_values_come_from_the_table_at_once() {
    // (a+1)(b+1) = 1002001 cells: the generic evaluator took half a minute here
    let v = json(&["wythoff", "1000", "1000"]);
    assert_eq!(v["grundy_value"], 1499);
    let v = json(&["wythoff", "2000", "2000"]);
    assert!(v["grundy_value"].is_null());
    assert!(v["note"].as_str().unwrap().contains("2000000"), "{v}");
}

#[test]
fn heap_sizes_may_be_written_as_powers() {
    // researchers write frontiers as 2^30 and 1e9: -n reads them as the numbers they are
    let power = json(&["takebreak", "0.6", "-n", "2^12", "--no-record"]);
    let plain = json(&["takebreak", "0.6", "-n", "4096", "--no-record"]);
    assert_eq!(power["n"], 4096);
    assert_eq!(power["value_counts"], plain["value_counts"]);
    assert_eq!(
        json(&["takebreak", "0.07", "-n", "1e12", "--no-record"])["n"],
        1_000_000_000_000u64
    );
    bad_input(
        &["takebreak", "0.6", "-n", "2^60"],
        "heap size '2^60' is too large: at most 9007199254740991",
    );
    bad_input(
        &["takebreak", "0.6", "-n", "2^x"],
        "is not a non-negative whole number, B^K or MeK",
    );
}
