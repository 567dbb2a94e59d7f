//! Which engine computes a sequence: the user's choice ([`EngineChoice`]) and the engine built
//! for some rules ([`Engine`]), with what the catalogue and the checkpoints record of it.

use crate::{Error, Result};
use grundy::takebreak::auto::{self, AutoEngine};
use grundy::takebreak::sparse::{self, RareCommon};
use grundy::takebreak::{Naive, Rules, SequenceEngine};

/// The most threads a sequence run may be given (`--threads`, Python's `threads=`): the
/// pruned search's cap, so that every command has the same one (they were 1024 and 256).
pub const MAX_THREADS: usize = grundy::solve::pruned::run::MAX_THREADS;

/// Which engine computes a sequence.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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

impl EngineChoice {
    /// The choice named `name` (`auto`, `sparse`, `naive`).
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "auto" => Ok(EngineChoice::Auto),
            "sparse" => Ok(EngineChoice::Sparse),
            "naive" => Ok(EngineChoice::Naive),
            other => Err(Error::input(format!(
                "engine '{other}' is not one of auto, sparse, naive"
            ))),
        }
    }
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
    pub fn check(choice: EngineChoice, rules: &Rules) -> Result<bool> {
        let octal = rules.periodicity_theorem_applies();
        match choice {
            EngineChoice::Auto => Ok(octal),
            EngineChoice::Naive => Ok(false),
            EngineChoice::Sparse if octal => Ok(true),
            EngineChoice::Sparse => Err(Error::input(format!(
                "the rare/common engine handles octal codes only (every digit below 8); \
                 {rules} is not one: use --engine naive"
            ))),
        }
    }

    /// Choose the engine for `rules`.
    pub fn choose(choice: EngineChoice, rules: &Rules) -> Result<Engine> {
        let octal = rules.periodicity_theorem_applies();
        Ok(match choice {
            EngineChoice::Auto if octal => Engine::Auto(Box::new(AutoEngine::for_rules(rules)?)),
            EngineChoice::Sparse => Engine::Sparse(Box::new(RareCommon::for_rules(rules)?)),
            EngineChoice::Auto | EngineChoice::Naive => {
                Engine::Naive(Box::new(Naive::new(rules.clone())))
            }
        })
    }

    /// Refuse a thread count above [`MAX_THREADS`] in one line (`flag` names the option as the
    /// front end spells it: `--threads` or `threads`).
    pub fn check_threads(threads: usize, flag: &str) -> Result<()> {
        if threads > MAX_THREADS {
            return Err(Error::input(format!(
                "{flag} {threads} is too many: at most {MAX_THREADS} (0 for one per core)"
            )));
        }
        Ok(())
    }

    /// Let the engine use `threads` threads (0: one per core). Only the rare/common engine
    /// uses more than one, and only in its sparse mode (either path):
    /// its pipeline of one lead and `threads - 1` verifying threads
    /// ([`RareCommon::set_threads`]). The values do not depend on it.
    pub fn set_threads(&mut self, threads: usize) {
        match self {
            Engine::Auto(e) => e.set_threads(threads),
            Engine::Sparse(e) => e.set_threads(threads),
            Engine::Naive(_) => {}
        }
    }

    /// Let the rare/common engine keep Officers-like values in one byte each
    /// ([`RareCommon::set_compact_values`]); the other engines keep theirs as before.
    pub fn set_compact_values(&mut self, on: bool) {
        match self {
            Engine::Auto(e) => e.set_compact_values(on),
            Engine::Sparse(e) => e.set_compact_values(on),
            Engine::Naive(_) => {}
        }
    }

    /// Whether [`Self::set_compact_values`] is on (never for the naive engine).
    pub fn compact_values(&self) -> bool {
        match self {
            Engine::Auto(e) => e.compact_values(),
            Engine::Sparse(e) => e.compact_values(),
            Engine::Naive(_) => false,
        }
    }

    /// The threads that computed values: the engine's threads when the rare/common engine's
    /// pipeline computed some, else 1.
    pub fn threads_used(&self) -> usize {
        let (pipelined, threads) = match self {
            Engine::Auto(e) => (e.sparse().stats().pipelined, e.sparse().threads()),
            Engine::Sparse(e) => (e.stats().pipelined, e.threads()),
            Engine::Naive(_) => (0, 1),
        };
        if pipelined > 0 {
            threads
        } else {
            1
        }
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
