//! The Sato–Welter / Young-diagram family through the real binary: welter, young, graph
//! --divide/--plain, verify welter, verify quotient-theorem.

mod common;
use common::{bad_input, grundy, json};
use serde_json::json as j;

#[test]
fn welter_issue_example() {
    let v = json(&["welter", "2", "3", "5", "7", "11", "13", "17", "19", "23"]);
    assert_eq!(v["grundy_value"], 28);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"], j!([{"from": 13, "to": 1}]));
    assert_eq!(v["coins"], 9);
    let out = grundy()
        .args(["welter", "2", "3", "5", "7", "11", "13", "17", "19", "23"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("coin on 13 -> square 1"), "{text}");
}

#[test]
fn welter_papers_position_targets_and_p_positions() {
    // Fig. 3: coins on the beta-numbers of (10,10,8,6,5,5,3,1).
    let v = json(&["welter", "1", "4", "7", "8", "10", "13", "16", "17"]);
    assert_eq!(v["grundy_value"], 28);
    // every winning move reaches a P-position
    for m in v["winning_moves"].as_array().unwrap() {
        let (from, to) = (m["from"].as_u64().unwrap(), m["to"].as_u64().unwrap());
        let mut squares: Vec<String> = [1u64, 4, 7, 8, 10, 13, 16, 17]
            .iter()
            .map(|&c| if c == from { to } else { c }.to_string())
            .collect();
        squares.insert(0, "welter".into());
        let args: Vec<&str> = squares.iter().map(String::as_str).collect();
        let w = json(&args);
        assert_eq!(w["grundy_value"], 0);
        assert_eq!(w["outcome"], "P");
        assert_eq!(w["winning_moves"], j!([]));
    }
    let v = json(&[
        "welter", "1", "4", "7", "8", "10", "13", "16", "17", "--target", "5",
    ]);
    assert_eq!(v["target"], 5);
    assert!(!v["moves"].as_array().unwrap().is_empty());
    let v = json(&[
        "welter", "1", "4", "7", "8", "10", "13", "16", "17", "--target", "28",
    ]);
    assert_eq!(v["moves"], j!([]));
    // squares up to 2^64 - 1
    let v = json(&["welter", "18446744073709551615", "0"]);
    assert_eq!(v["outcome"], "N");
}

#[test]
fn welter_reads_a_file_and_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("coins.txt");
    let coins: Vec<String> = (0..5000u64)
        .map(|i| (i * 7919 % 100_003).to_string())
        .collect();
    std::fs::write(&path, coins.join("\n")).unwrap();
    let v = json(&["welter", "--input", path.to_str().unwrap()]);
    assert_eq!(v["coins"], 5000);
    let w = json(&["welter", "--input", path.to_str().unwrap(), "--value-only"]);
    assert_eq!(w["grundy_value"], v["grundy_value"]);
    assert!(w.get("winning_moves").is_none());
    let out = grundy()
        .args(["welter", "--input", "-", "--json"])
        .write_stdin("2 3 5\n7 11 13 17 19 23\n")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["winning_moves"], j!([{"from": 13, "to": 1}]));
}

#[test]
fn welter_bad_input() {
    bad_input(&["welter", "3", "5", "3"], "square 3 holds two coins");
    bad_input(&["welter", "-4"], "negative");
    bad_input(&["welter", "4x"], "'4x'");
    bad_input(&["welter", "18446744073709551616"], "too large");
    bad_input(&["welter"], "no squares");
    bad_input(&["welter", "3", "--target", "x"], "'x'");
    bad_input(&["welter", "--input", "/no/such/file"], "cannot read");
}

#[test]
fn young_issue_example() {
    let v = json(&[
        "young",
        "10,10,8,6,5,5,3,1",
        "--core",
        "2",
        "--quotient",
        "2",
    ]);
    assert_eq!(v["boxes"], 48);
    assert_eq!(v["beta"], j!([17, 16, 13, 10, 8, 7, 4, 1]));
    assert_eq!(v["hooks"][0], j!([17, 15, 14, 12, 11, 8, 6, 5, 3, 2]));
    assert_eq!(v["hooks"][7], j!([1]));
    assert_eq!(v["grundy_value"], 28);
    assert_eq!(v["grundy_value_by_hooks"], 28);
    assert_eq!(v["core"], j!([]));
    assert_eq!(v["quotient"], j!([[5, 3, 3, 2], [5, 4, 2]]));
    let t = &v["quotient_theorem"];
    assert_eq!(t["grundy_value"], 28);
    assert_eq!(t["even_hook_value"], 14);
    assert_eq!(t["two_core_value"], 0);
    assert_eq!(t["holds"], true);
    assert_eq!(
        v["winning_moves"],
        j!([{"row": 1, "column": 7, "hook_length": 4, "bead_from": 16, "bead_to": 12,
             "result": [10, 7, 7, 6, 5, 5, 3, 1]}])
    );
}

#[test]
fn young_beta_numbers_and_sage_examples() {
    let v = json(&["young", "1,4,7,8,10,13,16,17", "--from-beta"]);
    assert_eq!(v["partition"], j!([10, 10, 8, 6, 5, 5, 3, 1]));
    let v = json(&[
        "young", "10", "10", "8", "6", "5", "5", "3", "1", "--beads", "10",
    ]);
    assert_eq!(v["beta"], j!([19, 18, 15, 12, 10, 9, 6, 3, 1, 0]));
    // SageMath: Partition([7,7,5,3,3,3,1]).quotient(3) == ([2], [1], [2, 2, 2]);
    // Partition([6,3,2,2]).core(3) == [2, 1, 1]
    let v = json(&["young", "7,7,5,3,3,3,1", "--quotient", "3"]);
    assert_eq!(v["quotient"], j!([[2], [1], [2, 2, 2]]));
    let v = json(&["young", "6,3,2,2", "--core", "3"]);
    assert_eq!(v["core"], j!([2, 1, 1]));
    // Fig. 1 -> Fig. 2 of the paper: a hook of length 7 in row 3 (0-based).
    let v = json(&["young", "10,10,8,6,5,5,3,1", "--remove-hook", "3,2"]);
    assert_eq!(v["removed_hook"]["hook_length"], 7);
    assert_eq!(v["removed_hook"]["result"], j!([10, 10, 8, 4, 4, 2, 2, 1]));
    let v = json(&["young", "0"]);
    assert_eq!(v["boxes"], 0);
    assert_eq!(v["outcome"], "P");
}

#[test]
fn young_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("y.svg");
    let png = dir.path().join("y.png");
    let v = json(&[
        "young",
        "10,10,8,6,5,5,3,1",
        "--svg",
        svg.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
    ]);
    assert_eq!(v["files"].as_array().unwrap().len(), 2);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"));
    assert!(
        text.contains(">\n17\n<"),
        "the first box's hook length is written"
    );
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..4], b"\x89PNG");
}

#[test]
fn young_bad_input() {
    bad_input(&["young", "1,2"], "must not increase");
    bad_input(&["young", "3,1", "--core", "0"], "at least 1");
    bad_input(&["young", "3,-1"], "negative");
    bad_input(&["young", "3,a"], "'a'");
    bad_input(&["young", "3,3", "--from-beta"], "appears twice");
    bad_input(&["young"], "no parts");
    bad_input(&["young", "3,1", "--beads", "1"], "too few");
    bad_input(
        &["young", "3,1", "--remove-hook", "1,1"],
        "not in the diagram",
    );
    bad_input(&["young", "3,1", "--remove-hook", "1"], "ROW,COL");
    bad_input(&["young", "3,1", "--quotient", "100000000"], "limited");
    bad_input(&["young", "18446744073709551615,1"], "too large");
    bad_input(&["young", "200", "--png", "/tmp/never-written.png"], "150");
}

#[test]
fn graph_division_and_plain_games() {
    let dir = tempfile::tempdir().unwrap();
    let yg = dir.path().join("y.json");
    json(&["young", "4,2,1", "--graph-out", yg.to_str().unwrap()]);
    let v = json(&["graph", yg.to_str().unwrap(), "--plain", "--divide", "3"]);
    let p = &v["plain"];
    assert_eq!(p["is_plain"], true);
    assert_eq!(p["violation"], j!(null));
    assert_eq!(p["diagram"]["cells"].as_array().unwrap().len(), 7);
    let mut hooks: Vec<u64> = p["diagram"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["hook_length"].as_u64().unwrap())
        .collect();
    hooks.sort();
    // hook lengths of (4,2,1): [[6,4,2,1],[3,1],[1]]
    assert_eq!(hooks, vec![1, 1, 1, 2, 3, 4, 6]);
    assert_eq!(p["theorem_5_holds"], true);
    assert_eq!(p["phi_2_is_plain"], true);
    assert_eq!(p["diagram"]["is_plain"], true);
    let d = &v["division"];
    assert_eq!(d["holds"], true);
    assert_eq!(d["divisor"], 3);

    // A non-plain game: reported with the axiom it breaks (exit status 0: it is an answer).
    let np = dir.path().join("np.json");
    std::fs::write(
        &np,
        r#"{"root":"4","nodes":[{"id":"0"},{"id":"1","options":["0"]},{"id":"2","options":["0"]},
            {"id":"3","options":["1","2"]},{"id":"4","options":["1","2","3"]}]}"#,
    )
    .unwrap();
    let v = json(&["graph", np.to_str().unwrap(), "--plain"]);
    assert_eq!(v["plain"]["is_plain"], false);
    assert_eq!(v["plain"]["violation"]["axiom"], "PG3");
    assert_eq!(
        v["plain"]["violation"]["nodes"],
        j!(["1", "0", "3", "2", "4", "2"])
    );
    let two = dir.path().join("two.json");
    std::fs::write(
        &two,
        r#"{"nodes":[{"id":"a","options":["b","c"]},{"id":"b"},{"id":"c"}]}"#,
    )
    .unwrap();
    let out = grundy()
        .args(["graph", two.to_str().unwrap(), "--plain"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("plain game: no, PG1 fails"), "{text}");
    bad_input(
        &["graph", two.to_str().unwrap(), "--divide", "0"],
        "at least 1",
    );
    bad_input(&["graph", two.to_str().unwrap(), "--divide", "-2"], "-2");
}

#[test]
fn verify_welter_and_quotient_theorem() {
    let v = json(&["verify", "welter", "--coins", "3", "--max-square", "10"]);
    assert_eq!(v["holds"], true);
    assert_eq!(v["positions_checked"], 1 + 10 + 45 + 120);
    let v = json(&["verify", "quotient-theorem", "--max-boxes", "12"]);
    assert_eq!(v["holds"], true);
    assert_eq!(v["positions_checked"], 272);
    bad_input(
        &["verify", "welter", "--coins", "10", "--max-square", "100"],
        "at most",
    );
    bad_input(
        &["verify", "quotient-theorem", "--max-boxes", "200"],
        "at most",
    );
}
