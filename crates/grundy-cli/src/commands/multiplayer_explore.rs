//! `grundy multiplayer-explore`: exhaustive class tables of m-player Nim under every symmetric
//! order and the search for closed forms over them (the library's
//! `games::multiplayer::{tables, explore, sums}`, run by `grundy_runs::multiplayer`).

use crate::common::{emit, parse_u64, CliResult};
use grundy::games::multiplayer::Preferences;
use grundy_runs::multiplayer::{self, ExploreRequest};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Tables of m-player Nim under every symmetric order GAMES(k1..km), and the closed forms
/// that fit them.
///
/// For each order: the class (the i of "i-position") of every Nim position of the domain,
/// then a search over candidate statements (features such as Li's oplus_m = 0, "all heaps
/// <= 1", counts of ones mod m, classes of sub-positions). Each order gets a status:
/// theorem (a statement the paper proves holds), conjecture (a fitted statement, checked on
/// the domain), or no_fit (with the pairs of positions that defeat every candidate).
///
/// Examples: `grundy multiplayer-explore --players 4`;
/// `grundy multiplayer-explore --players 4 --order 0,2,1,3 --bound 3x200 --dir tables`.
#[derive(clap::Args, Debug)]
pub struct MultiplayerExploreArgs {
    /// Number of players M (2..=8)
    #[arg(long, value_name = "M")]
    pub players: String,
    /// Only the order GAMES(K1,...,KM) (default: every order)
    #[arg(long, value_name = "K1,...,KM")]
    pub order: Option<String>,
    /// The domain: at most K heaps of at most N (default 6x15 for M <= 4, 5x10 for M = 5,
    /// 4x8 above)
    #[arg(long, value_name = "KxN")]
    pub bound: Option<String>,
    /// Only positions whose heaps total at most S
    #[arg(long, value_name = "S")]
    pub total: Option<String>,
    /// Most features in one candidate shape (1..=3)
    #[arg(long, value_name = "F", default_value = "3")]
    pub features: String,
    /// Save the tables in DIR (one file per order) and resume from the ones already there
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Write every table as CSV (one row per position, one column per order)
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also report sums: which classes of two parts of at most P heaps decide the class of
    /// their sum (needs K >= 2P)
    #[arg(long, value_name = "P")]
    pub sums: Option<String>,
}

pub fn run(args: MultiplayerExploreArgs, json: bool) -> CliResult {
    let players = parse_u64("player count", &args.players)? as usize;
    let order = match &args.order {
        Some(text) => Some(
            Preferences::parse_games(text)?
                .games_offsets()
                .expect("a GAMES order is symmetric"),
        ),
        None => None,
    };
    let (heaps, max_heap) = match &args.bound {
        Some(text) => multiplayer::parse_bound(text)?,
        None => multiplayer::default_bound(players),
    };
    let request = ExploreRequest {
        players,
        order,
        heaps,
        max_heap,
        max_total: args
            .total
            .as_deref()
            .map(|t| parse_u64("total", t))
            .transpose()?,
        features: parse_u64("feature count", &args.features)? as usize,
        sums_parts: args
            .sums
            .as_deref()
            .map(|t| parse_u64("part size", t).map(|v| v as usize))
            .transpose()?,
        dir: args.dir.clone(),
        csv: args.csv.clone(),
    };
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    let bar = crate::progress::Progress::new(0, "tables", "entries");
    let progress = |done: u64, total: u64| {
        bar.set_length(total);
        bar.tick(done);
    };
    let tell = |m| bar.suspend(|| crate::common::tell(m));
    let result = multiplayer::explore(&request, &tell, Some(&progress), Some(&STOP));
    bar.finish();
    let report = result?;
    emit(json, &report, || human(&report))?;
    Ok(())
}

fn human(r: &multiplayer::ExploreReport) -> String {
    let mut s = format!(
        "{} players; {} ({} positions per order); tables {:.2} s, search {:.2} s\n",
        r.players, r.checked_to, r.positions, r.seconds_tables, r.seconds_search
    );
    let count = |st: &str| r.orders.iter().filter(|o| o.status == st).count();
    s.push_str(&format!(
        "{} orders: {} theorem, {} conjecture, {} no_fit (theorem = a proved statement holds, the paper's or ours; conjecture = fitted on this domain only)\n",
        r.orders.len(),
        count("theorem"),
        count("conjecture"),
        count("no_fit")
    ));
    for o in &r.orders {
        let order: Vec<String> = o.order.iter().map(|k| k.to_string()).collect();
        s.push_str(&format!(
            "\nGAMES({}): {} (classes: {})\n",
            order.join(","),
            o.status,
            o.class_counts
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{i}: {c}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        for st in o.form.split("; ").filter(|x| !x.is_empty()) {
            s.push_str(&format!("  {st}\n"));
        }
        if let Some(whole) = o.targets.first() {
            if whole.status == "no_fit" {
                s.push_str(
                    "  the whole class fits no candidate; longest-surviving shapes fall to:\n",
                );
                for c in &whole.counterexamples {
                    s.push_str(&format!(
                        "    ({}): {:?} is a {}-position, {:?} a {}-position\n",
                        c.shape.join(","),
                        c.positions[0],
                        c.classes[0],
                        c.positions[1],
                        c.classes[1]
                    ));
                }
            }
        }
    }
    if let Some(sums) = &r.sums {
        for sr in sums {
            let order: Vec<String> = sr.order.iter().map(|k| k.to_string()).collect();
            s.push_str(&format!(
                "\nsums under GAMES({}): {} pairs of parts ({}); {} of {} pairs of classes decide the sum's class\n",
                order.join(","),
                sr.pairs,
                sr.parts,
                sr.determined,
                sr.class_pairs.len()
            ));
            for cp in &sr.class_pairs {
                s.push_str(&format!(
                    "  {} + {} -> {:?}\n",
                    cp.classes[0], cp.classes[1], cp.sum_classes
                ));
            }
            match &sr.type_fit {
                Some(t) => s.push_str(&format!(
                    "  a type that decides every sum: (class{}{})\n",
                    if t.is_empty() { "" } else { ", " },
                    t.join(", ")
                )),
                None => s.push_str(
                    "  no type of the class and at most two features decides every sum\n",
                ),
            }
        }
    }
    s
}
