//! `grundy`: Sprague–Grundy values, outcomes and winning moves from the command line.
//!
//! This crate is argument parsing and rendering only; every computation lives in the `grundy`
//! library crate.

mod commands;
mod common;
mod plot;
mod progress;

use clap::{CommandFactory, Parser, Subcommand};
use common::CliError;

/// Sprague-Grundy values, outcomes and winning moves of impartial games.
#[derive(Parser, Debug)]
#[command(name = "grundy", version, about, long_about = None, propagate_version = true)]
struct Cli {
    /// Print one JSON object on stdout instead of human text
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Mex(commands::mex::MexArgs),
    Nim(commands::nim::NimArgs),
    Subtraction(commands::subtraction::SubtractionArgs),
    #[command(alias = "octal")]
    Takebreak(commands::takebreak::TakebreakArgs),
    Census(commands::census::CensusArgs),
    Catalogue(commands::catalogue::CatalogueArgs),
    Wythoff(commands::wythoff::WythoffArgs),
    Cdnim(commands::cdnim::CdnimArgs),
    Graph(commands::graph::GraphArgs),
    LoopySubtraction(commands::loopy_subtraction::LoopySubtractionArgs),
    Play(commands::play::PlayArgs),
    Tour(commands::tour::TourArgs),
    Verify(commands::verify::VerifyArgs),
    Multiplayer(commands::multiplayer::MultiplayerArgs),
    MultiplayerExplore(commands::multiplayer_explore::MultiplayerExploreArgs),
    Welter(commands::welter::WelterArgs),
    Young(commands::young::YoungArgs),
    Cram(commands::cram::CramArgs),
    Chomp(commands::chomp::ChompArgs),
    MisereQuotient(commands::misere_quotient::MisereQuotientArgs),
    Serve(commands::serve::ServeArgs),
}

fn run(cli: Cli) -> common::CliResult {
    let json = cli.json;
    match cli.command {
        Command::Mex(a) => commands::mex::run(a, json),
        Command::Nim(a) => commands::nim::run(a, json),
        Command::Subtraction(a) => commands::subtraction::run(a, json),
        Command::Takebreak(a) => commands::takebreak::run(a, json),
        Command::Census(a) => commands::census::run(a, json),
        Command::Catalogue(a) => commands::catalogue::run(a, json),
        Command::Wythoff(a) => commands::wythoff::run(a, json),
        Command::Cdnim(a) => commands::cdnim::run(a, json),
        Command::Graph(a) => commands::graph::run(a, json),
        Command::LoopySubtraction(a) => commands::loopy_subtraction::run(a, json),
        Command::Play(a) => commands::play::run(a, json),
        Command::Tour(a) => commands::tour::run(a, json),
        Command::Verify(a) => commands::verify::run(a, json),
        Command::Multiplayer(a) => commands::multiplayer::run(a, json),
        Command::MultiplayerExplore(a) => commands::multiplayer_explore::run(a, json),
        Command::Welter(a) => commands::welter::run(a, json),
        Command::Young(a) => commands::young::run(a, json),
        Command::Cram(a) => commands::cram::run(a, json),
        Command::Chomp(a) => commands::chomp::run(a, json),
        Command::MisereQuotient(a) => commands::misere_quotient::run(a, json),
        Command::Serve(a) => commands::serve::run(a, json),
    }
}

/// clap's error folded into one line: the message and its "did you mean" tip, without the
/// usage text, control characters escaped, ending with where to find help (the subcommand's
/// own help when a subcommand was named).
fn clap_message(e: &clap::Error, args: &[std::ffi::OsString]) -> String {
    let text = e.render().to_string();
    let mut parts = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        let line = match line.strip_prefix("tip: ") {
            Some(tip) => format!("({tip})"),
            None => line.to_owned(),
        };
        parts.push(line);
    }
    let message = if parts.is_empty() {
        "invalid arguments".to_owned()
    } else {
        common::shown_line(&parts.join(" "))
    };
    let subcommand = args
        .get(1)
        .and_then(|a| a.to_str())
        .filter(|a| Cli::command().find_subcommand(a).is_some());
    match subcommand {
        Some(name) => format!("{message} (see 'grundy {name} --help')"),
        None => format!("{message} (see 'grundy --help')"),
    }
}

fn main() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        eprintln!("grundy: internal error (please report): {msg}");
    }));
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.len() == 1 {
        eprintln!(
            "grundy: no command given; try 'grundy tour', or 'grundy --help' for the commands"
        );
        std::process::exit(2);
    }
    common::note_spellings(&args);
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                std::process::exit(0);
            }
            eprintln!("grundy: {}", clap_message(&e, &args));
            std::process::exit(2);
        }
    };
    if let Err(CliError { message, code }) = run(cli) {
        // Whatever a message quotes, it stays one line (newlines, NULs escaped).
        eprintln!(
            "grundy: {}",
            common::shown_line(&common::as_written(&message))
        );
        std::process::exit(code);
    }
}
