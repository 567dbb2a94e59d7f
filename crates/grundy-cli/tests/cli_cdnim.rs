//! `grundy cdnim` and `grundy verify cdnim` through the real binary.

mod common;
use common::{bad_input, grundy, json};
use grundy::games::cdnim;
use num_bigint::BigUint;
use serde_json::json as j;

/// A JSON integer: a number up to 2^53 - 1, a decimal string above (the team's convention).
fn big(v: &serde_json::Value) -> BigUint {
    let text = match v.as_str() {
        Some(s) => {
            assert!(
                s.len() >= 16,
                "small integers are numbers, not strings: {s}"
            );
            s.to_owned()
        }
        None => v.to_string(),
    };
    text.parse().expect("a JSON integer")
}

/// Every reported move subtracts a divisor of the gcd and leads to value 0 (Theorem 2.4).
fn assert_moves_win(heaps: &[BigUint], report: &serde_json::Value) {
    let gcd = big(&report["gcd"]);
    let mut q = heaps.to_vec();
    for m in report["winning_moves"].as_array().unwrap() {
        let i = m["heap"].as_u64().unwrap() as usize;
        let (d, to) = (big(&m["divisor"]), big(&m["to"]));
        assert!(
            (&gcd % &d) == BigUint::from(0u32),
            "{d} does not divide {gcd}"
        );
        assert_eq!(&heaps[i] - &d, to);
        q[i] = to;
        assert_eq!(cdnim::grundy_value(&q), 0, "move {m} does not win");
        q[i] = heaps[i].clone();
    }
}

#[test]
fn the_papers_position_6_3_2() {
    let v = json(&["cdnim", "6", "3", "2"]);
    assert_eq!(v["grundy_value"], 1);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["lambda"], 0);
    assert_eq!(v["iota"], 1);
    assert_eq!(v["gcd"], 1);
    assert_eq!(
        v["winning_moves"],
        j!([{"heap": 0, "divisor": 1, "to": 5}, {"heap": 2, "divisor": 1, "to": 1}])
    );
    assert_eq!(v["winning_moves_complete"], true);
    assert_eq!(v["winning_move_count"], 2);
    assert!(v.get("brute_force_value").is_none());

    let out = grundy().args(["cdnim", "6", "3", "2"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("grundy value: 1"), "{text}");
    assert!(text.contains("iota: 1"), "{text}");
    assert!(text.contains("heap 0: 6 - 1 = 5"), "{text}");
    assert!(text.contains("heap 2: 2 - 1 = 1"), "{text}");
}

/// Example 2.2 (with the paper's typo corrected: (5,3,2), not (5,3,1)).
#[test]
fn example_2_2_option_sets() {
    let to_positions = |v: &serde_json::Value, start: [u64; 3]| -> Vec<[u64; 3]> {
        v["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                let mut p = start;
                p[o["heap"].as_u64().unwrap() as usize] = o["to"].as_u64().unwrap();
                p
            })
            .collect()
    };
    let v = json(&["cdnim", "6", "3", "2", "--options", "--brute"]);
    assert_eq!(
        to_positions(&v, [6, 3, 2]),
        vec![[5, 3, 2], [6, 2, 2], [6, 3, 1]]
    );
    assert_eq!(v["option_count"], 3);
    assert_eq!(v["options_complete"], true);
    assert_eq!(v["brute_force_agrees"], true);
    let values: Vec<u64> = v["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["grundy_value"].as_u64().unwrap())
        .collect();
    assert_eq!(values, vec![0, 2, 0]);
    let v = json(&["cdnim", "6", "2", "2", "--options", "--brute"]);
    let mut got = to_positions(&v, [6, 2, 2]);
    got.sort();
    let mut expected = vec![
        [5, 2, 2],
        [6, 1, 2],
        [6, 2, 1],
        [4, 2, 2],
        [6, 0, 2],
        [6, 2, 0],
    ];
    expected.sort();
    assert_eq!(got, expected);
    assert_eq!(v["brute_force_agrees"], true);
    assert!(v.get("options").is_some());
    assert!(json(&["cdnim", "6", "2", "2"]).get("options").is_none());
}

#[test]
fn brute_force_agrees_on_the_papers_examples() {
    for (heaps, value, moves) in [
        (vec!["6", "3", "2"], 1, 2),
        (vec!["1", "2"], 1, 1),
        (vec!["6", "2", "2"], 2, 3),
        (vec!["0", "0"], 0, 0),
        (vec!["12", "20", "28"], 3, 3), // gcd 4, iota 3: subtract 4 from any heap
    ] {
        let mut args = vec!["cdnim"];
        args.extend(&heaps);
        args.push("--brute");
        let v = json(&args);
        assert_eq!(v["grundy_value"], value, "{heaps:?}");
        assert_eq!(v["brute_force_value"], value, "{heaps:?}");
        assert_eq!(v["brute_force_agrees"], true, "{heaps:?}");
        assert_eq!(v["brute_force_winning_moves"], moves, "{heaps:?}");
        assert_eq!(
            v["winning_moves"].as_array().unwrap().len(),
            moves,
            "{heaps:?}"
        );
    }
    let out = grundy()
        .args(["cdnim", "1", "2", "--brute"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("agrees with Theorem 2.4"), "{text}");
    // Example 2.5: the only winning move from (1, 2) goes to (1, 1)
    let v = json(&["cdnim", "1", "2"]);
    assert_eq!(v["winning_moves"], j!([{"heap": 1, "divisor": 1, "to": 1}]));
}

#[test]
fn the_zero_position_and_zero_heaps() {
    let v = json(&["cdnim", "0", "0", "0"]);
    assert_eq!(v["grundy_value"], 0);
    assert_eq!(v["outcome"], "P");
    assert!(v["lambda"].is_null());
    assert_eq!(v["iota"], 3);
    assert_eq!(v["gcd"], 0);
    assert_eq!(v["winning_moves"], j!([]));
    // zeros: every positive integer divides 0, so only (0, 24, 0)'s own divisors matter
    let v = json(&["cdnim", "0", "24", "0"]);
    assert_eq!(v["grundy_value"], 4);
    assert_eq!(
        v["winning_moves"],
        j!([{"heap": 1, "divisor": 24, "to": 0}])
    );
}

#[test]
fn big_heaps_from_a_file_and_stdin() {
    // 400 heaps of about 300 digits with a common factor 2^5 * 3^2 * 7 * 1000003
    let common: BigUint = BigUint::from(32u32 * 9 * 7) * 1_000_003u32;
    let mut heaps = Vec::new();
    let mut x = BigUint::from(10u32).pow(290) + 12345u32;
    for i in 0..400u32 {
        x = (&x * 6364136223846793005u64 + 1442695040888963407u64) % BigUint::from(10u32).pow(295);
        let shift = i % 4; // vary ord2 above 5
        heaps.push((&x * &common) << shift);
    }
    // make iota odd so that there are winning moves
    while cdnim::grundy_value(&heaps) == 0 {
        heaps.pop();
    }
    let text: String = heaps.iter().map(|h| format!("{h}\n")).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("heaps.txt");
    std::fs::write(&path, &text).unwrap();
    let v = json(&["cdnim", "--input", path.to_str().unwrap()]);
    let inv = cdnim::Invariants::of(&heaps);
    assert_eq!(v["grundy_value"], inv.grundy_value());
    assert_eq!(v["lambda"], inv.lambda.unwrap());
    assert_eq!(v["iota"], inv.iota);
    assert_eq!(v["heaps"].as_array().unwrap().len(), heaps.len());
    let gcd = big(&v["gcd"]);
    assert!((&gcd % &common) == BigUint::from(0u32));
    assert_moves_win(&heaps, &v);
    assert_eq!(v["winning_moves_complete"], true);
    assert_eq!(
        big(&v["winning_move_count"]),
        BigUint::from(v["winning_moves"].as_array().unwrap().len())
    );

    let out = grundy()
        .args(["cdnim", "--input", "-", "--json"])
        .write_stdin(text)
        .output()
        .unwrap();
    let w: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(w, v);
}

#[test]
fn listing_is_capped_and_unfactorable_gcds_say_so() {
    // gcd = 3^2 * 5 * 7 * 11 * 13: 48 odd divisors; heaps 1 and 2 are above lambda
    let v = json(&["cdnim", "45045", "90090", "180180", "--max-moves", "10"]);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 10);
    assert_eq!(v["winning_moves_complete"], false);
    let total = v["winning_move_count"].as_u64().unwrap();
    assert!(total > 10);
    assert!(v["note"].as_str().unwrap().contains("--max-moves"));
    let all = json(&["cdnim", "45045", "90090", "180180"]);
    assert_eq!(all["winning_moves"].as_array().unwrap().len() as u64, total);
    assert_eq!(
        all["winning_moves"].as_array().unwrap()[..10],
        v["winning_moves"].as_array().unwrap()[..]
    );

    // the odd part of the gcd is (2^89 - 1)(2^127 - 1): two primes too large to prove here
    let m89: BigUint = (BigUint::from(1u32) << 89) - 1u32;
    let m127: BigUint = (BigUint::from(1u32) << 127) - 1u32;
    let g = &m89 * &m127 * 4u32;
    let heaps = [&g * 1u32, &g * 2u32, &g * 4u32];
    let words: Vec<String> = heaps.iter().map(|h| h.to_string()).collect();
    let mut args = vec!["cdnim"];
    args.extend(words.iter().map(String::as_str));
    let v = json(&args);
    assert_eq!(v["winning_moves_complete"], false);
    assert!(v["winning_move_count"].is_null());
    assert!(v["note"].as_str().unwrap().contains("may be incomplete"));
    assert!(!v["winning_moves"].as_array().unwrap().is_empty());
    assert_moves_win(&heaps, &v);
}

#[test]
fn value_table_text_json_and_pictures() {
    let v = json(&["cdnim", "--table", "4"]);
    assert_eq!(
        v["values"],
        j!([[0, 1, 2, 1], [1, 0, 1, 0], [2, 1, 0, 1], [1, 0, 1, 0]])
    );
    let out = grundy().args(["cdnim", "--table", "4"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  2 | 2 1 0 1\n"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("t.png");
    let svg = dir.path().join("t.svg");
    let v = json(&[
        "cdnim",
        "--table",
        "16",
        "--png",
        png.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(v["size"], 16);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.contains("<svg") && svg_text.contains("Grundy value"));
}

#[test]
fn verify_the_theorem_exhaustively() {
    let v = json(&["verify", "cdnim", "--heaps", "2", "--max-heap", "20"]);
    assert_eq!(v["holds"], true);
    assert_eq!(v["positions_checked"], 210);
    assert!(v["counterexample"].is_null());
    let v = json(&["verify", "cdnim", "--heaps", "4", "--max-heap", "8"]);
    assert_eq!(v["holds"], true);
    assert_eq!(v["positions_checked"], 330);
    let out = grundy()
        .args(["verify", "cdnim", "--heaps", "3", "--max-heap", "6"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("56 positions checked"), "{text}");
    assert!(text.contains("holds: yes"), "{text}");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    bad_input(&["cdnim", "6", "-3"], "negative");
    bad_input(&["cdnim", "6", "x3"], "not a non-negative whole number");
    bad_input(&["cdnim"], "no heaps given");
    bad_input(
        &["cdnim", "--input", "/nonexistent/heaps.txt"],
        "cannot read",
    );
    bad_input(&["cdnim", "--table", "0"], "--table N needs");
    bad_input(&["cdnim", "--table", "99999"], "--table N needs");
    bad_input(&["cdnim", "--table", "5", "3"], "cannot be used with");
    bad_input(&["cdnim", "--png", "x.png"], "add --table N");
    bad_input(
        &["cdnim", "--table", "600", "--svg", "x.svg"],
        "--svg draws tables up to",
    );
    bad_input(
        &["cdnim", "--table", "4", "--png", "/nonexistent/dir/t.png"],
        "does not exist",
    );
    bad_input(&["cdnim", "5", "--max-moves", "0"], "at least 1");
    bad_input(
        &["cdnim", "1000", "2000", "3000", "--brute"],
        "too large to brute-force",
    );
    bad_input(
        &["cdnim", "123456789012345678901234567890", "--brute"],
        "too large to brute-force",
    );
    bad_input(
        &["verify", "cdnim", "--heaps", "5", "--max-heap", "100"],
        "at most",
    );
    bad_input(&["verify", "cdnim", "--heaps", "0"], "at least 1");
}
