//! The move model of `grundy play` ([`grundy::play`]): one position's report — the value of
//! every option, the nim-sum or mex written out, the best move — after a list of moves, as
//! `grundy play ... --report --json` prints it and the web page reads it.

use crate::{guarded, value_error};
use grundy::play::{build, engine_move, play_input, report, Dice, EngineMove, Setup, Strength};
use pyo3::prelude::*;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_report, m)?)?;
    Ok(())
}

/// The report of `family` from `words` after `moves` (player 0 first); with `engine`
/// (`perfect` or `random`) the engine first makes one move for the player to move. Returns
/// the report as JSON text.
#[pyfunction]
#[pyo3(signature = (family, words, moves, set=None, all_but=None, players=None, game=None, graph=None, engine=None, seed=0, order=None, prefs=None))]
#[allow(clippy::too_many_arguments)]
fn play_report(
    family: &str,
    words: Vec<String>,
    moves: Vec<String>,
    set: Option<String>,
    all_but: Option<String>,
    players: Option<usize>,
    game: Option<String>,
    graph: Option<String>,
    engine: Option<String>,
    seed: u64,
    order: Option<Vec<usize>>,
    prefs: Option<Vec<Vec<usize>>>,
) -> PyResult<String> {
    guarded(|| {
        let mut setup = Setup {
            set,
            all_but,
            game,
            graph: graph.map(|g| (g, "graph".to_string())),
            ..Setup::default()
        };
        if family == "multiplayer" {
            // the same choices as `grundy play multiplayer --players/--order/--prefs`
            setup.preferences = Some(crate::multiplayer::profile(players, order, prefs)?);
        } else if let Some(name) = [
            ("players", players.is_some()),
            ("order", order.is_some()),
            ("prefs", prefs.is_some()),
        ]
        .iter()
        .find_map(|(name, given)| given.then_some(name))
        {
            return Err(value_error(format!(
                "{name} belongs to family 'multiplayer'; family '{family}' is a two-player game"
            )));
        }
        let mut g = build(family, &words, &setup).map_err(value_error)?;
        let m = g.players();
        for (k, mv) in moves.iter().enumerate() {
            play_input(g.as_mut(), k % m, mv)
                .map_err(|e| value_error(format!("moves[{k}] '{mv}': {e}")))?;
        }
        let mut played = moves.len();
        let mut made = None;
        if let Some(e) = engine {
            let strength = match e.as_str() {
                "perfect" => Strength::Perfect,
                "random" => Strength::Random,
                _ => {
                    return Err(value_error(format!(
                        "engine is 'perfect' or 'random', not '{e}'"
                    )))
                }
            };
            let mover = played % m;
            if let Some((mv, why)) = engine_move(g.as_mut(), mover, strength, &mut Dice::new(seed))
            {
                g.play(&mv).map_err(value_error)?;
                made = Some(EngineMove {
                    player: mover,
                    name: mv,
                    why,
                });
                played += 1;
            }
        }
        // As JSON text (the report's `state` is a JSON value, which the wrapper's json.loads
        // reads exactly).
        serde_json::to_string(&report(g.as_mut(), played, made)).map_err(value_error)
    })
}
