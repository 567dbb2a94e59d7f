//! # grundy-runs
//!
//! Long take-and-break runs of the [`grundy`] library, shared by its front ends (the `grundy`
//! command line and the Python package): which engine computes a sequence ([`engine`]), what a
//! run may ask for within the memory it has ([`sequence`]), resumable runs that save
//! checkpoints and can be stopped without losing work ([`run`]), the SQLite results catalogue
//! every run is recorded in ([`catalogue`]), and censuses of every code matching a pattern
//! ([`census`]).
//!
//! Why a crate of its own: this is the part of the work with files, locks and a database
//! (SQLite is bundled and compiled in), while `grundy` stays pure mathematics with no
//! filesystem policy. The checkpoint file format and its rules (atomic saves, the lock, never
//! shrinking) are the library's ([`grundy::takebreak::checkpoint`]); this crate decides where
//! the files go and when they are written.
//!
//! Front ends only render: nothing here prints. What a run has to tell the user (a note, a
//! warning, "resuming from ...") goes through a [`Message`] callback, and an error is an
//! [`Error`] whose text is the one line the CLI prints after `grundy: ` (and the Python
//! package raises as `ValueError`).

pub mod catalogue;
pub mod catalogue_table;
pub mod census;
pub mod census_lock;
pub mod census_order;
pub mod census_task;
pub mod engine;
pub mod misere_census;
pub mod multiplayer;
pub mod power_table;
pub mod run;
pub mod sequence;

pub use catalogue::{Catalogue, RunRecord};
pub use engine::{Engine, EngineChoice};

use grundy::takebreak::checkpoint::{CheckpointError, Notice};

/// Why a run did not give its result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Bad input, or a request that cannot be met (the CLI's exit status 2).
    #[error("{0}")]
    Input(String),
    /// Stopped on request (Ctrl-C, SIGTERM, a Python `KeyboardInterrupt`); the message says
    /// what was saved and how to resume (the CLI's exit status 130).
    #[error("{0}")]
    Interrupted(String),
}

impl Error {
    /// Bad input.
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input(message.into())
    }
}

impl From<grundy::Error> for Error {
    fn from(e: grundy::Error) -> Self {
        Error::Input(e.to_string())
    }
}

impl From<CheckpointError> for Error {
    fn from(e: CheckpointError) -> Self {
        Error::Input(e.to_string())
    }
}

/// Shorthand for results of this crate.
pub type Result<T = (), E = Error> = std::result::Result<T, E>;

/// Something a run has to tell the user while it goes on; the front end shows it (the CLI as
/// `grundy: ...`, `grundy: note: ...`, `grundy: warning: ...` on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// What the run is doing (e.g. resuming from a checkpoint).
    Info(String),
    /// For information (e.g. where the catalogue or the checkpoints are kept).
    Note(String),
    /// Something did not work, and the run goes on without it (e.g. a record not written).
    Warning(String),
}

impl From<Notice> for Message {
    fn from(n: Notice) -> Self {
        match n {
            Notice::Note(m) => Message::Note(m),
            Notice::Warning(m) => Message::Warning(m),
        }
    }
}

/// Where a front end receives [`Message`]s.
pub type Tell<'a> = &'a (dyn Fn(Message) + Sync);
