//! A small HTTP/1.1 server on the standard library's sockets.
//!
//! Why not an HTTP library: a computation must be stopped when the browser that asked for it
//! goes away, and for that the handler must be able to look at the request's connection while
//! it waits (an HTTP library that hands over only the request cannot say that the client left).
//! Here every connection has its own thread, and a handler is given a [`Peer`] whose
//! [`Peer::gone`] says, without blocking, whether the client has closed the connection.
//!
//! What it speaks: `Content-Length` bodies (a chunked body is refused with 411), keep-alive
//! (HTTP/1.1's default; `Connection: close` and HTTP/1.0 close after the answer),
//! `Expect: 100-continue`, pipelined requests. Every wait is bounded: a request head must
//! arrive within [`HEAD_TIME`] and be at most [`MAX_HEAD`] bytes, a body within [`BODY_TIME`],
//! an idle connection is closed after [`IDLE`], at most [`MAX_CONNECTIONS`] connections are
//! served at once (more are answered 503 and closed).

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The most bytes of a request's head (request line and headers).
pub const MAX_HEAD: usize = 16 << 10;
/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 512;
/// How long an idle keep-alive connection is kept.
pub const IDLE: Duration = Duration::from_secs(15);
/// How long a client may take to send a request's head once it has started.
pub const HEAD_TIME: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's body.
pub const BODY_TIME: Duration = Duration::from_secs(30);
/// How often a waiting connection looks at the stop flag.
const TICK: Duration = Duration::from_millis(200);
/// A refused body up to this size is read and dropped (so that the client, still sending it,
/// reads our answer instead of a reset connection); a larger one is not.
const DRAIN: usize = 64 << 20;

/// A request.
#[derive(Debug)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The request target as sent (`/api/cli`, `/?x=1`).
    pub target: String,
    /// Header names as sent, values trimmed.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The first header called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The target without its query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
}

/// A response; `Content-Length` and `Connection` are added when it is sent.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Response {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into(),
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    fn bytes(&self, keep_alive: bool) -> Vec<u8> {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (k, v) in &self.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: {}\r\n\r\n",
            self.body.len(),
            if keep_alive { "keep-alive" } else { "close" }
        ));
        let mut out = head.into_bytes();
        out.extend_from_slice(&self.body);
        out
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Unknown",
    }
}

/// The client of the request being handled.
pub struct Peer<'a> {
    stream: &'a TcpStream,
}

impl Peer<'_> {
    /// Whether the client has closed its connection (or it broke). Does not block and does not
    /// consume anything the client sent (a pipelined next request stays for later).
    pub fn gone(&self) -> bool {
        if self.stream.set_nonblocking(true).is_err() {
            return true;
        }
        let mut byte = [0u8; 1];
        let seen = self.stream.peek(&mut byte);
        let _ = self.stream.set_nonblocking(false);
        match seen {
            Ok(0) => true,
            Ok(_) => false,
            Err(e) => e.kind() != ErrorKind::WouldBlock && e.kind() != ErrorKind::Interrupted,
        }
    }
}

/// What answers a request: a response, or `None` to close the connection without one (the
/// client has gone).
pub type Handler = dyn Fn(&Request, &Peer) -> Option<Response> + Send + Sync;

/// Accept connections on `listener` until `stop` is set (looked at a few times a second);
/// then wait for the connections in progress to finish their current request and return.
/// `max_body` bounds request bodies (larger ones are answered 413 with `too_large`'s body).
pub fn serve(
    listener: TcpListener,
    stop: Arc<AtomicBool>,
    max_body: usize,
    too_large: Response,
    handler: Arc<Handler>,
) {
    let open = Arc::new(AtomicUsize::new(0));
    let _ = listener.set_nonblocking(true);
    while !stop.load(Ordering::SeqCst) {
        if !wait_readable(&listener) {
            continue;
        }
        let stream = match listener.accept() {
            Ok((s, _)) => s,
            Err(_) => continue,
        };
        let _ = stream.set_nonblocking(false);
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            let busy = Response::new(
                503,
                "application/json; charset=utf-8",
                r#"{"error":"the server has too many connections; try again in a moment"}"#,
            );
            refuse(stream, &busy);
            continue;
        }
        let (stop, open_here, handler, too_large) = (
            Arc::clone(&stop),
            Arc::clone(&open),
            Arc::clone(&handler),
            too_large.clone(),
        );
        let spawned = std::thread::Builder::new()
            .stack_size(512 << 10)
            .spawn(move || {
                connection(stream, &stop, max_body, &too_large, &*handler);
                open_here.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            // the thread did not start (the connection is closed): take its count back
            open.fetch_sub(1, Ordering::SeqCst);
        }
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while open.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Wait up to [`TICK`] for a connection to accept.
#[cfg(unix)]
fn wait_readable(listener: &TcpListener) -> bool {
    use std::os::unix::io::AsRawFd;
    let mut fd = libc::pollfd {
        fd: listener.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the duration of the call.
    let n = unsafe { libc::poll(&mut fd, 1, TICK.as_millis() as libc::c_int) };
    n > 0
}

#[cfg(not(unix))]
fn wait_readable(_listener: &TcpListener) -> bool {
    std::thread::sleep(Duration::from_millis(5));
    true
}

/// How reading a request's head ended without one.
enum NoHead {
    /// The client closed, the connection broke, it stayed idle, or the server is stopping.
    Closed,
    /// An answer to send before closing (head too large, too slow).
    Refuse(Response),
}

fn error(status: u16, message: &str) -> Response {
    Response::new(
        status,
        "application/json; charset=utf-8",
        serde_json::json!({ "error": message }).to_string(),
    )
}

fn connection(
    mut stream: TcpStream,
    stop: &AtomicBool,
    max_body: usize,
    too_large: &Response,
    handler: &Handler,
) {
    let _ = stream.set_read_timeout(Some(TICK));
    let mut buf: Vec<u8> = Vec::new();
    loop {
        let end = match read_head(&mut stream, &mut buf, stop) {
            Ok(end) => end,
            Err(NoHead::Closed) => return,
            Err(NoHead::Refuse(r)) => return refuse(stream, &r),
        };
        let head = String::from_utf8_lossy(&buf[..end]).into_owned();
        buf.drain(..end + 4);
        let (mut request, http10) = match parse_head(&head) {
            Ok(r) => r,
            Err(r) => return refuse(stream, &r),
        };
        let connection_header = request.header("Connection").unwrap_or("").to_owned();
        let mut keep_alive = if http10 {
            connection_header.eq_ignore_ascii_case("keep-alive")
        } else {
            !connection_header.eq_ignore_ascii_case("close")
        };
        if request.header("Transfer-Encoding").is_some() {
            let r = error(
                411,
                "send the body with a Content-Length (no chunked bodies)",
            );
            return refuse(stream, &r);
        }
        let length = match request.header("Content-Length").map(str::parse::<usize>) {
            None => 0,
            Some(Ok(n)) => n,
            Some(Err(_)) => {
                let r = error(400, "the Content-Length header is not a number");
                return refuse(stream, &r);
            }
        };
        if length > max_body {
            // (refuse reads and drops what the client is still sending)
            return refuse(stream, too_large);
        }
        if length > buf.len()
            && request
                .header("Expect")
                .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
        {
            let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        match read_body(&mut stream, &mut buf, length, stop) {
            Some(body) => request.body = body,
            None => return,
        }
        let response = {
            let peer = Peer { stream: &stream };
            match handler(&request, &peer) {
                Some(r) => r,
                None => return,
            }
        };
        if stop.load(Ordering::SeqCst) {
            keep_alive = false;
        }
        if stream.write_all(&response.bytes(keep_alive)).is_err() || !keep_alive {
            return;
        }
    }
}

/// Answer `response` and close: the sending side first, then what the client still sends is
/// read and dropped for a moment, so that it reads the answer rather than a reset connection.
fn refuse(mut stream: TcpStream, response: &Response) {
    if stream.write_all(&response.bytes(false)).is_err() {
        return;
    }
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
    let until = Instant::now() + Duration::from_secs(1);
    let mut sink = [0u8; 16 << 10];
    let mut left = DRAIN;
    while Instant::now() < until && left > 0 {
        match stream.read(&mut sink) {
            Ok(0) => return,
            Ok(n) => left = left.saturating_sub(n),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return,
        }
    }
}

/// Read until `buf` holds a whole head; its length (without the blank line).
fn read_head(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    stop: &AtomicBool,
) -> Result<usize, NoHead> {
    let idle_since = Instant::now();
    let mut started: Option<Instant> = None;
    let mut chunk = [0u8; 4096];
    loop {
        // blank lines before a request are allowed (RFC 9112, 2.2)
        let blank = buf
            .iter()
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        buf.drain(..blank);
        let end = buf.windows(4).position(|w| w == b"\r\n\r\n");
        if end.unwrap_or(buf.len()) > MAX_HEAD {
            return Err(NoHead::Refuse(error(
                431,
                &format!("the request head is over {} KiB", MAX_HEAD >> 10),
            )));
        }
        if let Some(end) = end {
            return Ok(end);
        }
        if !buf.is_empty() && started.is_none() {
            started = Some(Instant::now());
        }
        if stop.load(Ordering::SeqCst) {
            return Err(NoHead::Closed);
        }
        match stream.read(&mut chunk) {
            Ok(0) => return Err(NoHead::Closed),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                match started {
                    Some(t) if t.elapsed() > HEAD_TIME => {
                        return Err(NoHead::Refuse(error(408, "the request came too slowly")))
                    }
                    None if idle_since.elapsed() > IDLE => return Err(NoHead::Closed),
                    _ => {}
                }
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return Err(NoHead::Closed),
        }
    }
}

/// Parse a head; the request (without its body) and whether it is HTTP/1.0.
fn parse_head(head: &str) -> Result<(Request, bool), Response> {
    let mut lines = head.split("\r\n");
    let line = lines.next().unwrap_or("");
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(error(400, "a request line is METHOD TARGET HTTP/1.1"));
    };
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => return Err(error(505, "only HTTP/1.0 and HTTP/1.1 are spoken here")),
    };
    let mut headers = Vec::new();
    for l in lines {
        let Some((k, v)) = l.split_once(':') else {
            return Err(error(400, "a header line is NAME: VALUE"));
        };
        if k.is_empty() || k.contains([' ', '\t']) {
            return Err(error(400, "a header line is NAME: VALUE"));
        }
        headers.push((k.to_owned(), v.trim().to_owned()));
    }
    Ok((
        Request {
            method: method.to_owned(),
            target: target.to_owned(),
            headers,
            body: Vec::new(),
        },
        http10,
    ))
}

/// Take `length` bytes of body from `buf` and the stream (what follows stays in `buf`).
fn read_body(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    length: usize,
    stop: &AtomicBool,
) -> Option<Vec<u8>> {
    let deadline = Instant::now() + BODY_TIME;
    let mut chunk = [0u8; 16 << 10];
    while buf.len() < length {
        if stop.load(Ordering::SeqCst) || Instant::now() > deadline {
            return None;
        }
        match stream.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) => {}
            Err(_) => return None,
        }
    }
    let rest = buf.split_off(length);
    Some(std::mem::replace(buf, rest))
}

/// Bind a listener; its address.
pub fn listen(addr: SocketAddr) -> std::io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind(addr)?;
    let addr = listener.local_addr()?;
    Ok((listener, addr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_parsed_and_bad_ones_refused() {
        let (r, old) =
            parse_head("POST /api/cli?x HTTP/1.1\r\nHost: 127.0.0.1:8\r\nContent-Length: 3")
                .unwrap();
        assert!(!old);
        assert_eq!((r.method.as_str(), r.path()), ("POST", "/api/cli"));
        assert_eq!(r.header("host"), Some("127.0.0.1:8"));
        assert!(parse_head("GET / HTTP/1.0").unwrap().1);
        assert_eq!(parse_head("GET /").unwrap_err().status, 400);
        assert_eq!(parse_head("GET / HTTP/2").unwrap_err().status, 505);
        assert_eq!(
            parse_head("GET / HTTP/1.1\r\nno colon").unwrap_err().status,
            400
        );
    }

    /// A server on a free port answering with the request's body; it stops when dropped.
    struct Echo {
        addr: SocketAddr,
        stop: Arc<AtomicBool>,
        thread: Option<std::thread::JoinHandle<()>>,
    }

    impl Echo {
        fn start(handler: Arc<Handler>) -> Echo {
            let (listener, addr) = listen("127.0.0.1:0".parse().unwrap()).unwrap();
            let stop = Arc::new(AtomicBool::new(false));
            let s = Arc::clone(&stop);
            let too_large = error(413, "too large");
            let thread = std::thread::spawn(move || serve(listener, s, 1000, too_large, handler));
            Echo {
                addr,
                stop,
                thread: Some(thread),
            }
        }
    }

    impl Drop for Echo {
        fn drop(&mut self) {
            self.stop.store(true, Ordering::SeqCst);
            if let Some(t) = self.thread.take() {
                let _ = t.join();
            }
        }
    }

    fn exchange(addr: SocketAddr, bytes: &[u8]) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(bytes).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn keep_alive_pipelining_and_bounds() {
        let echo = Echo::start(Arc::new(|r: &Request, _: &Peer| {
            Some(Response::new(200, "text/plain", r.body.clone()))
        }));
        // two pipelined requests on one connection, the second closes it
        let out = exchange(
            echo.addr,
            b"POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcPOST / HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nxy",
        );
        assert_eq!(out.matches("HTTP/1.1 200 OK").count(), 2, "{out}");
        assert!(
            out.contains("keep-alive\r\n\r\nabc") && out.ends_with("close\r\n\r\nxy"),
            "{out}"
        );
        // a body over the limit is refused (after it is read), so is a chunked one
        let big = format!(
            "POST / HTTP/1.1\r\nContent-Length: 2000\r\n\r\n{}",
            "z".repeat(2000)
        );
        assert!(exchange(echo.addr, big.as_bytes()).starts_with("HTTP/1.1 413"));
        let chunked = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n";
        assert!(exchange(echo.addr, chunked).starts_with("HTTP/1.1 411"));
        let huge_head = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "h".repeat(MAX_HEAD));
        assert!(exchange(echo.addr, huge_head.as_bytes()).starts_with("HTTP/1.1 431"));
    }

    #[test]
    fn a_handler_sees_its_client_leave() {
        let (tx, rx) = std::sync::mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        let echo = Echo::start(Arc::new(move |_: &Request, peer: &Peer| {
            let began = Instant::now();
            let present_at_first = !peer.gone();
            while !peer.gone() && began.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = tx.lock().unwrap().send((present_at_first, peer.gone()));
            None
        }));
        let mut s = TcpStream::connect(echo.addr).unwrap();
        s.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
        std::thread::sleep(Duration::from_millis(100));
        drop(s);
        let (present_at_first, gone) = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(present_at_first, "the client was there while it waited");
        assert!(gone, "the handler saw the client leave");
    }
}
