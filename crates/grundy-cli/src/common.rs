//! Plumbing shared by every command: errors with exit codes, reading positions from arguments
//! or `--input`, parsing numbers, emitting human or JSON output, progress bars.

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
}

/// Read a whole file (or stdin for `-`) as text, with a clear error.
pub fn read_text(path: &Path) -> CliResult<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| CliError::input(format!("cannot read standard input: {e}")))?;
        return Ok(s);
    }
    std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read '{}': {e}", path.display())))
}

fn number_error(what: &str, word: &str) -> CliError {
    let shown: String = word.chars().take(40).collect();
    let shown = if shown.len() < word.len() {
        format!("{shown}...")
    } else {
        shown
    };
    if word.starts_with('-') && word[1..].chars().all(|c| c.is_ascii_digit()) && word.len() > 1 {
        CliError::input(format!(
            "{what} '{shown}' is negative; {what}s are non-negative whole numbers"
        ))
    } else {
        CliError::input(format!(
            "{what} '{shown}' is not a non-negative whole number"
        ))
    }
}

/// Parse a non-negative decimal integer of any length. Underscores are allowed as separators.
pub fn parse_big(what: &str, word: &str) -> CliResult<BigUint> {
    let clean: String = word.chars().filter(|&c| c != '_').collect();
    if clean.is_empty() || !clean.chars().all(|c| c.is_ascii_digit()) {
        return Err(number_error(what, word));
    }
    clean.parse().map_err(|_| number_error(what, word))
}

/// Parse a non-negative integer that must fit in 64 bits.
pub fn parse_u64(what: &str, word: &str) -> CliResult<u64> {
    let big = parse_big(what, word)?;
    u64::try_from(&big).map_err(|_| {
        CliError::input(format!(
            "{what} '{word}' is too large here (at most {} for this computation)",
            u64::MAX
        ))
    })
}

/// Parse a comma- (or whitespace-) separated list of u64.
pub fn parse_u64_list(what: &str, text: &str) -> CliResult<Vec<u64>> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| parse_u64(what, w))
        .collect()
}

/// Print `report` as one JSON object, or the human text.
pub fn emit<T: Serialize>(json: bool, report: &T, human: impl FnOnce() -> String) -> CliResult {
    let mut text = if json {
        serde_json::to_string(report)?
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

/// A progress bar on stderr (hidden when stderr is not a terminal).
pub fn progress_bar(len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta})",
        )
        .expect("valid template"),
    );
    bar.set_message(what.to_owned());
    bar
}

/// Join displayable things with ", ".
pub fn join<T: std::fmt::Display>(items: &[T]) -> String {
    items
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// An arbitrary-precision integer that serialises as a JSON *number* of any length.
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
