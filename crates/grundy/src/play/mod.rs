//! The move model: how a game is played against the engine, one description per family of how
//! a move is named, parsed, shown and explained — shared by the CLI's `grundy play`, the web
//! page (`grundy serve`, through `grundy play --report --json`) and any other front end.
//!
//! **One move syntax.** A move is typed as a few words; the same words name the engine's moves,
//! the hint's options and the transcript's lines:
//!
//! | family | a move | example |
//! |---|---|---|
//! | heap games (Nim, subtraction, take-and-break, common-divisor Nim, multiplayer) | `HEAP PARTS...`: heap number `HEAP` (0-based, as shown) is replaced by the parts, `0` for nothing; or `HEAP -K`: take `K` from it | `1 3`, `0 2 2`, `2 -1` |
//! | Wythoff | as heap games, plus `both -K` | `1 7`, `both -2` |
//! | Welter (coins on a strip) | `FROM TO`: the coin on square `FROM` slides to the empty square `TO` | `7 2` |
//! | Cram | `R1 C1 R2 C2`: the two cells the domino covers (row, column, 0-based) | `0 0 0 1` |
//! | Chomp | `ROW COL`: the bitten square (row 0 holds the poison) | `1 2` |
//! | game graph | the name of the node moved to | `b` |
//!
//! Every family also accepts `= POSITION`, the position after the move written as the game
//! shows positions (heaps in any order), whenever its options can be listed.
//!
//! Each family implements [`Playable`]; [`report`] gathers everything a front end shows about
//! the position (the value of every option, the nim-sum or mex written out, the engine's
//! choice and why) into one serializable [`Report`].
//!
//! | family | engine's moves from |
//! |---|---|
//! | [`heapgames`] | Nim (nim-sum), subtraction games (their sequence), Wythoff (golden ratio) |
//! | [`welter`] | Welter's formula (hook paper, Thm 2) |
//! | [`boards`] | Cram and Chomp, by the pruned search |
//! | [`generic`] | the normal-play evaluator, for any game of the [`crate::games::registry`] |
//! | [`multi`] | the multiplayer evaluator: every player plays its preference order (Def. 4.1) |
//! | [`graph`] | the loopy evaluator on a game graph, cycles allowed |

pub mod boards;
pub mod explore;
pub mod generic;
pub mod graph;
pub mod heapgames;
pub mod multi;
pub mod welter;

use crate::Nimber;
use serde::Serialize;

/// The most options a hint lists (a position with more lists none, and says so).
pub const OPTION_LIMIT: usize = 2_000;

/// One move from the current position, as every front end shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MoveInfo {
    /// The move in the family's syntax (what a user types).
    #[serde(rename = "move")]
    pub name: String,
    /// The position after the move, as [`Playable::show_position`] writes positions.
    pub after: String,
    /// The Grundy value of the position after the move (normal play), when the family has one.
    pub value: Option<Nimber>,
    /// Other families' verdict on the option: a loopy value (`∞{0,1}`), or the last mover
    /// under the players' preferences.
    pub verdict: Option<String>,
    /// Whether the move wins: to a position of value 0 (for multiplayer and graph games, the
    /// engine's choice).
    pub good: bool,
}

/// A game in progress, as the play loop sees it.
pub trait Playable {
    /// The position, for people (may span lines).
    fn show(&self) -> String;
    /// The position on one line, as `= POSITION` moves are typed and [`MoveInfo::after`] shows.
    fn show_position(&self) -> String;
    /// The position as data, for pictures (heaps, coins and the Young diagram, a board ...).
    fn state(&self) -> serde_json::Value;
    /// One line on how to type a move.
    fn move_syntax(&self) -> String;
    /// Number of players (2 unless the family is multiplayer).
    fn players(&self) -> usize {
        2
    }
    /// Value and outcome of the current position with `mover` to move, for `hint`.
    fn evaluation(&mut self, mover: usize) -> String;
    /// Why the value is what it is: the nim-sum or the mex written out, one line each.
    fn explain(&mut self, mover: usize) -> Vec<String>;
    /// A good move for `mover`: (the move in the input syntax, why it is good). `None` when
    /// the game is over.
    fn best_move(&mut self, mover: usize) -> Option<(String, String)>;
    /// Every move with its option's value (`good` marks the best ones), or `None` when there
    /// are more than `limit` or the family cannot value them in bounded time.
    fn options(&mut self, mover: usize, limit: usize) -> Option<Vec<MoveInfo>>;
    /// Play a move typed in the family's own syntax; `Err` gives the reason it is illegal or
    /// unreadable. (Front ends call [`play_input`], which also reads `= POSITION`.)
    fn play(&mut self, input: &str) -> Result<(), String>;
    /// Whether the player to move has no move (and so, in normal play, has lost).
    fn is_over(&self) -> bool;
    /// Whether positions are multisets of heaps (`= 3 2` and `= 2 3 0` name one position).
    fn heap_multiset(&self) -> bool {
        false
    }
}

/// Play `input`: a move in the family's syntax, or `= POSITION` (the position after the move).
pub fn play_input(game: &mut dyn Playable, mover: usize, input: &str) -> Result<String, String> {
    let input = input.trim();
    let Some(target) = input.strip_prefix('=') else {
        game.play(input)?;
        return Ok(input.to_owned());
    };
    let multiset = game.heap_multiset();
    let key = |text: &str| position_key(text, multiset);
    let wanted = key(target);
    let options = game.options(mover, OPTION_LIMIT).ok_or_else(|| {
        "this position has too many moves to look one up by the position after it; type the move itself"
            .to_string()
    })?;
    let found = options
        .into_iter()
        .find(|o| key(&o.after) == wanted)
        .ok_or_else(|| {
            format!(
                "'{}' cannot be reached in one move from '{}'",
                target.trim(),
                game.show_position()
            )
        })?;
    game.play(&found.name)?;
    Ok(found.name)
}

fn position_key(text: &str, multiset: bool) -> Vec<String> {
    let text = text.trim();
    if text == "(no heaps)" {
        return Vec::new();
    }
    let mut words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
    if multiset {
        words.retain(|w| w != "0");
        words.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    }
    words
}

/// How the engine chooses its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Strength {
    /// The best move (a winning one whenever one exists).
    Perfect,
    /// A move chosen uniformly at random among all legal moves.
    Random,
}

/// A small seeded generator (SplitMix64) for the random engine: reproducible from its seed.
pub struct Dice(u64);

impl Dice {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Dice(seed)
    }
    /// The next number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n as u64) as usize
    }
}

/// The engine's move for `mover` at `strength`: (move, why). `None` when the game is over.
/// A random engine on a position with more than [`OPTION_LIMIT`] moves plays the best move.
pub fn engine_move(
    game: &mut dyn Playable,
    mover: usize,
    strength: Strength,
    dice: &mut Dice,
) -> Option<(String, String)> {
    if game.is_over() {
        return None;
    }
    if strength == Strength::Random {
        if let Some(options) = game.options(mover, OPTION_LIMIT) {
            if !options.is_empty() {
                let o = &options[dice.below(options.len())];
                let why = match (o.value, &o.verdict) {
                    (Some(v), _) => format!("a random move (to a position of value {v})"),
                    (None, Some(s)) => format!("a random move ({s})"),
                    _ => "a random move".to_string(),
                };
                return Some((o.name.clone(), why));
            }
        }
    }
    game.best_move(mover)
}

/// The engine's move, as a report records it.
#[derive(Debug, Clone, Serialize)]
pub struct EngineMove {
    /// The seat that moved.
    pub player: usize,
    #[serde(rename = "move")]
    pub name: String,
    pub why: String,
}

/// Everything a front end shows about a position: what `grundy play --report --json` prints
/// and what the web page draws.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The position on one line.
    pub position: String,
    /// The position for people, possibly several lines.
    pub shown: String,
    /// The position as data, for pictures.
    pub state: serde_json::Value,
    /// How to type a move.
    pub syntax: String,
    pub players: usize,
    /// Moves played since the start (the player to move is this modulo `players`).
    pub moves_played: usize,
    /// The seat to move (0 moves first).
    pub to_move: usize,
    /// Whether the player to move has no move.
    pub over: bool,
    /// The seat that made the last move, when the game is over and a move was made.
    pub last_mover: Option<usize>,
    /// The engine's move, when the report was asked to make one first.
    pub engine_move: Option<EngineMove>,
    /// Value and outcome with `to_move` to move.
    pub evaluation: String,
    /// The nim-sum or the mex written out.
    pub explanation: Vec<String>,
    /// A best move and why, when the game is not over.
    pub best_move: Option<String>,
    pub why: Option<String>,
    /// Every move with its option's value, when there are at most [`OPTION_LIMIT`].
    pub options: Option<Vec<MoveInfo>>,
}

/// The report of `game` after `moves_played` moves, with `engine_move` if one was just made.
pub fn report(
    game: &mut dyn Playable,
    moves_played: usize,
    engine_move: Option<EngineMove>,
) -> Report {
    let m = game.players();
    let to_move = moves_played % m;
    let over = game.is_over();
    let (best_move, why) = match game.best_move(to_move) {
        Some((mv, why)) => (Some(mv), Some(why)),
        None => (None, None),
    };
    Report {
        position: game.show_position(),
        shown: game.show(),
        state: game.state(),
        syntax: game.move_syntax(),
        players: m,
        moves_played,
        to_move,
        over,
        last_mover: (over && moves_played > 0).then(|| (moves_played + m - 1) % m),
        engine_move,
        evaluation: game.evaluation(to_move),
        explanation: game.explain(to_move),
        best_move,
        why,
        options: if over {
            Some(Vec::new())
        } else {
            game.options(to_move, OPTION_LIMIT)
        },
    }
}

/// What a family needs beyond the position's words (flags of `grundy play`, keywords in Python).
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// `subtraction`: the allowed numbers (`1,3,4`).
    pub set: Option<String>,
    /// `subtraction`: every number is allowed except these.
    pub all_but: Option<String>,
    /// `multiplayer`: the players' preferences (default: Li's order for 3 players).
    pub preferences: Option<crate::games::multiplayer::Preferences>,
    /// `multiplayer`: the game every seat plays (a registry spec; default `nim`).
    pub game: Option<String>,
    /// `graph`: the graph's JSON text, and what to call it in messages (a file name).
    pub graph: Option<(String, String)>,
}

/// The families [`build`] knows by name (and every `--game` spec of the registry).
pub const FAMILIES: &[&str] = &[
    "nim",
    "subtraction",
    "wythoff",
    "welter",
    "cram",
    "chomp",
    "multiplayer",
    "graph",
];

/// A game of `family` from the position `words` (for `graph`: an optional start node).
pub fn build(
    family: &str,
    words: &[String],
    setup: &Setup,
) -> Result<Box<dyn Playable>, crate::Error> {
    match family {
        "nim" => heapgames::nim(words),
        "subtraction" => {
            heapgames::subtraction(words, setup.set.as_deref(), setup.all_but.as_deref())
        }
        "wythoff" => heapgames::wythoff(words),
        "welter" => welter::build(words),
        "cram" => boards::cram(words),
        "chomp" => boards::chomp(words),
        "multiplayer" => {
            let prefs = match &setup.preferences {
                Some(p) => p.clone(),
                None => crate::games::multiplayer::Preferences::li(3)?,
            };
            multi::build(prefs, setup.game.as_deref(), words)
        }
        "graph" => {
            let (text, name) = setup.graph.as_ref().ok_or_else(|| {
                crate::Error::Invalid(
                    "play graph needs the graph (JSON as `grundy graph` reads it)".into(),
                )
            })?;
            let start = match words {
                [] => None,
                [s] => Some(s.as_str()),
                _ => {
                    return Err(crate::Error::Invalid(
                        "play graph takes one start node (or none: the graph's root)".into(),
                    ))
                }
            };
            graph::build(text, name, start)
        }
        other => generic::build(other, words),
    }
}

/// Heaps for people; `(no heaps)` for the empty position.
pub fn heaps_text(h: &[u64]) -> String {
    if h.is_empty() {
        "(no heaps)".into()
    } else {
        h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
    }
}

/// Heaps with their numbers, for the prompt: `[0]=3  [1]=5`.
pub fn heap_list<T: std::fmt::Display>(heaps: &[T]) -> String {
    if heaps.is_empty() {
        return "(no heaps)".into();
    }
    heaps
        .iter()
        .enumerate()
        .map(|(i, h)| format!("[{i}]={h}"))
        .collect::<Vec<_>>()
        .join("  ")
}

/// A heap move as typed: `HEAP -K` (take `K`, the rest stays one heap) or `HEAP PARTS...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeapInput<N> {
    Take(usize, N),
    Into(usize, Vec<N>),
}

/// Read `HEAP -K` or `HEAP PARTS...` against `heaps` (the heap must exist; parts are read with
/// `parse`). Legality beyond that is the family's.
pub fn parse_heap_input<N: PartialOrd + std::fmt::Display>(
    input: &str,
    count: usize,
    parse: impl Fn(&str, &str) -> Result<N, crate::Error>,
) -> Result<HeapInput<N>, String> {
    let words: Vec<&str> = input.split_whitespace().collect();
    if words.len() < 2 {
        return Err(
            "type the heap's number and what it becomes (e.g. '1 3'), or 'HEAP -K' to take K"
                .into(),
        );
    }
    let i: usize = words[0]
        .parse()
        .map_err(|_| format!("'{}' is not a heap number", words[0]))?;
    if i >= count {
        return Err(if count == 0 {
            "there are no heaps left".to_string()
        } else {
            format!(
                "there is no heap {i} (heaps are numbered 0 to {})",
                count - 1
            )
        });
    }
    if let Some(k) = words[1].strip_prefix('-') {
        if words.len() > 2 {
            return Err("'HEAP -K' takes K from one heap; nothing may follow it".into());
        }
        let k = parse("count", k).map_err(|e| e.to_string())?;
        return Ok(HeapInput::Take(i, k));
    }
    let parts = words[1..]
        .iter()
        .map(|w| parse("heap", w).map_err(|e| e.to_string()))
        .collect::<Result<Vec<N>, String>>()?;
    Ok(HeapInput::Into(i, parts))
}

/// `mex{...}` written out: the distinct values in increasing order, and the least missing one.
pub fn mex_text(values: &[Nimber]) -> String {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.dedup();
    let mex = v
        .iter()
        .enumerate()
        .find(|(i, &x)| *i as u64 != x)
        .map_or(v.len() as u64, |(i, _)| i as u64);
    let list = v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    format!("mex{{{list}}} = {mex}")
}

/// A nim-sum written out in decimal and in binary: `3 ⊕ 5 ⊕ 2 = 4`, then the columns.
pub fn nim_sum_lines<T: std::fmt::Display + std::fmt::Binary>(
    terms: &[T],
    total: &T,
) -> Vec<String> {
    let decimal = terms
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" ⊕ ");
    let mut lines = vec![format!(
        "{} = {total}",
        if decimal.is_empty() { "0" } else { &decimal }
    )];
    let width = terms
        .iter()
        .map(|t| format!("{t:b}").len())
        .chain([format!("{total:b}").len()])
        .max()
        .unwrap_or(1);
    if width <= 64 && !terms.is_empty() {
        for (i, t) in terms.iter().enumerate() {
            lines.push(format!(
                "{} {:>width$b}  ({t})",
                if i == 0 { " " } else { "⊕" },
                t
            ));
        }
        lines.push(format!("= {total:>width$b}  ({total})"));
    }
    lines
}

#[cfg(test)]
mod tests;
