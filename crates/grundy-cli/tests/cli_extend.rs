//! Sequences extended by their certified period, the memory budget that replaced the fixed
//! ceiling on n, and progress for runs whose stderr is a log — through the real binary.

mod common;
use common::{bad_input, grundy, json, values_of};

#[test]
fn extended_values_equal_computed_values() {
    for (code, n) in [
        ("0.07", "3000"),
        ("0.77", "2500"),
        ("0.137", "4000"),
        ("4.07", "999"),
    ] {
        let ext = json(&["takebreak", code, "-n", n, "--print", "--no-record"]);
        let all = json(&[
            "takebreak",
            code,
            "-n",
            n,
            "--print",
            "--no-extend",
            "--no-record",
        ]);
        assert!(all.get("computed_up_to").is_none(), "{code}");
        assert_eq!(
            ext["computed_up_to"], ext["period"]["certified_at"],
            "{code}"
        );
        assert_eq!(values_of(&ext), values_of(&all), "{code}");
        for key in ["n", "period", "max_value", "value_counts"] {
            assert_eq!(ext[key], all[key], "{code} {key}");
        }
    }
    // 0.16 certifies at n = 509621: counts to 600000 without and with the extension
    let ext = json(&["takebreak", "0.16", "-n", "600000", "--no-record"]);
    let all = json(&[
        "takebreak",
        "0.16",
        "-n",
        "600000",
        "--no-extend",
        "--no-record",
    ]);
    assert_eq!(ext["computed_up_to"], 509621);
    assert_eq!(ext["value_counts"], all["value_counts"]);
}

#[test]
fn a_certified_game_runs_to_any_n_without_storing_it() {
    let v = json(&["takebreak", "0.07", "-n", "1000000000000", "--no-record"]);
    assert_eq!(v["n"], 1_000_000_000_000u64);
    assert_eq!(v["computed_up_to"], 175);
    let total: u64 = v["value_counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(total, 1_000_000_000_001);
    let out = grundy()
        .args(["takebreak", "0.07", "-n", "1000000000000", "--no-record"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "G(0..=1000000000000): computed G(0..=175) (176 values), the rest by the certified period"
        ),
        "{text}"
    );
}

#[test]
fn memory_is_the_limit_and_is_checked_up_front() {
    // every value must be kept: refused before the run
    bad_input(
        &["takebreak", "0.07", "-n", "1000000000000", "--no-extend"],
        "all 1000000000001 values must be computed and kept",
    );
    bad_input(
        &[
            "takebreak",
            "0.07",
            "-n",
            "3000000",
            "--print",
            "--max-memory",
            "65M",
        ],
        "are allowed by --max-memory",
    );
    bad_input(
        &["takebreak", "0.07", "--max-memory", "lots"],
        "is not a size",
    );
    // a budget below the fixed allowance is refused before any run, in the user's spelling
    bad_input(
        &["takebreak", "0.6", "-n", "100", "--max-memory", "1K"],
        "--max-memory allows 1024 bytes, not enough for any run",
    );
    bad_input(
        &["takebreak", "0.6", "-n", "100", "--memory=20M"],
        "--memory allows 20 MB, not enough for any run",
    );
    // the search for a period sizes its default limit from the same budget, and refuses it
    // the same way (it used to subtract one from no values at all)
    bad_input(
        &["takebreak", "0.6", "--until-period", "--memory", "1K"],
        "--memory allows 1024 bytes, not enough for any run",
    );
    // (the picture's place exists: a missing directory is refused first, for its own reason)
    let pictures = tempfile::tempdir().unwrap();
    let svg = pictures.path().join("x.svg");
    bad_input(
        &[
            "takebreak",
            "0.07",
            "-n",
            "100000001",
            "--svg",
            svg.to_str().unwrap(),
        ],
        "too large for a picture",
    );
    assert!(!svg.exists(), "nothing drawn for a refused picture");
    // a run that may end by a certificate starts, is told where its budget will stop it, and
    // stops clearly when the budget runs out: the note, then the one line of the error.
    // Officers' values are below 256 up to heap 10,343: the budget holds 4,933 of them in two
    // bytes, 9,320 in the one byte each they take
    let out = grundy()
        .args(["takebreak", "0.6", "-n", "100000", "--max-memory", "64.01M"])
        .args(["--no-checkpoint", "--no-record"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let lines: Vec<&str> = err.trim_end().lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].contains("holds 9320 values in one byte each")
            && lines[0].contains("the run stops after G(0..=9319)"),
        "{err}"
    );
    assert!(
        lines[1].contains("among the first 9320 values")
            && lines[1].contains("needs more memory than allowed"),
        "{err}"
    );
    // the same budget is plenty for a game certified early
    let v = json(&[
        "takebreak",
        "0.07",
        "-n",
        "100000000",
        "--max-memory",
        "64.01M",
        "--no-record",
    ]);
    assert_eq!(v["computed_up_to"], 175);
}

#[test]
fn a_run_stopped_by_its_budget_resumes_bit_identically_with_more_memory() {
    let dir = std::env::temp_dir().join(format!("grundy-extend-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ckpt = dir.join("o.ckpt");
    let ckpt = ckpt.to_str().unwrap();
    // 64 MiB fixed + 2.125 bytes per value: room for exactly 100000 values
    let budget = ((64u64 << 20) + 212_500).to_string();
    let out = grundy()
        .args([
            "takebreak",
            "0.6",
            "-n",
            "300000",
            "--no-record",
            "--checkpoint",
            ckpt,
        ])
        .args(["--max-memory", &budget])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the first 100000 values") && err.contains("saved to"),
        "{err}"
    );
    // and it was told before the work where the budget would stop it
    assert!(err.contains("stops after G(0..=99999)"), "{err}");
    let print = |checkpoint: &[&str]| {
        let mut args = vec!["takebreak", "0.6", "-n", "300000", "--no-record", "--print"];
        args.extend_from_slice(checkpoint);
        json(&args)
    };
    let resumed = print(&["--checkpoint", ckpt]);
    let once = print(&["--no-checkpoint"]);
    assert_eq!(values_of(&resumed), values_of(&once));
    assert_eq!(resumed["value_counts"], once["value_counts"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_period_search_is_reported() {
    // Dawson's Kayles before its certificate (n = 175): period 34 from 53 is the candidate
    let v = json(&["takebreak", "0.07", "-n", "150", "--no-record"]);
    assert!(v["period"].is_null());
    let c = &v["period_search"];
    assert_eq!(
        (c["period"].as_u64(), c["preperiod"].as_u64()),
        (Some(34), Some(53))
    );
    assert_eq!(c["certificate_at"], 175);
    // once certified there is nothing to search for
    let v = json(&["takebreak", "0.07", "-n", "300", "--no-record"]);
    assert!(v.get("period_search").is_none(), "{v}");
}

#[test]
fn a_log_gets_plain_progress_lines() {
    let out = grundy()
        .args([
            "takebreak",
            "0.6",
            "-n",
            "100000",
            "--no-record",
            "--no-checkpoint",
        ])
        .env("GRUNDY_PROGRESS_SECONDS", "0")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    // a line at each chunk's end at a multiple of 4096: the rare/common engine's chunks double
    // while they take under 25 ms (4096, 8192, 16384, 32768, 65536 here at the fastest)
    assert!(lines.len() >= 4, "{err}");
    for (k, line) in lines.iter().enumerate() {
        assert!(line.starts_with("grundy: 0.6: G(0.."), "{line}");
        // the rate counts from the first tick: a line printed at that tick has none yet
        let rate = line.contains("M values/s, eta");
        let first = k == 0 && line.contains("rate not measured yet, eta unknown");
        assert!(line.contains("of 100001") && (rate || first), "{line}");
        assert!(line.contains("period search:"), "{line}");
        // where the run stands (issue 25): the largest value so far and its first heap; no
        // checkpoint is kept here, so no checkpoint size
        assert!(line.contains("; largest value "), "{line}");
        assert!(!line.contains("checkpoint"), "{line}");
    }
}

#[test]
fn a_budget_limited_run_counts_its_progress_to_where_its_width_stops_it() {
    // 64 MiB fixed + 2.125 bytes per value: 100,000 values in two bytes, more in one. 0.206's
    // values pass 255 at heap 9,813, so the run starts in bytes and then needs two: its
    // progress lines count towards where two bytes a value stop it once they do, as the note
    // says, not towards the one-byte limit it started with
    let budget = ((64u64 << 20) + 212_500).to_string();
    let out = grundy()
        .args([
            "takebreak",
            "0.206",
            "-n",
            "1000000",
            "--max-memory",
            &budget,
        ])
        .args(["--no-record", "--no-checkpoint"])
        .env("GRUNDY_PROGRESS_SECONDS", "0")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let progress: Vec<&str> = err.lines().filter(|l| l.contains(": G(0..")).collect();
    assert!(progress.len() >= 3, "{err}");
    assert!(progress[0].contains("G(0..4096) of "), "{err}");
    assert!(!progress[0].contains("of 100000 "), "{err}");
    let last = progress.last().unwrap();
    assert!(last.contains(" of 100000 ("), "{err}");
    assert!(err.contains("among the first 100000 values"), "{err}");
}

#[test]
fn positions_with_heaps_beyond_the_computed_values() {
    // 0.07 certifies at 175: heaps of billions are read from the period
    let v = json(&["takebreak", "0.07", "--heaps", "1000000000,7,3000000000"]);
    assert_eq!(v["heap_values"], serde_json::json!([3, 1, 2]));
    assert_eq!(v["outcome"], "P");
    let big = json(&[
        "takebreak",
        "0.77",
        "--heaps",
        "200105,9",
        "--max-moves",
        "20",
    ]);
    let v = json(&["takebreak", "0.77", "--heaps", "101,9", "--max-moves", "20"]);
    // G(200105) = G(101) since 200105 - 101 is a multiple of Kayles' period 12 (both >= 71)
    assert_eq!(big["heap_values"][0], v["heap_values"][0]);
    assert_eq!(big["grundy_value"], v["grundy_value"]);
    bad_input(
        &["takebreak", "0.F", "--heaps", "200001"],
        "larger heaps need rules with the periodicity theorem",
    );
    bad_input(
        &["takebreak", "0.07", "--heaps", "4294967296"],
        "at most 4294967295",
    );
}
