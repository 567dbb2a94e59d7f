//! `grundy cram` / `grundy chomp` with `--checkpoint FILE` through the real binary: the table is
//! saved and loaded again, Ctrl-C saves it (exit 130) and the next run resumes from it, and a
//! corrupt or foreign file is refused with one line and exit status 2.

mod common;
use common::{bad_input, grundy, json, signalled};
use std::time::Duration;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_saved_table_answers_the_next_run_without_search() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("chomp.table");
    let t = table.to_str().unwrap();
    let plain = json(&["chomp", "9x9"]);
    let first = json(&["chomp", "9x9", "--checkpoint", t]);
    assert_eq!(first["grundy_value"], plain["grundy_value"]);
    assert_eq!(first["winning_moves"], plain["winning_moves"]);
    assert!(table.exists());
    let out = grundy()
        .args(["chomp", "9x9", "--checkpoint", t, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.starts_with("grundy: note: resuming from table") && err.lines().count() == 1,
        "{err}"
    );
    let again: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again["grundy_value"], plain["grundy_value"]);
    assert_eq!(again["winning_moves"], plain["winning_moves"]);
    assert!(again["search"]["nodes"].as_u64().unwrap() < 10, "{again}");
    // One Chomp table serves every shape; a Cram board is another game.
    let other = json(&["chomp", "--shape", "9,7,7,2", "--checkpoint", t]);
    assert_eq!(
        other["grundy_value"],
        json(&["chomp", "--shape", "9,7,7,2"])["grundy_value"]
    );
    bad_input(
        &["cram", "3x4", "--checkpoint", t],
        "belongs to another run (its game is 'chomp'",
    );
}

#[test]
fn ctrl_c_saves_the_table_and_the_next_run_resumes_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("big.table");
    let t = table.to_str().unwrap();
    // Chomp 13x13 runs far longer than the second before the signal.
    let out = signalled(
        std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
            .args(["chomp", "13x13", "--checkpoint", t])
            .args(["--checkpoint-every", "1000"]),
        "-INT",
        Duration::from_millis(1500),
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    let last = err.trim_end().rsplit(['\n', '\r']).next().unwrap();
    assert!(
        last.starts_with("grundy: interrupted: ")
            && last.ends_with("run the same command again to resume"),
        "{err}"
    );
    // No periodic save could have happened (every 1000 s): the signal saved it. The next run
    // starts from it, and its answers equal a run without a table.
    let out = grundy()
        .args(["chomp", "10x10", "--checkpoint", t, "--json"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(err.contains("resuming from table"), "{err}");
    let resumed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let plain = json(&["chomp", "10x10"]);
    assert_eq!(resumed["grundy_value"], plain["grundy_value"]);
    assert_eq!(resumed["winning_moves"], plain["winning_moves"]);
    assert!(resumed["search"]["nodes"].as_u64() < plain["search"]["nodes"].as_u64());
}

#[test]
fn corrupt_and_unusable_table_files_are_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    std::fs::write(path("junk"), "not a table at all").unwrap();
    bad_input(
        &["cram", "3x4", "--checkpoint", &path("junk")],
        "is corrupt (not a grundy table file)",
    );
    let good = path("good.table");
    json(&["cram", "3x4", "--checkpoint", &good]);
    let mut bytes = std::fs::read(&good).unwrap();
    let n = bytes.len();
    bytes[n - 9] ^= 1;
    std::fs::write(&good, &bytes).unwrap();
    bad_input(&["cram", "3x4", "--checkpoint", &good], "checksum mismatch");
    std::fs::write(&good, &bytes[..n - 1]).unwrap();
    bad_input(&["cram", "3x4", "--checkpoint", &good], "corrupt");
    json(&["cram", "3x4", "--checkpoint", &path("g2")]);
    bad_input(
        &["cram", "4x3", "--checkpoint", &path("g2")],
        "its board is '3x4 grid', this search's is '4x3 grid'",
    );
    bad_input(
        &["cram", "3x4", "--checkpoint", "/dev/null"],
        "'/dev/null': is not a regular file",
    );
    bad_input(
        &["chomp", "3x4", "--checkpoint", &path("none/x.table")],
        "does not exist",
    );
    bad_input(&["cram", "3x4", "--checkpoint-every", "5"], "--checkpoint");
    // The library's checks of --threads (the same words as Python's ValueError).
    bad_input(
        &["cram", "3x4", "--checkpoint", &path("t"), "--threads", "2"],
        "--threads 2 cannot be used with --checkpoint: a saved table is searched on one thread",
    );
    assert!(!std::path::Path::new(&path("t")).exists());
    bad_input(
        &["chomp", "3x4", "--threads", "300"],
        "--threads 300 is too many: at most 256 (0 for one per core)",
    );
    bad_input(
        &[
            "cram",
            "3x4",
            "--checkpoint",
            &path("x"),
            "--checkpoint-every",
            "0",
        ],
        "positive number of seconds",
    );
}
