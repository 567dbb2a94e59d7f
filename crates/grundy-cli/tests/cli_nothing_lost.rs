//! Nothing is lost, nothing is written behind the user's back, and pictures need no system
//! library — through the real binary: concurrent runs, short runs beside long checkpoints,
//! read-only places, SIGTERM, paths the user chose, the default catalogue, fonts.

mod common;
use common::{bad_input, signalled, values_of};
use grundy::takebreak::checkpoint;
use grundy::takebreak::sparse::RareCommon;
use grundy::takebreak::{compute, Finish, Rules};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// The binary with its own user data directory `data` (and no `GRUNDY_DB`).
fn grundy_in(data: &Path) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("grundy"));
    cmd.env("XDG_DATA_HOME", data).env_remove("GRUNDY_DB");
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Values of a `--print --json` run.
fn printed_values(out: &Output) -> Vec<u64> {
    assert!(out.status.success(), "{}", text(&out.stderr));
    values_of(&serde_json::from_slice(&out.stdout).expect("one JSON object"))
}

/// G(0..=n) of `code` from the library, without the binary or any checkpoint.
fn library_values(code: &str, n: usize) -> Vec<u64> {
    let rules = Rules::parse(code).unwrap();
    let mut engine = RareCommon::for_rules(&rules).unwrap();
    let c = compute(&rules, n, Finish::ComputeAll, &mut engine, None).unwrap();
    c.values.iter().map(|v| v as u64).collect()
}

/// Make `path` (a file or a directory) unwritable even for root: permissions first, and
/// where they do not stop writes (root) the immutable attribute. Undone by the guard.
struct ReadOnly(PathBuf);

impl ReadOnly {
    fn new(path: &Path) -> ReadOnly {
        use std::os::unix::fs::PermissionsExt;
        let mode = if path.is_dir() { 0o555 } else { 0o444 };
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
        let guard = ReadOnly(path.to_path_buf());
        if guard.writable() {
            let status = Command::new("chattr").arg("+i").arg(path).status();
            assert!(
                status.is_ok_and(|s| s.success()),
                "cannot make {} read-only here (root without chattr)",
                path.display()
            );
        }
        assert!(!guard.writable(), "{} is still writable", path.display());
        guard
    }

    fn writable(&self) -> bool {
        if self.0.is_dir() {
            let probe = self.0.join(".probe");
            let ok = std::fs::write(&probe, b"x").is_ok();
            let _ = std::fs::remove_file(&probe);
            ok
        } else {
            std::fs::OpenOptions::new()
                .append(true)
                .open(&self.0)
                .is_ok()
        }
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
        let _ = std::fs::set_permissions(&self.0, std::fs::Permissions::from_mode(0o755));
    }
}

#[test]
fn two_identical_runs_at_once_both_finish_with_their_results() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("same.ckpt");
    let args = [
        "takebreak",
        "officers",
        "-n",
        "300000",
        "--checkpoint",
        ckpt.to_str().unwrap(),
        "--checkpoint-every",
        "0.01",
        "--no-record",
    ];
    let start = || {
        grundy_in(dir.path())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (start(), start());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    for out in [&a, &b] {
        assert!(out.status.success(), "a run died: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("computed G(0..=300000)"));
        assert!(!text(&out.stderr).contains("panicked"));
    }
    assert_eq!(a.stdout, b.stdout);
    // the checkpoint holds the whole result, and no temporary file is left behind
    let saved = checkpoint::load(&ckpt, usize::MAX).unwrap().unwrap();
    assert_eq!(saved.count, 300_001);
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_short_run_never_consumes_a_longer_default_checkpoint() {
    let data = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    // a long run's checkpoint of G(0..=100000), where the default checkpoint of 0.6 lives
    let long = scratch.path().join("long.ckpt");
    let out = run(grundy_in(data.path()).args([
        "takebreak",
        "officers",
        "-n",
        "100000",
        "--checkpoint",
        long.to_str().unwrap(),
        "--no-record",
    ]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let place = data.path().join("grundy").join("checkpoints");
    std::fs::create_dir_all(&place).unwrap();
    let default = place.join("0.6.auto.ckpt");
    std::fs::copy(&long, &default).unwrap();
    let before = std::fs::read(&default).unwrap();
    // a short run of the same code answers from it and leaves it as it was
    let out =
        run(grundy_in(data.path()).args(["takebreak", "officers", "-n", "1000", "--no-record"]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("computed G(0..=1000)"));
    assert_eq!(std::fs::read(&default).ok(), Some(before));
    // a longer run resumes from it, completes and then removes it
    let out = run(grundy_in(data.path()).args([
        "takebreak",
        "officers",
        "-n",
        "101000",
        "--no-record",
        "--print",
        "--json",
    ]));
    assert!(text(&out.stderr).contains("G(0..100000) already computed"));
    assert_eq!(printed_values(&out), library_values("0.6", 101_000));
    assert!(!default.exists());
}

#[test]
fn a_read_only_catalogue_still_prints_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite3");
    let db = db.to_str().unwrap();
    let first = run(grundy_in(dir.path()).args(["takebreak", "0.07", "-n", "100", "--db", db]));
    assert!(first.status.success(), "{}", text(&first.stderr));
    let _guard = ReadOnly::new(Path::new(db));
    let out = run(grundy_in(dir.path()).args(["takebreak", "0.07", "-n", "2000", "--db", db]));
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(text(&out.stdout).contains("G(0..=2000): computed"));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("warning: not recorded"), "{err}");
    // the census too: every result printed, no claim that they were recorded, and as
    // nothing could be recorded, one line and exit status 1
    let out = run(grundy_in(dir.path()).args(["census", "0.?", "-n", "500", "--db", db]));
    let (err, table) = (text(&out.stderr), text(&out.stdout));
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        table.contains("0.7") && !table.contains("recorded in"),
        "{table}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("none of the 8 computed codes could be recorded"),
        "{err}"
    );
    // listing a read-only catalogue works
    let out = run(grundy_in(dir.path()).args(["catalogue", "--db", db]));
    assert!(
        text(&out.stdout).contains("1 run in"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_read_only_checkpoint_place_still_prints_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let place = dir.path().join("ro");
    std::fs::create_dir(&place).unwrap();
    let ckpt = place.join("x.ckpt");
    let _guard = ReadOnly::new(&place);
    // a run of Officers that tries to save at every chance: it must complete, print its
    // results, and say why it could not save (its stderr is returned)
    let completes = |data: &Path, more: &[&str]| -> String {
        let out = run(grundy_in(data)
            .args([
                "takebreak",
                "officers",
                "-n",
                "50000",
                "--checkpoint-every",
                "0.001",
            ])
            .args(more));
        let err = text(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(text(&out.stdout).contains("computed G(0..=50000)"));
        assert!(
            err.contains("warning") && err.contains("without saving checkpoints"),
            "{err}"
        );
        err
    };
    let err = completes(
        dir.path(),
        &["--checkpoint", ckpt.to_str().unwrap(), "--no-record"],
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // a default place that cannot be created (the data directory is a regular file)
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    // (--record: a run this short is not recorded by itself)
    let err = completes(&file.join("data"), &["--record"]);
    assert!(err.contains("will not be recorded"), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
}

/// Ctrl-C (SIGINT) and SIGTERM both save a checkpoint before the run exits (status 130), and
/// the run resumes from it to bit-identical values.
#[test]
fn sigint_and_sigterm_save_a_checkpoint_and_the_run_resumes_bit_identically() {
    for signal in ["-INT", "-TERM"] {
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("signal.ckpt");
        let c = ckpt.to_str().unwrap();
        let out = signalled(
            grundy_in(dir.path())
                .args(["takebreak", "officers", "-n", "20000000", "--checkpoint", c])
                .args(["--checkpoint-every", "1000", "--no-record"]),
            signal,
            Duration::from_millis(1000),
        );
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{signal}: {err}");
        assert!(err.contains("saved to"), "{err}");
        // no periodic save could have happened (every 1000 s): the signal saved it
        let saved = checkpoint::load(&ckpt, usize::MAX).unwrap().unwrap();
        let k = saved.count;
        assert!(k > 0 && k < 20_000_001, "{k}");
        // resume a little further; every value equals the library's uninterrupted computation
        let n = (k + 1000).to_string();
        let out = run(grundy_in(dir.path())
            .args(["takebreak", "officers", "-n", &n, "--checkpoint", c])
            .args(["--no-record", "--print", "--json"]));
        assert!(text(&out.stderr).contains("resuming from checkpoint"));
        assert_eq!(printed_values(&out), library_values("0.6", k + 1000));
    }
}

#[test]
fn paths_the_user_chose_are_never_created_and_foreign_files_never_written() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let in_missing = |name: &str| missing.join(name).to_str().unwrap().to_owned();
    for extra in [
        ["--db", &in_missing("x.db")],
        ["--checkpoint", &in_missing("x.ckpt")],
    ] {
        let args = [&["takebreak", "0.07", "-n", "100"][..], &extra].concat();
        let out = run(grundy_in(dir.path()).args(&args));
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("does not exist"), "{err}");
        assert!(!missing.exists(), "{args:?} created {}", missing.display());
    }
    // GRUNDY_DB behaves as --db does
    let env_run =
        |db: &str, args: &[&str]| run(grundy_in(dir.path()).env("GRUNDY_DB", db).args(args));
    let out = env_run(&in_missing("x.db"), &["takebreak", "0.07", "-n", "100"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let out = env_run(&in_missing("x.db"), &["catalogue"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("no catalogue"));
    assert!(!missing.exists());
    // listing an empty file neither lists it as a catalogue nor writes into it
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    bad_input(
        &["catalogue", "--db", empty.to_str().unwrap()],
        "not a grundy catalogue",
    );
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
    // another program's database: refused for listing and for recording, left as it was
    let foreign = dir.path().join("foreign.db");
    let conn = rusqlite::Connection::open(&foreign).unwrap();
    conn.execute_batch("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('mine');")
        .unwrap();
    drop(conn);
    let before = std::fs::read(&foreign).unwrap();
    let f = foreign.to_str().unwrap();
    bad_input(&["catalogue", "--db", f], "not a grundy catalogue");
    bad_input(
        &["takebreak", "0.07", "-n", "100", "--db", f],
        "not a grundy catalogue",
    );
    let out = env_run(f, &["catalogue"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&foreign).unwrap(), before);
}

#[test]
fn the_default_catalogue_is_announced_once_and_off_with_no_record() {
    let data = tempfile::tempdir().unwrap();
    let catalogue = data.path().join("grundy").join("catalogue.sqlite3");
    // a short look-up is not recorded by itself: no catalogue, nothing said
    let lookup = ["takebreak", "kayles", "--until-period"];
    let quick = run(grundy_in(data.path()).args(lookup));
    assert!(quick.status.success());
    assert_eq!(text(&quick.stderr), "");
    assert!(!catalogue.exists());
    // --record records it, and says where the catalogue is the first time
    let recorded = ["takebreak", "kayles", "--until-period", "--record"];
    let first = run(grundy_in(data.path()).args(recorded));
    assert!(first.status.success());
    let err = text(&first.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(catalogue.to_str().unwrap()) && err.contains("--no-record"),
        "{err}"
    );
    assert!(catalogue.exists());
    // said once: the next look-up is quiet, and recorded
    let second = run(grundy_in(data.path()).args(recorded));
    assert_eq!(text(&second.stderr), "");
    assert_eq!(second.stdout, first.stdout);
    assert_eq!(second.stdout, quick.stdout);
    let listed = run(grundy_in(data.path()).args(["catalogue", "kayles"]));
    assert!(
        text(&listed.stdout).contains("2 runs in"),
        "{}",
        text(&listed.stdout)
    );
    // --no-record --no-checkpoint writes nothing at all
    let clean = tempfile::tempdir().unwrap();
    let quiet = run(grundy_in(clean.path()).args([
        "takebreak",
        "kayles",
        "--until-period",
        "--no-record",
        "--no-checkpoint",
    ]));
    assert!(quiet.status.success());
    assert_eq!(std::fs::read_dir(clean.path()).unwrap().count(), 0);
}

#[test]
fn pictures_need_no_system_font_library() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("no-fonts");
    std::fs::create_dir(&empty).unwrap();
    let svg = dir.path().join("t.svg");
    let png = dir.path().join("y.png");
    // no font configuration at all: the font compiled into the program draws the text
    for args in [
        vec![
            "takebreak",
            "0.07",
            "-n",
            "100",
            "--no-record",
            "--svg",
            svg.to_str().unwrap(),
        ],
        vec!["young", "3,2,1", "--png", png.to_str().unwrap()],
    ] {
        let out = run(grundy_in(dir.path())
            .env("FONTCONFIG_FILE", empty.join("fonts.conf"))
            .env("FONTCONFIG_PATH", &empty)
            .args(&args));
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "{args:?}");
    }
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains("G(n) of 0.07"), "the title is drawn");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}
