//! Catalogue rows as another program (or a damaged file) may have left them: listing never
//! panics, whatever the row holds.
#![no_main]
use grundy_runs::catalogue::{list, Catalogue, Query};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 40 {
        return;
    }
    let path = fuzz_support::scratch("c.sqlite");
    let _ = std::fs::remove_file(&path);
    drop(Catalogue::open(&path).unwrap());
    let int = |i: usize| i64::from_le_bytes(data[i..i + 8].try_into().unwrap());
    let text = String::from_utf8_lossy(&data[40..]).into_owned();
    let (code, engine) = text.split_once('|').unwrap_or((&text, "sparse"));
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute(
        "INSERT INTO runs (code, n, preperiod, period, certified, max_value, engine,
                           engine_version, seconds, until_period, certified_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        rusqlite::params![
            code,
            int(0),
            int(8),
            int(16),
            data[24] % 2,
            int(25) >> 8,
            engine,
            data[33],
            f64::from(data[34]),
            data[35] % 2,
            int(32),
        ],
    )
    .unwrap();
    drop(conn);
    for latest in [false, true] {
        let _ = list(&Query {
            pattern: None,
            engine: None,
            certified: None,
            min_n: None,
            latest,
            limit: None,
            db: Some(path.clone()),
        });
    }
    if let Ok(c) = Catalogue::open_read_only(&path) {
        let _ = c.all();
    }
});
