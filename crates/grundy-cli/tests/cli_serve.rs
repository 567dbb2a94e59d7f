//! `grundy serve`: starts, prints its URL, answers on loopback, refuses foreign Host headers,
//! warns loudly off loopback, stops on Ctrl-C; bad flags are one line and status 2.

mod common;
use common::bad_input;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

fn start(extra: &[&str]) -> (Child, u16, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .arg("serve")
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(
        line.starts_with("grundy serve: http://127.0.0.1:"),
        "{line}"
    );
    let port: u16 = line
        .split(':')
        .nth(3)
        .unwrap()
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    (child, port, line)
}

fn get(port: u16, host: &str, path: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

fn stop(mut child: Child) -> String {
    let pid = child.id().to_string();
    let ok = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(ok.success());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}

#[test]
fn serves_the_page_on_loopback_and_stops_on_ctrl_c() {
    let (child, port, _) = start(&[]);
    let page = get(port, &format!("127.0.0.1:{port}"), "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<title>grundy"), "{page}");
    let page = get(port, &format!("localhost:{port}"), "/app.js");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    // DNS rebinding: another name for this address is refused
    let refused = get(port, &format!("attacker.example:{port}"), "/");
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    // nothing but the vendored assets
    let missing = get(port, &format!("127.0.0.1:{port}"), "/../Cargo.toml");
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    let err = stop(child);
    assert!(err.contains("stopped"), "{err}");
    assert!(!err.contains("WARNING"), "{err}");
}

#[test]
fn off_loopback_it_warns_loudly() {
    let (child, port, line) = start(&["--bind", "0.0.0.0"]);
    assert!(line.contains(&port.to_string()));
    let err = stop(child);
    assert!(
        err.contains("WARNING: listening on 0.0.0.0") && err.contains("ANYONE"),
        "{err}"
    );
}

#[test]
fn bad_serve_flags() {
    bad_input(&["serve", "--port", "70000"], "--port 70000 is not a port");
    bad_input(
        &["serve", "--bind", "nowhere"],
        "--bind 'nowhere' is not an IP address",
    );
    bad_input(&["serve", "--budget", "0"], "--budget");
    bad_input(&["serve", "--json"], "no --json output");
}

/// The processes whose parent is `pid` (Linux: /proc/PID/task/*/children).
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
        for t in tasks.flatten() {
            if let Ok(text) = std::fs::read_to_string(t.path().join("children")) {
                out.extend(
                    text.split_whitespace()
                        .filter_map(|w| w.parse::<u32>().ok()),
                );
            }
        }
    }
    out
}

/// Send `POST /api/cli` with `args` (`Connection: close`: the answer ends with the connection)
/// and leave the connection open, the answer unread.
fn open_request(port: u16, args: &str) -> TcpStream {
    let body = format!(r#"{{"args": {args}}}"#);
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "POST /api/cli HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    s
}

fn wait_until(limit: std::time::Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    done()
}

#[cfg(target_os = "linux")]
#[test]
fn a_computation_whose_browser_left_is_stopped_and_its_slot_freed() {
    use std::time::{Duration, Instant};
    // a budget far longer than the test: only the client leaving can stop these children
    let (child, port, _) = start(&["--budget", "600"]);
    let pid = child.id();
    let long = r#"["takebreak", "0.6", "--n", "100000000", "--no-extend", "--no-record"]"#;
    // the server's three computation slots, all taken by long computations
    let open: Vec<TcpStream> = (0..3).map(|_| open_request(port, long)).collect();
    assert!(
        wait_until(Duration::from_secs(20), || children(pid).len() == 3),
        "three computations run: {:?}",
        children(pid)
    );
    let running = children(pid);
    // a fourth request finds no free slot
    let mut busy = String::new();
    open_request(port, r#"["nim", "3", "5"]"#)
        .read_to_string(&mut busy)
        .unwrap();
    assert!(
        busy.starts_with("HTTP/1.1 503") && busy.contains("busy"),
        "{busy}"
    );
    // the browsers go away: every child is killed at once, not at the end of its budget
    let left = Instant::now();
    drop(open);
    assert!(
        wait_until(Duration::from_secs(5), || children(pid).is_empty()),
        "children left running: {:?}",
        children(pid)
    );
    let took = left.elapsed();
    for c in running {
        // killed and reaped (not left as a zombie)
        assert!(
            !std::path::Path::new(&format!("/proc/{c}")).exists(),
            "child {c} is gone"
        );
    }
    assert!(took < Duration::from_secs(3), "stopped after {took:?}");
    // and the slots are free: a new computation is answered
    let mut ok = String::new();
    open_request(port, r#"["nim", "3", "5"]"#)
        .read_to_string(&mut ok)
        .unwrap();
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    let err = stop(child);
    assert!(err.contains("stopped"), "{err}");
}
