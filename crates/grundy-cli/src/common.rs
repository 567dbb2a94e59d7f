//! Plumbing shared by every command: errors with exit codes, reading positions from arguments
//! or `--input`, parsing numbers, emitting human or JSON output (progress: [`crate::progress`]).

use num_bigint::BigUint;
use serde::Serialize;
use std::io::Read;
use std::path::{Path, PathBuf};

/// An error that ends the program: one line on stderr and an exit status.
#[derive(Debug)]
pub struct CliError {
    pub message: String,
    pub code: i32,
}

impl CliError {
    /// Bad input: exit status 2.
    pub fn input(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            code: 2,
        }
    }

    /// A check found a counterexample: exit status 1 (the report was already printed).
    pub fn check_failed(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            code: 1,
        }
    }
}

impl From<grundy::Error> for CliError {
    fn from(e: grundy::Error) -> Self {
        CliError::input(e.to_string())
    }
}

impl From<grundy_runs::Error> for CliError {
    fn from(e: grundy_runs::Error) -> Self {
        match e {
            grundy_runs::Error::Input(message) => CliError::input(message),
            // 128 + SIGINT, as a shell reports a process ended by Ctrl-C
            grundy_runs::Error::Interrupted(message) => CliError { message, code: 130 },
        }
    }
}

/// Show what a library run has to say on stderr, one line each.
pub fn tell(message: grundy_runs::Message) {
    match message {
        grundy_runs::Message::Info(m) => eprintln!("grundy: {}", as_written(&m)),
        grundy_runs::Message::Note(m) => eprintln!("grundy: note: {}", as_written(&m)),
        grundy_runs::Message::Warning(m) => eprintln!("grundy: warning: {}", as_written(&m)),
    }
}

/// Whether the user wrote `--memory`, the alias of `--max-memory` (set once by `main`).
static MEMORY_ALIAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Remember which spelling of `--max-memory` the command line used.
pub fn note_spellings(args: &[std::ffi::OsString]) {
    let alias = args.iter().any(|a| {
        let a = a.to_string_lossy();
        a == "--memory" || a.starts_with("--memory=")
    });
    let _ = MEMORY_ALIAS.set(alias);
}

/// A message of the library with its flags named as the user wrote them: the library says
/// `--max-memory`, a user who wrote `--memory` reads `--memory`.
pub fn as_written(message: &str) -> std::borrow::Cow<'_, str> {
    if MEMORY_ALIAS.get() == Some(&true) && message.contains("--max-memory") {
        message.replace("--max-memory", "--memory").into()
    } else {
        message.into()
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::input(format!("I/O error: {e}"))
    }
}

impl From<serde_json::Error> for CliError {
    fn from(e: serde_json::Error) -> Self {
        CliError::input(format!("JSON error: {e}"))
    }
}

pub type CliResult<T = ()> = Result<T, CliError>;

/// Where a position comes from: words on the command line and/or `--input FILE` (`-` = stdin).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PositionArgs {
    /// The position: whitespace-separated numbers (heaps, squares, parts)
    #[arg(value_name = "N", allow_negative_numbers = true)]
    pub values: Vec<String>,
    /// Read the position (whitespace-separated) from FILE; `-` reads standard input
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
}

impl PositionArgs {
    /// All words of the position: command-line words first, then the file's.
    pub fn words(&self) -> CliResult<Vec<String>> {
        let mut words = self.values.clone();
        if let Some(path) = &self.input {
            let text = read_text(path)?;
            words.extend(text.split_whitespace().map(str::to_owned));
        }
        Ok(words)
    }

    /// The position as machine-sized heaps (one per word).
    pub fn u64_heaps(&self) -> CliResult<Vec<u64>> {
        self.words()?.iter().map(|w| parse_u64("heap", w)).collect()
    }
}

/// The most bytes any one input (a `--input` file, standard input, a graph file) may have:
/// 64 MiB, far more than any position this program can evaluate needs, and a bound on memory
/// when the input is `/dev/zero`, `/dev/urandom` or a 2 GB line.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Read a whole file (or stdin for `-`) as text, at most [`MAX_INPUT_BYTES`], with a clear
/// error for a missing file, an oversized input and bytes that are not UTF-8 text.
pub fn read_text(path: &Path) -> CliResult<String> {
    read_text_capped(path, MAX_INPUT_BYTES)
}

/// [`read_text`] with another byte limit (game-graph files may be larger than positions).
pub fn read_text_capped(path: &Path, cap: u64) -> CliResult<String> {
    let (name, reader): (String, Box<dyn Read>) = if path.as_os_str() == "-" {
        ("standard input".into(), Box::new(std::io::stdin().lock()))
    } else {
        let name = format!("'{}'", shown(&path.display().to_string()));
        let file = std::fs::File::open(path)
            .map_err(|e| CliError::input(format!("cannot read {name}: {e}")))?;
        (name, Box::new(file))
    };
    read_capped(reader, &name, cap)
}

/// Read everything from `reader` as UTF-8 text, refusing more than `cap` bytes.
pub fn read_capped(reader: impl Read, name: &str, cap: u64) -> CliResult<String> {
    let mut bytes = Vec::new();
    reader
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::input(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > cap {
        return Err(CliError::input(format!(
            "{name} is larger than {} MiB, the most this program reads",
            cap >> 20
        )));
    }
    if bytes.contains(&0) {
        return Err(CliError::input(format!(
            "{name} contains NUL bytes: it is not a text file"
        )));
    }
    String::from_utf8(bytes).map_err(|_| CliError::input(format!("{name} is not UTF-8 text")))
}

pub use grundy::text::{shown, shown_line};

/// Check, before any work, that an output file can be created at `path`: its directory exists
/// and `path` is not itself a directory. The message names the problem, not the drawing
/// library's internals.
pub fn check_output_path(flag: &str, path: &Path) -> CliResult {
    let name = shown(&path.display().to_string());
    if path.as_os_str().is_empty() {
        return Err(CliError::input(format!("{flag}: the file name is empty")));
    }
    if path.is_dir() {
        return Err(CliError::input(format!(
            "{flag} '{name}' is a directory; give a file name"
        )));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(CliError::input(format!(
            "{flag} '{name}': directory '{}' does not exist",
            shown(&dir.display().to_string())
        )));
    }
    Ok(())
}

/// [`check_output_path`] for every output flag that was given.
pub fn check_output_paths(outputs: &[(&str, &Option<PathBuf>)]) -> CliResult {
    for (flag, path) in outputs {
        if let Some(path) = path {
            check_output_path(flag, path)?;
        }
    }
    Ok(())
}

/// Parse a non-negative decimal integer ([`grundy::text::parse_big`]).
pub fn parse_big(what: &str, word: &str) -> CliResult<BigUint> {
    Ok(grundy::text::parse_big(what, word)?)
}

/// Parse a non-negative integer that must fit in 64 bits ([`grundy::text::parse_u64`]).
pub fn parse_u64(what: &str, word: &str) -> CliResult<u64> {
    Ok(grundy::text::parse_u64(what, word)?)
}

/// Parse a comma- (or whitespace-) separated list of u64 ([`grundy::text::parse_u64_list`]).
pub fn parse_u64_list(what: &str, text: &str) -> CliResult<Vec<u64>> {
    Ok(grundy::text::parse_u64_list(what, text)?)
}

/// Print `report` as one JSON object, or the human text.
pub fn emit<T: Serialize>(json: bool, report: &T, human: impl FnOnce() -> String) -> CliResult {
    let mut text = if json {
        serde_json::to_string(&exact_integers(serde_json::to_value(report)?))?
    } else {
        human()
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // The reader went away (`grundy ... | head`): nothing left to say to anybody.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(CliError::input(format!("cannot write the output: {e}"))),
    }
}

/// Join displayable things with ", ".
pub fn join<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The largest integer a JSON reader that stores numbers as IEEE doubles (JavaScript's
/// `JSON.parse`, jq) reads exactly: 2^53 - 1.
pub const MAX_SAFE_JSON_INTEGER: u64 = (1 << 53) - 1;

/// The team's JSON convention for integers, applied to every `--json` report by [`emit`]: an
/// integer of magnitude at most 2^53 - 1 stays a JSON number, a larger one becomes a decimal
/// string, so every common JSON reader gets every value exactly. Fractions (timings) are left
/// alone.
pub fn exact_integers(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) => {
            let text = n.to_string();
            let digits = text.strip_prefix('-').unwrap_or(&text);
            let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
            let safe = digits.len() < 16
                || digits
                    .parse::<u64>()
                    .is_ok_and(|v| v <= MAX_SAFE_JSON_INTEGER);
            if integer && !safe {
                Value::String(text)
            } else {
                Value::Number(n)
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(exact_integers).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, exact_integers(v)))
                .collect(),
        ),
        other => other,
    }
}

/// An arbitrary-precision integer for JSON reports: a number of any length, which [`emit`]
/// turns into a decimal string above 2^53 - 1 (see [`exact_integers`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Big(pub BigUint);

impl Serialize for Big {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n: serde_json::Number = self
            .0
            .to_string()
            .parse()
            .map_err(serde::ser::Error::custom)?;
        n.serialize(s)
    }
}

impl std::fmt::Display for Big {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// Describe an outcome for people.
pub fn outcome_words(o: grundy::Outcome) -> &'static str {
    match o {
        grundy::Outcome::P => "P (the player to move loses)",
        grundy::Outcome::N => "N (the player to move wins)",
    }
}
