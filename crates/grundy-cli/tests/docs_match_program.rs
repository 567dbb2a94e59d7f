//! The documentation cannot drift from the program: every ```console block in README.md and
//! docs/*.md is re-run here, and each `$ grundy ...` line's real stdout must equal the text below
//! it (up to the next `$ ` line or the end of the block); stderr is compared after stdout.
//!
//! A line consisting of `...` alone stands for any number of lines (to elide long output);
//! everything else must match exactly.
//!
//! Rules for writers: each documentation file's commands run in order in a scratch directory
//! where `docs/` is the repository's; a line with a pipe or redirection runs through `sh -c`
//! with the built `grundy` first on PATH; use a ```text or ```sh block for output that is
//! illustrative only (timings, random data).

mod common;
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn split_args(line: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut has = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                has = true
            }
            (None, ' ') => {
                if has || !cur.is_empty() {
                    args.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if has || !cur.is_empty() {
        args.push(cur);
    }
    args
}

/// README.md and every chapter under docs/ (sub-folders included), in order.
fn doc_files() -> Vec<PathBuf> {
    let root = repo_root();
    let mut files = vec![root.join("README.md")];
    let mut docs = Vec::new();
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()) {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                docs.push(path);
            }
        }
    }
    docs.sort();
    files.extend(docs);
    files
}

/// (file, line number, command, expected output) for every checked command.
fn examples() -> Vec<(String, usize, String, String)> {
    let root = repo_root();
    let mut out = Vec::new();
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(&root).unwrap().display().to_string();
        let mut in_console = false;
        let mut current: Option<(usize, String, String)> = None;
        for (i, line) in text.lines().enumerate() {
            if !in_console {
                if line.trim_start() == "```console" {
                    in_console = true;
                }
                continue;
            }
            let end = line.trim_start().starts_with("```");
            if end || line.starts_with("$ ") {
                if let Some((n, cmd, exp)) = current.take() {
                    out.push((name.clone(), n, cmd, exp));
                }
            }
            if end {
                in_console = false;
            } else if let Some(cmd) = line.strip_prefix("$ ") {
                current = Some((i + 1, cmd.to_owned(), String::new()));
            } else if let Some((_, _, exp)) = current.as_mut() {
                exp.push_str(line);
                exp.push('\n');
            }
        }
    }
    out
}

/// The directory of the built `grundy` binary, to put on PATH for shell lines.
fn binary_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_grundy"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn every_console_example_matches_the_program() {
    let root = repo_root();
    let examples = examples();
    assert!(examples.len() >= 5, "expected examples in README.md");
    // The documents show a user whose results catalogue exists already: the one-time note of
    // its creation (tested in cli_nothing_lost.rs) is not part of any example.
    let first = common::grundy()
        .args(["takebreak", "0.07", "-n", "10", "--record"])
        .output()
        .unwrap();
    assert!(first.status.success(), "{first:?}");
    let mut failures = Vec::new();
    // One scratch directory per documentation file, so files one command writes can be read by
    // the next without touching the repository; `docs/` is linked in for the example inputs.
    let mut scratch: std::collections::HashMap<String, tempfile::TempDir> = Default::default();
    for (file, line, cmd, expected) in &examples {
        let dir = scratch.entry(file.clone()).or_insert_with(|| {
            let d = tempfile::tempdir().unwrap();
            std::os::unix::fs::symlink(root.join("docs"), d.path().join("docs")).unwrap();
            d
        });
        let args = split_args(cmd);
        let shell = cmd.contains(['|', '>', '<', ';', '&']);
        assert!(
            args[0] == "grundy" || (shell && cmd.contains("grundy ")),
            "{file}:{line}: only grundy commands can be checked"
        );
        let out = if shell {
            // A shell line: pipes and redirections as a user would type them.
            let path = format!(
                "{}:{}",
                binary_dir().display(),
                std::env::var("PATH").unwrap_or_default()
            );
            std::process::Command::new("sh")
                .arg("-c")
                .arg(cmd)
                .env("PATH", path)
                .env("XDG_DATA_HOME", common::scratch_data_home())
                .env_remove("GRUNDY_DB")
                .env("GRUNDY_PROGRESS_SECONDS", "1000000")
                .current_dir(dir.path())
                .output()
                .unwrap()
        } else {
            // progress lines of a long example are what a terminal clears: not shown
            common::grundy()
                .current_dir(dir.path())
                .env("GRUNDY_PROGRESS_SECONDS", "1000000")
                .args(&args[1..])
                .output()
                .unwrap()
        };
        // What a terminal shows: stdout, then stderr (errors are one line there).
        let actual = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !matches(expected, &actual) {
            failures.push(format!(
                "{file}:{line}: `{cmd}`\n--- documented\n{expected}--- actual\n{actual}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} doc example(s) drifted:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The subcommands a `--help` text lists under "Commands:".
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every example a `--help` text shows (`` `grundy ...` `` in backquotes) runs as written and
/// succeeds: `grundy --help`, each command's and each `verify` check's.
#[test]
fn every_help_example_runs() {
    let root = repo_root();
    let help = |path: &[String]| -> String {
        let out = common::grundy().args(path).arg("--help").output().unwrap();
        assert!(out.status.success(), "{path:?} --help");
        String::from_utf8(out.stdout).unwrap()
    };
    let mut pages = vec![(Vec::<String>::new(), help(&[]))];
    let mut i = 0;
    while i < pages.len() {
        let (path, text) = pages[i].clone();
        for sub in subcommands(&text) {
            let mut p = path.clone();
            p.push(sub);
            let t = help(&p);
            pages.push((p, t));
        }
        i += 1;
    }
    assert!(pages.len() > 15, "expected every command's help");
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root.join("docs"), dir.path().join("docs")).unwrap();
    let mut ran = 0;
    let mut failures = Vec::new();
    for (path, text) in &pages {
        // The examples: backquoted commands in a paragraph from "Example" on (they may wrap
        // across lines); a command with a placeholder in capitals (FILE, CODE) is a template.
        let examples = text
            .split("\n\n")
            .filter_map(|p| p.find("Example").map(|i| &p[i..]))
            .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>();
        let spans = examples
            .iter()
            .flat_map(|p| p.split('`').skip(1).step_by(2).map(str::to_owned))
            .collect::<Vec<_>>();
        for span in &spans {
            let Some(rest) = span.strip_prefix("grundy ") else {
                continue;
            };
            let template = rest
                .split_whitespace()
                .any(|w| w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase()));
            if template {
                continue;
            }
            let args = split_args(rest);
            // A server runs until it is stopped: `serve`'s examples are run by cli_serve.rs,
            // which starts it, asks it and stops it.
            if args.first().map(String::as_str) == Some("serve") {
                continue;
            }
            let out = common::grundy()
                .current_dir(dir.path())
                .args(&args)
                .env("GRUNDY_PROGRESS_SECONDS", "1000000")
                .write_stdin("")
                // no example may hang the suite: one that has not ended by then has failed
                .timeout(std::time::Duration::from_secs(300))
                .output()
                .unwrap();
            ran += 1;
            if !out.status.success() {
                failures.push(format!(
                    "grundy {} --help shows `{span}`, which fails: {}",
                    path.join(" "),
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
    }
    assert!(ran >= 20, "expected examples in the help texts, ran {ran}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A code block right after a line `<!-- file: PATH -->` is that file of the repository, as it
/// is: a listing in a chapter cannot drift from the code the test suite builds.
#[test]
fn listed_files_are_the_files() {
    let root = repo_root();
    let mut checked = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(path) = line
                .strip_prefix("<!-- file: ")
                .and_then(|l| l.strip_suffix(" -->"))
            else {
                continue;
            };
            let fence = lines.get(i + 1).copied().unwrap_or_default();
            assert!(
                fence.starts_with("```"),
                "{}:{}: no code block",
                file.display(),
                i + 2
            );
            let body: Vec<&str> = lines[i + 2..]
                .iter()
                .copied()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            let listed = body.join("\n") + "\n";
            let actual = std::fs::read_to_string(root.join(path)).unwrap();
            assert_eq!(
                listed,
                actual,
                "{}:{}: the listing of {path} differs",
                file.display(),
                i + 1
            );
            checked += 1;
        }
    }
    assert!(checked >= 1, "expected a listed file in docs/own-game.md");
}

/// Line-wise match where an expected line `...` matches any run of lines (possibly none).
fn matches(expected: &str, actual: &str) -> bool {
    let exp: Vec<&str> = expected.lines().collect();
    let act: Vec<&str> = actual.lines().collect();
    // reachable[j]: expected[..i] can match actual[..j]
    let mut reachable = vec![false; act.len() + 1];
    reachable[0] = true;
    for e in &exp {
        let mut next = vec![false; act.len() + 1];
        if *e == "..." {
            let mut any = false;
            for j in 0..=act.len() {
                any |= reachable[j];
                next[j] = any;
            }
        } else {
            for j in 0..act.len() {
                next[j + 1] = reachable[j] && act[j] == *e;
            }
        }
        reachable = next;
    }
    reachable[act.len()]
        && (expected.ends_with('\n') == actual.ends_with('\n') || actual.is_empty())
}

#[test]
fn ellipsis_matching() {
    assert!(matches("a\nb\n", "a\nb\n"));
    assert!(!matches("a\nb\n", "a\nc\n"));
    assert!(matches("a\n...\nd\n", "a\nb\nc\nd\n"));
    assert!(matches("a\n...\nd\n", "a\nd\n"));
    assert!(!matches("a\n...\nd\n", "a\nb\n"));
    assert!(matches("...\n", "x\ny\n"));
    assert!(!matches("a\n", "a\nextra\n"));
}

#[test]
fn argument_splitting() {
    assert_eq!(
        split_args("grundy nim 3  5"),
        vec!["grundy", "nim", "3", "5"]
    );
    assert_eq!(
        split_args("grundy x 'a b' \"\""),
        vec!["grundy", "x", "a b", ""]
    );
}

/// The summaries of the frontier runs in docs/results/ (0.143, 0.146 and 0.206, each written by
/// `--results` during runs of hours) begin with what the program computes today: the files up
/// to 2^16 are recomputed here and must be byte for byte the published ones, so neither the
/// files nor the summary code can drift. (The larger ones are checked against the runs'
/// checkpoints by `scripts/check-results.py`, see docs/results.md.)
#[test]
fn published_frontier_summaries_up_to_2_16_are_recomputed_exactly() {
    let out = tempfile::tempdir().unwrap();
    for code in ["0.143", "0.146", "0.206"] {
        let status = common::grundy()
            .args(["takebreak", code, "-n", "65536", "--no-extend", "--results"])
            .arg(out.path())
            .args(["--no-record", "--no-checkpoint"])
            .output()
            .unwrap();
        assert!(status.status.success(), "{code}: {status:?}");
        for k in 10..=16 {
            let name = format!("{}.txt", 1u64 << k);
            let ours = std::fs::read_to_string(out.path().join(code).join(&name)).unwrap();
            let published =
                std::fs::read_to_string(repo_root().join("docs/results").join(code).join(&name))
                    .unwrap_or_else(|e| panic!("docs/results/{code}/{name}: {e}"));
            assert!(ours == published, "{code} {name} differs from docs/results");
        }
    }
}

/// The OEIS's b-files (its tables "n a(n)", 10,000 terms for most entries) of the octal games
/// A071426–A071518, known here only by the size and SHA-256 the OEIS's data repository states for
/// each (scripts/data/oeis-bfiles.txt): every table is rebuilt from this program's values of the
/// entry's first named code (the offset from scripts/data/oeis-octal.txt) and must hash to the
/// published digest. This checks 745,384 published values, among them the first 10,000 of
/// the open games 0.143, 0.146 and 0.206 (A071469, A071470 and A071484, whose name is .3037).
#[test]
fn oeis_b_files_are_rebuilt_byte_for_byte() {
    use sha2::{Digest, Sha256};
    let data = repo_root().join("scripts/data");
    let entries = std::fs::read_to_string(data.join("oeis-octal.txt")).unwrap();
    let entry = |anum: &str| -> (String, usize) {
        let line = entries
            .lines()
            .find(|l| l.starts_with(anum) && l.as_bytes().get(anum.len()) == Some(&b'|'))
            .unwrap_or_else(|| panic!("{anum} is not in oeis-octal.txt"));
        let fields: Vec<&str> = line.split('|').collect();
        let first = fields[1].split_whitespace().next().unwrap();
        let code = if first.starts_with('.') {
            format!("0{first}")
        } else {
            first.to_string()
        };
        (code, fields[3].parse().unwrap())
    };
    let digests = std::fs::read_to_string(data.join("oeis-bfiles.txt")).unwrap();
    let (mut files, mut terms, mut wrong) = (0, 0, Vec::new());
    for line in digests
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('|').collect();
        let (anum, size, digest) = (fields[0], fields[1].parse::<usize>().unwrap(), fields[2]);
        let (code, offset) = entry(anum);
        // Every line holds at least four bytes ("n a\n"), so size / 4 terms are enough.
        let n = offset + size / 4 + 1;
        let out = common::json(&[
            "takebreak",
            &code,
            "-n",
            &n.to_string(),
            "--print",
            "--no-extend",
            "--no-record",
            "--no-checkpoint",
        ]);
        let values: Vec<u64> = out["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let mut table = String::new();
        let mut k = offset;
        while k < values.len() {
            let next = format!("{k} {}\n", values[k]);
            if table.len() + next.len() > size {
                break;
            }
            table.push_str(&next);
            k += 1;
        }
        terms += k - offset;
        while table.len() < size {
            table.push('\n');
        }
        let ours = format!("{:x}", Sha256::digest(table.as_bytes()));
        if ours != digest {
            wrong.push(format!("{anum} ({code}, n = {offset}..{})", k - 1));
        }
        files += 1;
    }
    assert_eq!(files, 84, "scripts/data/oeis-bfiles.txt lists 84 b-files");
    assert!(wrong.is_empty(), "b-files not rebuilt: {wrong:?}");
    assert_eq!(terms, 745_384, "the terms the 84 tables hold");
}
