//! `grundy takebreak --threads N`: the same values on two threads as on one (the rare/common
//! engine's pipeline), recorded in `--json`, noted where it is not used, refused when bad, and
//! Ctrl-C still saves a checkpoint the run resumes from bit-identically.

mod common;

use common::{bad_input, grundy, json, signalled, values_of};
use grundy::takebreak::sparse::RareCommon;
use grundy::takebreak::{compute, Finish, Rules};
use std::time::Duration;

/// G(0..=n) of `code` from the library's serial engine.
fn library_values(code: &str, n: usize) -> Vec<u64> {
    let rules = Rules::parse(code).unwrap();
    let mut engine = RareCommon::for_rules(&rules).unwrap();
    let c = compute(&rules, n, Finish::ComputeAll, &mut engine, None).unwrap();
    c.values.iter().map(|v| v as u64).collect()
}

#[test]
fn two_threads_print_the_values_of_one() {
    for engine in ["auto", "sparse"] {
        let run = |threads: &str| {
            json(&[
                "takebreak",
                "officers",
                "-n",
                "300000",
                "--print",
                "--engine",
                engine,
                "--threads",
                threads,
                "--no-checkpoint",
                "--no-record",
            ])
        };
        let (one, two) = (run("1"), run("2"));
        assert_eq!(one["threads"], 1);
        assert_eq!(two["threads"], 2, "{engine}");
        assert_eq!(values_of(&two), values_of(&one));
        assert_eq!(values_of(&two), library_values("0.6", 300_000));
        assert_eq!(two["value_counts"], one["value_counts"]);
    }
}

#[test]
fn json_says_how_many_bytes_each_value_took_and_the_values_are_the_same() {
    // 0.16 stays below 256; Officers passes 255 first at heap 10,344 (so the store moves to
    // u16 during the run to 20,000, inside a batch of the pipeline on two threads)
    for (code, library, n, bytes) in [
        ("0.16", "0.16", 20_000, 1),
        ("officers", "0.6", 10_000, 1),
        ("officers", "0.6", 20_000, 2),
        ("0.437", "0.437", 5_000, 2),
    ] {
        for threads in ["1", "2"] {
            let n_text = n.to_string();
            let v = json(&[
                "takebreak",
                code,
                "-n",
                &n_text,
                "--no-extend",
                "--print",
                "--threads",
                threads,
                "--no-checkpoint",
                "--no-record",
            ]);
            assert_eq!(v["value_bytes"], bytes, "{code} -n {n}, {threads} threads");
            assert_eq!(values_of(&v), library_values(library, n), "{code} -n {n}");
        }
    }
}

/// `grundy takebreak ARGS --no-checkpoint --no-record`, which must succeed: (stdout, stderr).
fn takebreak(args: &[&str]) -> (String, String) {
    let out = grundy()
        .arg("takebreak")
        .args(args)
        .args(["--no-checkpoint", "--no-record"])
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    (text(&out.stdout), text(&out.stderr))
}

#[test]
fn where_threads_are_not_used_a_note_says_so() {
    // 0.07 runs in the dense mode (a third of its positions are rare), on one thread
    let (out, err) = takebreak(&["0.07", "-n", "1000", "--threads", "2", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["threads"], 1);
    assert!(err.contains("note: --threads 2"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // the naive engine and the general engine
    for args in [
        &["0.6", "-n", "500", "--engine", "naive", "--threads", "0"][..],
        &["0.[3]", "-n", "50", "--threads", "2"][..],
    ] {
        let (_, err) = takebreak(args);
        assert!(err.contains("note: --threads"), "{args:?}: {err}");
    }
    // one thread asked for: no note
    let (_, err) = takebreak(&["0.07", "-n", "1000"]);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn compact_values_say_when_the_values_stayed_in_two_bytes() {
    // Officers past 2^16 moves to one byte a value with the rare/common engine: no note
    let (out, err) = takebreak(&["officers", "-n", "140000", "--compact-values", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value_bytes"], 1);
    assert!(err.is_empty(), "{err}");
    // the naive engine, a run too short, a game whose values do not fit: a note each
    for args in [
        &["officers", "-n", "70000", "--engine", "naive"][..],
        &["officers", "-n", "20000"][..],
        &["0.437", "-n", "70000"][..],
    ] {
        let mut args = args.to_vec();
        args.extend(["--compact-values", "--json"]);
        let (out, err) = takebreak(&args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["value_bytes"], 2, "{args:?}");
        assert!(err.contains("note: --compact-values"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn compact_values_resume_into_bytes_from_a_checkpoint() {
    // a resumed run reads its checkpoint (two bytes a value on file) straight into bytes with
    // a head: a run that only loads it says one byte a value (it computed nothing to narrow)
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("officers.ckpt");
    let file = file.to_str().unwrap();
    for resumed in [false, true] {
        let out = grundy()
            .args([
                "takebreak",
                "officers",
                "-n",
                "140000",
                "--compact-values",
                "--json",
            ])
            .args(["--checkpoint", file, "--no-record", "--print"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.contains("resuming from checkpoint"), resumed, "{err}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["value_bytes"], 1, "resumed: {resumed}");
        assert_eq!(values_of(&v), library_values("0.6", 140_000));
    }
}

#[test]
fn a_run_that_only_loads_its_checkpoint_says_nothing_of_threads() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("g.ckpt");
    let run = |n: &str, threads: &str| {
        let out = grundy_in(dir.path())
            .args(["takebreak", "0.07", "-n", n, "--no-extend", "--no-record"])
            .args(["--threads", threads, "--checkpoint"])
            .arg(&ck)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        err
    };
    run("1000", "1");
    // everything is in the checkpoint: nothing computed, on any number of threads
    let err = run("1000", "2");
    assert!(err.contains("resuming from checkpoint"), "{err}");
    assert!(!err.contains("--threads"), "{err}");
    // past it, the dense mode computes on one thread, and says so
    let err = run("2000", "2");
    assert!(err.contains("note: --threads 2"), "{err}");
}

#[test]
fn bad_thread_counts_are_one_line_and_exit_2() {
    bad_input(&["takebreak", "0.6", "--threads", "abc"], "--threads");
    bad_input(&["takebreak", "0.6", "--threads", "-1"], "--threads");
    bad_input(&["takebreak", "0.6", "--threads", "5000"], "at most 256");
    bad_input(&["takebreak", "0.6", "--threads", ""], "--threads");
}

/// The binary with its user data directory in `data`.
fn grundy_in(data: &std::path::Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"));
    cmd.env("XDG_DATA_HOME", data).env_remove("GRUNDY_DB");
    cmd
}

#[test]
fn ctrl_c_on_two_threads_saves_a_checkpoint_and_the_run_resumes_bit_identically() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("threads.ckpt");
    let c = ckpt.to_str().unwrap();
    let out = signalled(
        grundy_in(dir.path())
            .args(["takebreak", "officers", "-n", "20000000", "--checkpoint", c])
            .args([
                "--checkpoint-every",
                "1000",
                "--no-record",
                "--threads",
                "2",
            ]),
        "-INT",
        Duration::from_millis(1500),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("saved to"), "{err}");
    let saved = grundy::takebreak::checkpoint::load(&ckpt, usize::MAX)
        .unwrap()
        .unwrap();
    let k = saved.count;
    assert!(k > 0 && k < 20_000_001, "{k}");
    // resume on two threads a little further: every value is the serial engine's
    let n = (k + 5000).to_string();
    let out = grundy_in(dir.path())
        .args(["takebreak", "officers", "-n", &n, "--checkpoint", c])
        .args(["--no-record", "--print", "--json", "--threads", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming from checkpoint"));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(values_of(&v), library_values("0.6", k + 5000));
}

#[test]
fn a_memory_budget_that_holds_the_values_only_in_bytes_runs_in_bytes() {
    // 64 MiB (the fixed allowance) and 500,000 bytes: 235,294 values in two bytes each, 444,444
    // in one. G(0..=300000) is refused by two bytes a value, not by one
    let budget = ((64u64 << 20) + 500_000).to_string();
    let dir = tempfile::tempdir().unwrap();
    let run = |code: &str, checkpoint: &str| {
        grundy()
            .args(["takebreak", code, "-n", "300000", "--no-extend", "--json"])
            .args(["--max-memory", &budget, "--no-record", "--checkpoint"])
            .arg(dir.path().join(checkpoint))
            .output()
            .unwrap()
    };
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    // Officers: kept in one byte a value (compact values turned on, and said so), the values
    // those of the serial engine
    let out = run("officers", "officers.ckpt");
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("only in one byte a value") && err.contains("its checkpoint saved"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["value_bytes"], 1);
    let expected = library_values("officers", 300_000);
    let counts = v["value_counts"].as_array().unwrap();
    for (value, count) in counts.iter().enumerate() {
        let want = expected.iter().filter(|&&g| g == value as u64).count() as u64;
        assert_eq!(count.as_u64().unwrap(), want, "G = {value}");
    }
    // a checkpoint someone hands over that is not one: refused in one line, before the note
    std::fs::write(dir.path().join("junk.ckpt"), b"not a checkpoint at all").unwrap();
    let out = run("officers", "junk.ckpt");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("corrupt"), "{err}");
    // 0.206 needs two bytes a value from heap 9,813: it stops where two bytes reach the
    // budget, one line and exit status 2, every value computed kept in its checkpoint
    let out = run("0.206", "206.ckpt");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let last = err.lines().last().unwrap();
    assert!(
        last.contains("stopped after G(0..235293)")
            && last.contains("two bytes a value")
            && last.contains("206.ckpt"),
        "{err}"
    );
    // without the budget the same command resumes from it to the end
    let out = grundy()
        .args([
            "takebreak",
            "0.206",
            "-n",
            "300000",
            "--no-extend",
            "--json",
        ])
        .args(["--no-record", "--checkpoint"])
        .arg(dir.path().join("206.ckpt"))
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("G(0..235293) already computed"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected = library_values("0.206", 300_000);
    assert_eq!(v["max_value"], *expected.iter().max().unwrap());
}
