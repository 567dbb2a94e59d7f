//! The web page's HTTP/1.1 server (`grundy-web`'s `http` module) fed raw bytes over a real
//! loopback connection, its answers checked, and the API's body reader (`parse_call`) on every
//! body the server hands over: never a panic, never a hang, every answer a well-formed response.
//!
//! One server runs for the whole process; each input is one connection: the bytes are sent,
//! the sending side is closed (so the server never waits for more), and everything the server
//! answers is read until it closes. Pipelined requests, keep-alive, `Expect: 100-continue`,
//! oversized and malformed heads, bad `Content-Length`s and chunked bodies all come from the
//! fuzzer's bytes.
#![no_main]
use grundy_web::http::{self, Handler, Peer, Request, Response};
use libfuzzer_sys::fuzz_target;
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Bodies above this are refused with 413 (small, so the fuzzer reaches the refusal).
const MAX_BODY: usize = 1 << 12;

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        // A closed connection must be an error to write to, not a signal that ends the process.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
        let (listener, addr) = http::listen("127.0.0.1:0".parse().unwrap()).expect("listen");
        let handler: Arc<Handler> = Arc::new(|request: &Request, peer: &Peer| {
            assert!(request.body.len() <= MAX_BODY);
            let status = match grundy_web::parse_call(&request.body) {
                Ok(call) => {
                    assert_eq!(call.args.last().map(String::as_str), Some("--json"));
                    200
                }
                Err((status, message)) => {
                    assert!((400..500).contains(&status) && !message.contains('\n'));
                    status
                }
            };
            let _ = peer.gone();
            let text = format!("{} {} {}", request.method, request.path(), request.body.len());
            Some(Response::new(status, "text/plain", text))
        });
        let too_large = Response::new(413, "text/plain", "too large");
        let stop = Arc::new(AtomicBool::new(false));
        std::thread::spawn(move || http::serve(listener, stop, MAX_BODY, too_large, handler));
        addr
    })
}

fuzz_target!(|data: &[u8]| {
    let mut stream = TcpStream::connect(server()).expect("connect to the fuzzed server");
    stream.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    // The server may answer and close before it has read everything: a failed write is fine.
    let _ = stream.write_all(data);
    let _ = stream.shutdown(Shutdown::Write);
    let mut answer = Vec::new();
    match stream.read_to_end(&mut answer) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Err(e) => panic!("reading the answer: {e}"),
    }
    // Every answer is a run of responses, each a status line `HTTP/1.1 DDD ...` with a body of
    // the length it declares (interim `100 Continue` answers have none).
    let mut rest = &answer[..];
    while !rest.is_empty() {
        let end = rest
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("an answer's head ends with a blank line");
        let head = std::str::from_utf8(&rest[..end]).expect("answer heads are text");
        let status = head
            .strip_prefix("HTTP/1.1 ")
            .and_then(|s| s.get(..3))
            .and_then(|s| s.parse::<u16>().ok())
            .unwrap_or_else(|| panic!("bad status line in {head:?}"));
        assert!((100..600).contains(&status), "{head:?}");
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .map_or(0, |n| n.parse::<usize>().expect("Content-Length is a number"));
        assert!(status != 100 || length == 0);
        rest = &rest[end + 4..];
        assert!(rest.len() >= length, "a body shorter than its Content-Length in {head:?}");
        rest = &rest[length..];
    }
});
