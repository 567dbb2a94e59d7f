//! One entry point for the front ends (the CLI's `grundy cram|chomp` and Python's
//! `grundy.cram|chomp`): a [`Question`] with the way to answer it — on one thread, on several
//! sharing one table ([`super::parallel`]), or with a table kept in a file
//! ([`super::persist`]) — checked once here, so that both front ends refuse the same input
//! with the same words.

use super::answer::{answer, Answer, Question};
use super::parallel::answer_parallel;
use super::persist::{answer_saved, SavedTable, Saving, TableKey};
use super::ProgressFn;
use crate::takebreak::checkpoint::Notice;
use crate::{Error, LabelledMoves};

/// The most threads any command runs (each pruned-search thread has a deep stack); the
/// sequence runs of `grundy-runs` use the same cap.
pub const MAX_THREADS: usize = 256;

/// How one pruned-search answer is run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOptions {
    /// What to compute, and the table's memory budget.
    pub question: Question,
    /// Threads sharing one table (0: one per core; 1: the single-threaded search).
    pub threads: usize,
    /// Keep the table in a file: loaded first, saved now and then and at the end (one thread
    /// only: a saved table is a single search's own).
    pub saving: Option<Saving>,
}

impl SearchOptions {
    /// The single-threaded search of `question`, without a file.
    pub fn new(question: Question) -> Self {
        SearchOptions {
            question,
            threads: 1,
            saving: None,
        }
    }

    /// The number of threads to run, after checking the options: at most [`MAX_THREADS`], and
    /// one with a saved table. 0 becomes the number of cores.
    pub fn thread_count(&self) -> Result<usize, Error> {
        if self.threads > MAX_THREADS {
            return Err(Error::Invalid(format!(
                "--threads {} is too many: at most {MAX_THREADS} (0 for one per core)",
                self.threads
            )));
        }
        if self.saving.is_some() && self.threads != 1 {
            return Err(Error::Invalid(format!(
                "--threads {} cannot be used with --checkpoint: a saved table is searched on \
                 one thread",
                self.threads
            )));
        }
        Ok(match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        })
    }
}

/// The answer to `options.question` about `position`, run as `options` say: with a saved
/// table ([`answer_saved`], whose notes and warnings go to `tell`), else on
/// [`thread_count`](SearchOptions::thread_count) threads ([`answer_parallel`], which is
/// [`answer`] on one). `progress` returning `false` stops the search with an "interrupted"
/// error (a saved table is saved first, and the error says so).
pub fn search<G>(
    game: G,
    position: &G::Position,
    options: &SearchOptions,
    progress: Option<ProgressFn>,
    tell: &dyn Fn(Notice),
) -> Result<Answer<G::Move>, Error>
where
    G: LabelledMoves + SavedTable + Clone + Send + Sync,
    G::Position: TableKey + Send + Sync + 'static,
    G::Move: Send + Sync,
{
    let threads = options.thread_count()?;
    let question = &within_available(
        options.question,
        crate::takebreak::budget::default_bytes(),
        tell,
    );
    match &options.saving {
        Some(saving) => answer_saved(game, position, question, progress, saving, tell),
        None if threads == 1 => answer(game, position, question, progress),
        None => answer_parallel(game, position, question, threads, progress),
    }
}

/// `question` with its memory budget at most `usable` bytes (the share of the available
/// memory a search allows itself, [`crate::takebreak::budget::default_bytes`]; `None` where
/// unknown): a larger budget is lowered to it, and `tell` hears it in one line. (A budget of
/// 1024G on a 23 GB machine used to abort on its first large allocation.)
pub fn within_available(
    mut question: Question,
    usable: Option<u64>,
    tell: &dyn Fn(Notice),
) -> Question {
    if let Some(usable) = usable {
        if question.memory as u64 > usable {
            tell(Notice::Warning(format!(
                "a memory budget of {} is more than this machine has available; the search \
                 keeps within {} (90% of the available memory)",
                mib(question.memory as u64),
                mib(usable)
            )));
            question.memory = usize::try_from(usable).unwrap_or(usize::MAX).max(1 << 12);
        }
    }
    question
}

/// `bytes` in MiB or GiB, for messages.
fn mib(bytes: u64) -> String {
    if bytes >= 10 << 30 {
        format!("{} GiB", bytes >> 30)
    } else {
        format!("{} MiB", bytes >> 20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chomp::Chomp;
    use crate::games::cram::Cram;
    use crate::solve::pruned::persist::tests::temp_dir;
    use crate::solve::pruned::ValueMethod;
    use std::time::Duration;

    fn question(method: ValueMethod) -> Question {
        Question {
            memory: 1 << 22,
            method,
            outcome_only: false,
            moves: true,
        }
    }

    fn saving(dir: &std::path::Path) -> Saving {
        Saving {
            path: dir.join("t.table"),
            every: Duration::from_secs(30),
        }
    }

    #[test]
    fn every_way_of_running_gives_the_single_threaded_answer() {
        let dir = temp_dir("run-every-way");
        let cram = Cram::new(4, 5).unwrap();
        let one = answer(cram, &cram.start(), &question(ValueMethod::Queries), None).unwrap();
        let notes = std::sync::Mutex::new(Vec::new());
        let tell = |n: Notice| notes.lock().unwrap().push(format!("{n:?}"));
        let mut runs = Vec::new();
        for (threads, saved) in [(1, false), (2, false), (0, false), (1, true), (1, true)] {
            let options = SearchOptions {
                threads,
                saving: saved.then(|| saving(&dir)),
                ..SearchOptions::new(question(ValueMethod::Queries))
            };
            let a = search(cram, &cram.start(), &options, None, &tell).unwrap();
            runs.push((a.grundy_value, a.outcome, a.winning_moves));
        }
        for r in &runs {
            assert_eq!(
                r,
                &(one.grundy_value, one.outcome, one.winning_moves.clone())
            );
        }
        // The second saved run resumed from the first one's file.
        let notes = notes.into_inner().unwrap();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("resuming from table"), "{notes:?}");
        let chomp = Chomp::rectangle(4, 5).unwrap();
        let options = SearchOptions {
            threads: 2,
            ..SearchOptions::new(question(ValueMethod::Mex))
        };
        let two = search(Chomp, &chomp, &options, None, &|_| {}).unwrap();
        let one = answer(Chomp, &chomp, &question(ValueMethod::Mex), None).unwrap();
        assert_eq!(
            (two.grundy_value, two.winning_moves),
            (one.grundy_value, one.winning_moves)
        );
    }

    /// Regression (issue 27): `chomp 12x40 --memory 1024G` aborted on a 23 GB machine.
    #[test]
    fn a_budget_beyond_the_available_memory_is_lowered_with_a_line() {
        let notes = std::sync::Mutex::new(Vec::new());
        let tell = |n: Notice| notes.lock().unwrap().push(n);
        let q = Question {
            memory: 1 << 40,
            ..Question::default()
        };
        let lowered = within_available(q, Some(20 << 30), &tell);
        assert_eq!(lowered.memory, 20 << 30);
        let kept = within_available(q, None, &tell);
        assert_eq!(kept.memory, 1 << 40);
        let small = Question::default();
        assert_eq!(within_available(small, Some(20 << 30), &tell), small);
        let notes = notes.into_inner().unwrap();
        assert!(
            matches!(notes.as_slice(), [Notice::Warning(w)] if w.contains("1024 GiB") && w.contains("within 20 GiB")),
            "{notes:?}"
        );
        // The real machine: a search with an impossible budget answers.
        let chomp = Chomp::rectangle(6, 7).unwrap();
        let options = SearchOptions::new(Question {
            memory: 1 << 40,
            method: ValueMethod::Mex,
            ..Question::default()
        });
        let a = search(Chomp, &chomp, &options, None, &|_| {}).unwrap();
        assert_eq!(a.outcome, crate::Outcome::N);
    }

    #[test]
    fn bad_thread_counts_are_refused_in_one_line() {
        let dir = temp_dir("run-refused");
        let cram = Cram::new(2, 2).unwrap();
        let refused = |threads, saved: bool| {
            let options = SearchOptions {
                threads,
                saving: saved.then(|| saving(&dir)),
                ..SearchOptions::new(question(ValueMethod::Queries))
            };
            search(cram, &cram.start(), &options, None, &|_| {})
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused(257, false),
            "--threads 257 is too many: at most 256 (0 for one per core)"
        );
        assert!(refused(2, true).contains("cannot be used with --checkpoint"));
        assert!(refused(0, true).contains("cannot be used with --checkpoint"));
        // Nothing was written.
        assert!(!dir.join("t.table").exists());
        assert!(SearchOptions::new(question(ValueMethod::Queries))
            .thread_count()
            .is_ok_and(|n| n == 1));
    }
}
