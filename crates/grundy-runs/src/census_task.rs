//! One code of a census: the unit of work a census hands to a thread, a process or a Dask
//! worker. It is the library's resumable [`run`](crate::run::run) — the same engines, the same
//! certificates, the same checkpoints as `grundy takebreak CODE --until-period` — and it
//! records nothing: the census's caller writes every result (one writer, wherever the work
//! ran).
//!
//! A task is plain data (code, n, engine, where the checkpoints go) and its result is a
//! catalogue record, so that a front end can ship both between machines (the Python package
//! pickles them as dicts).

use crate::catalogue::{record_of, RunRecord};
use crate::engine::{Engine, EngineChoice};
use crate::run::{self, checkpoint_file_name, default_checkpoint, CheckpointPlace, Hooks};
use crate::sequence::engine_limit;
use crate::{Error, Message, Result, Tell};
use grundy::takebreak::checkpoint;
use grundy::takebreak::{Finish, Plan, Rules};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Where the tasks of a census keep their checkpoints.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CheckpointDir {
    /// The default place of single runs (`<user data dir>/grundy/checkpoints/`).
    #[default]
    Default,
    /// This directory (it must exist): workers that share it resume each other's codes.
    At(PathBuf),
    /// Neither save nor resume.
    Off,
}

/// One code to compute.
#[derive(Debug, Clone)]
pub struct CodeTask {
    /// The code (any spelling the parser takes; results carry the canonical one).
    pub code: String,
    /// Compute up to this heap size...
    pub n: u64,
    /// ... or stop at the first certified period.
    pub until_period: bool,
    pub engine: EngineChoice,
    pub checkpoint: CheckpointDir,
    /// Time between two checkpoints.
    pub every: Duration,
}

/// What one task gives back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeResult {
    /// The record the caller writes into the catalogue (`id` 0: not recorded yet).
    pub record: RunRecord,
    /// Values found in a checkpoint at the start (0 when the code started from scratch).
    pub resumed_from: u64,
}

/// The largest heap size the engine chosen by `choice` is given on `rules` (the naive engine's
/// time grows like n²), without building the engine.
pub fn limit_of(choice: EngineChoice, rules: &Rules) -> Result<u64> {
    let sparse = Engine::check(choice, rules)?;
    Ok(if sparse {
        u64::MAX
    } else if rules.max_heaps_left() <= 2 {
        crate::sequence::MAX_N_NAIVE
    } else {
        crate::sequence::MAX_N_NAIVE_MANY_HEAPS
    })
}

/// Compute one code as `task` says. `stop` interrupts it (after saving its checkpoint):
/// the result is then [`Error::Interrupted`].
pub fn compute_code(task: &CodeTask, stop: &AtomicBool, tell: Tell<'_>) -> Result<CodeResult> {
    let rules = Rules::parse(&task.code)?;
    let engine = Engine::choose(task.engine, &rules)?;
    let limit = engine_limit(&engine, &rules);
    if task.n > limit {
        return Err(Error::input(format!(
            "heap size {} is too large for the naive engine (needed for {rules}): at most \
             {limit}",
            task.n
        )));
    }
    let n = usize::try_from(task.n)
        .map_err(|_| Error::input(format!("heap size {} is too large here", task.n)))?;
    let finish = if task.until_period {
        Finish::AtCertificate
    } else {
        Finish::ComputeAll
    };
    let (place, file) = match &task.checkpoint {
        CheckpointDir::Default => (
            CheckpointPlace::Default,
            default_checkpoint(&rules, &engine),
        ),
        CheckpointDir::At(dir) => {
            if !dir.is_dir() {
                return Err(Error::input(format!(
                    "checkpoint directory '{}' does not exist",
                    dir.display()
                )));
            }
            (
                CheckpointPlace::DefaultIn(dir.clone()),
                Some(dir.join(checkpoint_file_name(&rules, &engine))),
            )
        }
        CheckpointDir::Off => (CheckpointPlace::Off, None),
    };
    // how far a checkpoint had got (the run itself checks and loads it)
    let resumed_from = file
        .and_then(|f| checkpoint::load(&f, 0).ok().flatten())
        .map_or(0, |c| c.count.min(n + 1) as u64);
    let options = run::RunOptions {
        checkpoint: place,
        every: task.every,
        no_record: true,
        db: None,
        results: None,
        tiered: None,
        // a census records every code itself, as one writer (docs/census.md)
        record_after: None,
    };
    // which engines `auto` chose is the record's business, not a line per code of a census
    let quiet = |m: Message| {
        if !matches!(&m, Message::Note(text) if text.starts_with("engine auto:")) {
            tell(m)
        }
    };
    let start = Instant::now();
    let finished = run::run(
        &rules,
        Plan::new(n, finish),
        &options,
        engine,
        Hooks {
            tell: &quiet,
            stop,
            checkpointing: None,
            progress: None,
            search: None,
            standing: None,
        },
    )?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(CodeResult {
        record: record_of(
            &rules,
            &finished.computation,
            &finished.engine,
            seconds,
            finish,
        ),
        resumed_from,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::takebreak::{compute, Naive};
    use std::sync::atomic::Ordering;

    fn task(code: &str, n: u64, checkpoint: CheckpointDir) -> CodeTask {
        CodeTask {
            code: code.into(),
            n,
            until_period: true,
            engine: EngineChoice::Auto,
            checkpoint,
            every: Duration::from_secs(60),
        }
    }

    #[test]
    fn a_task_is_the_single_run_of_its_code() {
        let stop = AtomicBool::new(false);
        for code in ["0.07", "0.137", "4.7", "0.6"] {
            let r = compute_code(&task(code, 3000, CheckpointDir::Off), &stop, &|_| {}).unwrap();
            let rules = Rules::parse(code).unwrap();
            let one = compute(
                &rules,
                3000,
                Finish::AtCertificate,
                &mut Naive::new(rules.clone()),
                None,
            )
            .unwrap();
            assert_eq!(r.record.code, rules.to_string());
            assert_eq!(r.record.n, one.n() as u64, "{code}");
            assert_eq!(r.record.period, one.period.map(|p| p.period as u64));
            assert_eq!(r.record.max_value, one.max_value as u64);
            assert_eq!(r.resumed_from, 0);
        }
    }

    #[test]
    fn an_interrupted_task_resumes_from_its_checkpoint_in_a_shared_directory() {
        let dir = tempfile::tempdir().unwrap();
        let at = CheckpointDir::At(dir.path().to_path_buf());
        // stopped at once: it saves what it has and says so
        let stop = AtomicBool::new(true);
        let e = compute_code(&task("0.6", 20_000, at.clone()), &stop, &|_| {}).unwrap_err();
        assert!(matches!(e, Error::Interrupted(_)), "{e:?}");
        let saved: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|f| f.ends_with(".ckpt"))
            .collect();
        assert_eq!(saved, ["0.6.auto.ckpt"]);
        stop.store(false, Ordering::SeqCst);
        let resumed = compute_code(&task("0.6", 20_000, at.clone()), &stop, &|_| {}).unwrap();
        assert!(resumed.resumed_from > 0);
        let fresh = compute_code(&task("0.6", 20_000, CheckpointDir::Off), &stop, &|_| {}).unwrap();
        assert_eq!(
            (
                resumed.record.n,
                resumed.record.max_value,
                resumed.record.period
            ),
            (fresh.record.n, fresh.record.max_value, fresh.record.period)
        );
        // a completed code leaves no checkpoint behind
        assert!(!dir.path().join("0.6.auto.ckpt").exists());
        let e = compute_code(
            &task("0.6", 10, CheckpointDir::At(dir.path().join("none"))),
            &stop,
            &|_| {},
        )
        .unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
    }
}
