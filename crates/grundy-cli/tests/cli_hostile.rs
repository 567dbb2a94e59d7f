//! Hostile input through the real binary: huge, empty, binary, negative, overflowing,
//! misspelled and conflicting input for every command, and concurrent runs.
//!
//! Every refusal must be exit status 2 with exactly one line on stderr and no panic text; every
//! run has a generous time limit, so a hang fails the test instead of blocking the suite.

mod common;
use common::grundy;
use std::time::Duration;

/// Far above any case here (each takes well under a second); only a hang reaches it.
const LIMIT: Duration = Duration::from_secs(60);

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run_with(args: &[&str], stdin: Option<Vec<u8>>) -> Run {
    let mut cmd = grundy();
    cmd.args(args).timeout(LIMIT);
    if let Some(bytes) = stdin {
        cmd.write_stdin(bytes);
    }
    let out = cmd.output().expect("the binary runs");
    let run = Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    for bad in [
        "internal error",
        "panicked",
        "RUST_BACKTRACE",
        "memory allocation",
    ] {
        assert!(
            !run.stderr.contains(bad),
            "grundy {args:?}: {bad} in stderr: {}",
            run.stderr
        );
    }
    assert!(
        run.code.is_some(),
        "grundy {args:?} did not finish within {LIMIT:?} (killed)"
    );
    run
}

/// Refused: exit 2, exactly one line on stderr, containing `needle`.
fn refused_with(args: &[&str], stdin: Option<Vec<u8>>, needle: &str) -> String {
    let r = run_with(args, stdin);
    assert_eq!(r.code, Some(2), "grundy {args:?}: stderr {}", r.stderr);
    assert_eq!(
        r.stderr.trim_end().lines().count(),
        1,
        "grundy {args:?}: one line expected, got {:?}",
        r.stderr
    );
    assert!(
        r.stderr.starts_with("grundy: "),
        "grundy {args:?}: {:?}",
        r.stderr
    );
    assert!(
        r.stderr.contains(needle),
        "grundy {args:?}: {:?} lacks {needle:?}",
        r.stderr
    );
    r.stderr
}

fn refused(args: &[&str], needle: &str) -> String {
    refused_with(args, None, needle)
}

/// Succeeds (exit 0); returns stdout.
fn ok(args: &[&str]) -> String {
    let r = run_with(args, None);
    assert_eq!(r.code, Some(0), "grundy {args:?}: {}", r.stderr);
    r.stdout
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    serde_json::from_str(&ok(&all)).expect("one JSON object")
}

fn temp_file(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    std::io::Write::write_all(&mut f, bytes).expect("write");
    f
}

fn path(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().expect("UTF-8 temp path")
}

#[test]
fn no_command_and_misspelled_flags_are_one_line() {
    refused(&[], "no command given");
    refused(&["frobnicate"], "unrecognized subcommand");
    // A typo gets clap's suggestion on the same line, and the subcommand's help.
    let e = refused(&["census", "0.1?", "--jobss", "2"], "'--jobs'");
    assert!(e.contains("grundy census --help"), "{e}");
    refused(&["census", "--jobss", "2"], "'--jobs'");
    refused(&["nim", "--tagret", "2", "3"], "'--target'");
    refused(&["takebreak", "kayles", "--heap", "3"], "--heaps");
    refused(&["verify", "nim", "--max-heapp", "3"], "--max-heap");
    refused(
        &["nim", "3", "--json", "--json"],
        "cannot be used multiple times",
    );
}

#[test]
fn numbers_that_are_not_numbers() {
    refused(&["nim", "_1"], "'_1' is not a non-negative whole number");
    refused(&["nim", "1_"], "is not a non-negative whole number");
    refused(&["nim", "1__0"], "is not a non-negative whole number");
    refused(&["nim", "-3"], "negative");
    refused(&["nim", "3.5"], "not a non-negative whole number");
    refused(&["nim", "0x10"], "not a non-negative whole number");
    refused(&["nim", "１２"], "not a non-negative whole number");
    refused(&["nim"], "no heaps given");
    assert_eq!(json(&["nim", "1_000", "24"])["grundy_value"], 1000 ^ 24);
    refused(&["subtraction", "--set", "1,-2", "5"], "negative");
    refused(
        &["subtraction", "--set", "1,3", "99999999999999999999"],
        "too large",
    );
    refused(&["wythoff", "-3", "4"], "negative");
    refused(&["welter", "3", "3"], "two coins");
    refused(&["welter", "18446744073709551616"], "too large");
    refused(&["mex", "-1"], "negative");
    refused(&["cdnim", "0", "x"], "not a non-negative whole number");
    refused(
        &["takebreak", "kayles", "-n", "99999999999999999999999"],
        "too large",
    );
    refused(&["takebreak", "kayles", "--heaps", "5,-7"], "negative");
    refused(&["young", "3,2,-1"], "");
    refused(
        &["multiplayer", "--players", "1000", "1", "2"],
        "between 2 and 16",
    );
    refused(&["multiplayer", "--players", "-1", "1", "2"], "");
}

#[test]
fn control_characters_are_escaped_into_one_line() {
    let e = refused(&["nim", "1\n2x"], "is not a non-negative whole number");
    assert!(e.contains("1\\n2x"), "{e}");
    let e = refused(&["nim", "3\u{7}"], "is not");
    assert!(e.contains("\\u{7}"), "{e}");
    let e = refused(&["takebreak", "0.7\n7"], "malformed code");
    assert!(e.contains("\\n"), "{e}");
    refused(
        &["nim", "--target", "1\r\n2", "3"],
        "not a non-negative whole number",
    );
    // Every message quoting input stays on one line, whatever the command.
    refused(
        &[
            "graph",
            "../../docs/examples/small-graph.json",
            "--root",
            "a\nb",
        ],
        "'a\\nb' is not a node",
    );
    refused(
        &["multiplayer", "--game", "x\ty\nz", "1", "2"],
        "unknown game 'x\\ty\\nz'",
    );
}

#[test]
fn huge_numbers_are_bounded() {
    let digits = "7".repeat(100_001);
    refused(&["nim", &digits], "more than 100000 digits");
    refused(&["cdnim", &digits, "4"], "more than 100000 digits");
    let f = temp_file(format!("3 {digits}\n").as_bytes());
    refused(&["nim", "--input", path(&f)], "more than 100000 digits");
    // Up to the bound they work.
    let ok_digits = "7".repeat(1000);
    assert_eq!(json(&["nim", &ok_digits, &ok_digits])["grundy_value"], 0);
    refused(&["young", "3,2,1", "--beads", "1000000000000"], "beads");
    refused(&["cdnim", "--table", "100000000"], "--table");
    refused(
        &["verify", "nim", "--heaps", "100", "--max-heap", "100"],
        "positions",
    );
    refused(
        &["takebreak", "{2+}.0", "--options", "200"],
        "more than 100000 options",
    );
    refused(&["takebreak", "0.[3]", "--options", "10000000"], "at most");
    // counts past u128 are refused without overflowing (a wrapped count was printed), and
    // more coins than squares or heaps than a table holds end at once
    let max = u64::MAX.to_string();
    refused(
        &["verify", "welter", "--coins", "3", "--max-square", &max],
        "more than 10^38 positions",
    );
    assert!(ok(&["verify", "welter", "--coins", &max, "--max-square", "5"]).contains("holds"));
    refused(
        &[
            "verify",
            "multiplayer-residues",
            "--players",
            "3",
            "--heaps",
            "16",
            "--max-heap",
            "4097",
        ],
        "make more than 10^38 positions",
    );
    refused(
        &[
            "multiplayer-explore",
            "--players",
            "3",
            "--order",
            "0,1,2",
            "--bound",
            "3x8",
            "--sums",
            &max,
        ],
        "needs parts of at least 1 heap",
    );
}

#[test]
fn inputs_are_bounded_and_must_be_text() {
    if std::path::Path::new("/dev/zero").exists() {
        refused(&["nim", "--input", "/dev/zero"], "larger than 64 MiB");
        refused(&["graph", "/dev/zero"], "larger than");
    }
    if std::path::Path::new("/dev/urandom").exists() {
        // Random bytes: not UTF-8 or NUL-bearing, found within the first 64 MiB.
        refused(&["nim", "--input", "/dev/urandom"], "");
    }
    let binary = temp_file(&[0xff, 0xfe, 0x00, 0x01, b'3']);
    refused(&["nim", "--input", path(&binary)], "NUL");
    let latin1 = temp_file(&[b'3', b' ', 0xe9]);
    refused(&["nim", "--input", path(&latin1)], "not UTF-8");
    let empty = temp_file(b"");
    refused(&["nim", "--input", path(&empty)], "no heaps given");
    refused(&["graph", path(&empty)], "malformed game graph");
    refused(&["nim", "--input", "/nonexistent/heaps.txt"], "cannot read");
    refused(&["nim", "--input", "/"], "cannot read");
    refused(&["graph", "/nonexistent.json"], "cannot read");
    let broken = temp_file(b"{\"nodes\": [");
    refused(&["graph", path(&broken)], "malformed game graph");
    // Standard input as a position, with junk.
    refused_with(&["nim", "--input", "-"], Some(b"3 5 \x00".to_vec()), "NUL");
    let out = run_with(&["nim", "--input", "-", "--json"], Some(b"3\n5\n".to_vec()));
    assert_eq!(out.code, Some(0));
    assert!(out.stdout.contains("\"grundy_value\":6"), "{}", out.stdout);
}

#[test]
fn play_reads_bounded_lines_and_refuses_foreign_flags() {
    // A "line" of 100 KB of NUL bytes without an end: refused, not read into memory.
    let r = run_with(&["play", "nim", "3", "5"], Some(vec![0u8; 100_000]));
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("longer than 64 KiB"), "{}", r.stderr);
    let r = run_with(&["play", "nim", "3", "5"], Some(vec![0xff, 0xfe, b'\n']));
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("not UTF-8"), "{}", r.stderr);
    // A NUL inside a short line is just an illegal move, echoed escaped on one line.
    let r = run_with(&["play", "nim", "3", "5"], Some(b"1\x002\nquit\n".to_vec()));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(!r.stdout.contains('\0'), "{:?}", r.stdout);
    refused(&["play", "nim", "3", "5", "--set", "1,2"], "--set");
    refused(&["play", "nim", "3", "5", "--players", "3"], "--players");
    refused(&["play", "wythoff", "3", "5", "--seat", "1"], "--seat");
    refused(&["play", "nim", "3", "5", "--game", "cdnim"], "--game");
    refused(
        &["play", "multiplayer", "1", "2", "--first", "engine"],
        "--first",
    );
    refused(
        &["play", "multiplayer", "1", "2", "--seat", "-1"],
        "negative",
    );
    refused(&["play", "chess", "1"], "unknown family");
}

#[test]
fn play_json_is_one_transcript_object() {
    let r = run_with(
        &["play", "nim", "3", "5", "2", "--json"],
        Some(b"hint\n1 1\n0 2\n".to_vec()),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
    assert_eq!(v["family"], "nim");
    assert_eq!(v["moves"][0]["by"], "you");
    assert_eq!(v["moves"][0]["move"], "1 1");
    assert_eq!(v["moves"][1]["by"], "engine");
    assert_eq!(v["end"], "abandoned");
    // The dialogue went to stderr.
    assert!(r.stderr.contains("your move>"), "{}", r.stderr);
    // A game played to the end says who made the last move.
    let r = run_with(&["play", "nim", "1", "--json"], Some(b"0 0\n".to_vec()));
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
    assert_eq!(v["end"], "finished");
    assert_eq!(v["you_won"], true);
    assert_eq!(v["last_mover"], 0);
}

#[test]
fn json_integers_are_exact_in_every_reader() {
    // 2^53 - 1 is the largest number a double holds exactly: a number up to it, a string after.
    let v = json(&["nim", "9007199254740991", "0"]);
    assert_eq!(v["grundy_value"], 9007199254740991u64);
    let v = json(&["nim", "9007199254740992", "1"]);
    assert_eq!(v["heaps"][0], "9007199254740992");
    assert_eq!(v["grundy_value"], "9007199254740993");
    assert_eq!(v["heaps"][1], 1);
    let v = json(&["welter", "18446744073709551615", "3"]);
    assert!(v["grundy_value"].is_string(), "{v}");
    let v = json(&["wythoff", "100000000000000000000", "3"]);
    assert!(v["winning_moves"].to_string().contains('"'), "{v}");
    let v = json(&["cdnim", "36028797018963968", "6"]);
    assert!(v["heaps"][0].is_string(), "{v}");
    assert_eq!(v["heaps"][1], 6);
}

#[test]
fn misleading_output_is_gone() {
    refused(
        &[
            "takebreak",
            "kayles",
            "--heaps",
            "5,7,9",
            "--max-moves",
            "0",
        ],
        "--max-moves must be at least 1",
    );
    // a negative limit is told the least it may be, for both commands that take one
    for command in [
        &["takebreak", "kayles", "--heaps", "5"][..],
        &["cdnim", "5"][..],
    ] {
        let mut args = command.to_vec();
        args.extend(["--max-moves", "-2"]);
        refused(&args, "'-2' is negative: give a whole number, 1 or more");
    }
    refused(
        &["nim", "3", "5", "--target", "2", "--misere"],
        "cannot be used with",
    );
    let out = ok(&["nim", "0", "0", "0"]);
    assert!(out.contains("there is no move"), "{out}");
    assert!(!out.contains("every move leads"), "{out}");
    // The missing directory is named; no drawing-library internals, no font blame.
    for args in [
        &["young", "3,2,1", "--svg", "/missing/x.svg"][..],
        &["young", "3,2,1", "--png", "/missing/x.png"],
        &["cdnim", "--table", "8", "--png", "/missing/x.png"],
        &["takebreak", "kayles", "--svg", "/missing/k.svg"],
        &[
            "graph",
            "../../docs/examples/small-graph.json",
            "--dot",
            "/missing/g.dot",
        ],
    ] {
        let e = refused(args, "directory '/missing' does not exist");
        assert!(!e.contains("Error(") && !e.contains("font"), "{e}");
    }
    refused(&["young", "3,2,1", "--png", "/"], "is a directory");
    // multiplayer --help names every game of the registry.
    let help = ok(&["multiplayer", "--help"]);
    for game in ["nim", "subtraction:", "takebreak:", "cdnim"] {
        assert!(help.contains(game), "multiplayer --help lacks {game}");
    }
}

#[test]
fn slow_inputs_are_refused_up_front_or_fast() {
    let set: Vec<String> = (1..=5000).map(|i| i.to_string()).collect();
    let set = set.join(",");
    refused(
        &["subtraction", "--set", &set, "10000000"],
        "5000 numbers in the set",
    );
    refused(
        &["subtraction", "--set", &set, "--sequence", "10000000"],
        "steps",
    );
    // A large set on moderate heaps still runs.
    assert!(json(&["subtraction", "--set", &set, "3000"])["grundy_value"].is_number());
    // The cousin of 0.8 leaves three heaps: a smaller default bound, a refusal past the limit.
    assert_eq!(
        json(&["takebreak", "0.8", "--cousin"])["checked_up_to"],
        3000
    );
    refused(
        &["takebreak", "0.8", "--cousin", "--check-up-to", "100000"],
        "at most 6000",
    );
}

#[test]
fn the_plain_game_check_is_bounded() {
    // A plain game of 4862 positions (the staircase Young diagram's game graph): checking the
    // axioms would need more than the step budget, and says so instead of running for minutes.
    let dir = tempfile::tempdir().expect("temp dir");
    let graph = dir.path().join("young.json");
    let graph = graph.to_str().unwrap();
    ok(&["young", "8,7,6,5,4,3,2,1", "--graph-out", graph]);
    refused(&["graph", graph, "--plain"], "steps");
    // Random 200-node DAGs answer at once.
    let mut x: u64 = 7;
    let nodes: Vec<String> = (0..200)
        .map(|i| {
            let options: Vec<String> = (i + 1..200)
                .filter(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    x >> 59 == 0
                })
                .map(|j| format!("\"{j}\""))
                .collect();
            format!("{{\"id\":\"{i}\",\"options\":[{}]}}", options.join(","))
        })
        .collect();
    let dag = temp_file(format!("{{\"nodes\":[{}]}}", nodes.join(",")).as_bytes());
    let v = json(&["graph", path(&dag), "--plain"]);
    assert!(v.get("grundy_value").is_some(), "{v}");
}

#[test]
fn a_big_picture_is_thinned() {
    let dir = tempfile::tempdir().expect("temp dir");
    let svg = dir.path().join("big.svg");
    let ckpt = dir.path().join("ckpt");
    let db = dir.path().join("c.db");
    ok(&[
        "takebreak",
        "0.16",
        "-n",
        "300000",
        "--svg",
        svg.to_str().unwrap(),
        "--checkpoint",
        ckpt.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    let size = std::fs::metadata(&svg).expect("written").len();
    assert!(size < 3_000_000, "{size} bytes");
}

#[test]
fn cgsuite_codes_are_read_or_refused_never_misread() {
    // CGSuite's Nim and its all-but subtraction game: options listed (their sequences are
    // tested in cli_notation_sequences.rs), what needs a finite code refused by name.
    let v = json(&["takebreak", "0.[3]", "--options", "4"]);
    assert_eq!(v["options"], serde_json::json!([[3], [2], [1], []]));
    refused(&["takebreak", "0.[3]", "--until-period"], "general engine");
    let e = refused(&["takebreak", "0.[63]7"], "must end the code");
    assert!(e.contains("&N;"), "{e}");
    refused(&["takebreak", "0.3003330[3]", "--fold", "2"], "finite code");
    let v = json(&["takebreak", "0.3003330[3]", "--options", "9"]);
    assert_eq!(
        v["options"],
        serde_json::json!([[8], [5], [4], [3], [1], []])
    );
    // Grundy's game, spelled as CGSuite does, equals the named game.
    let a = json(&["takebreak", "4!.0", "-n", "60", "--print"]);
    let b = json(&["takebreak", "grundys-game", "-n", "60", "--print"]);
    assert_eq!(a["values"], b["values"]);
    assert_eq!(
        json(&["takebreak", "4!.0", "--options", "7"])["options"],
        serde_json::json!([[6, 1], [5, 2], [4, 3]])
    );
    // Published tables write d0 alone.
    let four = json(&["takebreak", "4.0", "-n", "30", "--print"]);
    assert_eq!(
        json(&["takebreak", "4.", "-n", "30", "--print"])["values"],
        four["values"]
    );
    assert_eq!(
        json(&["takebreak", "4", "-n", "30", "--print"])["values"],
        four["values"]
    );
    // Large digits are &N;, digit sets in braces are their bits.
    assert_eq!(json(&["takebreak", "0.&16;", "-n", "5"])["code"], "0.G");
    assert_eq!(json(&["takebreak", "0.{2,3}", "-n", "5"])["code"], "0.C");
    refused(&["takebreak", "8!.0", "--cousin"], "finite code");
    refused(&["takebreak", "{2+}.0", "-n", "1000"], "options");
    refused(&["takebreak", "20.017"], "add tokens");
    refused(&["takebreak", ""], "empty code");
    refused(&["takebreak", "0.{2,3"], "without a matching");
    refused(
        &["takebreak", "0.&99999999999999999999999999999999999999999;"],
        "too large",
    );
    refused(
        &["takebreak", "4!.0", "--cousin"],
        "grundys-game is not one",
    );
}

#[test]
fn concurrent_runs_all_answer() {
    // Several processes at once on the same (scratch) data directory give the same answers.
    let children: Vec<_> = (0..6)
        .map(|i| {
            std::thread::spawn(move || {
                let heaps = ["3", "5", "2"];
                if i % 2 == 0 {
                    json(&["nim", heaps[0], heaps[1], heaps[2]])["grundy_value"].clone()
                } else {
                    json(&["takebreak", "0.07", "-n", "200", "--no-record"])["max_value"].clone()
                }
            })
        })
        .collect();
    let answers: Vec<_> = children.into_iter().map(|c| c.join().unwrap()).collect();
    for (i, a) in answers.iter().enumerate() {
        assert_eq!(*a, answers[i % 2], "run {i}");
    }
}

/// Every command's numbers at 2^64 - 1 and 2^32: each answers (exit 0 or 1) or refuses in one
/// line (exit 2); none panics, overflows or hangs. Session 27 ran these through the test
/// profile (overflow checks on) and found a loop over coins that cannot fit, three counts
/// past `u128` and a doubled part count wrapping: in the test profile an overflow is a panic,
/// which `run_with` fails on.
#[test]
fn extreme_numbers_answer_or_are_refused_in_one_line() {
    let m = u64::MAX.to_string();
    let m = m.as_str();
    let m2 = format!("{m},{m}");
    let bound = format!("3x{m}");
    let cases: Vec<Vec<&str>> = vec![
        vec!["mex", m, "0", "1"],
        vec!["nim", m, "18446744073709551614", "1"],
        vec!["subtraction", "--set", m, "5"],
        vec!["subtraction", "--set", "1,2", m],
        vec!["subtraction", "--all-but", m, "5"],
        vec!["wythoff", m, m],
        vec!["wythoff", "4294967296", "1"],
        vec!["cdnim", m, "18446744073709551614"],
        vec!["cdnim", "--table", m],
        vec!["welter", m, "0"],
        vec!["welter", "4294967295", "4294967294", "3"],
        vec!["young", m],
        vec!["young", "--beads", m, "3,2,1"],
        vec!["young", "--core", m, "3,2,1"],
        vec!["young", "--quotient", m, "3,2,1"],
        vec!["young", "--remove-hook", &m2, "3,2,1"],
        vec![
            "young",
            "--from-beta",
            "18446744073709551615,1,0",
            "--core",
            "2",
        ],
        vec!["takebreak", "0.77", "--heaps", "4294967295"],
        vec!["takebreak", "0.77", "--heaps", m],
        vec!["takebreak", "80.0", "--heaps", "4294967295"],
        vec!["takebreak", "80.0", "--options", "4294967295"],
        vec!["takebreak", "0.77", "--options", m],
        vec!["takebreak", "0.77", "-n", m],
        vec!["takebreak", "0.77", "--fold", m],
        vec!["takebreak", "0.77", "--cousin", "--check-up-to", m],
        vec!["takebreak", "0.77", "--max-moves", m, "--heaps", "5"],
        vec!["takebreak", "0.77", "-n", "100", "--threads", m],
        vec![
            "takebreak",
            "0.77",
            "-n",
            "100",
            "--memory",
            "18446744073709551615T",
        ],
        vec![
            "loopy-subtraction",
            "--take",
            m,
            "--add",
            "1",
            "--max",
            "10",
        ],
        vec!["loopy-subtraction", "--take", "1", "--add", "1", "--max", m],
        vec![
            "loopy-subtraction",
            "--take",
            "1",
            "--add",
            "1",
            "--max",
            "10",
            m,
        ],
        vec!["cram", "4294967296x2"],
        vec!["chomp", "--shape", &m2],
        vec!["misere-quotient", "0.77", "--max-heap", m],
        vec!["misere-quotient", "0.77", "--position", m],
        vec!["misere-quotient", "0.77", "--check", m],
        vec![
            "multiplayer",
            "--players",
            "3",
            "--order",
            "0,1,2",
            m,
            "5",
            "5",
        ],
        vec!["multiplayer", "--players", m, "--order", "0,1", "5"],
        vec!["multiplayer-explore", "--players", "4", "--bound", &bound],
        vec!["census", "0.77", "-n", m, "--no-record", "--no-checkpoint"],
        vec!["verify", "nim", "--heaps", m, "--max-heap", m],
        vec!["verify", "cdnim", "--heaps", m, "--max-heap", "3"],
        vec!["verify", "welter", "--coins", m, "--max-square", m],
        vec!["verify", "welter", "--coins", m, "--max-square", "5"],
        vec!["verify", "quotient-theorem", "--max-boxes", m],
        vec![
            "verify",
            "multiplayer",
            "--players",
            "3",
            "--heaps",
            m,
            "--max-heap",
            m,
        ],
        vec![
            "verify",
            "multiplayer-residues",
            "--players",
            "5",
            "--heaps",
            "16",
            "--max-heap",
            m,
        ],
    ];
    for args in cases {
        let r = run_with(&args, None);
        match r.code {
            Some(0 | 1) => {}
            Some(2) => assert_eq!(
                r.stderr.trim_end().lines().count(),
                1,
                "grundy {args:?}: {:?}",
                r.stderr
            ),
            other => panic!("grundy {args:?}: exit {other:?}, stderr {:?}", r.stderr),
        }
    }
}
