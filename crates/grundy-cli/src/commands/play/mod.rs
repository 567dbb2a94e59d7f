//! `grundy play`: a terminal game against a perfect opponent.
//!
//! Each family implements [`Playable`] (show the position, parse a move in its own natural
//! syntax, evaluate, choose the engine's move); the loop here is shared. Input is read line by
//! line from standard input, so a game can be scripted (`printf '1 1\n' | grundy play nim 3 5 2`).

mod generic;
mod graph;
mod heapgames;
mod multi;
mod welter;

use crate::common::{CliError, CliResult, PositionArgs};
use std::io::{BufRead, IsTerminal, Write};

/// Who moves first.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// You move first
    Me,
    /// The engine moves first
    Engine,
}

/// Play against the engine. Type a move, `hint`, `help` or `quit`.
///
/// Example: `grundy play nim 3 5 2` (then type `1 1`: heap 1 becomes 1).
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The family: nim, subtraction, wythoff, welter, multiplayer, cdnim, takebreak:CODE (e.g.
    /// takebreak:kayles), graph (a game graph file, cycles allowed, then an optional start
    /// node), or any other `--game` spec
    #[arg(value_name = "FAMILY")]
    pub family: String,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Who moves first
    #[arg(long, value_enum, default_value_t = First::Me)]
    pub first: First,
    /// Subtraction set for `subtraction` (e.g. 1,3,4)
    #[arg(long, value_name = "LIST")]
    pub set: Option<String>,
    /// multiplayer: number of players, 2 to 16 (the engine takes every seat but yours; default
    /// 3, or as many as --order/--prefs describe)
    #[arg(long, value_name = "M")]
    pub players: Option<String>,
    /// multiplayer: symmetric preferences GAMES(k1,...,km) (default: Li's 0,1,...,m-1)
    #[arg(long, value_name = "K1,K2,...", conflicts_with = "prefs")]
    pub order: Option<String>,
    /// multiplayer: one preference order per player, separated by '/' (e.g. 0,1,2/2,1,0/1,0,2)
    #[arg(long, value_name = "ORDERS")]
    pub prefs: Option<String>,
    /// multiplayer: the game every seat plays (see `grundy multiplayer --help`), default nim
    #[arg(long, value_name = "SPEC", default_value = "nim")]
    pub game: String,
    /// multiplayer: your seat, 0-based (player 0 moves first)
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
}

/// A game in progress, as the play loop sees it.
pub trait Playable {
    /// The position, for people.
    fn show(&self) -> String;
    /// One line on how to type a move.
    fn move_syntax(&self) -> String;
    /// Number of players (2 unless the family is multiplayer).
    fn players(&self) -> usize {
        2
    }
    /// Value and outcome of the current position with `mover` to move, for `hint`.
    fn evaluation(&mut self, mover: usize) -> String;
    /// A good move for `mover`: (the move in the input syntax, why it is good). `None` when
    /// the game is over.
    fn best_move(&mut self, mover: usize) -> Option<(String, String)>;
    /// Play a move typed by the user or chosen by the engine; `Err` gives the reason it is
    /// illegal or unreadable.
    fn play(&mut self, input: &str) -> Result<(), String>;
    /// Whether the player to move has no move (and so, in normal play, has lost).
    fn is_over(&self) -> bool;
}

/// The heaps typed as "the position after the move" (`(no heaps)` for the empty position),
/// in the game's canonical form, if that position is an option of `from`.
fn position_move(
    game: &impl grundy::Game<Position = Vec<u64>>,
    canonical: fn(&[u64]) -> Vec<u64>,
    from: &[u64],
    input: &str,
) -> Result<Vec<u64>, String> {
    let heaps = if input.trim() == "(no heaps)" {
        Vec::new()
    } else {
        input
            .split_whitespace()
            .map(|w| crate::common::parse_u64("heap", w).map_err(|e| e.message))
            .collect::<Result<Vec<u64>, String>>()?
    };
    let target = canonical(&heaps);
    if game.options_vec(&from.to_vec()).contains(&target) {
        Ok(target)
    } else {
        Err(format!(
            "'{}' cannot be reached in one move from '{}'",
            heaps_text(&heaps),
            heaps_text(from)
        ))
    }
}

/// Heaps for people; `(no heaps)` for the empty position.
fn heaps_text(h: &[u64]) -> String {
    if h.is_empty() {
        "(no heaps)".into()
    } else {
        h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
    }
}

/// The families `play` knows.
const FAMILIES: &[&str] = &[
    "nim",
    "subtraction",
    "wythoff",
    "welter",
    "multiplayer",
    "graph",
];

fn build(args: &PlayArgs) -> CliResult<Box<dyn Playable>> {
    let words = args.position.words()?;
    match args.family.as_str() {
        "nim" => heapgames::nim(&words),
        "subtraction" => heapgames::subtraction(&words, args.set.as_deref()),
        "wythoff" => heapgames::wythoff(&words),
        "multiplayer" => multi::build(args, &words),
        "welter" => welter::build(&words),
        "graph" => graph::build(&words),
        other => generic::build(other, &words).map_err(|e| {
            if e.message.starts_with("unknown game") {
                CliError::input(format!(
                    "unknown family '{other}' for play (choose one of: {}, or a game spec: {})",
                    FAMILIES.join(", "),
                    crate::game_spec::KNOWN.join(", ")
                ))
            } else {
                e
            }
        }),
    }
}

pub fn run(args: PlayArgs, json: bool) -> CliResult {
    if json {
        return Err(CliError::input(
            "play is interactive and has no --json output (use the family's own command for JSON)",
        ));
    }
    let mut game = build(&args)?;
    let m = game.players();
    let me = if m == 2 {
        match args.first {
            First::Me => 0,
            First::Engine => 1,
        }
    } else {
        if args.seat >= m {
            return Err(CliError::input(format!(
                "--seat {} does not exist: with {m} players the seats are 0..{}",
                args.seat,
                m - 1
            )));
        }
        args.seat
    };
    let name = |p: usize| -> String {
        if p == me {
            "you".into()
        } else if m == 2 {
            "the engine".into()
        } else {
            format!("player {p} (engine)")
        }
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    // When input is scripted, echo it so the transcript reads like a terminal session.
    let echo = !std::io::stdin().is_terminal();
    println!("{}", game.move_syntax());
    if m > 2 {
        println!("You are player {me}; player 0 moves first; the engine plays every other seat.");
    }
    println!("Type a move, 'hint', 'help' or 'quit'.");
    let mut to_move = 0;
    loop {
        println!("\n{}", game.show());
        if game.is_over() {
            let last = (to_move + m - 1) % m;
            if m == 2 {
                if last == me {
                    println!("The engine cannot move: you win!");
                } else {
                    println!("You cannot move: the engine wins.");
                }
            } else {
                let who = if last == me {
                    "you".to_string()
                } else {
                    format!("player {last}")
                };
                println!("Player {to_move} cannot move: the last mover is {who}.");
            }
            return Ok(());
        }
        if to_move != me {
            let (mv, why) = game
                .best_move(to_move)
                .expect("a position that is not over has a move");
            game.play(&mv).map_err(|e| {
                CliError::input(format!("internal error: engine move refused: {e}"))
            })?;
            let who = if m == 2 {
                "engine".to_string()
            } else {
                name(to_move)
            };
            println!("{who} plays {mv}: {why}");
            to_move = (to_move + 1) % m;
            continue;
        }
        loop {
            print!("your move> ");
            out.flush()?;
            let Some(line) = lines.next() else {
                println!("\n(end of input: game abandoned)");
                return Ok(());
            };
            let line = line?;
            let cmd = line.trim();
            if echo {
                println!("{cmd}");
            }
            match cmd {
                "" => continue,
                "quit" | "q" | "exit" => {
                    println!("bye");
                    return Ok(());
                }
                "help" | "?" => {
                    println!("{}", game.move_syntax());
                    continue;
                }
                "hint" | "h" => {
                    println!("{}", game.evaluation(me));
                    if let Some((mv, why)) = game.best_move(me) {
                        println!("suggested move: {mv} ({why})");
                    }
                    continue;
                }
                _ => match game.play(cmd) {
                    Ok(()) => {
                        to_move = (to_move + 1) % m;
                        break;
                    }
                    Err(reason) => println!("illegal move: {reason}"),
                },
            }
        }
    }
}
