//! `grundy`: Sprague–Grundy values, outcomes and winning moves from the command line.
//!
//! This crate is argument parsing and rendering only; every computation lives in the `grundy`
//! library crate.

mod catalogue;
mod commands;
mod common;
mod game_spec;
mod plot;

use clap::{Parser, Subcommand};
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
    Play(commands::play::PlayArgs),
    Tour(commands::tour::TourArgs),
    Verify(commands::verify::VerifyArgs),
    Multiplayer(commands::multiplayer::MultiplayerArgs),
    Welter(commands::welter::WelterArgs),
    Young(commands::young::YoungArgs),
    Cram(commands::cram::CramArgs),
    Chomp(commands::chomp::ChompArgs),
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
        Command::Play(a) => commands::play::run(a, json),
        Command::Tour(a) => commands::tour::run(a, json),
        Command::Verify(a) => commands::verify::run(a, json),
        Command::Multiplayer(a) => commands::multiplayer::run(a, json),
        Command::Welter(a) => commands::welter::run(a, json),
        Command::Young(a) => commands::young::run(a, json),
        Command::Cram(a) => commands::cram::run(a, json),
        Command::Chomp(a) => commands::chomp::run(a, json),
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                std::process::exit(
                    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                        2
                    } else {
                        0
                    },
                );
            }
            // clap's message can span several lines (e.g. the names of missing arguments);
            // keep everything before the usage text, folded into one line.
            let text = e.render().to_string();
            let message = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
                .collect::<Vec<_>>()
                .join(" ");
            let message = message.strip_prefix("error: ").unwrap_or(&message);
            let message = if message.is_empty() {
                "invalid arguments"
            } else {
                message
            };
            eprintln!("grundy: {message} (see 'grundy --help')");
            std::process::exit(2);
        }
    };
    if let Err(CliError { message, code }) = run(cli) {
        eprintln!("grundy: {message}");
        std::process::exit(code);
    }
}
