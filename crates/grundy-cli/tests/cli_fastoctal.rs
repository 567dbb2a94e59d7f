//! The rare/common engine, checkpoints, the catalogue and the census through the real binary.

mod common;
use common::{bad_input, grundy, json, scratch_data_home, values_of};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The binary as a plain process (to kill it).
fn spawn(args: &[&str]) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .env("XDG_DATA_HOME", scratch_data_home())
        .env_remove("GRUNDY_DB")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts")
}

/// Wait until `path` exists (true) or the child exits (false).
fn wait_for_file(child: &mut Child, path: &Path) -> bool {
    let start = Instant::now();
    loop {
        if path.exists() {
            return true;
        }
        if child.try_wait().unwrap().is_some() || start.elapsed() > Duration::from_secs(120) {
            return path.exists();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Number of values in a checkpoint file.
fn checkpoint_values(path: &Path, code: &str, engine: &str) -> u64 {
    // (read as the program reads it: a run killed while appending leaves bytes past the values
    // its record covers, so the file's length is not the count)
    let c = grundy::takebreak::checkpoint::load(path, 0)
        .unwrap()
        .unwrap();
    assert_eq!(
        (c.identity.code.as_str(), c.identity.engine.as_str()),
        (code, engine)
    );
    c.count as u64
}

#[test]
fn the_sparse_engine_agrees_with_the_naive_one_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("c.sqlite3");
    let db = db.to_str().unwrap();
    for code in ["0.16", "0.6", "4.07", "0.137"] {
        let sparse = json(&[
            "takebreak",
            code,
            "-n",
            "3000",
            "--print",
            "--engine",
            "sparse",
            "--db",
            db,
        ]);
        let naive = json(&[
            "takebreak",
            code,
            "-n",
            "3000",
            "--print",
            "--engine",
            "naive",
            "--db",
            db,
        ]);
        assert_eq!(sparse["engine"], "sparse");
        assert_eq!(naive["engine"], "naive");
        assert_eq!(values_of(&sparse), values_of(&naive), "{code}");
        assert_eq!(sparse["period"], naive["period"], "{code}");
    }
    // auto: the rare/common engine for octal codes, the naive one otherwise
    assert_eq!(json(&["takebreak", "0.77", "--db", db])["engine"], "sparse");
    assert_eq!(
        json(&["takebreak", "0.F", "-n", "50", "--db", db])["engine"],
        "naive"
    );
    assert_eq!(
        json(&["takebreak", "grundys-game", "-n", "50", "--db", db])["engine"],
        "naive"
    );
    bad_input(
        &["takebreak", "0.F", "--engine", "sparse", "--no-record"],
        "octal",
    );
    bad_input(
        &[
            "takebreak",
            "grundys-game",
            "--engine",
            "sparse",
            "--no-record",
        ],
        "octal",
    );
    bad_input(
        &["takebreak", "0.16", "--engine", "fast", "--no-record"],
        "fast",
    );
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_bit_identical_values() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("officers.ckpt");
    let c = ckpt.to_str().unwrap();
    let db = dir.path().join("c.sqlite3");
    let db = db.to_str().unwrap();
    // Officers is slow enough to be caught mid-run; grow n until the kill lands before the end.
    let mut n = 150_000u64;
    loop {
        let _ = std::fs::remove_file(&ckpt);
        let ns = n.to_string();
        let mut child = spawn(&[
            "takebreak",
            "officers",
            "-n",
            &ns,
            "--checkpoint",
            c,
            "--checkpoint-every",
            "0.02",
            "--db",
            db,
        ]);
        let appeared = wait_for_file(&mut child, &ckpt);
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        assert!(appeared, "a checkpoint was written");
        let saved = checkpoint_values(&ckpt, "0.6", "auto");
        if saved < n + 1 {
            assert!(saved > 0);
            break;
        }
        n *= 2;
        assert!(
            n < 10_000_000,
            "the machine is too fast to interrupt this run"
        );
    }
    let ns = n.to_string();
    let out = grundy()
        .args([
            "takebreak",
            "officers",
            "-n",
            &ns,
            "--checkpoint",
            c,
            "--print",
            "--json",
            "--db",
            db,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("resuming from checkpoint"));
    let resumed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let whole = json(&[
        "takebreak",
        "officers",
        "-n",
        &ns,
        "--no-checkpoint",
        "--print",
        "--no-record",
    ]);
    assert_eq!(values_of(&resumed), values_of(&whole));
    assert_eq!(resumed["value_counts"], whole["value_counts"]);
    // the explicit checkpoint now holds the whole result
    assert_eq!(checkpoint_values(&ckpt, "0.6", "auto"), n + 1);
}

/// Saves append to the file (format 2): killed again and again (SIGKILL, a save every 5 ms), a
/// run resumes each time from what its checkpoint proves and ends with the values of one
/// uninterrupted run. (The states a kill inside a save leaves — bytes past the record, a torn
/// record — are made by hand in the library's tests of `checkpoint`.)
#[test]
fn a_run_killed_again_and_again_while_it_appends_ends_bit_identical() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("0.146.ckpt");
    let c = ckpt.to_str().unwrap();
    let n = "300000";
    let base = ["takebreak", "0.146", "-n", n, "--no-extend", "--no-record"];
    let mut counts = Vec::new();
    #[cfg(unix)]
    let mut inodes: Option<u64> = None;
    // kill times spread over the run (each resume first checks what it loads)
    for (i, wait_ms) in [3u64, 40, 7, 90, 15, 60, 1, 25, 120, 11]
        .into_iter()
        .enumerate()
    {
        let run = [
            &base[..],
            &["--checkpoint", c, "--checkpoint-every", "0.005"],
        ]
        .concat();
        let size = |path: &Path| std::fs::metadata(path).map_or(0, |m| m.len());
        let before = size(&ckpt);
        let mut child = spawn(&run);
        if i == 0 {
            assert!(wait_for_file(&mut child, &ckpt), "a checkpoint was written");
        } else if i % 2 == 1 {
            // every other run is killed only after it appended a save (so the runs get
            // somewhere however slow the build: an unoptimised one resumes in more than the
            // longest wait below); the others at a time alone, during a load or a save
            let start = Instant::now();
            while size(&ckpt) <= before
                && child.try_wait().unwrap().is_none()
                && start.elapsed() < Duration::from_secs(120)
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        std::thread::sleep(Duration::from_millis(wait_ms));
        let _ = child.kill(); // SIGKILL (or it had already finished)
        child.wait().unwrap();
        let saved = checkpoint_values(&ckpt, "0.146", "auto");
        counts.push(saved);
        // every resumed run appended to the file its first run wrote (never rewrote it)
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let ino = std::fs::metadata(&ckpt).unwrap().ino();
            let first = *inodes.get_or_insert(ino);
            assert_eq!(ino, first, "run {i} rewrote the file");
        }
    }
    // never fewer values than before: a kill loses at most what the last save had not covered;
    // and the runs got somewhere
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert!(counts[9] > counts[0], "{counts:?}");
    let resumed = json(&[&base[..], &["--checkpoint", c, "--print"]].concat());
    let whole = json(&[&base[..], &["--no-checkpoint", "--print"]].concat());
    assert_eq!(
        values_of(&resumed),
        values_of(&whole),
        "after kills at {counts:?}"
    );
}

#[test]
fn corrupt_or_foreign_checkpoints_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("x.ckpt");
    let c = ckpt.to_str().unwrap();
    std::fs::write(&ckpt, b"this is not a checkpoint at all").unwrap();
    bad_input(
        &[
            "takebreak",
            "0.16",
            "-n",
            "100",
            "--checkpoint",
            c,
            "--no-record",
        ],
        "not a grundy checkpoint",
    );
    // a finished run leaves a valid checkpoint of 0.07 behind
    let _ = std::fs::remove_file(&ckpt);
    json(&[
        "takebreak",
        "0.07",
        "-n",
        "500",
        "--checkpoint",
        c,
        "--no-record",
    ]);
    let good = std::fs::read(&ckpt).unwrap();
    bad_input(
        &[
            "takebreak",
            "0.16",
            "-n",
            "100",
            "--checkpoint",
            c,
            "--no-record",
        ],
        "belongs to another run",
    );
    bad_input(
        &[
            "takebreak",
            "0.07",
            "-n",
            "100",
            "--checkpoint",
            c,
            "--engine",
            "naive",
            "--no-record",
        ],
        "engine auto",
    );
    let mut flipped = good.clone();
    let at = flipped.len() - 40;
    flipped[at] ^= 1;
    std::fs::write(&ckpt, &flipped).unwrap();
    bad_input(
        &[
            "takebreak",
            "0.07",
            "-n",
            "100",
            "--checkpoint",
            c,
            "--no-record",
        ],
        "checksum",
    );
    std::fs::write(&ckpt, &good[..good.len() / 2]).unwrap();
    bad_input(
        &[
            "takebreak",
            "0.07",
            "-n",
            "100",
            "--checkpoint",
            c,
            "--no-record",
        ],
        "corrupt",
    );
    // the intact file resumes: same report as a fresh run
    std::fs::write(&ckpt, &good).unwrap();
    let resumed = json(&[
        "takebreak",
        "0.07",
        "-n",
        "500",
        "--checkpoint",
        c,
        "--print",
        "--no-record",
    ]);
    let fresh = json(&[
        "takebreak",
        "0.07",
        "-n",
        "500",
        "--no-checkpoint",
        "--print",
        "--no-record",
    ]);
    assert_eq!(values_of(&resumed), values_of(&fresh));
    // a shorter run from the same file reports its own n and leaves the longer file alone
    let short = json(&[
        "takebreak",
        "0.07",
        "-n",
        "100",
        "--checkpoint",
        c,
        "--print",
        "--no-record",
    ]);
    assert_eq!(values_of(&short), values_of(&fresh)[..101]);
    assert_eq!(std::fs::read(&ckpt).unwrap(), good);
    bad_input(
        &[
            "takebreak",
            "0.07",
            "--checkpoint-every",
            "0",
            "--no-record",
        ],
        "checkpoint-every",
    );
    bad_input(
        &[
            "takebreak",
            "0.07",
            "--checkpoint-every",
            "soon",
            "--no-record",
        ],
        "checkpoint-every",
    );
}

fn db_in(dir: &Path) -> PathBuf {
    dir.join("catalogue.sqlite3")
}

#[test]
fn census_records_every_code_and_the_catalogue_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let db = db.to_str().unwrap();
    let c = json(&["census", "0.??", "-n", "2000", "--db", db]);
    assert_eq!(c["codes"], 64);
    assert_eq!(c["until_period"], true);
    let results = c["results"].as_array().unwrap();
    assert_eq!(results.len(), 64);
    assert_eq!(results[63]["code"], "0.77");
    let kayles = &results[63];
    assert_eq!(
        (kayles["preperiod"].as_u64(), kayles["period"].as_u64()),
        (Some(71), Some(12))
    );
    assert_eq!(kayles["certified"], true);
    // every result equals a run of that code on its own
    assert_eq!(
        results[0]["code"], "0.0",
        "the game without moves prints so it parses back"
    );
    for r in results.iter().step_by(9) {
        let code = r["code"].as_str().unwrap();
        let alone = json(&[
            "takebreak",
            code,
            "--until-period",
            "-n",
            "2000",
            "--no-record",
        ]);
        assert_eq!(r["n"], alone["n"], "{code}");
        assert_eq!(r["max_value"], alone["max_value"], "{code}");
        assert_eq!(r["period"], alone["period"]["period"], "{code}");
    }
    let certified = c["certified"].as_u64().unwrap();
    assert!(certified > 30 && certified < 64);

    let listed = json(&["catalogue", "--db", db]);
    assert_eq!(listed["count"], 64);
    let sevens = json(&["catalogue", "0.?7", "--db", db]);
    assert_eq!(sevens["count"], 8);
    let only = json(&["catalogue", "kayles", "--db", db]);
    assert_eq!(only["count"], 1);
    assert!(only["runs"][0]["rare_values"].as_u64().is_some());
    // where Kayles was certified: the certificate's last value (2·71 + 2·12 + 2 - 1), which
    // is where its --until-period run stopped; uncertified runs have none
    assert_eq!(only["runs"][0]["certified_at"], 167);
    assert_eq!(only["runs"][0]["certified_at"], only["runs"][0]["n"]);
    for r in listed["runs"].as_array().unwrap() {
        assert_eq!(r["certified"] == true, r["certified_at"].is_u64(), "{r}");
    }
    let cert = json(&["catalogue", "--certified", "--db", db]);
    let uncert = json(&["catalogue", "--uncertified", "--db", db]);
    assert_eq!(cert["count"].as_u64().unwrap(), certified);
    assert_eq!(
        cert["count"].as_u64().unwrap() + uncert["count"].as_u64().unwrap(),
        64
    );
    // a second, longer run of one code: --latest keeps one row per code, the newest
    json(&["takebreak", "0.16", "-n", "5000", "--db", db]);
    let latest = json(&["catalogue", "0.16", "--latest", "--db", db]);
    assert_eq!(latest["count"], 1);
    assert_eq!(latest["runs"][0]["n"], 5000);
    assert_eq!(latest["runs"][0]["engine"], "sparse");
    assert!(latest["runs"][0]["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(json(&["catalogue", "0.16", "--db", db])["count"], 2);
    assert_eq!(
        json(&["catalogue", "--min-n", "3000", "--db", db])["count"],
        1
    );
    assert_eq!(json(&["catalogue", "--limit", "3", "--db", db])["count"], 3);
    assert_eq!(
        json(&["catalogue", "--engine", "naive", "--db", db])["count"],
        0
    );
    // people get a table
    let out = grundy()
        .args(["catalogue", "0.1?", "--db", db])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("preperiod")
            && text.contains("certified at")
            && text.contains("0.16")
            && text.contains("runs in"),
        "{text}"
    );
    let out = grundy()
        .args(["census", "4.?", "-n", "300", "--db", db])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("census of 4.?") && text.contains("4.7"),
        "{text}"
    );
    // an explicit catalogue that does not exist is a mistake: refused, and nothing is created
    let missing = dir.path().join("none.sqlite3");
    common::bad_input(
        &["catalogue", "--db", missing.to_str().unwrap()],
        "no catalogue",
    );
    assert!(!missing.exists());
}

#[test]
fn census_and_catalogue_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let db = db.to_str().unwrap();
    bad_input(&["census", "0.??????", "--db", db], "too many codes");
    bad_input(&["census", "0.?#", "--db", db], "'#'");
    bad_input(&["census", "0.[?]", "--db", db], "not inside");
    bad_input(&["census", "0.??", "-n", "-5", "--db", db], "negative");
    bad_input(
        &["census", "0.??", "-n", "100000000", "--db", db],
        "too large",
    );
    bad_input(&["census", "0.??", "--jobs", "1000", "--db", db], "--jobs");
    bad_input(
        &["census", "0.F?", "--engine", "sparse", "--db", db],
        "octal",
    );
    bad_input(&["catalogue", "--min-n", "many", "--db", db], "--min-n");
    bad_input(&["catalogue", "--engine", "quantum", "--db", db], "quantum");
    bad_input(&["catalogue", "0.7#", "--db", db], "'#'");
    // a catalogue path that cannot be created, or a file that is not a catalogue
    let file = dir.path().join("plain.txt");
    std::fs::write(
        &file,
        "plain text, not a database, long enough to have a header",
    )
    .unwrap();
    let inside = file.join("c.sqlite3");
    bad_input(
        &["takebreak", "0.07", "--db", inside.to_str().unwrap()],
        "catalogue",
    );
    bad_input(&["catalogue", "--db", file.to_str().unwrap()], "catalogue");
    bad_input(
        &["census", "0.?", "--db", file.to_str().unwrap()],
        "catalogue",
    );
}

#[test]
fn a_census_is_resumable_and_the_catalogue_prints_the_fields_table() {
    let dir = tempfile::tempdir().unwrap();
    let db = db_in(dir.path());
    let db = db.to_str().unwrap();
    // --jobs 0: one worker per core
    let first = json(&[
        "census", "0.?7", "0.137", "-n", "2000", "--jobs", "0", "--db", db,
    ]);
    assert_eq!(
        (first["codes"].as_u64(), first["computed"].as_u64()),
        (Some(9), Some(9))
    );
    assert_eq!(first["recorded"], 9);
    // again: everything from the catalogue, nothing recorded twice
    let again = json(&["census", "0.?7", "0.137", "-n", "2000", "--db", db]);
    assert_eq!(
        (again["computed"].as_u64(), again["skipped"].as_u64()),
        (Some(0), Some(9))
    );
    assert_eq!(json(&["catalogue", "--db", db])["count"], 9);
    // the table: one row per code, Dawson's chess listed with Dawson's Kayles
    let t = json(&["catalogue", "--table", "--db", db]);
    assert_eq!(t["count"], 9);
    let row = |code: &str| {
        t["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["code"] == code)
            .unwrap()
            .clone()
    };
    let kayles = row("0.77");
    assert_eq!(kayles["status"], "periodic");
    assert_eq!(
        (kayles["period"].as_u64(), kayles["last_exception"].as_u64()),
        (Some(12), Some(70))
    );
    assert_eq!(row("0.37")["status"], "not yet periodic");
    assert_eq!(row("0.137")["same_game_as"], "0.07");
    assert_eq!(row("0.137")["shift"], 1);
    let csv = grundy()
        .args(["catalogue", "--table", "--format", "csv", "--db", db])
        .output()
        .unwrap();
    let csv = String::from_utf8_lossy(&csv.stdout);
    assert!(
        csv.starts_with("code,status,n,preperiod,period,last_exception"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 10);
    let md = grundy()
        .args(["catalogue", "--table", "--db", db])
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(
        md.contains("| 0.137 | periodic |") && md.contains("0.07, 0.137 (shift 1)"),
        "{md}"
    );
    bad_input(&["catalogue", "--format", "csv", "--db", db], "--table");
}
