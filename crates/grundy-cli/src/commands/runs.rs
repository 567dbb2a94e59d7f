//! Long sequence runs, shared by `takebreak` and `census`: which engine, checkpoints (resume
//! after a kill, save on Ctrl-C and SIGTERM), a progress bar that appears once a run lasts a
//! second, and the record in the results catalogue.
//!
//! Nothing is lost: the checkpoint rules (lock, never shrink, degrade to a warning) are
//! [`checkpoint::Store`]'s, and a run whose record cannot be written still prints its results.

use crate::catalogue::RunRecord;
use crate::common::{CliError, CliResult};
use grundy::takebreak::auto::{self, AutoEngine};
use grundy::takebreak::checkpoint::{self, Control, Identity, Notice, Outcome, Store};
use grundy::takebreak::sparse::{self, RareCommon};
use grundy::takebreak::{Computation, Finish, Naive, PeriodDetector, Plan, Rules, SequenceEngine};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Default time between two checkpoints.
pub const DEFAULT_CHECKPOINT_EVERY: f64 = 60.0;

/// Which engine computes a sequence.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EngineChoice {
    /// For octal codes whichever of the two measures faster (re-checked as n doubles), the
    /// naive engine otherwise
    #[default]
    Auto,
    /// The rare/common ("sparse space") engine: octal codes only
    Sparse,
    /// Every option of every heap: any rules
    Naive,
}

/// Options of long runs (flattened into `takebreak`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RunOptions {
    /// Engine: auto (for octal codes the faster of sparse and naive, measured during the run;
    /// naive otherwise), sparse or naive
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,
    /// Save progress to FILE every --checkpoint-every seconds (and on Ctrl-C or SIGTERM), and
    /// resume from it when it exists; its directory must exist [default: a file per code and
    /// engine under the user data directory, removed when the run completes]
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Neither save nor resume a checkpoint
    #[arg(long, conflicts_with = "checkpoint")]
    pub no_checkpoint: bool,
    /// Seconds between two checkpoints [default: 60]
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    pub checkpoint_every: Option<String>,
    /// Results catalogue (SQLite) to record the run in [default: $GRUNDY_DB, else
    /// <user data dir>/grundy/catalogue.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Do not record the run in the catalogue
    #[arg(long, conflicts_with = "db")]
    pub no_record: bool,
}

/// An engine chosen for some rules.
pub enum Engine {
    Auto(Box<AutoEngine>),
    Sparse(Box<RareCommon>),
    Naive(Box<Naive>),
}

impl Engine {
    /// Whether `choice` gives the rare/common engine for `rules`, and an error if it cannot
    /// run them (without building the engine).
    pub fn check(choice: EngineChoice, rules: &Rules) -> CliResult<bool> {
        let octal = rules.periodicity_theorem_applies();
        match choice {
            EngineChoice::Auto => Ok(octal),
            EngineChoice::Naive => Ok(false),
            EngineChoice::Sparse if octal => Ok(true),
            EngineChoice::Sparse => Err(CliError::input(format!(
                "the rare/common engine handles octal codes only (every digit below 8); \
                 {rules} is not one: use --engine naive"
            ))),
        }
    }

    /// Choose the engine for `rules`.
    pub fn choose(choice: EngineChoice, rules: &Rules) -> CliResult<Engine> {
        let octal = rules.periodicity_theorem_applies();
        Ok(match choice {
            EngineChoice::Auto if octal => Engine::Auto(Box::new(AutoEngine::for_rules(rules)?)),
            EngineChoice::Sparse => Engine::Sparse(Box::new(RareCommon::for_rules(rules)?)),
            EngineChoice::Auto | EngineChoice::Naive => {
                Engine::Naive(Box::new(Naive::new(rules.clone())))
            }
        })
    }

    pub fn as_dyn(&mut self) -> &mut dyn SequenceEngine {
        match self {
            Engine::Auto(e) => e.as_mut(),
            Engine::Sparse(e) => e.as_mut(),
            Engine::Naive(e) => e.as_mut(),
        }
    }

    /// The engine that computed the values (for `auto`: the one it chose last).
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Auto(e) => e.current().name(),
            Engine::Sparse(_) => sparse::ENGINE_NAME,
            Engine::Naive(_) => "naive",
        }
    }

    /// The name in checkpoints: `auto` resumes as `auto`, whichever engine it chose.
    pub fn checkpoint_name(&self) -> &'static str {
        match self {
            Engine::Auto(_) => auto::ENGINE_NAME,
            _ => self.name(),
        }
    }

    /// What `auto` chose, when it switched engine during the run.
    pub fn choices(&self) -> Option<String> {
        match self {
            Engine::Auto(e) if e.switches().len() > 1 => Some(e.describe()),
            _ => None,
        }
    }

    pub fn version(&self) -> u32 {
        match self {
            Engine::Auto(_) => auto::ENGINE_VERSION,
            Engine::Sparse(_) => sparse::ENGINE_VERSION,
            Engine::Naive(_) => 1,
        }
    }

    /// The version of the engine that computed (see [`Engine::name`]).
    pub fn computed_version(&self) -> u32 {
        match self {
            Engine::Auto(e) if e.current() == auto::Which::Naive => 1,
            Engine::Auto(_) => sparse::ENGINE_VERSION,
            _ => self.version(),
        }
    }

    /// Whether the run has the rare/common engine's limits (it may compute with it).
    pub fn is_sparse(&self) -> bool {
        matches!(self, Engine::Sparse(_) | Engine::Auto(_))
    }

    /// (rare values, rare positions) for the catalogue, when the engine knows them.
    pub fn rare(&self) -> (Option<u64>, Option<u64>) {
        match self {
            Engine::Sparse(e) => (Some(e.rare_values() as u64), Some(e.rare_positions())),
            Engine::Auto(e) if e.current() == auto::Which::Sparse => (
                Some(e.sparse().rare_values() as u64),
                Some(e.sparse().rare_positions()),
            ),
            Engine::Auto(_) => (None, None),
            Engine::Naive(_) => (None, None),
        }
    }
}

/// The catalogue record of a finished computation.
pub fn record_of(
    rules: &Rules,
    c: &Computation,
    engine: &Engine,
    seconds: f64,
    finish: Finish,
) -> RunRecord {
    let (rare_values, rare_positions) = engine.rare();
    RunRecord {
        id: 0,
        code: rules.to_string(),
        n: c.n() as u64,
        preperiod: c.period.map(|p| p.preperiod as u64),
        period: c.period.map(|p| p.period as u64),
        certified: c.period.is_some_and(|p| p.certified),
        max_value: c.max_value as u64,
        rare_values,
        rare_positions,
        engine: engine.name().to_string(),
        engine_version: engine.computed_version(),
        seconds,
        until_period: finish == Finish::AtCertificate,
        recorded_at: String::new(),
    }
}

/// Set by the Ctrl-C / SIGTERM handler.
static STOP: AtomicBool = AtomicBool::new(false);

fn install_stop_handler() {
    // Ctrl-C, SIGTERM and SIGHUP (the crate's "termination" feature). Only one handler per
    // process; a second call fails harmlessly.
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::SeqCst));
}

/// Print what the checkpoint store has to say.
fn tell(notices: Vec<Notice>) {
    for notice in notices {
        match notice {
            Notice::Note(m) => eprintln!("grundy: note: {m}"),
            Notice::Warning(m) => eprintln!("grundy: warning: {m}"),
        }
    }
}

/// The default checkpoint of a code and engine.
fn default_checkpoint(rules: &Rules, engine: &Engine) -> Option<PathBuf> {
    let code: String = rules
        .to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-[]".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    dirs::data_dir().map(|d| {
        d.join("grundy")
            .join("checkpoints")
            .join(format!("{code}.{}.ckpt", engine.checkpoint_name()))
    })
}

fn parse_seconds(text: &str) -> CliResult<Duration> {
    let s: f64 = text.trim().parse().map_err(|_| {
        CliError::input(format!(
            "--checkpoint-every '{text}' is not a number of seconds"
        ))
    })?;
    if !(s > 0.0 && s <= 1e9) {
        return Err(CliError::input(format!(
            "--checkpoint-every {text} is out of range: give a positive number of seconds"
        )));
    }
    Ok(Duration::from_secs_f64(s))
}

/// Seconds between two plain progress lines when stderr is not a terminal (a log).
pub const PLAIN_PROGRESS_EVERY: f64 = 30.0;
/// Environment variable that overrides [`PLAIN_PROGRESS_EVERY`] (seconds).
pub const PLAIN_PROGRESS_ENV: &str = "GRUNDY_PROGRESS_SECONDS";

/// Progress on stderr once the run has lasted a second: a bar on a terminal, else (a log) a
/// plain line every [`PLAIN_PROGRESS_EVERY`] seconds with n, rate and ETA. Both carry the
/// period search: the best candidate and where its certificate would complete.
struct LateBar {
    bar: indicatif::ProgressBar,
    start: Instant,
    len: u64,
    label: String,
    shown: std::cell::Cell<bool>,
    /// Seconds between plain lines (`None` on a terminal).
    plain: Option<f64>,
    last_line: std::cell::Cell<Instant>,
    search: std::cell::RefCell<String>,
}

impl LateBar {
    fn new(len: u64, what: &str, label: &str) -> Self {
        let bar = crate::common::progress_bar(len, what);
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        let plain = (!std::io::stderr().is_terminal()).then(|| {
            std::env::var(PLAIN_PROGRESS_ENV)
                .ok()
                .and_then(|t| t.trim().parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
                .unwrap_or(PLAIN_PROGRESS_EVERY)
        });
        let start = Instant::now();
        LateBar {
            bar,
            start,
            len,
            label: label.to_string(),
            shown: std::cell::Cell::new(false),
            plain,
            last_line: std::cell::Cell::new(start),
            search: std::cell::RefCell::new(String::new()),
        }
    }

    fn tick(&self, done: u64) {
        let elapsed = self.start.elapsed();
        if let Some(every) = self.plain {
            if self.last_line.get().elapsed().as_secs_f64() >= every.max(1e-3)
                && elapsed >= Duration::from_secs(1).min(Duration::from_secs_f64(every))
            {
                self.last_line.set(Instant::now());
                eprintln!("{}", self.plain_line(done, elapsed));
            }
            return;
        }
        if !self.shown.get() && elapsed >= Duration::from_secs(1) {
            self.shown.set(true);
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.bar.reset_eta();
        }
        self.bar.set_position(done);
    }

    /// One log line: where the run is, how fast, when it ends, the period search.
    fn plain_line(&self, done: u64, elapsed: Duration) -> String {
        let secs = elapsed.as_secs_f64().max(1e-9);
        let rate = done as f64 / secs;
        let eta = if rate > 0.0 {
            format!("{:.0} s", (self.len.saturating_sub(done)) as f64 / rate)
        } else {
            "unknown".into()
        };
        let mut line = format!(
            "grundy: {}: G(0..{done}) of {} ({:.1}%), {:.0} s, {:.3} M values/s, eta {eta}",
            self.label,
            self.len,
            100.0 * done as f64 / self.len.max(1) as f64,
            secs,
            rate / 1e6
        );
        let search = self.search.borrow();
        if !search.is_empty() {
            line.push_str("; ");
            line.push_str(&search);
        }
        line
    }

    /// Show the period search's state (`done` values seen).
    fn search(&self, detector: &PeriodDetector) {
        let text = search_words(detector);
        if self.plain.is_none() {
            self.bar.set_message(format!("G(n) {text}"));
        }
        *self.search.borrow_mut() = text;
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The period search in a few words: the best candidate and how far its certificate has got.
pub fn search_words(detector: &PeriodDetector) -> String {
    match detector.candidate() {
        None => "period search: no candidate".into(),
        Some(c) => format!(
            "period search: candidate period {} from {}, certificate at n = {} ({:.1}% there)",
            c.period,
            c.preperiod,
            c.certificate_at,
            100.0 * detector.len() as f64 / (c.certificate_at + 1) as f64
        ),
    }
}

/// A finished run.
pub struct Finished {
    pub computation: Computation,
    pub engine: Engine,
}

/// Compute G(0..=n) (or until a certified period) with the options of a long run: resume from
/// the checkpoint if there is one, save it now and then and on Ctrl-C, show progress, and
/// record the result in the catalogue.
pub fn run_long(
    rules: &Rules,
    plan: Plan,
    options: &RunOptions,
    mut engine: Engine,
) -> CliResult<Finished> {
    let n = plan.n;
    let every = match &options.checkpoint_every {
        Some(text) => parse_seconds(text)?,
        None => Duration::from_secs_f64(DEFAULT_CHECKPOINT_EVERY),
    };
    let identity = Identity {
        code: rules.to_string(),
        engine: engine.checkpoint_name().to_string(),
        engine_version: engine.version(),
    };
    let mut store = if options.no_checkpoint {
        None
    } else if let Some(p) = &options.checkpoint {
        Some(Store::chosen(p, identity).map_err(|e| CliError::input(e.to_string()))?)
    } else {
        default_checkpoint(rules, &engine).map(|p| Store::default_place(&p, identity))
    };
    let mut values = Vec::new();
    if let Some(store) = &mut store {
        let (saved, notices) = store
            .resume(n.saturating_add(1))
            .map_err(|e| CliError::input(e.to_string()))?;
        tell(notices);
        if !saved.is_empty() {
            eprintln!(
                "grundy: resuming from checkpoint '{}' (G(0..{}) already computed)",
                store.path().display(),
                saved.len() - 1
            );
        }
        values = saved;
        install_stop_handler();
    }
    // Open the catalogue before the work (a bad --db fails before a long run, not after), and
    // after the checks of the checkpoint (a refused run creates no catalogue).
    let catalogue = crate::catalogue::open_for_recording(options.no_record, options.db.as_deref())?;
    let mut save = |v: &[u16]| -> Result<(), grundy::Error> {
        if let Some(store) = &mut store {
            tell(store.save(v));
        }
        Ok(())
    };
    let bar = LateBar::new(n as u64 + 1, "G(n)", &rules.to_string());
    let tick = |k: usize| bar.tick(k as u64);
    let search = |d: &PeriodDetector| bar.search(d);
    let start = Instant::now();
    let outcome = checkpoint::run(
        rules,
        values,
        plan,
        engine.as_dyn(),
        Control {
            every,
            save: &mut save,
            stop: &STOP,
            progress: Some(&tick),
            search: Some(&search),
        },
    );
    bar.finish();
    let seconds = start.elapsed().as_secs_f64();
    let computation = match outcome? {
        Outcome::Interrupted(done) => {
            let message = match &store {
                Some(s) if s.on_file() >= done => format!(
                    "interrupted: G(0..{}) saved to '{}'; run the same command again to resume",
                    done - 1,
                    s.path().display()
                ),
                _ => "interrupted (nothing saved)".into(),
            };
            return Err(CliError { message, code: 130 });
        }
        Outcome::OverBudget(done) => {
            return Err(CliError::input(format!(
                "no period certified among the first {done} values, and G(0..={n}) needs more \
                 memory than allowed ({} values, about {} MB; see --max-memory){}",
                n as u128 + 1,
                grundy::takebreak::budget::bytes_for(n.saturating_add(1)) >> 20,
                match &store {
                    Some(s) if done > 0 && s.on_file() >= done =>
                        format!("; they are saved to '{}'", s.path().display()),
                    _ => String::new(),
                }
            )))
        }
        Outcome::Finished(c) => c,
    };
    if let Some(store) = &mut store {
        tell(store.finish(&computation.values));
    }
    if let Some(choices) = engine.choices() {
        eprintln!("grundy: note: engine auto: {choices}");
    }
    if let Some(cat) = &catalogue {
        cat.record_or_warn(&record_of(
            rules,
            &computation,
            &engine,
            seconds,
            plan.finish,
        ));
    }
    Ok(Finished {
        computation,
        engine,
    })
}
