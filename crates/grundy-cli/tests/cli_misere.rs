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
    bad_input(
        &[
            "misere-quotient",
            "0.07",
            "--max-heap",
            "33",
            "--memory",
            "1M",
            "--quiet",
        ],
        "--memory",
    );
    bad_input(
        &["misere-quotient", "0.07", "--memory", "lots"],
        "--memory 'lots'",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
