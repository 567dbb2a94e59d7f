//! `grundy takebreak --tiered DIR --memory SIZE` through the real binary: the values equal an
//! in-memory run's, a run killed with SIGKILL resumes from its store and gives the one-run
//! result, and bad input is one line with exit status 2.

mod common;
use common::{bad_input, grundy, values_of};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn printed(args: &[&str]) -> (Vec<u64>, serde_json::Value) {
    let out = grundy()
        .args(args)
        .args(["--print", "--json", "--no-record", "--no-extend"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (values_of(&v), v)
}

#[test]
fn tiered_runs_print_the_in_memory_values_on_one_and_two_threads() {
    for (code, n) in [("0.146", "30000"), ("0.6", "50000"), ("0.16", "50000")] {
        let (want, _) = printed(&["takebreak", code, "-n", n, "--no-checkpoint"]);
        for threads in ["1", "2"] {
            let dir = tempfile::tempdir().unwrap();
            let store = dir.path().to_str().unwrap();
            let (got, report) = printed(&[
                "takebreak",
                code,
                "-n",
                n,
                "--tiered",
                store,
                "--memory",
                "32M",
                "--threads",
                threads,
            ]);
            assert_eq!(got, want, "{code} on {threads} threads");
            assert_eq!(report["tiered"]["resumed_from"], 0);
            assert!(report["tiered"]["keep"].as_u64().unwrap() > 0);
            // the same command again resumes from the whole store and computes nothing
            let (again, report) = printed(&[
                "takebreak",
                code,
                "-n",
                n,
                "--tiered",
                store,
                "--memory",
                "32M",
            ]);
            assert_eq!(again, want);
            assert_eq!(
                report["tiered"]["resumed_from"].as_u64(),
                Some(want.len() as u64)
            );
        }
    }
}

#[test]
fn a_run_killed_with_sigkill_resumes_from_its_store_and_equals_one_run() {
    let (code, n) = ("0.146", "120000");
    let (want, _) = printed(&["takebreak", code, "-n", n, "--no-checkpoint"]);
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().to_str().unwrap();
    let args = [
        "takebreak",
        code,
        "-n",
        n,
        "--tiered",
        store,
        "--memory",
        "32M",
        "--checkpoint-every",
        "0.05",
    ];
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .env("XDG_DATA_HOME", dir.path())
        .args(args)
        .args(["--no-record", "--no-extend"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // wait for a state that records some values, then kill without warning
    let state = dir.path().join("state");
    let start = Instant::now();
    let saved = |text: &str| {
        text.split("\"count\":")
            .nth(1)
            .and_then(|t| t.split(',').next())
            .and_then(|c| c.parse::<u64>().ok())
            .unwrap_or(0)
    };
    while saved(&std::fs::read_to_string(&state).unwrap_or_default()) < 20_000 {
        assert!(start.elapsed() < Duration::from_secs(120), "no state saved");
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let (got, report) = printed(&args);
    let resumed = report["tiered"]["resumed_from"].as_u64().unwrap();
    assert!(
        resumed >= 20_000 && resumed < want.len() as u64,
        "{resumed}"
    );
    assert_eq!(got, want);
}

#[test]
fn bad_tiered_input_is_one_line_and_exit_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().to_str().unwrap();
    let missing = dir.path().join("missing");
    bad_input(
        &[
            "takebreak",
            "0.16",
            "-n",
            "1000",
            "--tiered",
            missing.to_str().unwrap(),
            "--memory",
            "64M",
        ],
        "no such directory",
    );
    bad_input(
        &[
            "takebreak",
            "0.16",
            "-n",
            "1000",
            "--tiered",
            store,
            "--memory",
            "10M",
        ],
        // named as the user wrote it (the library says --max-memory)
        "--memory 10 MB is too small for a tiered run",
    );
    bad_input(
        &["takebreak", "0.16", "-n", "1000", "--tiered", store],
        "--tiered needs --max-memory",
    );
    let out = grundy()
        .args(["takebreak", "0.16", "-n", "1000", "--tiered", store])
        .args(["--memory", "64M", "--no-record"])
        .output()
        .unwrap();
    assert!(out.status.success());
    bad_input(
        &[
            "takebreak",
            "0.6",
            "-n",
            "1000",
            "--tiered",
            store,
            "--memory",
            "64M",
        ],
        "belongs to another run",
    );
    let state = dir.path().join("state");
    let text = std::fs::read_to_string(&state).unwrap();
    std::fs::write(&state, text.replace("\"count\":", "\"count\":1")).unwrap();
    bad_input(
        &[
            "takebreak",
            "0.16",
            "-n",
            "1000",
            "--tiered",
            store,
            "--memory",
            "64M",
        ],
        "corrupt",
    );
}
