//! m players with preference orders (multiplayer paper §4) on Nim or a subtraction game: who
//! makes the last move when every player plays for its preferred last mover, the principal
//! line, Li's oplus_m and Theorem 4.2 for Nim, and Propp's class for three players.

use crate::{guarded, value_error};
use grundy::games::multiplayer::{li, Preferences, ProppClass};
use grundy::games::subtraction::{self, SubtractionSet};
use grundy::games::{nim, Heaps};
use grundy::solve::Solver;
use grundy::Game;
use num_bigint::BigUint;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Most positions one evaluation may store, and most (position, option) pairs it may visit
/// (the CLI's limits; the pair count is bounded here by the ordered tuples below the heaps).
const POSITION_LIMIT: usize = 2_000_000;
const WORK_LIMIT: u128 = 50_000_000;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(multiplayer_position, m)?)?;
    m.add_function(wrap_pyfunction!(li_nim, m)?)?;
    m.add_function(wrap_pyfunction!(multiplayer_explore, m)?)?;
    Ok(())
}

/// The preference profile: per-player `prefs`, else symmetric `order` (GAMES(K1..KM)), else
/// Li's GAMES(0, 1, ..., M-1); `players` must agree with what is given. The library reads the
/// choices ([`Preferences::choose`]), as for the CLI and the web page.
pub(crate) fn profile(
    players: Option<usize>,
    order: Option<Vec<usize>>,
    prefs: Option<Vec<Vec<usize>>>,
) -> PyResult<Preferences> {
    Preferences::choose(
        players.map(|m| m as u64),
        order.as_deref(),
        prefs,
        ["players", "order", "prefs"],
    )
    .map_err(value_error)
}

/// What one evaluation found.
struct Found {
    last_mover: usize,
    position_offset: usize,
    line: Vec<(usize, Vec<u64>)>,
    propp: Option<ProppClass>,
}

fn evaluate<G: Game<Position = Vec<u64>> + Clone>(
    game: G,
    prefs: Preferences,
    start: &Vec<u64>,
    propp: bool,
) -> Result<Found, grundy::Error> {
    let play = Solver::multiplayer(game.clone(), prefs)
        .with_limit(POSITION_LIMIT)
        .play(start, 0)?;
    let propp = if propp {
        Some(
            Solver::propp(game)
                .with_limit(POSITION_LIMIT)
                .propp_class(start)?,
        )
    } else {
        None
    };
    Ok(Found {
        last_mover: play.last_mover,
        position_offset: play.position_offset,
        line: play
            .line
            .into_iter()
            .map(|s| (s.player, s.position))
            .collect(),
        propp,
    })
}

/// Play out `heaps` of Nim (or of the subtraction game with finite set `subtraction`) with
/// player 0 to move: the keys of `grundy multiplayer --json`, except that each step of `line`
/// is `{"player", "position"}` with the position sorted.
#[pyfunction]
#[pyo3(signature = (heaps, players=None, order=None, prefs=None, subtraction=None, propp=false))]
fn multiplayer_position(
    py: Python<'_>,
    heaps: Vec<u64>,
    players: Option<usize>,
    order: Option<Vec<usize>>,
    prefs: Option<Vec<Vec<usize>>>,
    subtraction: Option<Vec<u64>>,
    propp: bool,
) -> PyResult<PyObject> {
    guarded(|| {
        let prefs = profile(players, order, prefs)?;
        let m = prefs.players();
        if propp && m != 3 {
            return Err(value_error(format!(
                "propp needs 3 players (Propp's classes N, O, P, Q are for three players; got {m})"
            )));
        }
        if heaps.is_empty() {
            return Err(value_error("no heaps given"));
        }
        let options: u128 = match &subtraction {
            None => heaps.iter().map(|&h| h as u128).sum(),
            Some(s) => heaps.len() as u128 * s.len() as u128,
        };
        let work = heaps
            .iter()
            .fold(1u128, |acc, &h| acc.saturating_mul(h as u128 + 1))
            .saturating_mul(options.max(1));
        if work > WORK_LIMIT {
            return Err(value_error(format!(
                "this position is too large for the brute-force evaluator: up to {} position-option \
                 pairs (limit {WORK_LIMIT}); try smaller heaps",
                if work == u128::MAX { "astronomically many".to_string() } else { work.to_string() }
            )));
        }
        let start = Heaps::<()>::position(&heaps);
        let (spec, found) = match subtraction {
            None => (
                "nim".to_string(),
                py.allow_threads(|| evaluate(nim::nim(), prefs.clone(), &start, propp)),
            ),
            Some(s) => {
                let set = SubtractionSet::finite(s).map_err(value_error)?;
                let SubtractionSet::Finite(list) = &set else {
                    unreachable!("a finite set")
                };
                let spec = format!(
                    "subtraction:{}",
                    list.iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                );
                let game = subtraction::subtraction(set);
                (
                    spec,
                    py.allow_threads(|| evaluate(game, prefs.clone(), &start, propp)),
                )
            }
        };
        let found = found.map_err(|e| match e {
            grundy::Error::TooLarge(why) => value_error(format!(
                "this position is too large for the brute-force evaluator ({why}); try smaller heaps"
            )),
            other => value_error(other),
        })?;
        let is_nim = spec == "nim";
        let d = PyDict::new(py);
        d.set_item("game", spec)?;
        d.set_item("players", m)?;
        d.set_item("preferences", prefs.to_string())?;
        d.set_item("orders", prefs.orders().to_vec())?;
        d.set_item("heaps", heaps.clone())?;
        d.set_item("position_offset", found.position_offset)?;
        d.set_item("last_mover", found.last_mover)?;
        let line = PyList::empty(py);
        for (player, position) in found.line {
            let step = PyDict::new(py);
            step.set_item("player", player)?;
            step.set_item("position", position)?;
            line.append(step)?;
        }
        d.set_item("line", line)?;
        if is_nim {
            let big: Vec<BigUint> = heaps.iter().map(|&h| h.into()).collect();
            d.set_item("oplus_m", li::oplus_m(&big, m as u32))?;
            // Thm 4.2 applies to Nim under a rotation GAMES(i, i+1, ..., i-1).
            if let Some(k) = prefs
                .games_offsets()
                .filter(|k| k.iter().enumerate().all(|(j, &x)| x == (k[0] + j) % m))
            {
                let t = PyDict::new(py);
                t.set_item("i", k[0])?;
                t.set_item("target_offset", li::thm_4_2_offset(m, k[0]))?;
                t.set_item(
                    "is_target",
                    li::thm_4_2_is_target(&big, m as u32, k[0] as u32),
                )?;
                d.set_item("theorem_4_2", t)?;
            }
        }
        if let Some(c) = found.propp {
            d.set_item("propp_class", crate::to_py(py, &c)?)?;
        }
        Ok(d.into_any().unbind())
    })
}

/// Nim with `players` players under Li's ranking: oplus_m of the heaps (any size) and whether
/// the previous player wins (multiplayer paper Thm 3.1).
#[pyfunction]
fn li_nim(py: Python<'_>, heaps: Vec<BigUint>, players: u32) -> PyResult<PyObject> {
    guarded(|| {
        if players < 2 {
            return Err(value_error(format!(
                "players must be at least 2 (got {players})"
            )));
        }
        let d = PyDict::new(py);
        d.set_item("players", players)?;
        d.set_item("oplus_m", li::oplus_m(&heaps, players))?;
        d.set_item(
            "previous_player_wins",
            li::li_previous_player_wins(&heaps, players),
        )?;
        d.set_item("heaps", heaps)?;
        Ok(d.into_any().unbind())
    })
}

/// Class tables of Nim under every symmetric order (or one) and the closed-form search, as
/// `grundy multiplayer-explore --json` (the same keys; `grundy_runs::multiplayer::explore`).
/// `bound` is `"KxN"`; `progress(done, total)` is called as the tables fill; a
/// `KeyboardInterrupt` stops the run (tables saved in `dir` stay) and reaches the caller.
#[pyfunction]
#[pyo3(signature = (players, order=None, bound=None, total=None, features=3, sums=None,
                    dir=None, csv=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn multiplayer_explore(
    py: Python<'_>,
    players: u64,
    order: Option<Vec<usize>>,
    bound: Option<String>,
    total: Option<u64>,
    features: u64,
    sums: Option<u64>,
    dir: Option<std::path::PathBuf>,
    csv: Option<std::path::PathBuf>,
    progress: Option<PyObject>,
) -> PyResult<PyObject> {
    use grundy_runs::multiplayer::{self as runs, ExploreRequest};
    use std::sync::atomic::AtomicBool;
    guarded(|| {
        let players = usize::try_from(players).unwrap_or(usize::MAX);
        let (heaps, max_heap) = match &bound {
            Some(text) => runs::parse_bound(text)
                .map_err(|e| value_error(e.to_string().replace("--bound", "bound")))?,
            None => runs::default_bound(players),
        };
        let request = ExploreRequest {
            players,
            order,
            heaps,
            max_heap,
            max_total: total,
            features: usize::try_from(features).unwrap_or(usize::MAX),
            sums_parts: sums.map(|v| usize::try_from(v).unwrap_or(usize::MAX)),
            dir,
            csv,
        };
        let stop = AtomicBool::new(false);
        let (result, raised) = py.allow_threads(|| {
            let poll = crate::runs::Poll::new(&stop, progress.as_ref());
            let watch = |done: u64, total: u64| poll.call(done as usize, total as usize);
            let result = runs::explore(&request, &crate::runs::tell, Some(&watch), Some(&stop));
            (result, poll.raised())
        });
        match (result, raised) {
            (Err(grundy_runs::Error::Interrupted(what)), Some(e)) => {
                crate::runs::tell(grundy_runs::Message::Info(what));
                Err(e)
            }
            (_, Some(e)) => Err(e),
            (Err(e), None) => Err(value_error(python_words(&e.to_string()))),
            (Ok(report), None) => crate::to_py(py, &report),
        }
    })
}

/// The CLI's flag names in a message, as the Python keywords.
fn python_words(message: &str) -> String {
    message
        .replace("--features", "features")
        .replace("--sums", "sums")
        .replace("--total", "total")
        .replace("--players", "players")
        .replace("--dir", "dir")
}
