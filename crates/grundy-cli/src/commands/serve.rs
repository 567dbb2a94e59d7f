//! `grundy serve`: the local web page (the `grundy-web` crate) in this same binary.

use crate::common::{parse_u64, CliError, CliResult};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Serve the web page for students: play every family against the engine, with hints, and
/// explore sequences, Young diagrams and game graphs. Stops on Ctrl-C.
///
/// Example: `grundy serve --open`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The port [default: a free one]
    #[arg(long, value_name = "N")]
    pub port: Option<String>,
    /// Open the page in the default browser
    #[arg(long)]
    pub open: bool,
    /// The address to listen on. Anything but loopback lets everyone who can reach the port
    /// use the page
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub bind: String,
    /// Seconds one computation may take before it is stopped
    #[arg(long, value_name = "SECONDS", default_value = "10")]
    pub budget: String,
}

static STOP: AtomicBool = AtomicBool::new(false);

pub fn run(args: ServeArgs, json: bool) -> CliResult {
    if json {
        return Err(CliError::input(
            "serve has no --json output: it runs until Ctrl-C",
        ));
    }
    let bind: IpAddr = args.bind.trim().parse().map_err(|_| {
        CliError::input(format!(
            "--bind '{}' is not an IP address (e.g. 127.0.0.1)",
            crate::common::shown_line(&args.bind)
        ))
    })?;
    let port = match &args.port {
        Some(p) => {
            let p = parse_u64("--port", p)?;
            u16::try_from(p)
                .map_err(|_| CliError::input(format!("--port {p} is not a port (0 to 65535)")))?
        }
        None => 0,
    };
    let budget = parse_u64("--budget", &args.budget)?;
    if !(1..=3600).contains(&budget) {
        return Err(CliError::input("--budget is 1 to 3600 seconds"));
    }
    let exe = std::env::current_exe()
        .map_err(|e| CliError::input(format!("cannot find this program's path: {e}")))?;
    let mut config = grundy_web::Config::new(exe);
    config.bind = bind;
    config.port = port;
    config.budget = Duration::from_secs(budget);
    if !bind.is_loopback() {
        eprintln!("WARNING: listening on {bind}, not on loopback: ANYONE who can reach this port can use the page and make this machine compute. Use the default 127.0.0.1 unless you mean it.");
    }
    // Ctrl-C stops the server from the moment its URL can be known.
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
    let server = grundy_web::Server::bind(config).map_err(CliError::input)?;
    let url = server.url();
    println!("grundy serve: {url}  (Ctrl-C stops)");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    if args.open {
        open_browser(&url);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            while !STOP.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(100));
            }
            stop.store(true, Ordering::SeqCst);
        })
    };
    server.run(Arc::clone(&stop));
    let _ = watcher.join();
    eprintln!("grundy serve: stopped");
    Ok(())
}

/// Ask the desktop to open `url` (xdg-open, open, or start); a failure is only a note.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .is_err()
    {
        eprintln!("grundy serve: could not open a browser ({opener}); open {url} yourself");
    }
}
