//! `grundy play`: a terminal game against a perfect opponent.
//!
//! The rules of each family are the library's move model ([`grundy::play`]: show the position,
//! parse a move in the one move syntax, value every option, explain, choose the engine's move);
//! this module chooses the family from the arguments and runs the dialogue. Input is read line
//! by line from standard input, so a game can be scripted (`printf '1 1\n' | grundy play nim 3 5 2`).
//!
//! `--report` is the non-interactive form the web page uses: replay the `--move`s, let the
//! engine move once with `--engine-turn`, and print the position's [`grundy::play::Report`].

use crate::common::{parse_u64, shown_line, CliError, CliResult, PositionArgs};
use grundy::play::{
    engine_move, play_input, report, Dice, EngineMove, Playable, Setup, Strength, FAMILIES,
};
use serde::Serialize;
use std::io::{BufRead, IsTerminal, Write};

/// The longest line `play` reads (64 KiB): a move is a few words; a longer line (a 2 GB line,
/// `/dev/zero`) ends the game with an error instead of filling memory.
const MAX_LINE_BYTES: usize = 64 << 10;

/// Who moves first.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// You move first
    Me,
    /// The engine moves first
    Engine,
}

/// How strongly the engine plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineArg {
    /// The best move: a winning one whenever one exists
    Perfect,
    /// A random legal move
    Random,
}

/// Play against the engine. Type a move, `hint`, `help`, `undo` or `quit`.
///
/// One move syntax for every family: heap games `HEAP SIZE` / `HEAP PARTS...` / `HEAP -K`
/// (heaps numbered from 0), Wythoff also `both -K`, Welter `FROM TO`, Cram `R1 C1 R2 C2`,
/// Chomp `ROW COL`, a graph the node's name; every family also `= POSITION` (the position
/// after the move).
///
/// Example: `grundy play nim 3 5 2` (then type `1 1`: heap 1 becomes 1).
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The family: nim, subtraction, wythoff, welter, cram (ROWSxCOLS or rows of '.'/'#'),
    /// chomp (ROWSxCOLS or row lengths), multiplayer, cdnim, takebreak:CODE (e.g.
    /// takebreak:kayles), graph (a game graph file, `-` for standard input, cycles allowed,
    /// then an optional start node), or any other `--game` spec
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
    /// `subtraction`: every number may be taken except these (e.g. 1,2)
    #[arg(long, value_name = "LIST")]
    pub all_but: Option<String>,
    /// How the engine plays
    #[arg(long, value_enum, default_value_t = EngineArg::Perfect)]
    pub engine: EngineArg,
    /// Seed of the random engine (default: from the clock)
    #[arg(long, value_name = "N")]
    pub seed: Option<String>,
    /// A move already played, from the start (repeat for a game in progress; player 0 first)
    #[arg(long = "move", value_name = "MOVE", allow_hyphen_values = true)]
    pub moves: Vec<String>,
    /// Do not play: replay the --move's and print the position's report (options with their
    /// values, the nim-sum or mex written out, the best move); with --json the object the web
    /// page reads
    #[arg(long)]
    pub report: bool,
    /// With --report: the engine moves once (for the player to move) before the report
    #[arg(long, requires = "report")]
    pub engine_turn: bool,
    /// With --report: also write the game graph of the position (every position reachable
    /// from it, at most 200) to FILE, as the JSON `grundy graph` reads
    #[arg(long, value_name = "FILE", requires = "report")]
    pub graph_out: Option<std::path::PathBuf>,
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
    /// multiplayer: the game every seat plays (see `grundy multiplayer --help`) [default: nim]
    #[arg(long, value_name = "SPEC")]
    pub game: Option<String>,
    /// multiplayer: your seat, 0-based (player 0 moves first) [default: 0]
    #[arg(long, value_name = "SEAT")]
    pub seat: Option<String>,
}

/// Refuse flags that the chosen family does not read, instead of ignoring them silently.
fn check_flags(args: &PlayArgs) -> CliResult {
    let family = args.family.as_str();
    if (args.set.is_some() || args.all_but.is_some()) && family != "subtraction" {
        return Err(CliError::input(format!(
            "--set and --all-but are the subtraction set of 'play subtraction'; family '{}' does not take them",
            shown_line(family)
        )));
    }
    let multiplayer_only = [
        ("--players", args.players.is_some()),
        ("--order", args.order.is_some()),
        ("--prefs", args.prefs.is_some()),
        ("--game", args.game.is_some()),
        ("--seat", args.seat.is_some()),
    ];
    if family != "multiplayer" {
        if let Some((flag, _)) = multiplayer_only.iter().find(|(_, given)| *given) {
            return Err(CliError::input(format!(
                "{flag} belongs to 'play multiplayer'; family '{}' is a two-player game",
                shown_line(family)
            )));
        }
    } else if args.first != First::Me {
        return Err(CliError::input(
            "--first is for two-player games; in 'play multiplayer' choose your seat with --seat",
        ));
    }
    Ok(())
}

/// The family's setup (subtraction set, preferences, a graph read from its file) and the
/// position's words, from the flags.
fn setup(args: &PlayArgs) -> CliResult<(Setup, Vec<String>)> {
    check_flags(args)?;
    let mut words = args.position.words()?;
    let mut setup = Setup {
        set: args.set.clone(),
        all_but: args.all_but.clone(),
        game: args.game.clone(),
        ..Setup::default()
    };
    match args.family.as_str() {
        "multiplayer" => {
            setup.preferences = Some(crate::commands::multiplayer::preferences_from(
                args.players.as_deref(),
                args.order.as_deref(),
                args.prefs.as_deref(),
            )?);
        }
        "graph" => {
            // `play graph FILE [START]`: read the graph file; the library plays on it.
            if words.is_empty() || words.len() > 2 {
                return Err(CliError::input(
                    "play graph takes a graph file and optionally a start node (e.g. 'grundy play graph game.json a')",
                ));
            }
            let file = words.remove(0);
            let text = crate::common::read_text(std::path::Path::new(&file))?;
            setup.graph = Some((text, file));
        }
        _ => {}
    }
    Ok((setup, words))
}

fn build(args: &PlayArgs) -> CliResult<Box<dyn Playable>> {
    let (setup, words) = setup(args)?;
    grundy::play::build(&args.family, &words, &setup).map_err(|e| {
        let message = e.to_string();
        if message.starts_with("unknown game") {
            let mut names: Vec<&str> = FAMILIES.to_vec();
            names.extend(grundy::games::registry::NAMES);
            CliError::input(format!(
                "unknown family '{}' for play{} (choose one of: {}, or a game spec: {})",
                shown_line(&args.family),
                grundy::text::did_you_mean(&args.family, &names),
                FAMILIES.join(", "),
                grundy::games::registry::KNOWN.join(", ")
            ))
        } else {
            CliError::input(message)
        }
    })
}

/// One move of the game, for the `--json` transcript.
#[derive(Serialize)]
struct TurnRecord {
    player: usize,
    by: &'static str,
    #[serde(rename = "move")]
    mv: String,
    position: String,
}

/// The `--json` transcript: the moves played and how the game ended.
#[derive(Serialize)]
struct Transcript {
    family: String,
    players: usize,
    your_seat: usize,
    start: String,
    moves: Vec<TurnRecord>,
    /// `finished`, `quit` or `abandoned` (end of input).
    end: &'static str,
    /// The player who made the last move, when the game finished.
    last_mover: Option<usize>,
    /// Whether you made the last move (and so won, in normal play), when the game finished.
    you_won: Option<bool>,
}

/// Where the dialogue goes: stdout, or stderr under `--json` (stdout is then the transcript).
struct Dialogue {
    json: bool,
}

impl Dialogue {
    fn say(&self, text: &str) -> CliResult {
        let result = if self.json {
            let mut err = std::io::stderr().lock();
            err.write_all(text.as_bytes()).and_then(|()| err.flush())
        } else {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        };
        match result {
            Ok(()) => Ok(()),
            // The reader went away (`grundy play ... | head`): nobody is left to play with.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
            Err(e) => Err(CliError::input(format!("cannot write the output: {e}"))),
        }
    }
    fn line(&self, text: &str) -> CliResult {
        self.say(&format!("{text}\n"))
    }
}

/// Read one line of at most [`MAX_LINE_BYTES`] (without its line ending); `None` at the end
/// of input. An overlong line or one that is not UTF-8 text is an error.
fn read_line(input: &mut impl BufRead) -> CliResult<Option<String>> {
    let mut bytes = Vec::new();
    let n = std::io::Read::take(&mut *input, MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', &mut bytes)
        .map_err(|e| CliError::input(format!("cannot read standard input: {e}")))?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() > MAX_LINE_BYTES {
        return Err(CliError::input(format!(
            "an input line is longer than {} KiB; a move is a few words (game abandoned)",
            MAX_LINE_BYTES >> 10
        )));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| CliError::input("standard input is not UTF-8 text (game abandoned)"))
}

/// The game after the moves `moves` (each in the family's syntax or `= POSITION`); the names
/// the moves were played under.
fn replay(args: &PlayArgs, moves: &[String]) -> CliResult<(Box<dyn Playable>, Vec<String>)> {
    let mut game = build(args)?;
    let m = game.players();
    let mut names = Vec::with_capacity(moves.len());
    for (k, mv) in moves.iter().enumerate() {
        if game.is_over() {
            return Err(CliError::input(format!(
                "--move '{}' (move {}): the game is already over",
                shown_line(mv),
                k + 1
            )));
        }
        let name = play_input(game.as_mut(), k % m, mv).map_err(|e| {
            CliError::input(format!(
                "--move '{}' (move {}): {}",
                shown_line(mv),
                k + 1,
                shown_line(&e)
            ))
        })?;
        names.push(name);
    }
    Ok((game, names))
}

/// `--report`: the position after the replayed moves, for people or as JSON.
fn print_report(
    mut game: Box<dyn Playable>,
    mut played: Vec<String>,
    args: &PlayArgs,
    dice: &mut Dice,
    json: bool,
) -> CliResult {
    let m = game.players();
    let mut engine = None;
    if args.engine_turn {
        let mover = played.len() % m;
        if let Some((mv, why)) = engine_move(game.as_mut(), mover, strength(args), dice) {
            game.play(&mv).map_err(|e| {
                CliError::input(format!("internal error: engine move refused: {e}"))
            })?;
            played.push(mv.clone());
            engine = Some(EngineMove {
                player: mover,
                name: mv,
                why,
            });
        }
    }
    let r = report(game.as_mut(), played.len(), engine);
    crate::common::emit(json, &r, || {
        let mut s = String::new();
        if let Some(e) = &r.engine_move {
            s.push_str(&format!("engine plays {}: {}\n", e.name, e.why));
        }
        s.push_str(&format!("{}\n", r.shown));
        if r.over {
            match r.last_mover {
                Some(p) => s.push_str(&format!(
                    "game over: player {} cannot move; player {p} made the last move\n",
                    r.to_move
                )),
                None => s.push_str("game over: the first player cannot move\n"),
            }
        }
        s.push_str(&format!("player {} to move: {}\n", r.to_move, r.evaluation));
        for line in &r.explanation {
            s.push_str(&format!("  {line}\n"));
        }
        if let Some(opts) = &r.options {
            if !opts.is_empty() {
                s.push_str("moves:\n");
            }
            for o in opts {
                let value = match (o.value, &o.verdict) {
                    (_, Some(v)) => v.clone(),
                    (Some(v), None) => format!("value {v}"),
                    (None, None) => String::new(),
                };
                s.push_str(&format!(
                    "  {:<12} -> {:<16} {value}{}\n",
                    o.name,
                    o.after,
                    if o.good { "  *" } else { "" }
                ));
            }
        }
        if let (Some(mv), Some(why)) = (&r.best_move, &r.why) {
            s.push_str(&format!("suggested move: {mv} ({why})\n"));
        }
        s
    })
}

/// The most positions `--graph-out` writes.
const MAX_GRAPH_OUT: usize = 200;

/// `--graph-out FILE`: the game graph of the position after the --move's.
fn write_graph(args: &PlayArgs, path: &std::path::Path) -> CliResult {
    crate::common::check_output_paths(&[("--graph-out", &Some(path.to_path_buf()))])?;
    let (setup, words) = setup(args)?;
    let graph =
        grundy::play::explore::game_graph(&args.family, &words, &args.moves, &setup, MAX_GRAPH_OUT)
            .map_err(|e| CliError::input(e.to_string()))?;
    let text = serde_json::to_string_pretty(&graph)?;
    std::fs::write(path, text + "\n")
        .map_err(|e| CliError::input(format!("cannot write '{}': {e}", path.display())))
}

fn strength(args: &PlayArgs) -> Strength {
    match args.engine {
        EngineArg::Perfect => Strength::Perfect,
        EngineArg::Random => Strength::Random,
    }
}

pub fn run(args: PlayArgs, json: bool) -> CliResult {
    let seed = match &args.seed {
        Some(w) => parse_u64("--seed", w)?,
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };
    let mut dice = Dice::new(seed);
    let (mut game, mut history) = replay(&args, &args.moves)?;
    if let Some(path) = &args.graph_out {
        write_graph(&args, path)?;
    }
    if args.report {
        return print_report(game, history, &args, &mut dice, json);
    }
    let m = game.players();
    let me = if m == 2 {
        match args.first {
            First::Me => 0,
            First::Engine => 1,
        }
    } else {
        let seat = match &args.seat {
            Some(w) => parse_u64("--seat", w)?,
            None => 0,
        };
        if seat >= m as u64 {
            return Err(CliError::input(format!(
                "--seat {seat} does not exist: with {m} players the seats are 0..{}",
                m - 1
            )));
        }
        seat as usize
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
    let out = Dialogue { json };
    let mut transcript = Transcript {
        family: args.family.clone(),
        players: m,
        your_seat: me,
        start: game.show(),
        moves: Vec::new(),
        end: "abandoned",
        last_mover: None,
        you_won: None,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    // When input is scripted, echo it so the transcript reads like a terminal session.
    let echo = !std::io::stdin().is_terminal();
    out.line(&game.move_syntax())?;
    if m > 2 {
        out.line(&format!(
            "You are player {me}; player 0 moves first; the engine plays every other seat."
        ))?;
    }
    out.line("Type a move, 'hint', 'help', 'undo' or 'quit'.")?;
    let mut to_move = history.len() % m;
    'game: loop {
        out.line(&format!("\n{}", game.show()))?;
        if game.is_over() {
            let last = (to_move + m - 1) % m;
            transcript.end = "finished";
            transcript.last_mover = Some(last);
            transcript.you_won = Some(last == me);
            if m == 2 {
                if last == me {
                    out.line("The engine cannot move: you win!")?;
                } else {
                    out.line("You cannot move: the engine wins.")?;
                }
            } else {
                let who = if last == me {
                    "you".to_string()
                } else {
                    format!("player {last}")
                };
                out.line(&format!(
                    "Player {to_move} cannot move: the last mover is {who}."
                ))?;
            }
            break 'game;
        }
        if to_move != me {
            let (mv, why) = engine_move(game.as_mut(), to_move, strength(&args), &mut dice)
                .expect("a position that is not over has a move");
            game.play(&mv).map_err(|e| {
                CliError::input(format!("internal error: engine move refused: {e}"))
            })?;
            let who = if m == 2 {
                "engine".to_string()
            } else {
                name(to_move)
            };
            out.line(&format!("{who} plays {mv}: {why}"))?;
            transcript.moves.push(TurnRecord {
                player: to_move,
                by: "engine",
                mv: mv.clone(),
                position: game.show(),
            });
            history.push(mv);
            to_move = (to_move + 1) % m;
            continue;
        }
        loop {
            out.say("your move> ")?;
            let Some(line) = read_line(&mut input)? else {
                out.line("\n(end of input: game abandoned)")?;
                break 'game;
            };
            let cmd = line.trim();
            if echo {
                out.line(&shown_line(cmd))?;
            }
            match cmd {
                "" => continue,
                "quit" | "q" | "exit" => {
                    out.line("bye")?;
                    transcript.end = "quit";
                    break 'game;
                }
                "help" | "?" => {
                    out.line(&game.move_syntax())?;
                    continue;
                }
                "undo" | "u" => {
                    // Back to your previous turn: your last move and the engines' answers.
                    let Some(mine) = (0..history.len()).rev().find(|&k| k % m == me) else {
                        out.line("nothing to undo")?;
                        continue;
                    };
                    history.truncate(mine);
                    transcript
                        .moves
                        .truncate(mine.saturating_sub(args.moves.len()));
                    game = replay(&args, &history)?.0;
                    to_move = history.len() % m;
                    out.line(&format!("undone; back to move {}", mine + 1))?;
                    out.line(&game.show())?;
                    continue;
                }
                "hint" | "h" => {
                    out.line(&game.evaluation(me))?;
                    for line in game.explain(me) {
                        out.line(&format!("  {line}"))?;
                    }
                    if let Some((mv, why)) = game.best_move(me) {
                        out.line(&format!("suggested move: {mv} ({why})"))?;
                    }
                    continue;
                }
                _ => match play_input(game.as_mut(), to_move, cmd) {
                    Ok(played) => {
                        transcript.moves.push(TurnRecord {
                            player: to_move,
                            by: "you",
                            mv: played.clone(),
                            position: game.show(),
                        });
                        history.push(played);
                        to_move = (to_move + 1) % m;
                        break;
                    }
                    Err(reason) => out.line(&format!("illegal move: {}", shown_line(&reason)))?,
                },
            }
        }
    }
    if json {
        crate::common::emit(true, &transcript, String::new)?;
    }
    Ok(())
}
