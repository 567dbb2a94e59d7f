//! Helpers for tests that run the real `grundy` binary.
#![allow(dead_code)]

use assert_cmd::Command;

/// The binary under test. Its user data directory (results catalogue, default checkpoints)
/// is a scratch directory, so tests never touch the real one.
pub fn grundy() -> Command {
    let mut cmd = Command::cargo_bin("grundy").expect("the grundy binary is built");
    cmd.env("XDG_DATA_HOME", scratch_data_home())
        .env_remove("GRUNDY_DB");
    cmd
}

/// The scratch user data directory of this test binary: inside this build's target directory
/// (cargo's `CARGO_TARGET_TMPDIR`) and named after the test binary, so clones, worktrees and the
/// test binaries of one run never share a catalogue (a shared one let another checkout's newer
/// catalogue schema leak into these tests' output).
pub fn scratch_data_home() -> std::path::PathBuf {
    let binary = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "tests".into());
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("grundy-cli-tests-data")
        .join(binary)
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

/// The values G(0), G(1), ... of a `takebreak --print --json` report.
pub fn values_of(v: &serde_json::Value) -> Vec<u64> {
    v["values"]
        .as_array()
        .expect("values printed")
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
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

/// Start `cmd` (stdout discarded, stderr kept), send it `signal` (e.g. `-INT`) after `after`,
/// and return how it ended; it must end within a minute of the signal.
pub fn signalled(
    cmd: &mut std::process::Command,
    signal: &str,
    after: std::time::Duration,
) -> std::process::Output {
    use std::process::Stdio;
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(after);
    let pid = child.id().to_string();
    assert!(std::process::Command::new("kill")
        .args([signal, &pid])
        .status()
        .unwrap()
        .success());
    let start = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(60));
    out
}
