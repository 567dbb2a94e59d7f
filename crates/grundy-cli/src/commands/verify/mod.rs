//! `grundy verify ...`: exhaustive checks of a paper's closed form against the generic
//! evaluator ([`grundy::verify`]), with a progress bar, a count and the first counterexample.
//! This module parses the arguments and prints the reports.

use crate::common::{emit, parse_u64, CliError, CliResult};
use grundy::verify::{self, CheckReport};

/// Exhaustive checks of closed forms against brute force (exit status 1 on a counterexample).
///
/// Example: `grundy verify nim --heaps 3 --max-heap 16`
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(subcommand)]
    pub target: Option<VerifyTarget>,
}

#[derive(clap::Subcommand, Debug)]
pub enum VerifyTarget {
    /// Nim: nim-sum and the misère rule (Thm 2.3) against the evaluators
    ///
    /// Example: `grundy verify nim --heaps 3 --max-heap 16`
    Nim(NimArgs),
    /// Multiplayer Nim: Thm 4.2 (every i) and Thm 4.3 (exactly one n_k) against the evaluator
    ///
    /// Example: `grundy verify multiplayer --players 3 --heaps 4 --max-heap 12`
    Multiplayer(MultiplayerArgs),
    /// Multiplayer Nim, teams: class mod d of every order grouped by residues mod d (ours)
    ///
    /// Example: `grundy verify multiplayer-residues --players 4 --heaps 6 --max-heap 16`
    MultiplayerResidues(MultiplayerArgs),
    /// Common-divisor Nim: Theorem 2.4 and its winning moves against the evaluator
    ///
    /// Example: `grundy verify cdnim --heaps 3 --max-heap 40`
    Cdnim(CdnimArgs),
    /// Sato-Welter game: Welter's formula (hook paper Thm 2) and its winning moves
    ///
    /// Example: `grundy verify welter --coins 4 --max-square 14`
    Welter(WelterArgs),
    /// Young diagrams: the quotient theorem (hook paper Thm 4), each term by brute force
    ///
    /// Example: `grundy verify quotient-theorem --max-boxes 20`
    QuotientTheorem(QuotientTheoremArgs),
}

#[derive(clap::Args, Debug)]
pub struct NimArgs {
    /// Number of heaps
    #[arg(long, default_value_t = 3)]
    pub heaps: usize,
    /// Heaps range over 0..N-1
    #[arg(long, default_value_t = 12)]
    pub max_heap: u64,
}

#[derive(clap::Args, Debug)]
pub struct MultiplayerArgs {
    /// Number of players M (2..=16)
    #[arg(long, default_value = "3")]
    pub players: String,
    /// Number of heaps K (Thm 4.3 completes K-1 heaps with a K-th)
    #[arg(long, default_value = "3")]
    pub heaps: String,
    /// Heaps range over 0..N-1
    #[arg(long, default_value = "8")]
    pub max_heap: String,
}

#[derive(clap::Args, Debug)]
pub struct CdnimArgs {
    /// Number of heaps m
    #[arg(long, default_value_t = 3)]
    pub heaps: usize,
    /// Heaps range over 0..N-1
    #[arg(long, default_value_t = 16)]
    pub max_heap: u64,
}

#[derive(clap::Args, Debug)]
pub struct WelterArgs {
    /// Positions of 0 up to K coins
    #[arg(long, value_name = "K", default_value_t = 4)]
    pub coins: usize,
    /// Squares range over 0..N-1
    #[arg(long, value_name = "N", default_value_t = 14)]
    pub max_square: u64,
}

#[derive(clap::Args, Debug)]
pub struct QuotientTheoremArgs {
    /// Every Young diagram with at most N boxes
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub max_boxes: u64,
}

/// Run `check` with a progress bar on stderr (one bar, relabelled for each check it runs).
fn with_bar<T>(
    check: impl FnOnce(verify::Progress<'_>) -> Result<T, grundy::Error>,
) -> CliResult<T> {
    let bar = crate::progress::Progress::new(0, "verify", "positions");
    let progress = |name: &str, done: usize, total: usize| {
        bar.relabel(name, total as u64);
        bar.tick(done as u64);
    };
    let result = check(Some(&progress));
    bar.finish();
    Ok(result?)
}

pub fn run(args: VerifyArgs, json: bool) -> CliResult {
    let Some(target) = args.target else {
        return Err(CliError::input(
            "verify needs a check: nim, multiplayer, cdnim, welter or quotient-theorem (e.g. \
             'grundy verify nim --heaps 3 --max-heap 16'; see 'grundy verify --help')",
        ));
    };
    match target {
        VerifyTarget::Nim(a) => finish(
            with_bar(|p| verify::nim::check_all(a.heaps, a.max_heap, p))?,
            json,
        ),
        VerifyTarget::Cdnim(a) => finish(
            with_bar(|p| verify::cdnim::check_all(a.heaps, a.max_heap, p))?,
            json,
        ),
        VerifyTarget::Welter(a) => finish(
            with_bar(|p| verify::welter::check_all(a.coins, a.max_square, p))?,
            json,
        ),
        VerifyTarget::QuotientTheorem(a) => finish(
            with_bar(|p| verify::quotient_theorem::check_all(a.max_boxes, p))?,
            json,
        ),
        VerifyTarget::Multiplayer(a) => {
            let players = parse_u64("player count", &a.players)?;
            let heaps = parse_u64("heap count", &a.heaps)?;
            let max_heap = parse_u64("heap bound", &a.max_heap)?;
            let report = with_bar(|p| verify::multiplayer::check_all(players, heaps, max_heap, p))?;
            multiplayer_finish(report, json)
        }
        VerifyTarget::MultiplayerResidues(a) => {
            let players = parse_u64("player count", &a.players)?;
            let heaps = parse_u64("heap count", &a.heaps)?;
            let max_heap = parse_u64("heap bound", &a.max_heap)?;
            let report =
                with_bar(|p| verify::multiplayer_residues::check_all(players, heaps, max_heap, p))?;
            emit(json, &report, || {
                let mut s = format!(
                    "{} orders of {} players grouped by teams\n",
                    report.orders.len(),
                    report.players
                );
                for c in &report.checks {
                    s.push_str(&format!(
                        "{}: {} positions checked ({})\n",
                        c.check, c.positions_checked, c.scope
                    ));
                    match &c.counterexample {
                        None => s.push_str("  holds: yes, no counterexample\n"),
                        Some(x) => s.push_str(&format!("  holds: NO; first counterexample: {x}\n")),
                    }
                }
                s
            })?;
            if report.holds {
                Ok(())
            } else {
                Err(CliError::check_failed("a counterexample was found"))
            }
        }
    }
}

/// Print a check report; a counterexample makes the exit status 1.
fn finish(report: CheckReport, json: bool) -> CliResult {
    emit(json, &report, || {
        let mut s = format!(
            "{}: {} positions checked ({})\n",
            report.check, report.positions_checked, report.scope
        );
        match &report.counterexample {
            None => s.push_str("holds: yes, no counterexample\n"),
            Some(c) => s.push_str(&format!("holds: NO; first counterexample: {c}\n")),
        }
        s
    })?;
    if report.holds {
        Ok(())
    } else {
        Err(CliError::check_failed("a counterexample was found"))
    }
}

/// Print both checks of the multiplayer paper; a counterexample makes the exit status 1.
fn multiplayer_finish(report: verify::multiplayer::Report, json: bool) -> CliResult {
    emit(json, &report, || {
        let mut s = String::new();
        for c in &report.checks {
            s.push_str(&format!(
                "{}: {} {} checked ({})\n",
                c.check,
                c.positions_checked,
                if c.check.starts_with("Thm 4.3") {
                    "prefixes"
                } else {
                    "positions"
                },
                c.scope
            ));
            match &c.counterexample {
                None => s.push_str("  holds: yes, no counterexample\n"),
                Some(x) => s.push_str(&format!("  holds: NO; first counterexample: {x}\n")),
            }
        }
        if let Some(x) = report.largest_completion_excess {
            s.push_str(&format!(
                "largest completing n_k found: sum(prefix) {} {}\n",
                if x < 0 { '-' } else { '+' },
                x.abs()
            ));
        }
        s
    })?;
    if report.holds {
        Ok(())
    } else {
        Err(CliError::check_failed("a counterexample was found"))
    }
}
