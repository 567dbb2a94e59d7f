//! Helpers for tests that run the real `grundy` binary.
#![allow(dead_code)]

use assert_cmd::Command;

/// The binary under test.
pub fn grundy() -> Command {
    Command::cargo_bin("grundy").expect("the grundy binary is built")
}

/// Run with `--json` and parse stdout as one JSON object; the command must succeed.
pub fn json(args: &[&str]) -> serde_json::Value {
    let out = grundy().args(args).arg("--json").output().expect("runs");
    assert!(
        out.status.success(),
        "grundy {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

/// The command must fail with exit status 2 and exactly one line on stderr containing `needle`.
pub fn bad_input(args: &[&str], needle: &str) {
    let out = grundy().args(args).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "grundy {args:?}: stderr {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected, got: {err}"
    );
    assert!(
        err.contains(needle),
        "grundy {args:?}: {err} lacks {needle:?}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
