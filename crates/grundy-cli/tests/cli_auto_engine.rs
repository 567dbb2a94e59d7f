//! `--engine auto` (the default for octal codes) through the real binary: the values are the
//! naive engine's whichever engine it chooses, the engine it reports is one that computed, and
//! its checkpoints resume.

mod common;
use common::{grundy, json, values_of};

fn run(code: &str, n: &str, engine: &str) -> serde_json::Value {
    json(&[
        "takebreak",
        code,
        "-n",
        n,
        "--print",
        "--no-extend",
        "--no-record",
        "--no-checkpoint",
        "--engine",
        engine,
    ])
}

#[test]
fn auto_gives_the_naive_engines_values_and_names_an_engine_that_computed() {
    // large values (0.346, 0.414: auto tends to hand over to naive), sparse spaces (0.16, 0.6),
    // no sparse space (0.07), others
    for (code, n) in [
        ("0.346", "30000"),
        ("0.414", "30000"),
        ("0.437", "20000"),
        ("0.16", "30000"),
        ("0.6", "30000"),
        ("0.07", "20000"),
        ("0.137", "20000"),
        ("4.7", "5000"),
    ] {
        let auto = run(code, n, "auto");
        let naive = run(code, n, "naive");
        assert_eq!(values_of(&auto), values_of(&naive), "{code}");
        for key in ["n", "period", "max_value", "value_counts"] {
            assert_eq!(auto[key], naive[key], "{code} {key}");
        }
        let engine = auto["engine"].as_str().unwrap();
        assert!(["sparse", "naive"].contains(&engine), "{code}: {engine}");
    }
}

#[test]
fn a_switch_is_told_and_the_reported_engine_is_the_last_chosen() {
    let out = grundy()
        .args([
            "takebreak",
            "0.414",
            "-n",
            "60000",
            "--no-extend",
            "--no-record",
            "--no-checkpoint",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let engine = v["engine"].as_str().unwrap();
    match err.lines().find(|l| l.contains("engine auto:")) {
        // "grundy: note: engine auto: sparse, then naive from n = 26112"
        Some(line) => {
            let last = line.rsplit(", then ").next().unwrap();
            assert!(last.starts_with(engine), "{line} vs {engine}");
        }
        None => assert_eq!(engine, "sparse", "{err}"),
    }
}

#[test]
fn an_auto_checkpoint_resumes_bit_identically() {
    let dir = std::env::temp_dir().join(format!("grundy-auto-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ckpt = dir.join("a.ckpt");
    let ckpt = ckpt.to_str().unwrap();
    // 64 MiB fixed + 2.125 bytes per value: room for exactly 20000 values
    let budget = ((64u64 << 20) + 42_500).to_string();
    let args = ["takebreak", "0.346", "-n", "40000", "--no-record"];
    let out = grundy()
        .args(args)
        .args(["--checkpoint", ckpt, "--max-memory", &budget])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("saved to"), "{err}");
    // the checkpoint is auto's: another engine refuses it
    let out = grundy()
        .args(args)
        .args(["--engine", "sparse", "--checkpoint", ckpt])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("engine auto"), "{err}");
    let mut resumed_args = args.to_vec();
    resumed_args.extend(["--print", "--checkpoint", ckpt]);
    let resumed = json(&resumed_args);
    let naive = run("0.346", "40000", "naive");
    assert_eq!(values_of(&resumed), values_of(&naive));
    assert_eq!(resumed["value_counts"], naive["value_counts"]);
    std::fs::remove_dir_all(dir).unwrap();
}
