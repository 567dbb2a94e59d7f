//! `grundy play`: a terminal game against a perfect opponent.
//!
//! Each family implements [`Playable`] (show the position, parse a move in its own natural
//! syntax, evaluate, choose the engine's move); the loop here is shared. Input is read line by
//! line from standard input, so a game can be scripted (`printf '1 1\n' | grundy play nim 3 5 2`).

mod heapgames;

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
    /// The family: nim, subtraction, wythoff
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
}

/// A game in progress, as the play loop sees it.
pub trait Playable {
    /// The position, for people.
    fn show(&self) -> String;
    /// One line on how to type a move.
    fn move_syntax(&self) -> String;
    /// Value and outcome of the current position, for `hint`, e.g. "value 4: N-position".
    fn evaluation(&self) -> String;
    /// A good move for the player to move: (the move in the input syntax, why it is good).
    /// `None` when the game is over.
    fn best_move(&self) -> Option<(String, String)>;
    /// Play a move typed by the user or chosen by the engine; `Err` gives the reason it is
    /// illegal or unreadable.
    fn play(&mut self, input: &str) -> Result<(), String>;
    /// Whether the player to move has no move (and so, in normal play, has lost).
    fn is_over(&self) -> bool;
}

fn build(args: &PlayArgs) -> CliResult<Box<dyn Playable>> {
    let words = args.position.words()?;
    match args.family.as_str() {
        "nim" => heapgames::nim(&words),
        "subtraction" => heapgames::subtraction(&words, args.set.as_deref()),
        "wythoff" => heapgames::wythoff(&words),
        other => Err(CliError::input(format!(
            "unknown family '{other}' for play (choose one of: nim, subtraction, wythoff)"
        ))),
    }
}

pub fn run(args: PlayArgs, _json: bool) -> CliResult {
    let mut game = build(&args)?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    let mut engine_to_move = args.first == First::Engine;
    // When input is scripted, echo it so the transcript reads like a terminal session.
    let echo = !std::io::stdin().is_terminal();
    println!("{}", game.move_syntax());
    println!("Type a move, 'hint', 'help' or 'quit'.");
    loop {
        println!("\n{}", game.show());
        if game.is_over() {
            if engine_to_move {
                println!("The engine cannot move: you win!");
            } else {
                println!("You cannot move: the engine wins.");
            }
            return Ok(());
        }
        if engine_to_move {
            let (mv, why) = game
                .best_move()
                .expect("a position that is not over has a move");
            game.play(&mv).map_err(|e| {
                CliError::input(format!("internal error: engine move refused: {e}"))
            })?;
            println!("engine plays {mv}: {why}");
            engine_to_move = false;
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
                    println!("{}", game.evaluation());
                    if let Some((mv, why)) = game.best_move() {
                        println!("suggested move: {mv} ({why})");
                    }
                    continue;
                }
                _ => match game.play(cmd) {
                    Ok(()) => {
                        engine_to_move = true;
                        break;
                    }
                    Err(reason) => println!("illegal move: {reason}"),
                },
            }
        }
    }
}
