//! Resumable runs of the multiplayer Nim class tables
//! ([`grundy::games::multiplayer::tables`]): one file per order in a directory, written
//! atomically as soon as its batch is done, read back (and checked) by the next run, so a run
//! stopped at any point loses at most the batch in progress.
//!
//! File names: `games-K1K2..KM-hK-nN.grmptab` (`-tS` before the extension with a total cap),
//! e.g. `games-0123-h6-n15.grmptab`. The format is the library's ([`Table::to_bytes`]).

use crate::{Error, Message, Result, Tell};
use grundy::games::multiplayer::explore::{self, OrderReport};
use grundy::games::multiplayer::sums::{self, SumsReport};
use grundy::games::multiplayer::tables::{all_orders, Domain, Table, TableProgress};
use grundy::games::multiplayer::Preferences;
use rayon::prelude::*;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Orders computed together between two saves (they share one enumeration).
pub const ORDERS_PER_SAVE: usize = 24;
/// Most table entries (one byte each) an exploration holds in memory, over its orders.
pub const MAX_TABLE_BYTES: u64 = 2_000_000_000;
/// Most positions per table the search handles (it keeps each with its features, ~24 bytes,
/// per thread).
pub const MAX_SEARCH_POSITIONS: u64 = 20_000_000;

/// The file of one order's table in `dir`.
pub fn table_path(dir: &Path, domain: &Domain, order: &[usize]) -> PathBuf {
    let digits: String = order.iter().map(|k| k.to_string()).collect();
    let sep = if order.iter().any(|&k| k > 9) {
        "_"
    } else {
        ""
    };
    let digits = if sep.is_empty() {
        digits
    } else {
        order
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(sep)
    };
    let mut name = format!("games-{digits}-h{}-n{}", domain.heaps(), domain.max_heap());
    if let Some(t) = domain.max_total() {
        name.push_str(&format!("-t{t}"));
    }
    name.push_str(".grmptab");
    dir.join(name)
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let run = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    };
    run().inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// The tables of `orders` over `domain`. With `dir`, tables already saved there are read
/// (a file that fails its checks is reported and recomputed) and new ones are saved as each
/// batch of [`ORDERS_PER_SAVE`] orders finishes. `stop` ends the run with
/// [`Error::Interrupted`] after saving what is done.
pub fn tables(
    domain: &Domain,
    orders: &[Vec<usize>],
    dir: Option<&Path>,
    tell: Tell<'_>,
    progress: TableProgress<'_>,
    stop: Option<&AtomicBool>,
) -> Result<Vec<Table>> {
    if let Some(d) = dir {
        std::fs::create_dir_all(d).map_err(|e| {
            Error::input(format!("cannot create the directory {}: {e}", d.display()))
        })?;
    }
    let mut found: Vec<Option<Table>> = vec![None; orders.len()];
    if let Some(d) = dir {
        let mut read = 0;
        for (slot, order) in found.iter_mut().zip(orders) {
            let path = table_path(d, domain, order);
            match std::fs::read(&path) {
                Ok(bytes) => {
                    match Table::from_bytes(domain, order, &bytes, &path.display().to_string()) {
                        Ok(t) => {
                            *slot = Some(t);
                            read += 1;
                        }
                        Err(e) => tell(Message::Warning(format!("{e}; computing it again"))),
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => tell(Message::Warning(format!(
                    "cannot read {}: {e}; computing it again",
                    path.display()
                ))),
            }
        }
        if read > 0 {
            tell(Message::Info(format!(
                "resuming: {read} of {} tables read from {}",
                orders.len(),
                d.display()
            )));
        }
    }
    let missing: Vec<usize> = (0..orders.len()).filter(|&i| found[i].is_none()).collect();
    let total = missing.len() as u64 * domain.len();
    let mut done = 0u64;
    for batch in missing.chunks(ORDERS_PER_SAVE) {
        let batch_orders: Vec<Vec<usize>> = batch.iter().map(|&i| orders[i].clone()).collect();
        let inner = |d: u64, _: u64| {
            if let Some(p) = progress {
                p(done + d, total);
            }
        };
        let computed = Table::compute_all(domain, &batch_orders, Some(&inner), stop)?;
        let Some(computed) = computed else {
            let saved = found.iter().filter(|t| t.is_some()).count();
            return Err(Error::Interrupted(match dir {
                Some(d) => format!(
                    "interrupted: {saved} of {} tables saved in {}; run the same command again to resume",
                    orders.len(),
                    d.display()
                ),
                None => format!(
                    "interrupted: {saved} of {} tables done (nothing saved: give --dir to keep them)",
                    orders.len()
                ),
            }));
        };
        for (&i, table) in batch.iter().zip(computed) {
            if let Some(d) = dir {
                let path = table_path(d, domain, table.order());
                write_atomically(&path, &table.to_bytes())
                    .map_err(|e| Error::input(format!("cannot write {}: {e}", path.display())))?;
            }
            found[i] = Some(table);
        }
        done += batch.len() as u64 * domain.len();
    }
    Ok(found.into_iter().map(|t| t.expect("every order")).collect())
}

/// Write the tables as CSV: a header `heaps,g<K1..KM>,...` (one column per order, its offsets
/// as digits, `_`-separated when an offset exceeds 9), then one row per position of the
/// domain: its non-zero heaps space-separated (empty for the terminal position), then its
/// class under each order. Positions above a total cap are left out.
pub fn write_csv(tables: &[Table], out: &mut dyn Write) -> std::io::Result<()> {
    let Some(first) = tables.first() else {
        return Ok(());
    };
    let domain = first.domain();
    let mut w = std::io::BufWriter::new(out);
    write!(w, "heaps")?;
    for t in tables {
        let name = table_path(Path::new(""), domain, t.order());
        let stem = name
            .to_string_lossy()
            .trim_start_matches("games-")
            .split('-')
            .next()
            .unwrap_or_default()
            .to_owned();
        write!(w, ",g{stem}")?;
    }
    writeln!(w)?;
    for r in 0..domain.len() {
        if first.class_at(r).is_none() {
            continue;
        }
        let p: Vec<String> = domain
            .position(r)
            .into_iter()
            .filter(|&h| h > 0)
            .map(|h| h.to_string())
            .collect();
        write!(w, "{}", p.join(" "))?;
        for t in tables {
            write!(w, ",{}", t.class_at(r).expect("same domain"))?;
        }
        writeln!(w)?;
    }
    w.flush()
}

/// What `grundy multiplayer-explore` (and `grundy.multiplayer_explore`) is asked.
#[derive(Debug, Clone, Default)]
pub struct ExploreRequest {
    /// Number of players.
    pub players: usize,
    /// One order `k1..km`, or every order when `None`.
    pub order: Option<Vec<usize>>,
    /// The domain's heaps `K`, largest heap `N`, optional total cap.
    pub heaps: usize,
    pub max_heap: u64,
    pub max_total: Option<u64>,
    /// Most features in a candidate shape (1 to 3).
    pub features: usize,
    /// Also the sums report, over parts of this many heaps (at most `K / 2`).
    pub sums_parts: Option<usize>,
    /// Where tables are saved and resumed from.
    pub dir: Option<PathBuf>,
    /// Where to write the CSV export.
    pub csv: Option<PathBuf>,
}

/// The default domain for `players` players: `(heaps, largest heap)`.
pub fn default_bound(players: usize) -> (usize, u64) {
    match players {
        0..=4 => (6, 15),
        5 => (5, 10),
        _ => (4, 8),
    }
}

/// Parse `KxN` (at most `K` heaps of at most `N`), e.g. `6x15`.
pub fn parse_bound(text: &str) -> Result<(usize, u64)> {
    let bad = || {
        Error::input(format!(
            "--bound '{text}' is not of the form KxN (at most K heaps of at most N, e.g. 6x15)"
        ))
    };
    let (k, n) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let k = k.trim().parse::<usize>().map_err(|_| bad())?;
    let n = n.trim().parse::<u64>().map_err(|_| bad())?;
    Ok((k, n))
}

/// The orders of a request: the one given (checked against the player count) or all.
pub fn request_orders(players: usize, order: Option<&[usize]>) -> Result<Vec<Vec<usize>>> {
    match order {
        Some(o) => {
            let prefs = Preferences::games(o)?;
            if prefs.players() != players {
                return Err(Error::input(format!(
                    "the order has {} offsets but --players is {players}",
                    prefs.players()
                )));
            }
            Ok(vec![o.to_vec()])
        }
        None => Ok(all_orders(players)),
    }
}

/// The whole exploration (the keys of `grundy multiplayer-explore --json`).
#[derive(Serialize, Debug, Clone)]
pub struct ExploreReport {
    pub players: usize,
    pub heaps: usize,
    pub max_heap: u64,
    pub max_total: Option<u64>,
    /// The domain in words (also each order's `checked_to`).
    pub checked_to: String,
    /// Entries per table (positions within the total cap).
    pub positions: u64,
    /// Per order: status, form, counterexamples (see [`OrderReport`]).
    pub orders: Vec<OrderReport>,
    /// Per order, when asked: which classes of the parts determine the class of a sum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sums: Option<Vec<SumsReport>>,
    /// Wall-clock seconds for the tables (read or computed) and for the search.
    pub seconds_tables: f64,
    pub seconds_search: f64,
}

/// Compute (or read) the tables of a request, export them if asked, and run the search.
pub fn explore(
    request: &ExploreRequest,
    tell: Tell<'_>,
    progress: TableProgress<'_>,
    stop: Option<&AtomicBool>,
) -> Result<ExploreReport> {
    if !(1..=explore::MAX_SHAPE).contains(&request.features) {
        return Err(Error::input(format!(
            "--features must be between 1 and {} (got {})",
            explore::MAX_SHAPE,
            request.features
        )));
    }
    let domain = Domain::new(
        request.players,
        request.heaps,
        request.max_heap,
        request.max_total,
    )?;
    let orders = request_orders(request.players, request.order.as_deref())?;
    let entries = domain.len() as u128 * orders.len() as u128;
    if entries > MAX_TABLE_BYTES as u128 {
        return Err(Error::input(format!(
            "{} orders of {} positions each make {entries} table entries, more than the {MAX_TABLE_BYTES} held in memory at once; choose one --order, fewer heaps or a smaller largest heap",
            orders.len(),
            domain.len()
        )));
    }
    if domain.len() > MAX_SEARCH_POSITIONS {
        return Err(Error::input(format!(
            "the search keeps every position of a table with its features: {} positions is more than {MAX_SEARCH_POSITIONS}; choose fewer heaps or a smaller largest heap",
            domain.len()
        )));
    }
    if let Some(parts) = request.sums_parts {
        // (saturating: parts is the user's number, up to usize::MAX)
        let heaps_needed = parts.max(1).saturating_mul(2);
        if parts == 0 || heaps_needed > request.heaps || request.max_total.is_some() {
            return Err(Error::input(format!(
                "--sums {parts} needs parts of at least 1 heap, a domain of at least {heaps_needed} heaps and no --total"
            )));
        }
        // refused before the tables and the search, not after
        let count = Domain::new(request.players, parts, request.max_heap, None)?.len() as u128;
        let pairs = count * (count + 1) / 2;
        if pairs > sums::MAX_SUM_PAIRS as u128 {
            return Err(Error::input(format!(
                "--sums {parts}: {count} parts make {pairs} pairs, more than {}; choose fewer heaps per part or a smaller largest heap",
                sums::MAX_SUM_PAIRS
            )));
        }
    }
    let start = std::time::Instant::now();
    let tables = tables(
        &domain,
        &orders,
        request.dir.as_deref(),
        tell,
        progress,
        stop,
    )?;
    if let Some(path) = &request.csv {
        let mut f = std::fs::File::create(path)
            .map_err(|e| Error::input(format!("cannot write {}: {e}", path.display())))?;
        write_csv(&tables, &mut f)
            .map_err(|e| Error::input(format!("cannot write {}: {e}", path.display())))?;
    }
    let seconds_tables = start.elapsed().as_secs_f64();
    let start = std::time::Instant::now();
    // The search takes longer than the tables; a stop request is honoured between orders.
    let stopped = || stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
    let interrupted = || {
        Error::Interrupted(match &request.dir {
            Some(d) => format!(
                "interrupted during the search; the tables are saved in {} (a new run reads them back)",
                d.display()
            ),
            None => "interrupted during the search".to_owned(),
        })
    };
    let reports: Vec<Option<OrderReport>> = tables
        .par_iter()
        .map(|t| (!stopped()).then(|| explore::explore(t, request.features)))
        .collect();
    let reports: Vec<OrderReport> = reports
        .into_iter()
        .collect::<Option<Vec<_>>>()
        .ok_or_else(interrupted)?;
    let sums = match request.sums_parts {
        Some(parts) => {
            let found: Vec<Option<SumsReport>> = tables
                .par_iter()
                .map(|t| (!stopped()).then(|| sums::sums(t, parts)).transpose())
                .collect::<std::result::Result<Vec<_>, _>>()?;
            Some(
                found
                    .into_iter()
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(interrupted)?,
            )
        }
        None => None,
    };
    let positions = reports.first().map_or(0, |r| r.positions);
    Ok(ExploreReport {
        players: request.players,
        heaps: request.heaps,
        max_heap: request.max_heap,
        max_total: request.max_total,
        checked_to: domain.describe(),
        positions,
        orders: reports,
        sums,
        seconds_tables,
        seconds_search: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::games::multiplayer::tables::all_orders;

    #[test]
    fn a_second_run_reads_what_the_first_saved_and_damage_is_recomputed() {
        let dir = tempfile::tempdir().unwrap();
        let domain = Domain::new(3, 3, 6, None).unwrap();
        let orders = all_orders(3);
        let messages = std::sync::Mutex::new(Vec::new());
        let tell = |m: Message| messages.lock().unwrap().push(m);
        let first = tables(&domain, &orders, Some(dir.path()), &tell, None, None).unwrap();
        assert!(messages.lock().unwrap().is_empty());
        let path = table_path(dir.path(), &domain, &orders[2]);
        assert!(path.ends_with("games-102-h3-n6.grmptab"), "{path:?}");
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[30] ^= 0x10;
        std::fs::write(&path, bytes).unwrap();
        let second = tables(&domain, &orders, Some(dir.path()), &tell, None, None).unwrap();
        assert_eq!(first, second);
        let said: Vec<String> = messages
            .lock()
            .unwrap()
            .iter()
            .map(|m| format!("{m:?}"))
            .collect();
        assert!(said[0].contains("checksum") && said[0].contains("computing it again"));
        assert!(said[1].contains("resuming: 5 of 6"), "{said:?}");
    }

    #[test]
    fn a_stop_saves_nothing_half_done() {
        let domain = Domain::new(4, 6, 15, None).unwrap();
        let stop = AtomicBool::new(true);
        let e = tables(&domain, &all_orders(4), None, &|_| {}, None, Some(&stop)).unwrap_err();
        assert!(
            matches!(e, Error::Interrupted(ref m) if m.contains("0 of 24")),
            "{e}"
        );
    }

    #[test]
    fn csv_rows_are_positions_and_classes() {
        let domain = Domain::new(3, 2, 2, None).unwrap();
        let t = tables(&domain, &[vec![0, 1, 2]], None, &|_| {}, None, None).unwrap();
        let mut out = Vec::new();
        write_csv(&t, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        // By hand, Li's order (each wants itself, then the next player, then the one after):
        // (1,1): player 0 takes one, player 1 the other: a 1-position. (2,2): taking a heap
        // leaves (2), a 0-position for player 1 (offset 1 for player 0); leaving (1,2), a
        // 1-position, gives offset 2; player 0 prefers offset 1: a 1-position.
        assert_eq!(text, "heaps,g012\n,2\n1,0\n1 1,1\n2,0\n1 2,1\n2 2,1\n");
    }
}
