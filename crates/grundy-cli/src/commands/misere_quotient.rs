//! `grundy misere-quotient`: the misère quotient of a heap game's heaps up to N (Plambeck–
//! Siegel), certified for every heap size when the pretending function repeats long enough;
//! outcomes and winning moves of positions from it.

use crate::common::{emit, outcome_words, parse_u64, parse_u64_list, CliError, CliResult};
use grundy::games::subtraction::SubtractionSet;
use grundy::solve::misere_quotient::{self, brute, Finish, HeapGame, QuotientMove, Report};
use grundy::takebreak::notation::Notation;
use grundy::Outcome;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Default last heap.
const DEFAULT_MAX_HEAP: u64 = 100;
/// Largest --max-heap accepted (the options of every heap are kept).
const MAX_HEAP: u64 = 100_000;
/// Largest --check total.
const MAX_CHECK_TOTAL: u64 = 60;

/// Misère quotients of take-and-break and subtraction games (Plambeck–Siegel).
///
/// Computes the partial quotient Q_N of heaps 0..N heap by heap, and stops early with a
/// certificate when the pretending function is periodic long enough for the periodicity
/// theorem. Examples: `grundy misere-quotient 0.75`, `grundy misere-quotient 0.07 --max-heap 30`,
/// `grundy misere-quotient kayles --position 5 7 9`, `grundy misere-quotient --set 1,3,4`.
#[derive(clap::Args, Debug)]
pub struct MisereQuotientArgs {
    /// A take-and-break code in CGSuite's notation (0.75, .07, 4.7, 0.F) or a named game
    #[arg(value_name = "CODE", required_unless_present_any = ["set", "all_but"])]
    pub code: Option<String>,
    /// A subtraction game instead: the subtraction set, e.g. 1,3,4
    #[arg(long, value_name = "LIST", conflicts_with_all = ["code", "all_but"])]
    pub set: Option<String>,
    /// A subtraction game instead: every positive number except these, e.g. 2,5
    #[arg(long, value_name = "LIST", conflicts_with = "code")]
    pub all_but: Option<String>,
    /// Compute Q_N up to this heap (fewer when a certificate is found first) [default: 100]
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub max_heap: Option<String>,
    /// Keep computing up to --max-heap even after a certificate
    #[arg(long)]
    pub no_stop: bool,
    /// Stop after this many seconds and report the partial quotient reached (exit status 0)
    #[arg(long, value_name = "S", allow_hyphen_values = true)]
    pub timeout: Option<String>,
    /// Outcome and a winning move of the position made of these heaps
    #[arg(long, value_name = "H", num_args = 1..)]
    pub position: Option<Vec<String>>,
    /// Also check every position of heaps up to --max-heap with at most this many tokens
    /// against a plain misère search
    #[arg(long, value_name = "TOTAL", allow_hyphen_values = true)]
    pub check: Option<String>,
    /// No progress lines on stderr
    #[arg(long)]
    pub quiet: bool,
    /// Memory the run may use, e.g. 512M or 4G (half for the failure search, half for
    /// multiplication tables) [default: 2G]
    #[arg(long, value_name = "SIZE")]
    pub memory: Option<String>,
    /// Resume from FILE when it exists (after re-checking the quotient it holds), and save the
    /// quotient reached into it every minute and at the end (interrupted, timed out or done)
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<std::path::PathBuf>,
}

#[derive(Serialize)]
struct PositionReport {
    heaps: Vec<u64>,
    outcome: Outcome,
    winning_move: Option<QuotientMove>,
    /// The position's genus when the quotient is tame (read through misère Nim), else null.
    genus: Option<String>,
}

#[derive(Serialize)]
struct CheckReport {
    total: u64,
    positions: usize,
    disagreements: usize,
}

#[derive(Serialize)]
struct Full {
    #[serde(flatten)]
    report: Report,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<PositionReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    check: Option<CheckReport>,
}

static STOP: AtomicBool = AtomicBool::new(false);

/// The heap game the arguments name.
pub fn game_of(
    code: &Option<String>,
    set: &Option<String>,
    all_but: &Option<String>,
) -> CliResult<Box<dyn HeapGame + Send + Sync>> {
    Ok(match (code, set, all_but) {
        (Some(c), None, None) => {
            let rules = Notation::parse(c)?.to_rules().map_err(|e| {
                CliError::input(format!(
                    "{e} (misère quotients need a finite code or grundys-game)"
                ))
            })?;
            Box::new(rules)
        }
        (None, Some(s), None) => {
            Box::new(SubtractionSet::finite(parse_u64_list("subtraction", s)?)?)
        }
        (None, None, Some(s)) => Box::new(SubtractionSet::all_but(parse_u64_list(
            "excluded number",
            s,
        )?)?),
        _ => {
            return Err(CliError::input(
                "give one game: a CODE, --set LIST or --all-but LIST",
            ))
        }
    })
}

pub fn run(args: MisereQuotientArgs, json: bool) -> CliResult {
    let game = game_of(&args.code, &args.set, &args.all_but)?;
    // The cap is named for any number past it, 2^64 and beyond included.
    let max_heap = match &args.max_heap {
        Some(t) => grundy::text::parse_u64_capped(
            "--max-heap",
            t,
            MAX_HEAP,
            "every heap's options are kept",
        )?,
        None => DEFAULT_MAX_HEAP,
    };
    let timeout = match &args.timeout {
        Some(t) => {
            let s: f64 = t
                .trim()
                .parse()
                .ok()
                .filter(|s: &f64| s.is_finite() && *s > 0.0)
                .ok_or_else(|| {
                    CliError::input(format!(
                        "--timeout '{t}' is not a positive number of seconds"
                    ))
                })?;
            Some(Duration::from_secs_f64(s.min(1e9)))
        }
        None => None,
    };
    let heaps: Option<Vec<u64>> = match &args.position {
        Some(words) => Some(
            words
                .iter()
                .map(|w| parse_u64("heap", w))
                .collect::<CliResult<_>>()?,
        ),
        None => None,
    };
    let check_total = match &args.check {
        Some(t) => {
            let v = parse_u64("--check", t)?;
            if v > MAX_CHECK_TOTAL {
                return Err(CliError::input(format!(
                    "--check {v} is too large: at most {MAX_CHECK_TOTAL} tokens (the plain search grows like the partitions)"
                )));
            }
            Some(v)
        }
        None => None,
    };
    let mut run = misere_quotient::RunOptions::default();
    if let Some(m) = &args.memory {
        run.memory = grundy::text::parse_memory(m)?;
    }
    run.checkpoint = args.checkpoint.clone();
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    let start = Instant::now();
    let stop = || STOP.load(Ordering::Relaxed) || timeout.is_some_and(|t| start.elapsed() >= t);
    let quiet = args.quiet;
    let mut last_order = 1usize;
    let mut last_line = start;
    // After the first second: a line per heap where |Q| changed, and at least one a second.
    let mut progress = |n: u32, order: usize| {
        let now = Instant::now();
        let changed = order != last_order;
        last_order = order;
        if quiet || now.duration_since(start) < Duration::from_secs(1) {
            return;
        }
        if changed || now.duration_since(last_line) >= Duration::from_secs(1) {
            let grew = if changed { " (changed)" } else { "" };
            eprintln!("grundy: misere-quotient: heap {n}: |Q_{n}| = {order}{grew}");
            last_line = now;
        }
    };
    let check_game = match check_total {
        Some(_) => Some(game_of(&args.code, &args.set, &args.all_but)?),
        None => None,
    };
    let q = misere_quotient::compute_with(
        game,
        max_heap as u32,
        !args.no_stop,
        &stop,
        &mut progress,
        &run,
    )?;
    if q.finish == Finish::Stopped && STOP.load(Ordering::Relaxed) {
        eprintln!(
            "grundy: interrupted: reporting the partial quotient Q_{}",
            q.computed_to_heap()
        );
    }
    // A limit (--memory, the cap on recalibrations) is a budget like --timeout: the partial
    // quotient reached is reported (exit status 0, `finish: limit`), the limit named here.
    if let Some(limit) = &q.limit {
        eprintln!(
            "grundy: misere-quotient: {limit}; reporting the partial quotient Q_{}",
            q.computed_to_heap()
        );
    }
    let position = match heaps {
        Some(h) => Some(PositionReport {
            outcome: q.outcome(&h)?,
            winning_move: q.winning_move(&h)?,
            genus: q.genus(&h)?.map(|g| g.symbol()),
            heaps: h,
        }),
        None => None,
    };
    let check = match (check_total, check_game) {
        (Some(total), Some(g)) => {
            let n = q.computed_to_heap();
            let all = brute::all_outcomes(g.as_ref(), n, total as u32, 5_000_000)?;
            let mut disagreements = 0;
            for (pos, &p) in &all {
                let h: Vec<u64> = pos.iter().map(|&x| x as u64).collect();
                if (q.outcome(&h)? == Outcome::P) != p {
                    disagreements += 1;
                }
            }
            Some(CheckReport {
                total,
                positions: all.len(),
                disagreements,
            })
        }
        _ => None,
    };
    let full = Full {
        report: q.report(),
        seconds: start.elapsed().as_secs_f64(),
        position,
        check,
    };
    emit(json, &full, || human(&full))?;
    if let Some(c) = &full.check {
        if c.disagreements > 0 {
            return Err(CliError::check_failed(format!(
                "{} positions disagree with the plain search",
                c.disagreements
            )));
        }
    }
    Ok(())
}

fn human(f: &Full) -> String {
    let r = &f.report;
    let mut s = String::new();
    let status = match (&r.certificate, r.finish) {
        (Some(_), _) => "certified for every heap size".to_string(),
        (None, Finish::Stopped) => format!("partial: stopped at heap {}", r.computed_to_heap),
        (None, Finish::Limit) => format!(
            "partial: stopped by a limit after heap {}",
            r.computed_to_heap
        ),
        (None, _) => format!("partial: heaps 0..{}", r.computed_to_heap),
    };
    s.push_str(&format!("misère quotient of {} ({status})\n", r.code));
    s.push_str(&format!(
        "Q_{}: order {}, P-portion size {}{}\n",
        r.computed_to_heap,
        r.order,
        r.p_portion_size,
        match &r.recognised {
            Some(n) => format!(" (isomorphic to {n})"),
            None => String::new(),
        }
    ));
    s.push_str(&format!("presentation: {}\n", r.presentation));
    let gens: Vec<String> = r
        .generators
        .iter()
        .map(|g| format!("{}={}", g.letter, g.heap))
        .collect();
    if !gens.is_empty() {
        s.push_str(&format!("generators (heap): {}\n", gens.join(", ")));
    }
    s.push_str(&format!("P-portion: {{{}}}\n", r.p_portion.join(", ")));
    s.push_str(&format!("tame: {}\n", if r.tame { "yes" } else { "no" }));
    if let Some(e) = &r.element_genus {
        let list: Vec<String> = e
            .iter()
            .map(|x| format!("{} = {} {}", x.element, x.nim, x.genus))
            .collect();
        s.push_str(&format!(
            "genus (each element as the misère Nim position it stands for): {}\n",
            list.join(", ")
        ));
    }
    if let Some(why) = &r.genus_note {
        s.push_str(&format!("genus: not read: {why}\n"));
    }
    s.push_str(&format!("idempotents: {{{}}}\n", r.idempotents.join(", ")));
    s.push_str(&format!(
        "kernel ({} elements): {{{}}}\n",
        r.kernel.len(),
        r.kernel.join(", ")
    ));
    s.push_str("pretending function Φ(n) for n = 0, 1, 2, ...:\n");
    for (i, chunk) in r.pretending_function.chunks(10).enumerate() {
        s.push_str(&format!("  {:>5}+ {}\n", i * 10, chunk.join(" ")));
    }
    if let Some(g) = &r.genus {
        s.push_str("genus of heap n for n = 0, 1, 2, ...:\n");
        for (i, chunk) in g.chunks(10).enumerate() {
            s.push_str(&format!("  {:>5}+ {}\n", i * 10, chunk.join(" ")));
        }
    }
    match (&r.certificate, &r.observed_period) {
        (Some(c), _) => {
            s.push_str(&format!(
                "period {} from heap {} (certified: {})\n",
                c.period, c.preperiod, c.inequality
            ));
        }
        (None, Some(o)) => s.push_str(&format!(
            "observed period {} from heap {}, not certified: needs heaps up to {}\n",
            o.period, o.preperiod, o.certified_at_heap
        )),
        (None, None) => {}
    }
    match r.last_rogue {
        Some(h) => s.push_str(&format!("last rogue heap (Φ outside the kernel): {h}\n")),
        None => s.push_str("no rogue heap (every Φ lies in the kernel)\n"),
    }
    if !r.presentation_changes.is_empty() {
        let c: Vec<String> = r.presentation_changes.iter().map(u32::to_string).collect();
        s.push_str(&format!(
            "presentation changes at heaps: {}\n",
            c.join(", ")
        ));
    }
    if let Some(p) = &f.position {
        let heaps: Vec<String> = p.heaps.iter().map(u64::to_string).collect();
        s.push_str(&format!(
            "position {}: {}\n",
            heaps.join(" "),
            outcome_words(p.outcome)
        ));
        match &p.winning_move {
            Some(m) => {
                let to: Vec<String> = m.to.iter().map(u64::to_string).collect();
                let to = if to.is_empty() {
                    "nothing".to_string()
                } else {
                    to.join(" + ")
                };
                s.push_str(&format!(
                    "winning move: heap {} (0-based) {} -> {}\n",
                    m.index, m.from, to
                ));
            }
            None => s.push_str("winning move: none\n"),
        }
        if let Some(g) = &p.genus {
            s.push_str(&format!("genus of the position: {g}\n"));
        }
    }
    if let Some(c) = &f.check {
        s.push_str(&format!(
            "check: {} positions of at most {} tokens against a plain misère search: {} disagreements\n",
            c.positions, c.total, c.disagreements
        ));
    }
    s
}
