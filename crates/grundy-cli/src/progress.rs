//! Progress of long work, shown the same way by every command: nothing for the first second;
//! then, on a terminal, one bar on stderr that never wraps (the details are cut to the
//! terminal's width) with a readable rate (`2.41 M values/s`); when stderr is not a terminal
//! (a log, a pipe), a plain line every [`PLAIN_EVERY`] seconds with where the work is, the rate
//! and the time left.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Seconds between two plain progress lines when stderr is not a terminal.
pub const PLAIN_EVERY: f64 = 30.0;
/// Environment variable that overrides [`PLAIN_EVERY`] (seconds).
pub const PLAIN_ENV: &str = "GRUNDY_PROGRESS_SECONDS";
/// Work shorter than this shows no progress at all.
pub const SHOW_AFTER: Duration = Duration::from_secs(1);

/// A rate for people: `2.41 M values/s`, `35.2 k positions/s`, `12 codes/s`. Values of a
/// sequence are always counted in millions (the unit the performance notes use).
pub fn rate_words(per_sec: f64, unit: &str) -> String {
    if unit == "values" || per_sec >= 1e5 {
        format!("{:.3} M {unit}/s", per_sec / 1e6)
    } else if per_sec >= 1e3 {
        format!("{:.1} k {unit}/s", per_sec / 1e3)
    } else {
        format!("{per_sec:.0} {unit}/s")
    }
}

/// A duration for people: `42 s`, `3 min 5 s`, `2 h 10 min`.
pub fn duration_words(secs: f64) -> String {
    if !secs.is_finite() {
        return "unknown".into();
    }
    let s = secs.round() as u64;
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min {} s", s / 60, s % 60)
    } else {
        format!("{} h {} min", s / 3600, (s % 3600) / 60)
    }
}

struct State {
    label: String,
    detail: String,
    len: u64,
    shown: bool,
    last_line: Instant,
    /// The count and the time elapsed at the first tick: a resumed run starts with the values
    /// it loaded, which were not computed in this process, after loading and checking them
    /// (26 s for 0.206 at 2^31); neither counts in its rate or its ETA.
    base: Option<(u64, Duration)>,
}

/// Progress of one piece of work (a sequence, a census, an exhaustive check). Safe to tick from
/// several threads.
pub struct Progress {
    bar: indicatif::ProgressBar,
    start: Instant,
    unit: &'static str,
    /// Seconds between plain lines; `None` on a terminal.
    plain: Option<f64>,
    /// No known amount of work (a search): a spinner and the details only.
    open_ended: bool,
    state: Mutex<State>,
}

impl Progress {
    /// Progress of `len` items counted in `unit` ("values", "positions", "codes"), labelled
    /// `label` (a code, a check's name). `len` may be set later ([`Progress::set_length`]).
    pub fn new(len: u64, label: &str, unit: &'static str) -> Self {
        Self::build(Some(len), label, unit)
    }

    /// Progress of work of unknown size (a game-tree search): a spinner, the time and the
    /// details ([`Progress::set_detail`]); [`Progress::tick`] with any number.
    pub fn open_ended(label: &str) -> Self {
        Self::build(None, label, "")
    }

    fn build(len: Option<u64>, label: &str, unit: &'static str) -> Self {
        let plain = (!std::io::stderr().is_terminal()).then(|| {
            std::env::var(PLAIN_ENV)
                .ok()
                .and_then(|t| t.trim().parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
                .unwrap_or(PLAIN_EVERY)
        });
        let bar =
            indicatif::ProgressBar::with_draw_target(len, indicatif::ProgressDrawTarget::hidden());
        let template = if len.is_some() {
            "{prefix} [{elapsed_precise}] {bar:24} {human_pos}/{human_len} {rate}, eta {eta} {wide_msg}"
        } else {
            "{spinner} {prefix} [{elapsed_precise}] {wide_msg}"
        };
        let style = indicatif::ProgressStyle::with_template(template)
            .expect("valid template")
            .with_key(
                "rate",
                move |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&rate_words(s.per_sec(), unit));
                },
            );
        bar.set_style(style);
        bar.set_prefix(label.to_owned());
        let start = Instant::now();
        Progress {
            bar,
            start,
            unit,
            plain,
            open_ended: len.is_none(),
            state: Mutex::new(State {
                label: label.to_owned(),
                detail: String::new(),
                len: len.unwrap_or(0),
                shown: false,
                last_line: start,
                base: None,
            }),
        }
    }

    /// The amount of work, once known.
    pub fn set_length(&self, len: u64) {
        if let Ok(mut s) = self.state.lock() {
            s.len = len;
        }
        self.bar.set_length(len);
    }

    /// A new label (the next check of several) and its length; the count starts again.
    pub fn relabel(&self, label: &str, len: u64) {
        if let Ok(mut s) = self.state.lock() {
            if s.label == label {
                return;
            }
            label.clone_into(&mut s.label);
            s.len = len;
        }
        self.bar.set_prefix(label.to_owned());
        self.bar.set_length(len);
        self.bar.set_position(0);
        self.bar.reset_eta();
    }

    /// Words shown after the bar (cut to the terminal's width) and at the end of a plain line.
    pub fn set_detail(&self, detail: String) {
        if self.plain.is_none() {
            self.bar.set_message(detail.clone());
        }
        if let Ok(mut s) = self.state.lock() {
            s.detail = detail;
        }
    }

    /// `done` items of the work are done.
    pub fn tick(&self, done: u64) {
        let elapsed = self.start.elapsed();
        let Ok(mut s) = self.state.lock() else {
            return;
        };
        let first = s.base.is_none();
        let base = *s.base.get_or_insert((done, elapsed));
        if first && !self.open_ended {
            // The loaded part is where the bar starts, not work done in this process.
            self.bar.set_position(done);
            self.bar.reset_eta();
        }
        if let Some(every) = self.plain {
            if s.last_line.elapsed().as_secs_f64() >= every.max(1e-3)
                && elapsed >= SHOW_AFTER.min(Duration::from_secs_f64(every))
            {
                s.last_line = Instant::now();
                let line = if self.open_ended {
                    format!(
                        "grundy: {}: {:.0} s; {}",
                        s.label,
                        elapsed.as_secs_f64(),
                        s.detail
                    )
                } else {
                    plain_line(&s, self.unit, done, base, elapsed)
                };
                eprintln!("{line}");
            }
            return;
        }
        if !s.shown && elapsed >= SHOW_AFTER {
            s.shown = true;
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.bar.reset_eta();
        }
        drop(s);
        if self.open_ended {
            self.bar.tick();
        } else {
            self.bar.set_position(done);
        }
    }

    /// Print something on stderr without tearing the bar.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// The work is over: the bar goes away (a plain log keeps its lines).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// One log line: `grundy: LABEL: DONE of LEN UNIT (P%), S s, RATE, eta T; DETAIL`.
/// The rate and the ETA count only what was done since the first tick (`base`: the count
/// then and the time elapsed then).
fn plain_line(
    s: &State,
    unit: &str,
    done: u64,
    base: (u64, Duration),
    elapsed: Duration,
) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let since = elapsed.saturating_sub(base.1).as_secs_f64().max(1e-9);
    let rate = done.saturating_sub(base.0) as f64 / since;
    // nothing computed since the first tick (a line printed at that tick: a resumed run's
    // first line, right after the load, or any run's with GRUNDY_PROGRESS_SECONDS=0): no rate
    // to show, rather than a rate of zero
    let (rate, eta) = if done <= base.0 {
        ("rate not measured yet".to_owned(), "unknown".to_owned())
    } else {
        let eta = duration_words(s.len.saturating_sub(done) as f64 / rate);
        (rate_words(rate, unit), eta)
    };
    let position = if unit == "values" {
        format!("G(0..{done}) of {}", s.len)
    } else {
        format!("{done} of {} {unit}", s.len)
    };
    let mut line = format!(
        "grundy: {}: {position} ({:.1}%), {:.0} s, {}, eta {eta}",
        s.label,
        100.0 * done as f64 / s.len.max(1) as f64,
        secs,
        rate,
    );
    if !s.detail.is_empty() {
        line.push_str("; ");
        line.push_str(&s.detail);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_durations_read_well() {
        assert_eq!(rate_words(4_176_986.487_7, "values"), "4.177 M values/s");
        assert_eq!(rate_words(35_200.0, "positions"), "35.2 k positions/s");
        assert_eq!(rate_words(12.4, "codes"), "12 codes/s");
        assert_eq!(duration_words(42.2), "42 s");
        assert_eq!(duration_words(185.0), "3 min 5 s");
        assert_eq!(duration_words(7800.0), "2 h 10 min");
    }

    #[test]
    fn a_resumed_run_counts_only_what_it_computed_in_its_rate_and_eta() {
        let s = State {
            label: "0.146".into(),
            detail: String::new(),
            len: 2_000_000,
            shown: false,
            last_line: Instant::now(),
            base: None,
        };
        // 1,000,000 values loaded, 100,000 computed in 10 s: 10,000 values/s, 900,000 to go
        // (without the base: 110,000 values/s and 8 s to go).
        let line_at = |done: u64, base: (u64, u64), secs: u64| {
            let base = (base.0, Duration::from_secs(base.1));
            plain_line(&s, "values", done, base, Duration::from_secs(secs))
        };
        let line = line_at(1_100_000, (1_000_000, 0), 10);
        assert!(line.contains("0.010 M values/s"), "{line}");
        assert!(line.contains("eta 1 min 30 s"), "{line}");
        // The same after 30 s of loading: the rate counts from the first tick, the time shown
        // from the start (it was 2,500 values/s and an ETA of 6 min).
        let line = line_at(1_100_000, (1_000_000, 30), 40);
        assert!(line.contains("0.010 M values/s"), "{line}");
        let shown = line.contains("eta 1 min 30 s") && line.contains(", 40 s,");
        assert!(shown, "{line}");
        // The first line of a resumed run, at the tick that set the base: nothing computed yet.
        let line = line_at(1_000_000, (1_000_000, 30), 30);
        let shown =
            line.contains("rate not measured yet, eta unknown") && !line.contains("M values/s");
        assert!(shown, "{line}");
        // A fresh run: everything counts.
        let line = line_at(100_000, (0, 0), 10);
        assert!(line.contains("0.010 M values/s"), "{line}");
        assert!(line.contains("eta 3 min 10 s"), "{line}");
    }
}
