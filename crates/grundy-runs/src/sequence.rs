//! What a sequence run may ask for: the largest heap size each engine is given, the default
//! heap size, and the [`Plan`] that fits the run in the memory it may use.
//!
//! Both front ends ask the same questions with the same answers (and the same messages), so the
//! limits live here: a run refused by the CLI is refused by Python in the same words.

use crate::engine::Engine;
use crate::{Error, Result};
use grundy::takebreak::notation::Notation;
use grundy::takebreak::{budget, Finish, Plan, Rules};

/// Largest number of values the rare/common engine computes (it stores positions in 32 bits);
/// beyond it a sequence goes on only by its certified period. Below it, memory is the limit
/// (see [`grundy::takebreak::budget`]).
pub const MAX_COMPUTED: u64 = u32::MAX as u64 - 1;
/// Largest heap size of a sequence (2^53 - 1): n and the value counts stay exact JSON numbers.
pub const MAX_JSON_INT: u64 = (1 << 53) - 1;
/// Largest heap size the naive engine is asked for when moves leave at most two heaps: its
/// time grows like n² (10^5 takes about a second).
pub const MAX_N_NAIVE: u64 = 2_000_000;
/// The same when moves may leave three or more heaps: the nim-sum tables grow with n too.
pub const MAX_N_NAIVE_MANY_HEAPS: u64 = 200_000;

/// What computes a code's sequence.
pub enum CodeRules {
    /// Rules the octal and naive engines run (finite codes, Grundy's game), with checkpoints,
    /// periods certified by the periodicity theorem, and the catalogue.
    Engines(Rules),
    /// A form only the general engine runs (`0.[3]`, `{2+}.0`, `4?.0`, ...): bounded runs of a
    /// few seconds, without checkpoints or a certified period
    /// ([`grundy::takebreak::general`]).
    General(Notation),
}

/// Parse a code in CGSuite's notation (or a named game) and say what computes it.
pub fn parse_code(code: &str) -> Result<CodeRules> {
    let notation = Notation::parse(code)?;
    Ok(match notation.to_rules() {
        Ok(rules) => CodeRules::Engines(rules),
        Err(_) => CodeRules::General(notation),
    })
}

/// The refusal of an option the general engine does not have (`what` names it).
pub fn general_refusal(notation: &Notation, what: &str) -> Error {
    Error::input(format!(
        "code '{notation}' is run by the general engine, which does not support {what}"
    ))
}

/// The largest heap size `engine` is asked for on `rules`.
pub fn engine_limit(engine: &Engine, rules: &Rules) -> u64 {
    if engine.is_sparse() {
        u64::MAX
    } else if rules.max_heaps_left() <= 2 {
        MAX_N_NAIVE
    } else {
        MAX_N_NAIVE_MANY_HEAPS
    }
}

/// The heap size of a run: `n` if given, else 1000 (or, stopping at a certified period, the
/// limit: 10^6 or the engine's own), checked against the engine's limit and JSON's.
pub fn heap_size(n: Option<u64>, until_period: bool, engine_limit: u64) -> Result<usize> {
    let n = n.unwrap_or(if until_period {
        engine_limit.min(1_000_000)
    } else {
        1000
    });
    if n > engine_limit {
        return Err(Error::input(format!(
            "heap size {n} is too large for the naive engine on these rules (its time grows \
             like n^2): at most {engine_limit}"
        )));
    }
    if n > MAX_JSON_INT {
        return Err(Error::input(format!(
            "heap size {n} is too large: at most {MAX_JSON_INT} (2^53 - 1, so that n and the \
             counts stay exact JSON numbers)"
        )));
    }
    usize::try_from(n)
        .map_err(|_| Error::input(format!("heap size {n} is too large for this machine")))
}

/// How a sequence run ends and what it must keep.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request {
    /// Stop at the first certified period.
    pub until_period: bool,
    /// Compute every value with the engine, even past a certified period.
    pub no_extend: bool,
    /// Every value must be held (they are printed or handed back).
    pub keep_all: bool,
    /// Memory the sequence may use, in bytes (`None`: 90% of the memory available now).
    pub max_memory: Option<u64>,
}

/// The plan of a sequence run: how it ends, and how many values it may compute — what memory
/// allows (`max_memory`, else 90% of the available memory), checked here before the run.
/// A run that must hold every value (`no_extend`, `keep_all`, rules without the periodicity
/// theorem) is refused at once when they do not fit; a run that may end early by a certified
/// period is given the budget and stops (saving its checkpoint) if it runs out first.
pub fn plan(request: &Request, rules: &Rules, n: usize, sparse: bool) -> Result<Plan> {
    let finish = if request.until_period {
        Finish::AtCertificate
    } else if request.no_extend {
        Finish::ComputeAll
    } else {
        Finish::Extend
    };
    let bytes = request.max_memory.or_else(budget::default_bytes);
    let mut max_values = bytes.map_or(usize::MAX, budget::values_within);
    if sparse {
        max_values = max_values.min(MAX_COMPUTED as usize);
    }
    let needs_all =
        finish == Finish::ComputeAll || request.keep_all || !rules.periodicity_theorem_applies();
    if needs_all && n >= max_values {
        let why = match bytes {
            Some(b) if (max_values as u64) < MAX_COMPUTED || !sparse => format!(
                "they need about {} MB, and {} MB {}",
                budget::bytes_for(n + 1) >> 20,
                b >> 20,
                if request.max_memory.is_some() {
                    "are allowed by --max-memory"
                } else {
                    "is 90% of the memory available now"
                }
            ),
            _ => format!("the rare/common engine computes at most {MAX_COMPUTED} values"),
        };
        return Err(Error::input(format!(
            "heap size {n} is too large: all {} values must be computed and kept, and {why}",
            n as u128 + 1
        )));
    }
    Ok(Plan {
        n,
        finish,
        max_values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_sizes_default_and_refuse_as_documented() {
        assert_eq!(heap_size(None, false, u64::MAX).unwrap(), 1000);
        assert_eq!(heap_size(None, true, u64::MAX).unwrap(), 1_000_000);
        assert_eq!(heap_size(None, true, 200_000).unwrap(), 200_000);
        let e = heap_size(Some(2_000_001), false, MAX_N_NAIVE).unwrap_err();
        assert!(e.to_string().contains("at most 2000000"), "{e}");
        let e = heap_size(Some(MAX_JSON_INT + 1), false, u64::MAX).unwrap_err();
        assert!(e.to_string().contains("2^53 - 1"), "{e}");
    }

    #[test]
    fn plans_refuse_what_must_be_kept_and_does_not_fit() {
        let rules = Rules::parse("0.07").unwrap();
        let small = Request {
            max_memory: Some(1 << 20),
            ..Request::default()
        };
        // extended by the period: given the budget, not refused
        let p = plan(&small, &rules, 10_000_000, true).unwrap();
        assert_eq!(p.finish, Finish::Extend);
        assert_eq!(p.max_values, budget::values_within(1 << 20));
        // every value kept: refused at once
        let keep = Request {
            keep_all: true,
            ..small
        };
        let e = plan(&keep, &rules, 10_000_000, true).unwrap_err();
        assert!(e.to_string().contains("--max-memory"), "{e}");
        let until = Request {
            until_period: true,
            ..Request::default()
        };
        assert_eq!(
            plan(&until, &rules, 100, false).unwrap().finish,
            Finish::AtCertificate
        );
    }
}
