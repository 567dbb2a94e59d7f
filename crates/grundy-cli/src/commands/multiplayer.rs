//! `grundy multiplayer`: m players with preference orders (multiplayer paper, §4), any game
//! of the `--game` registry.

use crate::common::{emit, parse_u64, Big, CliError, CliResult, PositionArgs};
use grundy::games::multiplayer::{li, Preferences, ProppClass};
use grundy::games::registry::parse_game;
use grundy::solve::Solver;
use num_bigint::BigUint;
use serde::Serialize;

/// Most positions one evaluation may store (the evaluator brute-forces the game tree).
const POSITION_LIMIT: usize = 2_000_000;

/// Most (position, option) pairs one evaluation may visit, by the game's own upper bound.
const WORK_LIMIT: u128 = 50_000_000;

/// Multiplayer play with preference orders: who makes the last move, and how play goes.
///
/// Players are 0..M-1 in turn order; player 0 moves first. Every player has a total order on
/// the players (whom it most wants to make the last move) and plays to get the best it can.
/// The result is the last mover, the offset i of the "i-position" (the last mover is i turns
/// after player 0) and the principal line. Ties between equally good options go to the first
/// option in the game's option order.
///
/// Examples: `grundy multiplayer --players 3 --order 1,2,0 2 2 2`;
/// `grundy multiplayer --prefs 0,2,1/1,0,2/2,0,1 1 2`;
/// `grundy multiplayer --game subtraction:1,2 --propp 5 4`.
#[derive(clap::Args, Debug)]
pub struct MultiplayerArgs {
    /// Number of players M (default: the length of --order or --prefs, else 3)
    #[arg(long, value_name = "M")]
    pub players: Option<String>,
    /// Symmetric preferences GAMES(K1,...,KM): every player wants the player K1 turns after
    /// itself most, then K2 turns after, ... (0 = itself). Default: Li's 0,1,...,M-1
    #[arg(long, value_name = "K1,...,KM", conflicts_with = "prefs")]
    pub order: Option<String>,
    /// Per-player preferences: one comma-separated order per player, player 0's first,
    /// separated by '/', each naming ALL players (0-based) from most to least wanted as the
    /// last mover. Example: 0,2,1/1,0,2/2,0,1
    #[arg(long, value_name = "ORDERS")]
    pub prefs: Option<String>,
    /// The game: nim (default), subtraction:LIST (e.g. subtraction:1,3,4), takebreak:CODE (e.g.
    /// takebreak:0.77, takebreak:kayles, takebreak:grundys-game) or cdnim
    #[arg(long, value_name = "SPEC", default_value = "nim")]
    pub game: String,
    /// Also give Propp's class N, O, P or Q (3 players only)
    #[arg(long)]
    pub propp: bool,
    #[command(flatten)]
    pub position: PositionArgs,
}

/// One move of the principal line.
#[derive(Serialize)]
struct Step {
    /// Who moved (0-based, absolute).
    player: usize,
    /// Index (0-based) of the heap moved in, in the position before the move as listed.
    #[serde(skip_serializing_if = "Option::is_none")]
    heap: Option<usize>,
    /// That heap's size before the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<u64>,
    /// The heap(s) it became.
    to: Vec<u64>,
    /// The whole position after the move.
    position: Vec<u64>,
}

#[derive(Serialize)]
struct Thm42 {
    i: usize,
    target_offset: usize,
    is_target: bool,
}

#[derive(Serialize)]
struct Report {
    game: String,
    players: usize,
    preferences: String,
    orders: Vec<Vec<usize>>,
    heaps: Vec<u64>,
    position_offset: usize,
    last_mover: usize,
    line: Vec<Step>,
    #[serde(skip_serializing_if = "Option::is_none")]
    oplus_m: Option<Big>,
    #[serde(skip_serializing_if = "Option::is_none")]
    theorem_4_2: Option<Thm42>,
    #[serde(skip_serializing_if = "Option::is_none")]
    propp_class: Option<ProppClass>,
}

/// The profile from --players / --order / --prefs, checking that they agree.
fn preferences(args: &MultiplayerArgs) -> CliResult<Preferences> {
    preferences_from(
        args.players.as_deref(),
        args.order.as_deref(),
        args.prefs.as_deref(),
    )
}

/// The profile from `--players`, `--order` and `--prefs` (shared with `play multiplayer`):
/// the player count is checked (2..=MAX_PLAYERS) and must agree with the orders given.
pub fn preferences_from(
    players: Option<&str>,
    order: Option<&str>,
    prefs: Option<&str>,
) -> CliResult<Preferences> {
    let players = players.map(|w| parse_u64("player count", w)).transpose()?;
    // the library reads the choices, for every front end (the web page, Python) alike
    Ok(Preferences::from_choices(
        players,
        order,
        prefs,
        ["--players", "--order", "--prefs"],
    )?)
}

/// Describe the move from `before` (as listed) to the canonical position `after`: the heap
/// that disappeared (first occurrence) is replaced in place by the heaps that appeared.
fn describe_move(player: usize, before: &[u64], after: &[u64]) -> Step {
    let mut removed = before.to_vec();
    let mut added = Vec::new();
    for &h in after {
        match removed.iter().position(|&x| x == h) {
            Some(k) => {
                removed.swap_remove(k);
            }
            None => added.push(h),
        }
    }
    added.sort_unstable();
    if let [gone] = removed[..] {
        let heap = before
            .iter()
            .position(|&x| x == gone)
            .expect("a heap of before");
        let mut position = before[..heap].to_vec();
        position.extend_from_slice(&added);
        position.extend_from_slice(&before[heap + 1..]);
        Step {
            player,
            heap: Some(heap),
            from: Some(gone),
            to: added,
            position,
        }
    } else {
        Step {
            player,
            heap: None,
            from: None,
            to: added,
            position: after.to_vec(),
        }
    }
}

fn list(v: &[u64]) -> String {
    if v.is_empty() {
        return "(no heaps)".into();
    }
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
}

pub fn run(args: MultiplayerArgs, json: bool) -> CliResult {
    let prefs = preferences(&args)?;
    let m = prefs.players();
    if args.propp && m != 3 {
        return Err(CliError::input(format!(
            "--propp needs 3 players (Propp's classes N, O, P, Q are for three players; got {m})"
        )));
    }
    let choice = parse_game(&args.game)?;
    let heaps = args.position.u64_heaps()?;
    if heaps.is_empty() {
        return Err(CliError::input(
            "no heaps given (e.g. 'grundy multiplayer --players 3 --order 1,2,0 2 2 2')",
        ));
    }
    let work = (choice.work)(&heaps);
    if work > WORK_LIMIT {
        return Err(CliError::input(format!(
            "this position is too large for the brute-force evaluator: up to {} position-option pairs \
             (limit {WORK_LIMIT}); try smaller heaps",
            if work == u128::MAX { "astronomically many".to_string() } else { work.to_string() }
        )));
    }
    let start = (choice.position)(&heaps);
    let too_large = |e: grundy::Error| match e {
        grundy::Error::TooLarge(why) => CliError::input(format!(
            "this position is too large for the brute-force evaluator ({why}); try smaller heaps"
        )),
        other => other.into(),
    };
    let mut solver = Solver::multiplayer(&*choice.game, prefs.clone()).with_limit(POSITION_LIMIT);
    let play = solver.play(&start, 0).map_err(too_large)?;
    // Lines are shown in the typed heap order, which works when the canonical position is a
    // permutation of the typed heaps; otherwise (a game that drops empty heaps, say) start
    // from the canonical position.
    let mut typed_sorted = heaps.clone();
    typed_sorted.sort_unstable();
    let mut start_sorted = start.clone();
    start_sorted.sort_unstable();
    let mut shown = if typed_sorted == start_sorted {
        heaps.clone()
    } else {
        start.clone()
    };
    let line: Vec<Step> = play
        .line
        .iter()
        .map(|step| {
            let s = describe_move(step.player, &shown, &step.position);
            shown = s.position.clone();
            s
        })
        .collect();
    let big: Vec<BigUint> = heaps.iter().map(|&h| h.into()).collect();
    let oplus_m = choice.is_nim.then(|| Big(li::oplus_m(&big, m as u32)));
    // Thm 4.2 applies to Nim under a rotation GAMES(i, i+1, ..., i-1).
    let theorem_4_2 = prefs
        .games_offsets()
        .filter(|k| choice.is_nim && k.iter().enumerate().all(|(j, &x)| x == (k[0] + j) % m))
        .map(|k| Thm42 {
            i: k[0],
            target_offset: li::thm_4_2_offset(m, k[0]),
            is_target: li::thm_4_2_is_target(&big, m as u32, k[0] as u32),
        });
    let propp_class = if args.propp {
        let mut propp = Solver::propp(&*choice.game).with_limit(POSITION_LIMIT);
        Some(propp.propp_class(&start).map_err(too_large)?)
    } else {
        None
    };
    let report = Report {
        game: choice.spec.clone(),
        players: m,
        preferences: prefs.to_string(),
        orders: prefs.orders().to_vec(),
        heaps,
        position_offset: play.position_offset,
        last_mover: play.last_mover,
        line,
        oplus_m,
        theorem_4_2,
        propp_class,
    };
    emit(json, &report, || render(&report, &choice.name))
}

fn render(r: &Report, game_name: &str) -> String {
    let mut s = format!("game: {game_name}\n");
    s.push_str(&format!(
        "players: {} (0..{}, player 0 moves first)\n",
        r.players,
        r.players - 1
    ));
    s.push_str(&format!("preferences: {}\n", r.preferences));
    for (x, order) in r.orders.iter().enumerate() {
        let o: Vec<String> = order.iter().map(usize::to_string).collect();
        s.push_str(&format!(
            "  player {x} wants the last mover to be {}\n",
            o.join(" > ")
        ));
    }
    s.push_str(&format!("position: {}\n", list(&r.heaps)));
    s.push_str(&format!(
        "last mover: player {} — a {}-position (i = {}: the last mover is N^{}(player 0), player 0 moving first)\n",
        r.last_mover, r.position_offset, r.position_offset, r.position_offset
    ));
    if r.line.is_empty() {
        s.push_str("principal line: none (no move is possible)\n");
    } else {
        s.push_str("principal line (each player's choice; ties go to the first option):\n");
        for (k, step) in r.line.iter().enumerate() {
            let what = match (step.heap, step.from) {
                (Some(h), Some(from)) => format!(
                    "heap {h} (0-based) {from} -> {}",
                    if step.to.is_empty() {
                        "nothing".into()
                    } else {
                        step.to
                            .iter()
                            .map(u64::to_string)
                            .collect::<Vec<_>>()
                            .join(" + ")
                    }
                ),
                _ => "move".into(),
            };
            s.push_str(&format!(
                "  {:>2}. player {}: {what}, leaving {}\n",
                k + 1,
                step.player,
                list(&step.position)
            ));
        }
    }
    if let Some(x) = &r.oplus_m {
        s.push_str(&format!("oplus_{}: {x}\n", r.players));
    }
    if let Some(t) = &r.theorem_4_2 {
        let agrees = t.is_target == (r.position_offset == t.target_offset);
        s.push_str(&format!(
            "Thm 4.2 (i = {}): a {}-position iff oplus_{} = {}: {} ({})\n",
            t.i,
            t.target_offset,
            r.players,
            if r.heaps.iter().any(|&h| h > 1) {
                "0 (some heap > 1)".to_string()
            } else {
                format!("{} (all heaps <= 1)", t.i)
            },
            if t.is_target { "yes" } else { "no" },
            if agrees {
                "agrees with the evaluator"
            } else {
                "DISAGREES with the evaluator"
            }
        ));
    }
    if let Some(c) = r.propp_class {
        s.push_str(&format!("Propp class: {c} ({})\n", c.meaning()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_described_in_the_order_given() {
        let s = describe_move(0, &[2, 2, 2, 1, 3], &[1, 1, 2, 2, 3]);
        assert_eq!((s.heap, s.from, s.to.clone()), (Some(0), Some(2), vec![1]));
        assert_eq!(s.position, vec![1, 2, 2, 1, 3]);
        let s = describe_move(1, &[5, 3], &[0, 3]);
        assert_eq!((s.heap, s.from, s.to.clone()), (Some(0), Some(5), vec![0]));
        assert_eq!(s.position, vec![0, 3]);
        // a split: 7 -> 2 + 3
        let s = describe_move(2, &[7, 1], &[1, 2, 3]);
        assert_eq!(
            (s.heap, s.from, s.to.clone()),
            (Some(0), Some(7), vec![2, 3])
        );
        assert_eq!(s.position, vec![2, 3, 1]);
        // a heap taken away entirely
        let s = describe_move(2, &[4, 1], &[1]);
        assert_eq!((s.heap, s.to.clone()), (Some(0), vec![]));
    }
}
