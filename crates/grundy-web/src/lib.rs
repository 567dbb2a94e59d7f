//! The local web page of grundy: `grundy serve` starts [`Server`].
//!
//! **What it serves.** Three vendored assets compiled into the binary (`/`, `/app.js`,
//! `/style.css`; no CDN, no Node build) and a small JSON API:
//!
//! - `POST /api/cli` `{"args": [...], "stdin": "..."}` answers exactly what
//!   `grundy ARGS --json` prints (the body is the program's standard output), for every command
//!   that only reads. The page plays through it too (`grundy play ... --report`).
//! - `POST /api/picture` `{"args": [...], "output": "--svg"}`: the same, with `--svg FILE`
//!   (or `--graph-out FILE`) added, the file of the server's own choosing, answered as
//!   `{"report": <the --json object>, "file": "<svg ...>"}`.
//! - `GET /api/health`: `{"ok": true}`.
//!
//! **How a request is computed.** Every API request runs the same binary
//! ([`Config::exe`], the running `grundy`) as a child process with the request's arguments, in
//! an empty private directory, under a memory limit and a time budget; the child is killed when
//! the budget runs out. So a computation can always be stopped, a crash or an exhausted memory
//! limit never takes the server down, and the answers are the CLI's own (same keys, same
//! messages for input that is too large). At most [`Config::max_jobs`] children run at once;
//! a request that waits longer than [`QUEUE_WAIT`] for a slot is refused with 503. While a
//! child runs, its request's connection is watched ([`http::Peer::gone`]): when the browser
//! goes away (a closed tab, a cancelled fetch) the child is killed and its slot freed at once.
//!
//! **Security.** Requests whose `Host` header is not an IP literal or `localhost` with the
//! served port are refused (a DNS-rebinding page cannot name us). Bodies are at most
//! [`MAX_BODY`] bytes. No path from a request touches the file system: assets are compiled in,
//! arguments that could name a file outside the child's empty directory (starting with `/`,
//! `\` or `~`, or containing `..`) are refused, and so are commands and flags that read or
//! write files (`--input`, `--svg`, `--db`, ...).

pub mod http;

use http::{Peer, Request, Response};
use serde::Serialize;
use std::io::Read;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The most bytes a request body may have (a pasted game graph fits easily).
pub const MAX_BODY: usize = 1 << 20;
/// The most bytes of output a computation may produce before it is stopped.
pub const MAX_OUTPUT: usize = 16 << 20;
/// How long a request waits for a free computation slot before it is refused (503, "busy"):
/// short, so that an answer comes within about a second even when a class asks at once (the
/// page retries a busy answer a few times).
pub const QUEUE_WAIT: Duration = Duration::from_millis(750);

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// Commands `/api/cli` runs (they only read; `play` only with `--report`).
const COMMANDS: &[&str] = &[
    "mex",
    "nim",
    "subtraction",
    "takebreak",
    "octal",
    "wythoff",
    "cdnim",
    "graph",
    "loopy-subtraction",
    "play",
    "tour",
    "verify",
    "multiplayer",
    "welter",
    "young",
    "cram",
    "chomp",
];

/// Flags that write (or name) files, refused in every command.
const FILE_FLAGS: &[&str] = &[
    "--png",
    "--svg",
    "--dot",
    "--graph-out",
    "--db",
    "--checkpoint",
    "--input",
    "--board",
];

/// Files `/api/picture` may ask for (the server chooses the path and sends the text back).
const OUTPUT_FLAGS: &[&str] = &["--svg", "--graph-out"];

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to listen on (127.0.0.1 unless the user says otherwise).
    pub bind: IpAddr,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// The `grundy` binary that computes (normally `std::env::current_exe()`).
    pub exe: PathBuf,
    /// The time budget of one computation.
    pub budget: Duration,
    /// Computations at once.
    pub max_jobs: usize,
    /// The address-space limit of one computation, bytes.
    pub memory: u64,
}

impl Config {
    /// Loopback, a free port, 10 s and 1 GiB per computation, 3 at once.
    pub fn new(exe: PathBuf) -> Self {
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            exe,
            budget: Duration::from_secs(10),
            max_jobs: 3,
            memory: 1 << 30,
        }
    }
}

/// A running server.
pub struct Server {
    listener: TcpListener,
    addr: SocketAddr,
    state: Arc<State>,
}

struct State {
    config: Config,
    /// Computations running now, and the condition a waiting request sleeps on.
    jobs: Mutex<usize>,
    freed: Condvar,
    /// A private empty directory the children run in (files written there are the server's).
    work: PathBuf,
    counter: AtomicU64,
}

impl Server {
    /// Listen on the configured address. Errors are one line for the user.
    pub fn bind(config: Config) -> Result<Server, String> {
        let (listener, addr) = http::listen(SocketAddr::new(config.bind, config.port))
            .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
        let work = std::env::temp_dir().join(format!("grundy-serve-{}", std::process::id()));
        std::fs::create_dir_all(&work)
            .map_err(|e| format!("cannot create {}: {e}", work.display()))?;
        Ok(Server {
            listener,
            addr,
            state: Arc::new(State {
                config,
                jobs: Mutex::new(0),
                freed: Condvar::new(),
                work,
                counter: AtomicU64::new(0),
            }),
        })
    }

    /// The address served.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        let host = match self.addr.ip() {
            ip if ip.is_unspecified() => "127.0.0.1".to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        format!("http://{host}:{}/", self.addr.port())
    }

    /// Answer requests until `stop` is set (checked a few times a second), then finish the
    /// requests in progress and return.
    pub fn run(self, stop: Arc<AtomicBool>) {
        let state = Arc::clone(&self.state);
        let port = self.addr.port();
        let too_large = error_response(
            413,
            &format!("the request body is over {} KiB", MAX_BODY >> 10),
        );
        let stopping = Arc::clone(&stop);
        http::serve(
            self.listener,
            stop,
            MAX_BODY,
            too_large,
            Arc::new(move |request: &Request, peer: &Peer| {
                // a computation is abandoned when its client leaves or the server stops
                let gone = || peer.gone() || stopping.load(Ordering::SeqCst);
                handle(&state, port, request, &gone)
            }),
        );
        let _ = std::fs::remove_dir_all(&self.state.work);
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

fn json_response(status: u16, body: String) -> Response {
    Response::new(status, "application/json; charset=utf-8", body)
}

fn error_response(status: u16, message: &str) -> Response {
    json_response(
        status,
        serde_json::to_string(&ErrorBody { error: message }).unwrap_or_default(),
    )
}

/// Whether `host` (the Host header) names this server: an IP literal or `localhost`, with our
/// port. A DNS name (what a rebinding attack needs) is refused.
pub fn host_allowed(host: &str, port: u16) -> bool {
    let (name, p) = match host.rsplit_once(':') {
        Some((n, p)) if !n.ends_with(']') || n.starts_with('[') => (n, p),
        _ => return false,
    };
    if p.parse::<u16>() != Ok(port) {
        return false;
    }
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok()
}

/// Answer one request; `None` when `gone()` said its client went away (or the server is
/// stopping) before the answer was ready.
fn handle(
    state: &State,
    port: u16,
    request: &Request,
    gone: &dyn Fn() -> bool,
) -> Option<Response> {
    let response = if !request
        .header("Host")
        .is_some_and(|h| host_allowed(h, port))
    {
        error_response(
            403,
            "refused: the Host header must be this server's address (127.0.0.1:PORT or localhost:PORT)",
        )
    } else {
        route(state, request, gone)?
    };
    Some(response.with_header("Cache-Control", "no-store"))
}

fn route(state: &State, request: &Request, gone: &dyn Fn() -> bool) -> Option<Response> {
    let path = request.path();
    let asset = |body: &str, kind: &str| {
        Response::new(200, kind, body.as_bytes()).with_header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
        )
    };
    Some(match (request.method.as_str(), path) {
        ("GET", "/" | "/index.html") => asset(INDEX_HTML, "text/html; charset=utf-8"),
        ("GET", "/app.js") => asset(APP_JS, "text/javascript; charset=utf-8"),
        ("GET", "/style.css") => asset(STYLE_CSS, "text/css; charset=utf-8"),
        ("GET", "/api/health") => json_response(200, r#"{"ok":true}"#.into()),
        ("POST", "/api/cli" | "/api/picture") => {
            let picture = path == "/api/picture";
            match parse_call(&request.body) {
                Ok(call) => api(state, call, picture, gone)?,
                Err((status, message)) => error_response(status, &message),
            }
        }
        (_, "/api/cli" | "/api/picture") => error_response(405, "use POST with a JSON body"),
        _ => error_response(404, "not found"),
    })
}

/// A request to run the CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    /// The arguments after `grundy` (without `--json`).
    pub args: Vec<String>,
    /// Text for the command's standard input (a game graph for `graph -`).
    pub stdin: Option<String>,
    /// For `/api/picture`: the flag that writes the file (`--svg` or `--graph-out`).
    pub output: Option<String>,
}

/// Read `{"args": [...], "stdin": "..."}` and check it is a read-only command.
pub fn parse_call(body: &[u8]) -> Result<Call, (u16, String)> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Body {
        args: Vec<String>,
        stdin: Option<String>,
        output: Option<String>,
    }
    let b: Body = serde_json::from_slice(body).map_err(|e| {
        (
            400,
            // serde quotes the body's own text (an unknown key): one line whatever it holds
            format!(
                "the body must be {{\"args\": [\"nim\", \"3\", \"5\"]}}: {}",
                grundy::text::shown_line(&e.to_string())
            ),
        )
    })?;
    let mut args: Vec<String> = b.args.into_iter().filter(|a| a != "--json").collect();
    let Some(command) = args.first() else {
        return Err((
            400,
            "no command given (e.g. {\"args\": [\"nim\", \"3\", \"5\"]})".into(),
        ));
    };
    if command == "serve" {
        return Err((403, "'serve' cannot be run from the web page".into()));
    }
    if !COMMANDS.contains(&command.as_str()) {
        return Err((
            403,
            format!(
                "'{}' is not a command the web page runs (it runs: {})",
                grundy::text::shown(command),
                COMMANDS.join(", ")
            ),
        ));
    }
    if command == "play" && !args.iter().any(|a| a == "--report") {
        return Err((
            403,
            "'play' runs from the web page only with --report (one position, no dialogue)".into(),
        ));
    }
    for a in &args {
        let flag = a.split('=').next().unwrap_or(a);
        if FILE_FLAGS.contains(&flag) {
            return Err((
                403,
                format!("{flag} names a file; the web page reads and writes no files"),
            ));
        }
        let value = a
            .strip_prefix("--")
            .and_then(|f| f.split_once('='))
            .map_or(a.as_str(), |(_, v)| v);
        if [a.as_str(), value]
            .iter()
            .any(|w| w.starts_with(['/', '\\', '~']) || w.contains(".."))
        {
            return Err((
                403,
                "arguments may not name a file ('/', '~', '..'): the web page reads no files (paste a graph as stdin with '-')".into(),
            ));
        }
        if a.len() > 100_000 {
            return Err((413, "an argument is too long".into()));
        }
    }
    if args.len() > 10_000 {
        return Err((413, "too many arguments".into()));
    }
    if let Some(o) = &b.output {
        if !OUTPUT_FLAGS.contains(&o.as_str()) {
            return Err((400, format!("output is one of {}", OUTPUT_FLAGS.join(", "))));
        }
    }
    args.push("--json".into());
    Ok(Call {
        args,
        stdin: b.stdin,
        output: b.output,
    })
}

/// What a finished computation produced.
#[derive(Debug)]
pub enum Outcome {
    /// Exit status, standard output, standard error.
    Done(i32, Vec<u8>, Vec<u8>),
    /// Stopped: over the time budget.
    TimedOut,
    /// Stopped: over [`MAX_OUTPUT`] bytes.
    TooMuchOutput,
    /// Killed by a signal (a memory limit, a crash).
    Killed,
    /// Stopped: the client that asked for it went away.
    Cancelled,
}

/// A computation slot, released when dropped.
struct Slot<'a>(&'a State);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut n = self.0.jobs.lock().unwrap_or_else(|e| e.into_inner());
        *n -= 1;
        self.0.freed.notify_one();
    }
}

fn acquire(state: &State) -> Option<Slot<'_>> {
    let deadline = Instant::now() + QUEUE_WAIT;
    let mut n = state.jobs.lock().unwrap_or_else(|e| e.into_inner());
    while *n >= state.config.max_jobs {
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        n = state
            .freed
            .wait_timeout(n, deadline - now)
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
    *n += 1;
    Some(Slot(state))
}

/// Run a call in a computation slot; `None` when `gone()` said its client left (the child is
/// then killed and the slot freed at once).
fn api(state: &State, mut call: Call, picture: bool, gone: &dyn Fn() -> bool) -> Option<Response> {
    let Some(_slot) = acquire(state) else {
        return Some(error_response(
            503,
            "the server is busy with other computations; try again in a moment",
        ));
    };
    if gone() {
        return None; // it left while waiting for the slot
    }
    let svg_path = picture.then(|| {
        let k = state.counter.fetch_add(1, Ordering::SeqCst);
        state.work.join(format!("picture-{k}.out"))
    });
    if let Some(p) = &svg_path {
        let json = call.args.pop();
        call.args
            .push(call.output.clone().unwrap_or_else(|| "--svg".into()));
        call.args.push(p.display().to_string());
        call.args.extend(json);
    }
    let outcome = run_child(&state.config, &state.work, &call, gone);
    let budget = state.config.budget.as_secs_f64();
    Some(match outcome {
        Outcome::Done(0, stdout, _) => {
            let text = String::from_utf8_lossy(&stdout).into_owned();
            match svg_path {
                None => json_response(200, text),
                Some(p) => {
                    let svg = std::fs::read_to_string(&p).unwrap_or_default();
                    let _ = std::fs::remove_file(&p);
                    let report: serde_json::Value =
                        serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
                    json_response(
                        200,
                        serde_json::json!({"report": report, "file": svg}).to_string(),
                    )
                }
            }
        }
        Outcome::Done(code, _, stderr) => {
            if let Some(p) = &svg_path {
                let _ = std::fs::remove_file(p);
            }
            let text = String::from_utf8_lossy(&stderr);
            let line = text.lines().last().unwrap_or("the command failed");
            let line = line.strip_prefix("grundy: ").unwrap_or(line);
            error_response(if code == 2 { 400 } else { 500 }, line)
        }
        Outcome::TimedOut => error_response(
            503,
            &format!("refused: the computation did not finish within the time budget of {budget} s; choose a smaller position or n"),
        ),
        Outcome::TooMuchOutput => error_response(
            413,
            &format!("refused: the answer is over {} MiB; ask for less", MAX_OUTPUT >> 20),
        ),
        Outcome::Killed => error_response(
            503,
            &format!(
                "refused: the computation needed more than the {} MiB of memory the server allows it; choose a smaller position or n",
                state.config.memory >> 20
            ),
        ),
        Outcome::Cancelled => {
            if let Some(p) = &svg_path {
                let _ = std::fs::remove_file(p);
            }
            return None;
        }
    })
}

/// Run `exe ARGS` in `dir` with `stdin`, under the time budget and memory limit of `config`.
/// `gone` is asked every few milliseconds whether the computation is still wanted (its client
/// is still connected); when it says no, the child is killed and [`Outcome::Cancelled`]
/// returned.
pub fn run_child(config: &Config, dir: &Path, call: &Call, gone: &dyn Fn() -> bool) -> Outcome {
    let mut command = Command::new(&config.exe);
    command
        .args(&call.args)
        .current_dir(dir)
        .stdin(if call.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // no catalogue, no user files: the child sees only its empty directory
        .env("GRUNDY_DB", dir.join("no-catalogue.sqlite3"))
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .env("XDG_CACHE_HOME", dir);
    limit_memory(&mut command, config.memory);
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(_) => return Outcome::Killed,
    };
    if let (Some(text), Some(mut pipe)) = (call.stdin.clone(), child.stdin.take()) {
        std::thread::spawn(move || {
            use std::io::Write;
            let _ = pipe.write_all(text.as_bytes());
        });
    }
    let too_much = Arc::new(AtomicBool::new(false));
    let out = reader(child.stdout.take(), Arc::clone(&too_much));
    let err = reader(child.stderr.take(), Arc::clone(&too_much));
    let deadline = Instant::now() + config.budget;
    let mut pause = Duration::from_micros(200);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {}
            Err(_) => break None,
        }
        if too_much.load(Ordering::SeqCst) {
            kill(&mut child);
            return Outcome::TooMuchOutput;
        }
        if Instant::now() >= deadline {
            kill(&mut child);
            return Outcome::TimedOut;
        }
        if gone() {
            kill(&mut child);
            return Outcome::Cancelled;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if too_much.load(Ordering::SeqCst) {
        return Outcome::TooMuchOutput;
    }
    match status.and_then(|s| s.code()) {
        Some(code) => Outcome::Done(code, stdout, stderr),
        None => Outcome::Killed,
    }
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn reader(
    pipe: Option<impl Read + Send + 'static>,
    too_much: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(p) = pipe {
            let _ = p.take(MAX_OUTPUT as u64 + 1).read_to_end(&mut buf);
        }
        if buf.len() > MAX_OUTPUT {
            too_much.store(true, Ordering::SeqCst);
            buf.clear();
        }
        buf
    })
}

#[cfg(unix)]
fn limit_memory(command: &mut Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe; the closure allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn limit_memory(_command: &mut Command, _bytes: u64) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_that_name_us_and_hosts_that_do_not() {
        assert!(host_allowed("127.0.0.1:8000", 8000));
        assert!(host_allowed("localhost:8000", 8000));
        assert!(host_allowed("[::1]:8000", 8000));
        assert!(!host_allowed("127.0.0.1:8001", 8000));
        assert!(!host_allowed("evil.example:8000", 8000));
        assert!(!host_allowed("127.0.0.1", 8000));
        assert!(!host_allowed("", 8000));
    }

    #[test]
    fn calls_that_read_files_or_write_them_are_refused() {
        let ok = parse_call(br#"{"args": ["nim", "3", "5"]}"#).unwrap();
        assert_eq!(ok.args, ["nim", "3", "5", "--json"]);
        for bad in [
            r#"{"args": ["serve"]}"#,
            r#"{"args": ["census", "1"]}"#,
            r#"{"args": ["graph", "/etc/passwd"]}"#,
            r#"{"args": ["takebreak", "0.07", "--svg", "x.svg"]}"#,
            r#"{"args": ["takebreak", "0.07", "--png=x.png"]}"#,
            r#"{"args": ["play", "nim", "3"]}"#,
            r#"{"args": []}"#,
            r#"{"argz": []}"#,
            r#"not json"#,
        ] {
            assert!(parse_call(bad.as_bytes()).is_err(), "{bad}");
        }
        let g = parse_call(br#"{"args": ["graph", "-"], "stdin": "{}"}"#).unwrap();
        assert_eq!(g.stdin.as_deref(), Some("{}"));
    }

    /// Found by the `http_server` fuzz target: an unknown key with an escaped newline made the
    /// refusal two lines (serde quotes the key as decoded); so could a command name.
    #[test]
    fn refusals_quoting_the_body_stay_on_one_line() {
        for body in [
            r#"{"arteuq\\\\\\\nti": 1}"#,
            r#"{"args": ["nim\nx"]}"#,
            r#"{"args": ["\u0000"]}"#,
        ] {
            let (status, message) = parse_call(body.as_bytes()).unwrap_err();
            assert!((400..500).contains(&status), "{body}");
            assert!(
                !message.chars().any(char::is_control),
                "{body}: {message:?}"
            );
        }
    }
}
