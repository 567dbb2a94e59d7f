//! `grundy takebreak` (alias `octal`): Grundy sequences of take-and-break games, their
//! certified periods, positions of several heaps, and the splitting paper's transforms.
//!
//! Sequences are computed by [`super::runs`] (engine choice, checkpoints, catalogue) and
//! reported by [`report_sequence`], whichever engine produced them.

use super::takebreak_plot;
use crate::common::{emit, outcome_words, parse_u64, parse_u64_list, CliError, CliResult};
use grundy::takebreak::notation::Notation;
use grundy::takebreak::sparse::classes::{rare_common_split, RareCommonSplit};
use grundy::takebreak::sparse::RareCommon;
use grundy::takebreak::{
    analyse, analyse_with, budget, compute, compute_planned, max_moves_limit, transform, Candidate,
    Code, Computation, Finish, Naive, Period, Plan, Rules, TakeBreakMove,
};
use grundy::takebreak::{general, PositionAnalysis};
use grundy::Outcome;
use grundy_runs::sequence;
use serde::Serialize;
use std::path::PathBuf;

/// Largest heap size drawn by `--png` / `--svg` (one point per heap size).
pub const MAX_PLOT_N: u64 = 100_000_000;
/// Largest heap in a position whose sequence is computed by the naive engine; larger heaps
/// (up to 2^32 - 1) are for rules with the periodicity theorem, and need a certified period
/// among the first [`MAX_POSITION_COMPUTED`] values.
pub const MAX_HEAP: u64 = 200_000;
/// How many values a position's sequence may compute when its heaps exceed [`MAX_HEAP`].
pub const MAX_POSITION_COMPUTED: u64 = 10_000_000;
/// Options that only make sense when computing a sequence.
const SEQUENCE_ONLY: [&str; 8] = [
    "n",
    "rare_classes",
    "until_period",
    "print",
    "png",
    "svg",
    "no_extend",
    "max_memory",
];
/// Most entries of the human value-count line; more are summarised.
const MAX_COUNTS_SHOWN: usize = 32;
/// Default bound for `--fold` / `--cousin` checks.
pub const DEFAULT_CHECK: u64 = 10_000;

/// Take-and-break games: Grundy sequence, period, positions, transforms.
///
/// CODE is `d0.d1d2...` (digits 0-9, A-Z, or &N; for larger, as in 0.&63;7; the leading 0 is
/// optional), or a name: kayles, dawsons-kayles, dawsons-chess, officers, grundys-game. Bit 2^j of digit
/// d_k allows removing k tokens from one heap and leaving exactly j non-empty heaps.
///
/// Examples: `grundy takebreak 0.07 -n 300`, `grundy takebreak kayles --until-period`,
/// `grundy takebreak 0.77 --heaps 5,7,9`, `grundy takebreak .77 --fold 2`,
/// `grundy takebreak .6 --cousin`, `grundy takebreak 0.07 -n 500 --png dawson.png`.
#[derive(clap::Args, Debug, Clone)]
pub struct TakebreakArgs {
    /// The code in CGSuite's notation (e.g. 0.77, .07, 4.07, 0.F, 0.&63;7, 4!.0) or a named game
    #[arg(value_name = "CODE")]
    pub code: String,
    /// Compute G(0..=N) [default: 1000]; N may be written as a power (2^30, 1e9). With
    /// --until-period N is the limit of the search; by
    /// default the values that fit in 1 GiB of memory (about 474 million; less when 90% of the
    /// available memory, or --max-memory, is less), or for the naive engine 1000000 (200000
    /// when moves may leave three or more heaps, where no certificate is possible). A search
    /// that stops at its limit says which, and the command that goes further
    #[arg(short = 'n', long = "n", value_name = "N", allow_hyphen_values = true)]
    pub n: Option<String>,
    /// Stop as soon as a period is certified by the periodicity theorem
    #[arg(long)]
    pub until_period: bool,
    /// Print the values G(0), G(1), ...
    #[arg(long)]
    pub print: bool,
    /// Compute every value up to N with the engine, even after a period is certified (by
    /// default the values beyond the certificate are read from the period it proves)
    #[arg(long, conflicts_with = "until_period")]
    pub no_extend: bool,
    /// Memory the sequence may use, e.g. 800M or 4G [default: 90% of the available memory]:
    /// about 2 bytes a value, or 1 where the rare/common engine keeps them in bytes (a run that
    /// fits only so turns --compact-values on, and stops, saved, if its values need two bytes).
    /// With --tiered: the bound on the process's RAM (required)
    #[arg(
        long,
        visible_alias = "memory",
        value_name = "SIZE",
        allow_hyphen_values = true
    )]
    pub max_memory: Option<String>,
    /// Analyse the position made of these heaps (e.g. 5,7,9): value, outcome, winning moves
    #[arg(long, value_name = "LIST", allow_hyphen_values = true,
          conflicts_with_all = SEQUENCE_ONLY)]
    pub heaps: Option<String>,
    /// With --heaps: list at most this many winning moves [default: 1000]
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    pub max_moves: Option<String>,
    /// Build the m-fold game B of Theorem 6.5 and check g_B(n) = g_A(floor(n/M))
    #[arg(long, value_name = "M", allow_hyphen_values = true,
          conflicts_with_all = ["cousin", "heaps", "n", "until_period", "print", "png", "svg"])]
    pub fold: Option<String>,
    /// Build the cousin B of Theorem 6.6 and check g_B(n) = g_A(n+1)
    #[arg(long, conflicts_with_all = ["heaps", "n", "until_period", "print", "png", "svg"])]
    pub cousin: bool,
    /// List every option of a heap of N (as multisets of heaps), for any code in CGSuite's
    /// notation, including forms the engines cannot run (0.[3], 8!.0, {2+}.0)
    #[arg(long, value_name = "N", allow_hyphen_values = true,
          conflicts_with_all = ["heaps", "fold", "cousin", "n", "until_period", "print", "png", "svg", "max_moves", "check_up_to"])]
    pub options: Option<String>,
    /// Bound for the --fold / --cousin check [default: 10000]
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub check_up_to: Option<String>,
    /// Draw G(n) against n, with the period marked, as a PNG
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Draw G(n) against n, with the period marked, as an SVG
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// The rare and common classes of the values (a class: a value at the heap sizes of one
    /// parity) as the rare/common engine splits them, each rare class with its heap sizes;
    /// octal codes only. With --json: the `rare_common` object (what the web page shows)
    #[arg(long, conflicts_with_all = ["misere", "fold", "cousin", "options"])]
    pub rare_classes: bool,
    /// Misère play: the misère Grundy values and Conway's genus of heaps 0..=N (-n, default
    /// 30); `--print` lists the genus per heap
    #[arg(long, conflicts_with_all = ["heaps", "fold", "cousin", "options", "until_period", "png", "svg", "no_extend"])]
    pub misere: bool,
    #[command(flatten)]
    pub run: super::runs::RunOptions,
}

/// The JSON report of a sequence (keys are a contract: code, n, values, period, max_value,
/// value_counts).
#[derive(Serialize, Debug)]
pub struct SequenceReport {
    pub code: String,
    pub n: usize,
    pub engine: &'static str,
    /// Threads that computed the values (1, or `--threads` when it let the rare/common engine
    /// run its pipeline).
    pub threads: usize,
    /// Bytes per stored value: 1 while every value is below 256 (the values were kept in
    /// bytes), 2 otherwise (`grundy::takebreak::values`).
    pub value_bytes: usize,
    /// Present when the sequence was extended by its certified period: the engine computed
    /// G(0..=computed_up_to) (up to the certificate) and the rest follows from the period.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computed_up_to: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<u16>>,
    pub period: Option<Period>,
    /// While no period is certified: the period search's best candidate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period_search: Option<Candidate>,
    pub max_value: u16,
    pub value_counts: Vec<u64>,
    /// With `--until-period`, when no period was certified: where the search stopped, why, and
    /// the command that goes further.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until_period_limit: Option<sequence::LimitReport>,
    /// The pictures written (`--png`, `--svg`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// With `--rare-classes`: the rare and common classes of the computed values as the
    /// rare/common engine splits them (`grundy::takebreak::sparse::classes`; the web page shows
    /// these as the rare values).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rare_common: Option<RareCommonSplit>,
    /// With `--tiered`: what the run did with its memory (values kept at each end, releases of
    /// the middle, page faults during the run, peak resident set, where it resumed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiered: Option<grundy::takebreak::tiered::TieredStats>,
}

#[derive(Serialize)]
struct PositionReport {
    code: String,
    heaps: Vec<u32>,
    heap_values: Vec<u16>,
    grundy_value: u16,
    outcome: Outcome,
    winning_moves: Vec<TakeBreakMove>,
    winning_moves_truncated: bool,
}

#[derive(Serialize)]
struct TransformReport {
    transform: &'static str,
    code_a: String,
    code_b: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    m: Option<usize>,
    identity: String,
    checked_up_to: usize,
    holds: bool,
    first_failure: Option<usize>,
}

/// `--max-memory` in bytes, if given.
fn max_memory(args: &TakebreakArgs) -> CliResult<Option<u64>> {
    Ok(match &args.max_memory {
        Some(text) => Some(grundy::text::parse_bytes(text).ok_or_else(|| {
            CliError::input(format!(
                "--max-memory '{text}' is not a size (e.g. 800M, 4G or a number of bytes)"
            ))
        })?),
        None => None,
    })
}

/// The plan of a sequence run ([`grundy_runs::sequence::plan`]) from the arguments.
fn plan(args: &TakebreakArgs, rules: &Rules, n: usize, sparse: bool) -> CliResult<Plan> {
    let max_memory = max_memory(args)?;
    if args.run.tiered.is_some() {
        // the values go to the store's file: RAM does not bound how many (the disk does, and
        // is checked when the store opens)
        let finish = if args.until_period {
            Finish::AtCertificate
        } else if args.no_extend {
            Finish::ComputeAll
        } else {
            Finish::Extend
        };
        return Ok(Plan::new(n, finish));
    }
    let request = sequence::Request {
        until_period: args.until_period,
        no_extend: args.no_extend,
        keep_all: args.print,
        max_memory,
    };
    Ok(sequence::plan(&request, rules, n, sparse)?)
}

pub fn run(args: TakebreakArgs, json: bool) -> CliResult {
    super::runs::check_threads(&args.run)?;
    if let Some(n) = &args.options {
        super::runs::note_one_thread(&args.run, "--options");
        return super::takebreak_options::run(&args.code, n, json);
    }
    crate::common::check_output_paths(&[("--png", &args.png), ("--svg", &args.svg)])?;
    if args.check_up_to.is_some() && args.fold.is_none() && !args.cousin {
        return Err(CliError::input(
            "--check-up-to goes with --fold or --cousin",
        ));
    }
    if args.max_moves.is_some() && args.heaps.is_none() {
        return Err(CliError::input("--max-moves goes with --heaps"));
    }
    if args.misere {
        let rules = Rules::parse(&args.code)?;
        return super::misere_genus::run(&rules, args.n.as_deref(), args.print, json);
    }
    // Forms the octal engines cannot represent (0.[3], {2+}.0, 4?.0, ...) go to the general
    // engine; finite codes and Grundy's game keep theirs.
    let rules = match sequence::parse_code(&args.code)? {
        sequence::CodeRules::Engines(rules) => rules,
        sequence::CodeRules::General(notation) => return run_general(&args, &notation, json),
    };
    if let Some(m) = &args.fold {
        super::runs::note_one_thread(&args.run, "the --fold check");
        return run_fold(&args, &rules, m, json);
    }
    if args.cousin {
        super::runs::note_one_thread(&args.run, "the --cousin check");
        return run_cousin(&args, &rules, json);
    }
    if let Some(list) = &args.heaps {
        return run_position(&args, &rules, list, json);
    }
    let engine = grundy_runs::Engine::choose(args.run.engine, &rules)?;
    let requested = args.n.as_deref().map(heap_size_word).transpose()?;
    let limit = sequence::engine_limit(&engine, &rules);
    let (default_limit, default_reason) =
        sequence::until_period_default(&engine, &rules, max_memory(&args)?);
    let n = sequence::heap_size(requested, args.until_period, limit, default_limit)?;
    if (args.png.is_some() || args.svg.is_some()) && n as u64 > MAX_PLOT_N {
        return Err(CliError::input(format!(
            "heap size {n} is too large for a picture: at most {MAX_PLOT_N} points"
        )));
    }
    let plan = plan(&args, &rules, n, engine.is_sparse())?;
    let started = std::time::Instant::now();
    let done = super::runs::run_long(&rules, plan, &args.run, engine, max_memory(&args)?)?;
    let seconds = started.elapsed().as_secs_f64();
    let engine = (done.engine.name(), done.engine.threads_used());
    let limit = if args.until_period {
        let reason = match &args.n {
            Some(w) => format!("-n {w}"),
            None => default_reason,
        };
        sequence::limit_report(
            &rules,
            &done.computation,
            seconds,
            requested.is_some(),
            &reason,
            sequence::Front::Cli { code: &args.code },
        )
    } else {
        None
    };
    report_sequence(&args, &rules, &done, engine, limit, json)
}

/// Report a computed sequence (and draw it if asked).
pub fn report_sequence(
    args: &TakebreakArgs,
    rules: &Rules,
    done: &grundy_runs::run::Finished,
    engine: (&'static str, usize),
    limit: Option<sequence::LimitReport>,
    json: bool,
) -> CliResult {
    let computation = &done.computation;
    let mut report = sequence_report(rules, computation, engine, args.print);
    report.tiered = done.tiered.clone();
    report.until_period_limit = limit;
    if args.rare_classes {
        let code = rules.code().ok_or_else(|| {
            CliError::input(format!(
                "--rare-classes: the rare/common split is the octal engine's; {rules} is not an octal code (every digit below 8)"
            ))
        })?;
        let split = rare_common_split(code, computation.values.as_ref());
        let split = split.map_err(|_| {
            CliError::input(format!(
                "--rare-classes: the rare/common split is the octal engine's; {rules} is not an octal code (every digit below 8)"
            ))
        })?;
        report.rare_common = Some(split);
    }
    report.files = draw_pictures(args, rules, computation)?;
    emit(json, &report, || human_sequence(&report, args.until_period))
}

/// The report of a computed sequence.
pub fn sequence_report(
    rules: &Rules,
    c: &Computation,
    (engine, threads): (&'static str, usize),
    print: bool,
) -> SequenceReport {
    SequenceReport {
        code: rules.to_string(),
        n: c.n(),
        engine,
        threads,
        value_bytes: c.value_bytes(),
        computed_up_to: c.is_extended().then(|| c.computed() - 1),
        values: print.then(|| c.to_vec()),
        period: c.period,
        period_search: c.candidate,
        max_value: c.max_value,
        value_counts: c.value_counts.clone(),
        until_period_limit: None,
        files: Vec::new(),
        rare_common: None,
        tiered: None,
    }
}

/// Describe a period for people.
pub fn period_words(p: &Period) -> String {
    let how = if p.certified {
        format!(
            "certified by the periodicity theorem at n = {}",
            p.certified_at.unwrap_or_default()
        )
    } else {
        "observed, not certified (the periodicity theorem does not apply to these rules)".into()
    };
    format!("preperiod {}, period {} — {how}", p.preperiod, p.period)
}

fn human_sequence(r: &SequenceReport, until_period: bool) -> String {
    let mut s = format!("code: {}\n", r.code);
    if let Some(k) = r.computed_up_to {
        s.push_str(&format!(
            "G(0..={}): computed G(0..={k}) ({} values), the rest by the certified period\n",
            r.n,
            k + 1
        ));
    } else {
        s.push_str(&format!("computed G(0..={}) ({} values)\n", r.n, r.n + 1));
    }
    match &r.period {
        Some(p) => s.push_str(&format!("period: {}\n", period_words(p))),
        None if until_period => match &r.until_period_limit {
            Some(l) => s.push_str(&format!(
                "period: none certified up to n = {} — {}\n{}\n",
                r.n,
                l.why(),
                l.further()
            )),
            None => s.push_str(&format!("period: none certified up to n = {}\n", r.n)),
        },
        None => s.push_str("period: none found yet\n"),
    }
    if let (Some(_), Some(l)) = (&r.period, &r.until_period_limit) {
        // an observed period: --until-period could not stop on it
        s.push_str(&format!("--until-period: {}\n", l.words()));
    }
    if let Some(c) = &r.period_search {
        if r.period.is_none() {
            s.push_str(&format!(
                "period search: best candidate period {} from {}; its certificate would need \
                 G(0..={})\n",
                c.period, c.preperiod, c.certificate_at
            ));
        }
    }
    s.push_str(&format!("max value: {}\n", r.max_value));
    let counts: Vec<String> = r
        .value_counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(v, c)| format!("{v}:{c}"))
        .collect();
    if counts.len() > MAX_COUNTS_SHOWN {
        // Officers has hundreds of values: a line of them all reads as noise.
        s.push_str(&format!(
            "value counts (value:count; {} distinct values, the first {MAX_COUNTS_SHOWN} \
             shown, all with --json): {} ...\n",
            counts.len(),
            counts[..MAX_COUNTS_SHOWN].join(" ")
        ));
    } else {
        s.push_str(&format!(
            "value counts (value:count): {}\n",
            counts.join(" ")
        ));
    }
    for f in &r.files {
        s.push_str(&format!("wrote the plot of G(0..={}) to {f}\n", r.n));
    }
    if let Some(values) = &r.values {
        // Rows of the period length when there is a short one (the usual table), else 10.
        let width = r
            .period
            .map(|p| p.period)
            .filter(|&p| (4..=40).contains(&p))
            .unwrap_or(10);
        let label = (r.n.max(1).ilog10() + 1) as usize;
        let cell = ((r.max_value.max(1)).ilog10() + 1).max(2) as usize;
        s.push_str("values:\n");
        for (row, chunk) in values.chunks(width).enumerate() {
            let cells: Vec<String> = chunk.iter().map(|v| format!("{v:>cell$}")).collect();
            s.push_str(&format!("  {:>label$}: {}\n", row * width, cells.join(" ")));
        }
    }
    if let Some(rc) = &r.rare_common {
        let common: Vec<String> = rc
            .common
            .iter()
            .map(|c| format!("{} ({} n)", c.value, c.heaps))
            .collect();
        s.push_str(&format!(
            "rare/common split of G(1..={}): common {}; {} heap sizes in {} rare classes ({} values)\n",
            rc.counted_up_to,
            common.join(", "),
            rc.rare_positions,
            rc.rare_class_count,
            rc.rare_values
        ));
        for c in &rc.rare {
            let more = if c.count > c.positions.len() as u64 {
                ", ..."
            } else {
                ""
            };
            let at: Vec<String> = c.positions.iter().map(usize::to_string).collect();
            s.push_str(&format!(
                "  rare {} ({} n): {} times, at n = {}{more}\n",
                c.value,
                c.heaps,
                c.count,
                at.join(", ")
            ));
        }
    }
    s
}

/// Draw the pictures asked for; the files written.
fn draw_pictures(args: &TakebreakArgs, rules: &Rules, c: &Computation) -> CliResult<Vec<String>> {
    let title = format!("G(n) of {}", rules);
    let mut files = Vec::new();
    if let Some(path) = &args.png {
        takebreak_plot::draw(path, takebreak_plot::Format::Png, &title, c)?;
        files.push(path.display().to_string());
    }
    if let Some(path) = &args.svg {
        takebreak_plot::draw(path, takebreak_plot::Format::Svg, &title, c)?;
        files.push(path.display().to_string());
    }
    Ok(files)
}

fn run_position(args: &TakebreakArgs, rules: &Rules, list: &str, json: bool) -> CliResult {
    let heaps = parse_u64_list("heap", list)?;
    if heaps.is_empty() {
        return Err(CliError::input(
            "--heaps needs at least one heap (e.g. --heaps 5,7,9)",
        ));
    }
    let max_heap = heaps.iter().copied().max().unwrap_or(0);
    let theorem = rules.periodicity_theorem_applies();
    if max_heap > MAX_HEAP && !theorem {
        return Err(CliError::input(format!(
            "heap {max_heap} is too large: at most {MAX_HEAP} (its Grundy sequence is computed \
             naively; larger heaps need rules with the periodicity theorem)"
        )));
    }
    if max_heap > u32::MAX as u64 {
        return Err(CliError::input(format!(
            "heap {max_heap} is too large: at most {}",
            u32::MAX
        )));
    }
    let max_moves = parse_max_moves(args)?;
    let heaps: Vec<u32> = heaps.into_iter().map(|h| h as u32).collect();
    let a = if max_heap > MAX_HEAP {
        // the rare/common engine, extended by the certified period
        let mut engine = RareCommon::for_rules(rules)?;
        engine.set_threads(args.run.threads);
        let budget = budget::default_bytes().map_or(usize::MAX, budget::values_within);
        let max_values = budget.min(MAX_POSITION_COMPUTED as usize);
        let plan = Plan {
            n: max_heap as usize,
            finish: Finish::Extend,
            max_values,
            max_compact_values: max_values,
        };
        match compute_planned(rules, plan, &mut engine)? {
            Ok(c) => analyse_with(rules, &c, &heaps, max_moves)?,
            Err(k) => {
                return Err(CliError::input(format!(
                    "heap {max_heap} is too large: {rules} has no certified period among its \
                     first {k} values, and beyond {MAX_HEAP} heaps need one"
                )))
            }
        }
    } else {
        super::runs::note_one_thread(&args.run, "the analysis of heaps this small");
        analyse(rules, &heaps, max_moves)?
    };
    report_position(rules.to_string(), a, json)
}

/// `--max-moves` (or its default, 1000).
fn parse_max_moves(args: &TakebreakArgs) -> CliResult<usize> {
    Ok(match &args.max_moves {
        Some(w) => max_moves_limit(grundy::text::parse_count("--max-moves", w)?)?,
        None => 1000,
    })
}

/// Print the analysis of a position (whichever engine computed it).
fn report_position(code: String, a: PositionAnalysis, json: bool) -> CliResult {
    let report = PositionReport {
        code,
        heaps: a.heaps,
        heap_values: a.heap_values,
        grundy_value: a.grundy_value,
        outcome: a.outcome,
        winning_moves: a.winning_moves,
        winning_moves_truncated: a.winning_moves_truncated,
    };
    emit(json, &report, || {
        let mut s = format!("code: {}\n", report.code);
        let shown: Vec<String> = report
            .heaps
            .iter()
            .zip(&report.heap_values)
            .map(|(h, v)| format!("{h} (G = {v})"))
            .collect();
        s.push_str(&format!("heaps: {}\n", shown.join(", ")));
        s.push_str(&format!(
            "grundy value: {}\noutcome: {}\n",
            report.grundy_value,
            outcome_words(report.outcome)
        ));
        if report.winning_moves.is_empty() {
            s.push_str("winning moves: none\n");
        } else {
            s.push_str(&format!(
                "winning moves ({}{}):\n",
                report.winning_moves.len(),
                if report.winning_moves_truncated {
                    ", list truncated by --max-moves"
                } else {
                    ""
                }
            ));
            for m in &report.winning_moves {
                let left = if m.leaves.is_empty() {
                    "nothing".to_string()
                } else {
                    m.leaves
                        .iter()
                        .map(|h| h.to_string())
                        .collect::<Vec<_>>()
                        .join(" + ")
                };
                // a move of a code that adds tokens (80.0) says so
                let change = if m.removed < 0 {
                    format!("add {}", -m.removed)
                } else {
                    format!("remove {}", m.removed)
                };
                s.push_str(&format!(
                    "  heap {} (0-based) of {}: {change}, leave {left}\n",
                    m.heap, m.from
                ));
            }
        }
        s
    })
}

/// `takebreak CODE` for a code only the general engine runs (see
/// [`grundy::takebreak::general`]): `-n` with `--print` / `--json`, or `--heaps`. The rest
/// needs the octal engines or the periodicity theorem and is refused by name.
fn run_general(args: &TakebreakArgs, notation: &Notation, json: bool) -> CliResult {
    let refused = [
        (
            args.until_period,
            "--until-period (no periodicity theorem covers it)",
        ),
        (args.fold.is_some(), "--fold (it needs a finite code)"),
        (args.cousin, "--cousin (it needs a finite code)"),
        (args.check_up_to.is_some(), "--check-up-to"),
        (
            args.rare_classes,
            "--rare-classes (the rare/common split is the octal engine's)",
        ),
        (args.png.is_some() || args.svg.is_some(), "--png / --svg"),
        (
            args.run.engine != grundy_runs::EngineChoice::Auto,
            "--engine (only the general engine runs it)",
        ),
        (
            args.run.checkpoint.is_some() || args.run.checkpoint_every.is_some(),
            "checkpoints (its runs are bounded to a few seconds)",
        ),
    ];
    if let Some((_, what)) = refused.iter().find(|(set, _)| *set) {
        return Err(sequence::general_refusal(notation, what).into());
    }
    super::runs::note_one_thread(&args.run, "the general engine");
    if let Some(list) = &args.heaps {
        let heaps = parse_u64_list("heap", list)?;
        if heaps.is_empty() {
            return Err(CliError::input(
                "--heaps needs at least one heap (e.g. --heaps 5,7,9)",
            ));
        }
        let heaps = heaps
            .into_iter()
            .map(|h| {
                u32::try_from(h).map_err(|_| {
                    CliError::input(format!("heap {h} is too large: at most {}", u32::MAX))
                })
            })
            .collect::<CliResult<Vec<u32>>>()?;
        let a = general::analyse(notation, &heaps, parse_max_moves(args)?)?;
        return report_position(notation.to_string(), a, json);
    }
    let n = match &args.n {
        Some(w) => heap_size_word(w)?,
        None => 1000,
    };
    let s = general::sequence(notation, n)?;
    let report = SequenceReport {
        code: notation.to_string(),
        n: s.values.len() - 1,
        engine: "general",
        threads: 1,
        value_bytes: 2,
        computed_up_to: None,
        period: s.period,
        period_search: None,
        max_value: s.max_value,
        value_counts: s.value_counts,
        until_period_limit: None,
        files: Vec::new(),
        values: args.print.then_some(s.values),
        rare_common: None,
        tiered: None,
    };
    emit(json, &report, || human_sequence(&report, false))
}

/// Default and largest `--check-up-to` when the transformed game's moves may leave three or
/// more heaps: the naive engine's time grows like n^3 there (0.8's cousin 0.00F took 0.9 s to
/// 4000 and 16 s to the octal default 10000; 0.8F's cousin 44 s).
const DEFAULT_CHECK_MANY_HEAPS: u64 = 3000;
const MAX_CHECK_MANY_HEAPS: u64 = 6000;

/// The `--check-up-to` bound for a check whose game B is `b`.
fn check_bound(args: &TakebreakArgs, b: &Code) -> CliResult<usize> {
    let many_heaps = b.max_heaps_left() > 2;
    let n = match &args.check_up_to {
        Some(w) => parse_u64("--check-up-to", w)?,
        None if many_heaps => DEFAULT_CHECK_MANY_HEAPS,
        None => DEFAULT_CHECK,
    };
    if n > MAX_HEAP {
        return Err(CliError::input(format!(
            "--check-up-to {n} is too large: at most {MAX_HEAP} (both sequences are computed naively)"
        )));
    }
    if many_heaps && n > MAX_CHECK_MANY_HEAPS {
        return Err(CliError::input(format!(
            "--check-up-to {n} is too large for {b}, whose moves leave up to {} heaps: at most \
             {MAX_CHECK_MANY_HEAPS} (the naive engine's time grows like n^3 for such codes)",
            b.max_heaps_left()
        )));
    }
    Ok(n as usize)
}

fn code_of<'a>(rules: &'a Rules, what: &str) -> CliResult<&'a Code> {
    rules.code().ok_or_else(|| {
        CliError::input(format!(
            "{what} needs a take-and-break code, and {rules} is not one"
        ))
    })
}

fn run_fold(args: &TakebreakArgs, rules: &Rules, m: &str, json: bool) -> CliResult {
    let a = code_of(rules, "--fold")?;
    let m = parse_u64("--fold", m)?;
    if m == 0 || m > 1000 {
        return Err(CliError::input(format!(
            "--fold {m} is out of range: m must be between 1 and 1000"
        )));
    }
    let up_to = check_bound(args, &transform::fold(a, m as usize)?)?;
    let c = transform::check_fold(a, m as usize, up_to)?;
    let report = TransformReport {
        transform: "fold",
        code_a: c.code_a,
        code_b: c.code_b,
        m: Some(m as usize),
        identity: format!("g_B(n) = g_A(floor(n/{m}))"),
        checked_up_to: c.checked_up_to,
        holds: c.holds,
        first_failure: c.first_failure,
    };
    finish_transform(report, "Theorem 6.5 (m-fold)", json)
}

fn run_cousin(args: &TakebreakArgs, rules: &Rules, json: bool) -> CliResult {
    let a = code_of(rules, "--cousin")?;
    let up_to = check_bound(args, &transform::cousin(a)?)?;
    let c = transform::check_cousin(a, up_to)?;
    let report = TransformReport {
        transform: "cousin",
        code_a: c.code_a,
        code_b: c.code_b,
        m: None,
        identity: "g_B(n) = g_A(n+1)".into(),
        checked_up_to: c.checked_up_to,
        holds: c.holds,
        first_failure: c.first_failure,
    };
    finish_transform(report, "Theorem 6.6 (cousin)", json)
}

fn finish_transform(report: TransformReport, theorem: &str, json: bool) -> CliResult {
    emit(json, &report, || {
        let mut s = format!("{theorem}\nA: {}\nB: {}\n", report.code_a, report.code_b);
        match report.first_failure {
            None => s.push_str(&format!(
                "check: {} holds for n = 0..={}\n",
                report.identity, report.checked_up_to
            )),
            Some(n) => s.push_str(&format!(
                "check: {} FAILS at n = {n} (checked up to {})\n",
                report.identity, report.checked_up_to
            )),
        }
        s
    })?;
    if report.holds {
        Ok(())
    } else {
        Err(CliError::check_failed(format!(
            "{} does not hold at n = {}",
            report.identity,
            report.first_failure.unwrap_or_default()
        )))
    }
}

/// The take-and-break stop of `grundy tour`: a certified period and the cousin transform.
pub fn tour_stop() -> (String, Vec<String>) {
    let mut lines = Vec::new();
    let rules = Rules::parse("dawsons-kayles").expect("named game");
    match compute(
        &rules,
        10_000,
        Finish::AtCertificate,
        &mut Naive::new(rules.clone()),
        None,
    ) {
        Ok(c) => {
            let p = c
                .period
                .expect("Dawson's Kayles certifies before n = 10000");
            lines.push(format!(
                "Dawson's Kayles 0.07: G(0..10) = {:?}",
                &c.values.to_vec()[..=10]
            ));
            lines.push(format!("0.07: {}", period_words(&p)));
        }
        Err(e) => lines.push(format!("0.07: {e}")),
    }
    let officers = Code::parse("officers").expect("named game");
    match transform::check_cousin(&officers, 1000) {
        Ok(c) => lines.push(format!(
            "cousin (Theorem 6.6) of {} is {}: g_B(n) = g_A(n+1) {} for n <= {}",
            c.code_a,
            c.code_b,
            if c.holds { "holds" } else { "FAILS" },
            c.checked_up_to
        )),
        Err(e) => lines.push(format!("cousin of 0.6: {e}")),
    }
    (
        "Take-and-break games (splitting paper): certified periods, transforms".into(),
        lines,
    )
}

/// `-n N` as typed (a whole number, or a power: `2^30`, `1e9`): refused past 2^53 - 1, the
/// cap every run has (n and the counts stay exact JSON numbers), with that cap named even past
/// 2^64.
fn heap_size_word(word: &str) -> CliResult<u64> {
    Ok(grundy::text::parse_u64_power(
        "heap size",
        word,
        sequence::MAX_JSON_INT,
        "2^53 - 1, so that n and the counts stay exact JSON numbers",
    )?)
}
