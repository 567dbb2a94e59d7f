//! `grundy cdnim`: m-heap common-divisor Nim by Theorem 2.4 of the paper — value, outcome,
//! lambda, iota and winning moves on heaps of any size; the 2-heap value table as text or a
//! heatmap; `--brute` to compare with the generic evaluator.
//!
//! - [`decimal`]: the decimal text of huge heaps and new heaps (keeps output linear in size).
//! - [`table`]: `--table N`, the 2-heap value table and its pictures.

mod decimal;
mod table;

use decimal::{canonical_decimal, decimal_minus, shown, Decimal};

use crate::common::{emit, outcome_words, parse_big, Big, CliError, CliResult, PositionArgs};
use grundy::games::cdnim::{self, rules, CommonDivisorNim, Invariants};
use grundy::{Nimber, NormalPlay, Outcome};
use num_bigint::BigUint;
use serde::Serialize;
use std::path::PathBuf;

/// `--brute` refuses positions with more than this many candidate positions, (n1+1)...(nm+1).
const BRUTE_LIMIT: u128 = 2_000_000;
/// Moves (and options) listed unless `--max-moves` says otherwise...
const DEFAULT_MAX_MOVES: u64 = 100_000;
/// ...and fewer when the heaps are so long that the list would exceed about this many digits.
const OUTPUT_DIGITS: u64 = 100_000_000;

/// Common-divisor Nim: subtract a common divisor of all heaps from one heap (paper Thm 2.4).
///
/// Examples: `grundy cdnim 6 3 2`, `grundy cdnim 6 3 2 --brute`,
/// `grundy cdnim --input docs/examples/cdnim-heaps.txt`, `grundy cdnim --table 16`,
/// `grundy cdnim --table 64 --png table.png`.
#[derive(clap::Args, Debug)]
pub struct CdnimArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Also compute the value, winning moves (and options) with the generic evaluator and compare
    #[arg(long)]
    pub brute: bool,
    /// Also list every option (the paper's N(P)) with the value it leads to
    #[arg(long)]
    pub options: bool,
    /// List at most N winning moves, and N options with --options (counts are still reported).
    /// Default: 100000, fewer for very long heaps (about 10^8 digits of output)
    #[arg(long, value_name = "N")]
    pub max_moves: Option<String>,
    /// Print the table of values of the 2-heap positions (a, b), 0 <= a, b < N, instead
    #[arg(long, value_name = "N", conflicts_with_all = ["values", "input", "brute"])]
    pub table: Option<String>,
    /// With --table: draw it as a PNG heatmap into FILE
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// With --table: draw it as an SVG heatmap into FILE
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

#[derive(Serialize)]
struct Move {
    heap: usize,
    divisor: Decimal,
    to: Decimal,
}

#[derive(Serialize)]
struct OptionEntry {
    heap: usize,
    divisor: Decimal,
    to: Decimal,
    grundy_value: Nimber,
}

#[derive(Serialize)]
struct Report {
    heaps: Vec<Decimal>,
    grundy_value: Nimber,
    outcome: Outcome,
    /// null for the zero position (lambda = +inf)
    lambda: Option<u64>,
    iota: usize,
    gcd: Decimal,
    winning_moves: Vec<Move>,
    winning_moves_complete: bool,
    /// null when not known (the gcd could not be factored)
    winning_move_count: Option<Big>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    options: Option<Vec<OptionEntry>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    options_complete: Option<bool>,
    /// with --options: null when not known
    #[serde(skip_serializing_if = "Option::is_none")]
    option_count: Option<Option<Big>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    brute_force_value: Option<Nimber>,
    #[serde(skip_serializing_if = "Option::is_none")]
    brute_force_winning_moves: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    brute_force_agrees: Option<bool>,
}

pub fn run(args: CdnimArgs, json: bool) -> CliResult {
    crate::common::check_output_paths(&[("--png", &args.png), ("--svg", &args.svg)])?;
    if let Some(n) = &args.table {
        return table::table(table::parse_table_size(n)?, &args, json);
    }
    if args.png.is_some() || args.svg.is_some() {
        return Err(CliError::input(
            "--png and --svg draw the 2-heap value table: add --table N (e.g. --table 64)",
        ));
    }
    let explicit_cap = match &args.max_moves {
        Some(w) => Some(grundy::text::parse_count("--max-moves", w)?),
        None => None,
    };
    if explicit_cap == Some(0) {
        return Err(CliError::input(
            "--max-moves must be at least 1 (one winning move always exists at an N-position)",
        ));
    }
    let words = args.position.words()?;
    if words.is_empty() {
        return Err(CliError::input(
            "no heaps given (e.g. 'grundy cdnim 6 3 2', or --input FILE)",
        ));
    }
    let heaps = words
        .iter()
        .map(|w| parse_big("heap", w))
        .collect::<CliResult<Vec<_>>>()?;
    let texts: Vec<Decimal> = words
        .iter()
        .map(|w| Decimal(canonical_decimal(w)))
        .collect();
    let longest = texts.iter().map(|t| t.0.len()).max().unwrap_or(1) as u64;
    let max_moves = explicit_cap.unwrap_or((OUTPUT_DIGITS / longest).clamp(1, DEFAULT_MAX_MOVES));
    // check that brute force is possible before doing any work
    let small = if args.brute {
        Some(brute_force_position(&heaps)?)
    } else {
        None
    };

    let invariants = Invariants::of(&heaps);
    let value = invariants.grundy_value();
    let moves = cdnim::winning_moves(&heaps, usize::try_from(max_moves).unwrap_or(usize::MAX));
    let mut notes = Vec::new();
    if moves.truncated {
        notes.push(format!(
            "listing stopped after {max_moves} moves{}; there are {} winning moves",
            if explicit_cap.is_some() {
                " (--max-moves)".to_owned()
            } else {
                " (the default; --max-moves N lists more)".to_owned()
            },
            moves
                .count
                .as_ref()
                .map_or_else(|| "more".to_owned(), |c| c.to_string())
        ));
    }
    if let Some(r) = &moves.unfactored {
        notes.push(format!(
            "the list may be incomplete: the gcd's odd part has a factor of {} digits that \
             could not be split into proven primes, so only its divisors 1 and itself were used \
             (every listed move does win)",
            r.to_string().len()
        ));
    }
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    // Each distinct divisor is converted to decimal once; new heaps are computed on the text.
    let mut divisor_texts: std::collections::HashMap<BigUint, String> = Default::default();
    let mut as_text = |m: &cdnim::DivisorMove| -> (Decimal, Decimal) {
        let d = divisor_texts
            .entry(m.divisor.clone())
            .or_insert_with(|| m.divisor.to_string());
        (
            Decimal(d.clone()),
            Decimal(decimal_minus(&texts[m.heap].0, d)),
        )
    };
    let moves_out: Vec<Move> = moves
        .moves
        .iter()
        .map(|m| {
            let (divisor, to) = as_text(m);
            Move {
                heap: m.heap,
                divisor,
                to,
            }
        })
        .collect();
    let listed_options = args
        .options
        .then(|| cdnim::options(&heaps, usize::try_from(max_moves).unwrap_or(usize::MAX)));
    let option_entries = listed_options.as_ref().map(|o| {
        o.options
            .iter()
            .map(|(m, v)| {
                let (divisor, to) = as_text(m);
                OptionEntry {
                    heap: m.heap,
                    divisor,
                    to,
                    grundy_value: *v,
                }
            })
            .collect::<Vec<_>>()
    });
    let mut report = Report {
        heaps: texts.clone(),
        grundy_value: value,
        outcome: Outcome::from_value(value),
        lambda: invariants.lambda,
        iota: invariants.iota,
        gcd: Decimal::of(&moves.gcd),
        winning_moves: moves_out,
        winning_moves_complete: moves.complete,
        winning_move_count: moves.count.clone().map(Big),
        note,
        options_complete: listed_options.as_ref().map(|o| o.complete),
        option_count: listed_options.as_ref().map(|o| o.count.clone().map(Big)),
        options: option_entries,
        brute_force_value: None,
        brute_force_winning_moves: None,
        brute_force_agrees: None,
    };
    if let Some(small) = small {
        let (brute_value, brute_options) = brute_force(&small)?;
        let small_divisor = |d: &BigUint| u64::try_from(d).expect("divides a small heap");
        let closed_winning: Vec<(usize, u64)> = moves
            .moves
            .iter()
            .map(|m| (m.heap, small_divisor(&m.divisor)))
            .collect();
        let brute_winning: Vec<(usize, u64)> = brute_options
            .iter()
            .filter(|o| o.2 == 0)
            .map(|o| (o.0, o.1))
            .collect();
        let options_agree = listed_options.as_ref().map_or(true, |o| {
            let closed: Vec<ValuedOption> = o
                .options
                .iter()
                .map(|(m, v)| (m.heap, small_divisor(&m.divisor), *v))
                .collect();
            o.complete && closed == brute_options
        });
        report.brute_force_value = Some(brute_value);
        report.brute_force_winning_moves = Some(brute_winning.len());
        report.brute_force_agrees = Some(
            brute_value == value
                && moves.complete
                && closed_winning == brute_winning
                && options_agree,
        );
    }
    emit(json, &report, || human(&report))?;
    if report.brute_force_agrees == Some(false) {
        return Err(CliError::check_failed(
            "the generic evaluator disagrees with Theorem 2.4 (please report this position)",
        ));
    }
    Ok(())
}

/// The heaps as machine words, if brute force can handle them; a clear refusal otherwise.
fn brute_force_position(heaps: &[BigUint]) -> CliResult<Vec<u64>> {
    let mut product: u128 = 1;
    let mut small = Vec::with_capacity(heaps.len());
    for h in heaps {
        let n = u64::try_from(h).ok().filter(|&n| {
            product = product.saturating_mul(n as u128 + 1);
            product <= BRUTE_LIMIT
        });
        match n {
            Some(n) => small.push(n),
            None => {
                return Err(CliError::input(format!(
                    "too large to brute-force: the evaluator may have to visit (n1+1)...(nm+1) \
                     positions and that exceeds {BRUTE_LIMIT}; drop --brute (Theorem 2.4 needs no search)"
                )))
            }
        }
    }
    Ok(small)
}

/// An option as the evaluator sees it: (heap index, divisor, value of the new position).
type ValuedOption = (usize, u64, Nimber);

/// The generic evaluator's value of the position and of every option, in the closed form's
/// order.
fn brute_force(heaps: &[u64]) -> CliResult<(Nimber, Vec<ValuedOption>)> {
    let mut solver = NormalPlay::new(CommonDivisorNim).with_limit(BRUTE_LIMIT as usize);
    let value = solver.grundy_value(&CommonDivisorNim::position(heaps))?;
    let mut options = Vec::new();
    for (i, d) in rules::legal_moves(heaps) {
        let mut q = heaps.to_vec();
        q[i] -= d;
        options.push((i, d, solver.grundy_value(&CommonDivisorNim::position(&q))?));
    }
    Ok((value, options))
}

fn human(r: &Report) -> String {
    let mut s = String::new();
    s.push_str(&format!("grundy value: {}\n", r.grundy_value));
    s.push_str(&format!("outcome: {}\n", outcome_words(r.outcome)));
    match r.lambda {
        Some(l) => s.push_str(&format!("lambda: {l} (least ord2 of a heap)\n")),
        None => s.push_str("lambda: +inf (every heap is 0)\n"),
    }
    s.push_str(&format!(
        "iota: {} (heaps with ord2 = lambda; {})\n",
        r.iota,
        if r.lambda.is_none() {
            "the zero position has value 0"
        } else if r.iota % 2 == 1 {
            "odd, so the value is lambda + 1"
        } else {
            "even, so the value is 0"
        }
    ));
    s.push_str(&format!("gcd: {}\n", shown(&r.gcd)));
    if r.lambda.is_none() {
        s.push_str("winning moves: none (the zero position is terminal: no move at all)\n");
    } else if r.winning_moves.is_empty() {
        s.push_str("winning moves: none (every move leads to a non-zero value)\n");
    } else {
        let count = match (&r.winning_move_count, r.winning_moves_complete) {
            (_, true) => format!("{}", r.winning_moves.len()),
            (Some(c), false) => format!("showing {} of {c}", r.winning_moves.len()),
            (None, false) => format!("{}, possibly more", r.winning_moves.len()),
        };
        s.push_str(&format!(
            "winning moves ({count}; heap 0-based: from - divisor = to):\n"
        ));
        for m in &r.winning_moves {
            s.push_str(&format!(
                "  heap {}: {} - {} = {}\n",
                m.heap,
                shown(&r.heaps[m.heap]),
                shown(&m.divisor),
                shown(&m.to)
            ));
        }
    }
    if let Some(n) = &r.note {
        s.push_str(&format!("note: {n}\n"));
    }
    if let (Some(list), Some(complete)) = (&r.options, r.options_complete) {
        if list.is_empty() {
            s.push_str("options: none (the zero position is terminal)\n");
        } else {
            let count = match (&r.option_count, complete) {
                (_, true) => format!("{}", list.len()),
                (Some(Some(c)), false) => format!("showing {} of {c}", list.len()),
                _ => format!("{}, possibly more", list.len()),
            };
            s.push_str(&format!(
                "options ({count}; heap 0-based: from - divisor = to, value of the new position):\n"
            ));
            for o in list {
                s.push_str(&format!(
                    "  heap {}: {} - {} = {}  (value {})\n",
                    o.heap,
                    shown(&r.heaps[o.heap]),
                    shown(&o.divisor),
                    shown(&o.to),
                    o.grundy_value
                ));
            }
        }
    }
    if let (Some(v), Some(k), Some(agrees)) = (
        r.brute_force_value,
        r.brute_force_winning_moves,
        r.brute_force_agrees,
    ) {
        s.push_str(&format!(
            "brute force (generic evaluator): value {v}, winning moves: {k}; {}\n",
            if agrees {
                "agrees with Theorem 2.4"
            } else {
                "DISAGREES with Theorem 2.4"
            }
        ));
    }
    s
}
