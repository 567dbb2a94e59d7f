//! `grundy young`: a Young diagram as a position of the hook-removal (Sato–Welter) game — beta-
//! numbers, hook lengths, value by Welter's formula and by the hook formula, winning moves as
//! hooks to remove, r-core, r-quotient and the quotient theorem (hook paper §2–§5, Theorem 4).

use super::young_draw::{self, Format};
use crate::common::{emit, outcome_words, parse_u64, CliError, CliResult, PositionArgs};
use grundy::graph::explore;
use grundy::young::{self, HookRemoval, Partition, QuotientTheorem};
use grundy::{Nimber, Outcome};
use serde::Serialize;
use std::path::PathBuf;

/// Hook lengths (and the hook formula) are listed up to this many boxes.
const MAX_HOOK_BOXES: u64 = 1_000_000;
/// Winning moves carry their resulting diagram while rows × moves stays below this.
const MAX_RESULT_CELLS: u64 = 10_000_000;
/// Positions `--graph-out` may explore.
const MAX_GRAPH_NODES: usize = 200_000;

/// Young diagrams: the hook-removal game (the Sato–Welter game on beta-numbers).
///
/// Example: `grundy young 10,10,8,6,5,5,3,1 --core 2 --quotient 2 --png hooks.png`.
/// Parts are separated by commas or spaces; `0` alone is the empty diagram.
#[derive(clap::Args, Debug)]
pub struct YoungArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Read the numbers as beta-numbers (distinct, any order) instead of parts
    #[arg(long)]
    pub from_beta: bool,
    /// List the beta-numbers with this many beads (at least the number of rows)
    #[arg(long, value_name = "N")]
    pub beads: Option<usize>,
    /// Also give the R-core (remove hooks of length R while possible)
    #[arg(long, value_name = "R")]
    pub core: Option<u64>,
    /// Also give the R-quotient (SageMath's order of components)
    #[arg(long, value_name = "R")]
    pub quotient: Option<u64>,
    /// Draw the diagram with each box's hook length as SVG
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Draw the diagram with each box's hook length as PNG
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Remove the hook of box ROW,COL (0-based, row 0 on top) and report the diagram left
    #[arg(long, value_name = "ROW,COL")]
    pub remove_hook: Option<String>,
    /// Write the game graph of every diagram reachable by hook removals (JSON, for
    /// `grundy graph FILE --plain` or `--divide A`)
    #[arg(long, value_name = "FILE")]
    pub graph_out: Option<PathBuf>,
}

#[derive(Serialize)]
struct HookMove {
    row: usize,
    column: u64,
    hook_length: u64,
    /// The bead (beta-number, as many beads as rows) that moves, and where it goes.
    bead_from: u64,
    bead_to: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Partition>,
}

#[derive(Serialize)]
struct RemovedHook {
    row: usize,
    column: u64,
    hook_length: u64,
    result: Partition,
    result_grundy_value: Nimber,
}

#[derive(Serialize)]
struct Report {
    partition: Partition,
    boxes: u64,
    beta: Vec<u64>,
    /// null above MAX_HOOK_BOXES boxes
    hooks: Option<Vec<Vec<u64>>>,
    grundy_value: Nimber,
    /// the hook formula's value (null when the hooks are not listed)
    grundy_value_by_hooks: Option<Nimber>,
    outcome: Outcome,
    winning_moves: Vec<HookMove>,
    #[serde(skip_serializing_if = "Option::is_none")]
    core: Option<Partition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quotient: Option<Vec<Partition>>,
    quotient_theorem: QuotientTheorem,
    #[serde(skip_serializing_if = "Option::is_none")]
    removed_hook: Option<RemovedHook>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    files: Vec<String>,
}

fn read_partition(args: &YoungArgs) -> CliResult<Partition> {
    let words = args.position.words()?;
    let numbers = words
        .iter()
        .flat_map(|w| w.split(','))
        .filter(|w| !w.is_empty())
        .map(|w| {
            parse_u64(
                if args.from_beta {
                    "beta-number"
                } else {
                    "part"
                },
                w,
            )
        })
        .collect::<CliResult<Vec<_>>>()?;
    if numbers.is_empty() {
        return Err(CliError::input(
            "no parts given (e.g. 'grundy young 10,10,8,6,5,5,3,1'; '0' is the empty diagram)",
        ));
    }
    let p = if args.from_beta {
        Partition::from_beta_numbers(&numbers)?
    } else {
        Partition::new(numbers)?
    };
    Ok(p)
}

fn hook_moves(p: &Partition) -> Vec<HookMove> {
    let moves = young::winning_hook_moves(p);
    let with_result = (p.len() as u64).saturating_mul(moves.len() as u64) <= MAX_RESULT_CELLS;
    moves
        .into_iter()
        .map(|m| HookMove {
            row: m.row,
            column: m.column,
            hook_length: m.hook_length,
            bead_from: m.bead_from,
            bead_to: m.bead_to,
            result: with_result.then(|| {
                p.remove_hook(m.row, m.column)
                    .expect("the box is in the diagram")
            }),
        })
        .collect()
}

fn remove_hook(p: &Partition, spec: &str) -> CliResult<RemovedHook> {
    let numbers = crate::common::parse_u64_list("box coordinate", spec)?;
    let [row, column] = numbers[..] else {
        return Err(CliError::input(format!(
            "--remove-hook takes ROW,COL (two numbers), got '{spec}'"
        )));
    };
    let row = usize::try_from(row).unwrap_or(usize::MAX);
    let hook_length = p.hook_length(row, column).ok_or_else(|| {
        CliError::input(format!("box ({row}, {column}) is not in the diagram {p}"))
    })?;
    let result = p.remove_hook(row, column)?;
    Ok(RemovedHook {
        row,
        column,
        hook_length,
        result_grundy_value: young::grundy_value(&result),
        result,
    })
}

fn check_r(flag: &str, r: u64) -> CliResult<u64> {
    if r == 0 {
        return Err(CliError::input(format!("{flag} must be at least 1")));
    }
    Ok(r)
}

fn list(ps: &[Partition]) -> String {
    ps.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn run(args: YoungArgs, json: bool) -> CliResult {
    crate::common::check_output_paths(&[
        ("--svg", &args.svg),
        ("--png", &args.png),
        ("--graph-out", &args.graph_out),
    ])?;
    let p = read_partition(&args)?;
    let beta = match args.beads {
        Some(n) => p.beta_numbers_with(n)?,
        None => p.beta_numbers(),
    };
    let core = match args.core {
        Some(r) => Some(young::core(&p, check_r("--core", r)?)?),
        None => None,
    };
    let quotient = match args.quotient {
        Some(r) => Some(young::quotient(&p, check_r("--quotient", r)?)?),
        None => None,
    };
    let removed_hook = match &args.remove_hook {
        Some(spec) => Some(remove_hook(&p, spec)?),
        None => None,
    };
    let grundy_value = young::grundy_value(&p);
    let small = p.boxes() <= MAX_HOOK_BOXES;
    let hooks = small.then(|| p.hook_lengths());
    let by_hooks = small.then(|| young::grundy_value_by_hooks(&p));
    if let Some(h) = by_hooks {
        if h != grundy_value {
            return Err(CliError::check_failed(format!(
                "internal check failed: the hook formula gives {h}, Welter's formula {grundy_value}"
            )));
        }
    }
    let theorem = young::quotient_theorem(&p)?;
    if !theorem.holds {
        return Err(CliError::check_failed(format!(
            "internal check failed: Theorem 4 does not hold: {theorem:?}"
        )));
    }
    let mut files = Vec::new();
    let title = format!(
        "{} ({} boxes): hook lengths, even ones shaded; sg = {}",
        p,
        p.boxes(),
        grundy_value
    );
    for (path, format) in [(&args.svg, Format::Svg), (&args.png, Format::Png)] {
        if let Some(path) = path {
            if hooks.is_none() {
                return Err(CliError::input(format!(
                    "the diagram has more than {MAX_HOOK_BOXES} boxes; it is too large to draw"
                )));
            }
            young_draw::draw(&p, &title, path, format)?;
            files.push(path.display().to_string());
        }
    }
    if let Some(path) = &args.graph_out {
        let graph = explore(&HookRemoval::any_hook(), &p, MAX_GRAPH_NODES)?;
        let text = serde_json::to_string_pretty(&graph.to_spec())?;
        std::fs::write(path, text + "\n")
            .map_err(|e| CliError::input(format!("cannot write '{}': {e}", path.display())))?;
        files.push(path.display().to_string());
    }
    let report = Report {
        boxes: p.boxes(),
        beta,
        hooks,
        grundy_value,
        grundy_value_by_hooks: by_hooks,
        outcome: Outcome::from_value(grundy_value),
        winning_moves: hook_moves(&p),
        core,
        quotient,
        quotient_theorem: theorem,
        removed_hook,
        files,
        partition: p,
    };
    emit(json, &report, || human(&report, &args))
}

fn human(r: &Report, args: &YoungArgs) -> String {
    let mut s = format!(
        "partition: {} ({} boxes)\nbeta-numbers: {:?}\n",
        r.partition, r.boxes, r.beta
    );
    match &r.hooks {
        Some(rows) if !rows.is_empty() => {
            s.push_str("hook lengths (row by row):\n");
            for row in rows {
                let cells: Vec<String> = row.iter().map(|h| format!("{h:>3}")).collect();
                s.push_str(&format!("  {}\n", cells.join("")));
            }
        }
        Some(_) => s.push_str("hook lengths: none (empty diagram)\n"),
        None => s.push_str(&format!(
            "hook lengths: not listed (more than {MAX_HOOK_BOXES} boxes)\n"
        )),
    }
    s.push_str(&format!("grundy value: {}", r.grundy_value));
    s.push_str(match r.grundy_value_by_hooks {
        Some(_) => " (Welter's formula on the beta-numbers; the hook formula agrees)\n",
        None => " (Welter's formula on the beta-numbers)\n",
    });
    s.push_str(&format!("outcome: {}\n", outcome_words(r.outcome)));
    if r.winning_moves.is_empty() {
        s.push_str("winning moves: none\n");
    } else {
        s.push_str(&format!("winning moves ({}):\n", r.winning_moves.len()));
        for m in r.winning_moves.iter().take(50) {
            s.push_str(&format!(
                "  remove the hook of box (row {}, column {}), length {} (bead {} -> {})",
                m.row, m.column, m.hook_length, m.bead_from, m.bead_to
            ));
            match &m.result {
                Some(q) => s.push_str(&format!(" -> {q}\n")),
                None => s.push('\n'),
            }
        }
        if r.winning_moves.len() > 50 {
            s.push_str(&format!(
                "  ... and {} more (--json lists them all)\n",
                r.winning_moves.len() - 50
            ));
        }
    }
    if let (Some(c), Some(k)) = (&r.core, args.core) {
        s.push_str(&format!("{k}-core: {c}\n"));
    }
    if let (Some(q), Some(k)) = (&r.quotient, args.quotient) {
        s.push_str(&format!("{k}-quotient: ({})\n", list(q)));
    }
    let t = &r.quotient_theorem;
    s.push_str(&format!(
        "quotient theorem (Thm 4): v(p) = 2·v_φ2(p) + v(p²): {} = 2·{} + {}\n",
        t.grundy_value, t.even_hook_value, t.two_core_value
    ));
    s.push_str(&format!(
        "  v_φ2(p) = v({}) xor v({}) = {} xor {}; p² = {} (2-core), v(p²) = {} = boxes mod 2\n",
        t.halves[0], t.halves[1], t.half_values[0], t.half_values[1], t.two_core, t.two_core_value
    ));
    if let Some(h) = &r.removed_hook {
        s.push_str(&format!(
            "removing the hook of box (row {}, column {}), length {}, leaves {} (grundy value {})\n",
            h.row, h.column, h.hook_length, h.result, h.result_grundy_value
        ));
    }
    for f in &r.files {
        s.push_str(&format!("written: {f}\n"));
    }
    s
}
