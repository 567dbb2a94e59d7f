//! Misère play through the real binary: `takebreak/subtraction --misere` (genus of heaps) and
//! `misere-quotient` (Plambeck–Siegel quotients, positions, the plain-search check).

mod common;
use common::{bad_input, grundy, json};

#[test]
fn kayles_genus_is_winning_ways() {
    let v = json(&["takebreak", "kayles", "--misere", "-n", "5"]);
    assert_eq!(v["genus"][5], "4^146");
    assert_eq!(v["genus"][0], "0^120");
    assert_eq!(v["misere_values"][1], 0);
    assert_eq!(v["normal_values"][5], 4);
    let v = json(&[
        "subtraction",
        "--set",
        "1,3,4",
        "--misere",
        "--sequence",
        "8",
    ]);
    assert_eq!(v["genus"].as_array().unwrap().len(), 9);
    bad_input(
        &["subtraction", "--set", "1,2", "--misere", "5"],
        "misere-quotient",
    );
    bad_input(
        &["takebreak", "0.77", "--misere", "--heaps", "5"],
        "--misere",
    );
}

#[test]
fn r8_is_the_quotient_of_075() {
    let v = json(&["misere-quotient", "0.75"]);
    assert_eq!(v["order"], 8);
    assert_eq!(v["p_portion_size"], 2);
    assert_eq!(v["certified"], true);
    assert_eq!(v["recognised"], "R8");
    assert_eq!(v["presentation"], "<a,b,c | a2=1, b3=b, bc=ab, c2=b2>");
    assert_eq!(v["p_portion"], serde_json::json!(["a", "b2"]));
    assert_eq!(v["period"], 2);
    let c = &v["certificate"];
    let need = c["max_heaps_left"].as_u64().unwrap()
        * (c["preperiod"].as_u64().unwrap() + c["period"].as_u64().unwrap())
        + c["max_removed"].as_u64().unwrap()
        - 1;
    assert_eq!(c["required_heap"].as_u64().unwrap(), need);
    assert!(v["computed_to_heap"].as_u64().unwrap() >= need);
}

#[test]
fn dawsons_kayles_partial_quotient_and_positions() {
    let v = json(&["misere-quotient", "0.07", "--max-heap", "30", "--quiet"]);
    assert_eq!(
        (v["order"].as_u64(), v["p_portion_size"].as_u64()),
        (Some(360), Some(65))
    );
    assert_eq!(v["certified"], false);
    // Beyond heap 30 a partial quotient refuses to answer.
    bad_input(
        &[
            "misere-quotient",
            "0.07",
            "--max-heap",
            "12",
            "--quiet",
            "--position",
            "40",
        ],
        "beyond the partial quotient",
    );
    // A winning move leads to a P-position.
    let v = json(&[
        "misere-quotient",
        "kayles",
        "--max-heap",
        "200",
        "--position",
        "5",
        "7",
        "9",
        "300",
    ]);
    assert_eq!(v["certified"], true);
    assert_eq!(v["position"]["outcome"], "N");
    let m = &v["position"]["winning_move"];
    let mut heaps: Vec<u64> = vec![5, 7, 9, 300];
    heaps.remove(m["index"].as_u64().unwrap() as usize);
    heaps.extend(
        m["to"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap()),
    );
    let mut args: Vec<String> = [
        "misere-quotient",
        "kayles",
        "--max-heap",
        "200",
        "--position",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(heaps.iter().map(u64::to_string));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let w = json(&a);
    assert_eq!(w["position"]["outcome"], "P");
    assert!(w["position"]["winning_move"].is_null());
}

#[test]
fn check_against_plain_search_and_bad_input() {
    let v = json(&[
        "misere-quotient",
        "0.137",
        "--max-heap",
        "16",
        "--check",
        "18",
    ]);
    assert_eq!(v["check"]["disagreements"], 0);
    assert!(v["check"]["positions"].as_u64().unwrap() > 300);
    let out = grundy()
        .args(["misere-quotient", "0.75", "--position", "1", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("isomorphic to R8") && text.contains("position 1 2:"),
        "{text}"
    );
    bad_input(&["misere-quotient", "0.7#"], "'#'");
    bad_input(
        &["misere-quotient", "0.77", "--max-heap", "x"],
        "--max-heap",
    );
    bad_input(&["misere-quotient", "0.77", "--timeout", "-1"], "--timeout");
    bad_input(&["misere-quotient", "0.77", "--check", "500"], "--check");
    bad_input(&["misere-quotient", "0.[3]"], "finite code");
    bad_input(&["misere-quotient"], "CODE");
}

#[test]
fn names_caps_and_json_only_on_stdout() {
    // A mistyped name gets takebreak's "did you mean" (both read codes through one parser).
    bad_input(&["misere-quotient", "kayls"], "did you mean 'kayles'?");
    bad_input(&["takebreak", "kayls"], "did you mean 'kayles'?");
    // --max-heap names its real cap, also for numbers past 2^64.
    for n in ["100001", "18446744073709551615", "99999999999999999999"] {
        bad_input(
            &["misere-quotient", "0.07", "--max-heap", n],
            "at most 100000 (every heap's options are kept)",
        );
    }
    // With --json, stdout is exactly one JSON object even when progress lines and the
    // stop note are written (they go to stderr).
    let out = grundy()
        .args([
            "misere-quotient",
            "0.137",
            "--max-heap",
            "40",
            "--timeout",
            "1.5",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["code"], "0.137");
}

/// `--checkpoint`: a run to heap 22 saved, continued to heap 27, reports what one run to 27
/// reports; a checkpoint whose P-portion was edited (with its CRC fixed) is refused in one
/// line; `--memory` too small for the quotient is one line too.
#[test]
fn checkpoint_resume_and_memory() {
    let dir = std::env::temp_dir().join(format!("grundy-cli-mq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ck = dir.join("q.ck");
    let ck_s = ck.to_str().unwrap();
    let _ = std::fs::remove_file(&ck);
    let strip = |mut v: serde_json::Value| {
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    json(&[
        "misere-quotient",
        "0.07",
        "--max-heap",
        "22",
        "--checkpoint",
        ck_s,
    ]);
    assert!(ck.exists());
    let resumed = strip(json(&[
        "misere-quotient",
        "0.07",
        "--max-heap",
        "27",
        "--checkpoint",
        ck_s,
    ]));
    let one = strip(json(&["misere-quotient", "0.07", "--max-heap", "27"]));
    assert_eq!(resumed, one);
    // Edit one P-portion byte (the byte before the heap count and the 28 Φ words) and fix
    // the CRC: intact, but false.
    let mut b = std::fs::read(&ck).unwrap();
    b.truncate(b.len() - 4);
    let at = b.len() - 4 * 28 - 4 - 3;
    b[at] ^= 1;
    let crc = crc32fast::hash(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    std::fs::write(&ck, &b).unwrap();
    bad_input(
        &[
            "misere-quotient",
            "0.07",
            "--max-heap",
            "28",
            "--checkpoint",
            ck_s,
        ],
        "cannot be true",
    );
    // A run that outgrows --memory reports the partial quotient it reached (exit status 0),
    // names the limit on stderr and in `limit`.
    let out = grundy()
        .args([
            "misere-quotient",
            "0.07",
            "--max-heap",
            "33",
            "--memory",
            "1M",
            "--quiet",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["finish"], "limit");
    assert_eq!(v["certified"], false);
    assert!(v["limit"].as_str().unwrap().contains("--memory"), "{v}");
    let n = v["computed_to_heap"].as_u64().unwrap();
    assert!(n < 33 && v["orders"].as_array().unwrap().len() as u64 == n + 1);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--memory") && err.contains(&format!("Q_{n}")),
        "{err}"
    );
    bad_input(
        &["misere-quotient", "0.07", "--memory", "lots"],
        "--memory 'lots'",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `census --misere-quotients`: a row per code in the catalogue, a second census takes them
/// from it, a code stopped by its timeout is recorded as the partial quotient it reached (not
/// certified), and `catalogue --misere` lists the rows.
#[test]
fn quotient_census_records_resumes_and_lists() {
    let dir = std::env::temp_dir().join(format!("grundy-cli-mqc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("q.sqlite3");
    let db_s = db.to_str().unwrap();
    let _ = std::fs::remove_file(&db);
    let args = [
        "census",
        "0.5?",
        "--misere-quotients",
        "--max-heap",
        "30",
        "--db",
        db_s,
    ];
    let first = json(&args);
    assert_eq!(
        (first["codes"].as_u64(), first["skipped"].as_u64()),
        (Some(8), Some(0))
    );
    let rows = first["rows"].as_array().unwrap();
    let r52 = rows.iter().find(|r| r["code"] == "0.52").unwrap();
    assert_eq!(
        (r52["order"].as_u64(), r52["certified"].as_bool()),
        (Some(6), Some(true))
    );
    let r53 = rows.iter().find(|r| r["code"] == "0.53").unwrap();
    assert_eq!(
        (r53["finish"].as_str(), r53["certified"].as_bool()),
        (Some("max_heap"), Some(false))
    );
    let second = json(&args);
    assert_eq!(second["skipped"], 8);
    assert_eq!(second["rows"], first["rows"]);
    // Kayles to heap 200 within 1 ms: stopped, recorded honestly.
    let partial = json(&[
        "census",
        "0.77",
        "--misere-quotients",
        "--max-heap",
        "200",
        "--timeout",
        "0.001",
        "--db",
        db_s,
    ]);
    let r = &partial["rows"][0];
    assert_eq!(
        (r["finish"].as_str(), r["certified"].as_bool()),
        (Some("stopped"), Some(false)),
        "{r}"
    );
    assert!(r["computed_to_heap"].as_u64().unwrap() < 167, "{r}");
    let listed = json(&["catalogue", "--misere", "--db", db_s]);
    assert_eq!(listed["count"], 9);
    let one = json(&["catalogue", "--misere", "0.52", "--db", db_s]);
    assert_eq!(one["quotients"][0], *r52);
    assert_eq!(
        json(&["catalogue", "--misere", "0.77", "--db", db_s])["quotients"][0],
        *r
    );
    bad_input(
        &[
            "census",
            "0.5?",
            "--misere-quotients",
            "--timeout",
            "-1",
            "--no-record",
        ],
        "--timeout",
    );
    bad_input(
        &["census", "0.5?", "--max-heap", "30"],
        "--misere-quotients",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
