//! `grundy takebreak` (alias `octal`) through the real binary.

mod common;
use common::{bad_input, grundy, json};

fn values(code: &str, n: u64) -> Vec<u64> {
    json(&["takebreak", code, "-n", &n.to_string(), "--print"])["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

#[test]
fn dawsons_kayles_sequence_and_certified_period() {
    let v = json(&["takebreak", "0.07", "-n", "300"]);
    assert_eq!(v["code"], "0.07");
    assert_eq!(v["n"], 300);
    assert!(v.get("values").is_none(), "values only with --print");
    let p = &v["period"];
    assert_eq!(p["preperiod"], 53);
    assert_eq!(p["period"], 34);
    assert_eq!(p["certified"], true);
    // 2·53 + 2·34 + t - 1 with t = 2
    assert_eq!(p["certified_at"], 175);
    let counts: Vec<u64> = v["value_counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 301);
    assert_eq!(counts.len() as u64, v["max_value"].as_u64().unwrap() + 1);

    let g = values(".07", 300);
    assert_eq!(g.len(), 301);
    assert_eq!(&g[..10], &[0, 0, 1, 1, 2, 0, 3, 1, 1, 0]);
    for n in 53..=300 - 34 {
        assert_eq!(g[n + 34], g[n]);
    }
}

#[test]
fn until_period_stops_at_the_certificate() {
    let v = json(&["takebreak", "kayles", "--until-period"]);
    assert_eq!(v["code"], "0.77");
    assert_eq!(v["period"]["preperiod"], 71);
    assert_eq!(v["period"]["period"], 12);
    assert_eq!(v["n"], v["period"]["certified_at"]);
    let v = json(&["octal", "dawsons-kayles", "--until-period", "-n", "5000"]);
    assert!(v["n"].as_u64().unwrap() < 300);
    assert_eq!(v["period"]["period"], 34);
    // Without a certificate within the limit, exactly the limit is computed.
    let v = json(&["takebreak", "0.07", "--until-period", "-n", "100"]);
    assert_eq!(v["n"], 100);
    assert!(v["period"].is_null());
}

#[test]
fn rules_without_the_theorem_are_observed_never_certified() {
    let v = json(&["takebreak", "0.F", "-n", "500"]);
    assert_eq!(v["period"]["period"], 2);
    assert_eq!(v["period"]["certified"], false);
    assert!(v["period"]["certified_at"].is_null());
    // --until-period cannot stop on an observed period: all 500 are computed.
    let v = json(&["takebreak", "0.F", "-n", "500", "--until-period"]);
    assert_eq!(v["n"], 500);
    let v = json(&["takebreak", "grundys-game", "-n", "200", "--print"]);
    let g: Vec<u64> = v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(&g[..12], &[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]);
}

#[test]
fn hexadecimal_and_larger_digits() {
    // 0.&16; removes 1 and leaves exactly four heaps.
    let g = values("0.&16;", 12);
    assert_eq!(g[..5], [0, 0, 0, 0, 0]);
    assert_eq!(g[5], 1);
    // Case of letters does not matter; the canonical code is printed.
    assert_eq!(json(&["takebreak", ".fz", "-n", "5"])["code"], "0.FZ");
}

#[test]
fn positions_of_several_heaps() {
    let v = json(&["takebreak", "0.77", "--heaps", "5,7,9"]);
    let g = values("0.77", 9);
    assert_eq!(v["heap_values"], serde_json::json!([g[5], g[7], g[9]]));
    assert_eq!(v["grundy_value"].as_u64().unwrap(), g[5] ^ g[7] ^ g[9]);
    assert_eq!(v["outcome"], "N");
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    let heaps = [5u64, 7, 9];
    for m in moves {
        let i = m["heap"].as_u64().unwrap() as usize;
        let left: Vec<u64> = m["leaves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(
            heaps[i],
            m["removed"].as_u64().unwrap() + left.iter().sum::<u64>()
        );
        let mut value = 0;
        for (j, &h) in heaps.iter().enumerate() {
            if j != i {
                value ^= g[h as usize];
            }
        }
        for &h in &left {
            value ^= g[h as usize];
        }
        assert_eq!(value, 0, "move {m} must lead to value 0");
    }
    let v = json(&["takebreak", "0.77", "--heaps", "3,4", "--max-moves", "1"]);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    assert_eq!(v["winning_moves_truncated"], true);
    let v = json(&["takebreak", "0.77", "--heaps", "1,1"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    let out = grundy()
        .args(["takebreak", "kayles", "--heaps", "5,7,9"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("remove 1, leave 3 + 3"), "{text}");
}

#[test]
fn fold_and_cousin_transforms() {
    let v = json(&["takebreak", ".77", "--fold", "2"]);
    assert_eq!(v["code_b"], "0.077");
    assert_eq!(v["checked_up_to"], 10000);
    assert_eq!(v["holds"], true);
    let v = json(&["takebreak", ".777", "--fold", "3", "--check-up-to", "3000"]);
    assert_eq!(v["code_b"], "0.0077777");
    assert_eq!(v["holds"], true);
    let v = json(&["takebreak", "officers", "--cousin", "--check-up-to", "3000"]);
    assert_eq!(v["code_b"], "0.37");
    assert_eq!(v["checked_up_to"], 3000);
    assert_eq!(v["holds"], true);
    // A hexadecimal A gives a non-octal cousin.
    let v = json(&["takebreak", ".0F", "--cousin", "--check-up-to", "400"]);
    assert_eq!(v["code_b"], "0.137F");
    assert_eq!(v["holds"], true);
}

#[test]
fn transform_refusals_name_the_reason() {
    bad_input(&["takebreak", ".76", "--fold", "2"], "digit 2 is 6");
    bad_input(&["takebreak", ".707", "--fold", "2"], "lone 7");
    bad_input(&["takebreak", ".77", "--fold", "0"], "--fold 0");
    bad_input(&["takebreak", ".37", "--cousin"], "a1 must be even");
    bad_input(
        &["takebreak", "grundys-game", "--cousin"],
        "needs a take-and-break code",
    );
}

#[test]
fn pictures_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("g.png");
    let svg = dir.path().join("g.svg");
    grundy()
        .args(["takebreak", "0.07", "-n", "300", "--png"])
        .arg(&png)
        .arg("--svg")
        .arg(&svg)
        .assert()
        .success();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg"));
    let bad = dir.path().join("no-such-dir").join("g.png");
    let out = grundy()
        .args(["takebreak", "0.07", "-n", "30", "--png"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `--results DIR`: a summary file per power of two from 1024 that the run computes past, each
/// with the histogram of G(1..=N) (checked against `--print`'s values); an unusable folder is
/// one line and exit status 2.
#[test]
fn results_summarise_every_power_of_two() {
    let dir = tempfile::tempdir().unwrap();
    let results_in = |place: &std::path::Path| {
        let mut c = grundy();
        c.args([
            "takebreak",
            "0.6",
            "-n",
            "3000",
            "--no-record",
            "--no-checkpoint",
        ])
        .arg("--results")
        .arg(place);
        c
    };
    results_in(dir.path()).assert().success();
    let g = values("0.6", 3000);
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("0.6"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["1024.txt", "2048.txt"]);
    for (name, n) in [("1024.txt", 1024usize), ("2048.txt", 2048)] {
        let text = std::fs::read_to_string(dir.path().join("0.6").join(name)).unwrap();
        assert!(text.contains(&format!("\n# n {n}\n")), "{text}");
        let max = *g[1..=n].iter().max().unwrap();
        let first = 1 + g[1..=n].iter().position(|&v| v == max).unwrap();
        assert!(text.contains(&format!("# largest value {max} first at heap {first}\n")));
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("rare"))
        {
            let (v, c) = line.split_once(' ').unwrap();
            let (v, c): (u64, usize) = (v.parse().unwrap(), c.parse().unwrap());
            assert_eq!(
                c,
                g[1..=n].iter().filter(|&&x| x == v).count(),
                "{name}: {line}"
            );
        }
    }
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let out = results_in(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("--results: cannot create the folder"), "{err}");
}

#[test]
fn human_output() {
    let out = grundy()
        .args(["takebreak", "0.07", "-n", "300", "--print"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("preperiod 53, period 34"), "{text}");
    assert!(text.contains("certified by the periodicity theorem at n = 175"));
    // rows of the period length
    assert!(text.contains("\n   34: "), "{text}");
}

#[test]
fn codes_that_add_tokens_run_on_the_general_engine_or_are_refused_with_a_move() {
    // 80.0: add one token, leave three heaps. G(n) by hand: a heap of n >= 2 becomes three
    // heaps summing to n + 1; G(2) = mex{G(1)^G(1)^G(1)} = 1, and so on (checked against a
    // brute force of the definition in the library's tests).
    let v = json(&["takebreak", "80.0", "-n", "12", "--print"]);
    assert_eq!(v["engine"], "general");
    assert_eq!(v["code"], "80.0");
    let values: Vec<u64> = v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(values, [0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    let p = json(&["takebreak", "80.0", "--heaps", "2,5"]);
    assert_eq!(p["grundy_value"], 1);
    // the winning moves add a token: "removed" is -1, and the text says "add 1"
    let moves = p["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m["removed"] == -1), "{p}");
    let out = grundy()
        .args(["takebreak", "80.0", "--heaps", "2,5"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("heap 0 (0-based) of 2: add 1, leave 1 + 1 + 1"),
        "{text}"
    );
    assert!(!text.contains("remove"), "{text}");
    bad_input(&["takebreak", "40.0"], "a heap of 1 can become 1 + 1");
    bad_input(&["takebreak", "4!0.0"], "a heap of 2 can become 2 + 1");
    bad_input(&["takebreak", "80.0", "--until-period"], "general engine");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    bad_input(&["takebreak", "0.7#7"], "'#'");
    bad_input(&["takebreak", "0.7#7"], "position 4");
    bad_input(&["takebreak", "77"], "digits before the point");
    bad_input(&["takebreak", "1.7"], "d0");
    bad_input(&["takebreak", "0.07", "-n", "-5"], "negative");
    bad_input(&["takebreak", "0.07", "-n", "abc"], "not a non-negative");
    // every value kept (no extension by the period): beyond memory
    bad_input(
        &["takebreak", "0.07", "-n", "1000000000000", "--no-extend"],
        "too large",
    );
    bad_input(&["takebreak", "0.07", "--heaps", "5,x"], "heap 'x'");
    bad_input(
        &["takebreak", "0.07", "--heaps", "5,99999999999"],
        "too large",
    );
    bad_input(
        &["takebreak", ".77", "--fold", "2", "--check-up-to", "-1"],
        "negative",
    );
    bad_input(
        &["takebreak", ".77", "--check-up-to", "5"],
        "goes with --fold",
    );
    bad_input(
        &["takebreak", ".77", "--max-moves", "5"],
        "goes with --heaps",
    );
    bad_input(
        &["takebreak", ".77", "--fold", "2", "-n", "5"],
        "cannot be used with",
    );
    bad_input(
        &["takebreak", ".77", "--heaps", "3", "--print"],
        "cannot be used with",
    );
    bad_input(
        &["takebreak", "0.F", "--until-period", "-n", "300000"],
        "at most 200000",
    );
}

#[test]
fn rare_classes_are_the_engines_split_of_the_computed_values() {
    let v = json(&[
        "takebreak",
        "0.07",
        "-n",
        "300",
        "--rare-classes",
        "--no-record",
    ]);
    let rc = &v["rare_common"];
    // computed up to the certificate (175); the rest follows from the period
    assert_eq!(rc["counted_up_to"], 175);
    let sum = |key: &str| -> u64 {
        rc[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["count"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(sum("common") + rc["rare_positions"].as_u64().unwrap(), 175);
    assert_eq!(sum("rare"), rc["rare_positions"].as_u64().unwrap());
    // every listed heap size of a rare class has its value and parity
    let g = values("0.07", 175);
    for c in rc["rare"].as_array().unwrap() {
        let q = u64::from(c["heaps"] == "odd");
        for n in c["positions"].as_array().unwrap() {
            let n = n.as_u64().unwrap();
            assert_eq!((g[n as usize], n % 2), (c["value"].as_u64().unwrap(), q));
        }
    }
    // without the flag the report is as before
    assert!(json(&["takebreak", "0.07", "-n", "300", "--no-record"])
        .get("rare_common")
        .is_none());
    bad_input(
        &["takebreak", "0.F", "-n", "10", "--rare-classes"],
        "--rare-classes: the rare/common split is the octal engine's",
    );
    bad_input(
        &["takebreak", "0.07", "--misere", "--rare-classes"],
        "--misere",
    );
}

/// `scripts/check-results.py` (plain Python, independent of the program) accepts a run's own
/// checkpoint and summaries, and reports a forged count, a flipped value and a broken
/// checkpoint (exit status 1, the difference named).
#[test]
fn check_results_script_accepts_a_run_and_reports_forgeries() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("run.ckpt");
    let res = dir.path().join("res");
    // 0.146 to n with a checkpoint
    let takebreak = |n: &str, ckpt: &std::path::Path| {
        let mut cmd = grundy();
        cmd.args(["takebreak", "0.146", "-n", n, "--no-extend", "--no-record"])
            .arg("--checkpoint")
            .arg(ckpt);
        cmd
    };
    takebreak("9000", &ckpt)
        .arg("--results")
        .arg(&res)
        .assert()
        .success();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scripts/check-results.py"
    );
    let check = |ckpt: &std::path::Path, files: &[std::path::PathBuf]| {
        let out = std::process::Command::new("python3")
            .arg(script)
            .arg(ckpt)
            .args(files)
            .output()
            .expect("python3 runs (CI installs it)");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), text)
    };
    let summaries: Vec<_> = [1024, 2048, 4096, 8192]
        .iter()
        .map(|n| res.join("0.146").join(format!("{n}.txt")))
        .collect();
    let (code, text) = check(&ckpt, &summaries);
    assert_eq!(code, Some(0), "{text}");
    // a count changed in a copy of the 8192 summary
    let forged = dir.path().join("8192.txt");
    let original = std::fs::read_to_string(&summaries[3]).unwrap();
    let line = original
        .lines()
        .find(|l| l.starts_with("5 "))
        .expect("a count of value 5");
    let count: u64 = line[2..].parse().unwrap();
    std::fs::write(&forged, original.replace(line, &format!("5 {}", count + 1))).unwrap();
    let (code, text) = check(&ckpt, std::slice::from_ref(&forged));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("the value counts differ"), "{text}");
    // one value flipped in the checkpoint: its CRC no longer matches
    let mut bytes = std::fs::read(&ckpt).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    let broken = dir.path().join("broken.ckpt");
    std::fs::write(&broken, &bytes).unwrap();
    let (code, text) = check(&broken, &summaries[..1]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("CRC-32 DIFFERS"), "{text}");
    // Two records (a run to 5,000, resumed to 9,000 appends), then a value past the older
    // record's count damaged: as the program does, the script trusts the older record — the
    // summaries within it agree, the one past it is not in the checkpoint.
    let two = dir.path().join("two.ckpt");
    let res2 = dir.path().join("res2");
    for n in ["5000", "9000"] {
        takebreak(n, &two)
            .arg("--results")
            .arg(&res2)
            .assert()
            .success();
    }
    let mut bytes = std::fs::read(&two).unwrap();
    let at = bytes.len() - 2000; // a byte of value 8,001 (of 9,001)
    bytes[at] ^= 1;
    std::fs::write(&two, &bytes).unwrap();
    let files: Vec<_> = [4096, 8192]
        .iter()
        .map(|n| res2.join("0.146").join(format!("{n}.txt")))
        .collect();
    let (code, text) = check(&two, &files);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("the older record stands"), "{text}");
    assert!(text.contains("(5001 values)"), "{text}");
    assert!(text.contains("G(0..=4096) agrees"), "{text}");
    assert!(
        text.contains("G(0..=8192) is not in the checkpoint"),
        "{text}"
    );
    assert!(text.contains("CRC-32 agrees"), "{text}");
    // what the script's line promises: the program resumes from the older record
    let copy = dir.path().join("copy.ckpt");
    std::fs::copy(&two, &copy).unwrap();
    let out = takebreak("9000", &copy).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("(G(0..5000) already computed)"), "{err}");
}
