//! What a sequence run may ask for: the largest heap size each engine is given, the default
//! heap size, and the [`Plan`] that fits the run in the memory it may use.
//!
//! Both front ends ask the same questions with the same answers (and the same messages), so the
//! limits live here: a run refused by the CLI is refused by Python in the same words.

use crate::engine::Engine;
use crate::{Error, Result};
use grundy::takebreak::notation::Notation;
use grundy::takebreak::{budget, Finish, Plan, Rules};

/// Largest heap size of a sequence (2^53 - 1): n and the value counts stay exact JSON numbers.
pub const MAX_JSON_INT: u64 = (1 << 53) - 1;
/// Largest number of values the rare/common engine is asked to compute: G(0..=MAX_JSON_INT)
/// at most; memory (or disk, tiered) is the limit long before (see
/// [`grundy::takebreak::budget`]). Past 2^32 - 1 heaps the engine lists no new rare
/// position (it keeps them in 32 bits) and stops at the first one with an error, every value
/// before it computed.
pub const MAX_COMPUTED: u64 = MAX_JSON_INT + 1;
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

/// Memory the default limit of a run that stops at a certified period (`--until-period`,
/// `until_period=True`) may fill: 1 GiB, about 474 million values — enough for every record
/// period we know of (0.1777's certificate needs 443 million values), and a bound on what a
/// code without a period costs (a few minutes; progress is shown and Ctrl-C saves).
pub const UNTIL_PERIOD_BYTES: u64 = 1 << 30;
/// The default limit of the naive engine when the periodicity theorem applies: its time grows
/// like n^2, so 10^6 values take minutes.
pub const UNTIL_PERIOD_NAIVE: u64 = 1_000_000;

/// The default limit of a run that stops at a certified period, and why it is that.
///
/// With the rare/common engine it is memory: the values that fit in [`UNTIL_PERIOD_BYTES`],
/// or in the run's memory budget (`max_memory`, else 90% of the available memory) when that is
/// less. With the naive engine it is time ([`UNTIL_PERIOD_NAIVE`], or the engine's own limit
/// when moves leave three or more heaps).
pub fn until_period_default(
    engine: &Engine,
    rules: &Rules,
    max_memory: Option<u64>,
) -> (u64, String) {
    if engine.is_sparse() {
        let budget = max_memory.or_else(budget::default_bytes);
        let (bytes, whose) = match budget {
            Some(b) if b < UNTIL_PERIOD_BYTES => (
                b,
                if max_memory.is_some() {
                    "the memory --max-memory allows"
                } else {
                    "90% of the memory available now"
                },
            ),
            _ => (UNTIL_PERIOD_BYTES, "1 GiB"),
        };
        // (a budget that holds no value is refused by `plan`, with its reason)
        let n = (budget::values_within(bytes) as u64)
            .min(MAX_COMPUTED)
            .saturating_sub(1);
        (
            n,
            format!(
                "the default limit of a search for a period: the values that fit in {whose} \
                 ({} MB)",
                bytes >> 20
            ),
        )
    } else {
        let limit = engine_limit(engine, rules);
        let n = limit.min(UNTIL_PERIOD_NAIVE);
        let why = if rules.max_heaps_left() > 2 {
            "the naive engine's limit for rules whose moves leave three or more heaps (its time \
             grows faster than n^2)"
        } else {
            "the naive engine's default limit of a search for a period (its time grows like n^2)"
        };
        (n, format!("the default limit: {why}"))
    }
}

/// How a front end writes "compute further": the command (CLI) or call (Python) for a heap
/// size.
pub enum Front<'a> {
    /// `grundy takebreak CODE --until-period -n N` (`code` as the user wrote it).
    Cli { code: &'a str },
    /// `grundy.takebreak("CODE", n=N, until_period=True)`.
    Python { code: &'a str },
}

impl Front<'_> {
    fn command(&self, n: u64) -> String {
        match self {
            Front::Cli { code } => format!("grundy takebreak {code} --until-period -n {n}"),
            Front::Python { code } => {
                format!("grundy.takebreak({code:?}, n={n}, until_period=True)")
            }
        }
    }
}

/// Where a search for a period stopped without a certificate, and how to go on.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LimitReport {
    /// The heap size the search stopped at.
    pub n: u64,
    /// Whether that was a default (no `-n` / `n=` given).
    pub default: bool,
    /// Why the limit is there.
    pub reason: String,
    /// Whether a certificate is possible at all (the periodicity theorem applies).
    pub certifiable: bool,
    /// The next heap size to try (the best candidate's certificate, else ten times as far),
    /// when a certificate is possible.
    pub next_n: Option<u64>,
    /// The command (or call) that computes to `next_n`.
    pub next_command: Option<String>,
    /// Memory that run would need, in bytes (the budget's estimate).
    pub next_bytes: Option<u64>,
    /// Seconds that run would take at this run's rate.
    pub next_seconds: Option<f64>,
}

impl LimitReport {
    /// Why the search stopped where it did.
    pub fn why(&self) -> String {
        if self.default {
            self.reason.clone()
        } else {
            format!("the limit given ({})", self.reason)
        }
    }

    /// How to go further, or why no certificate can come.
    pub fn further(&self) -> String {
        if !self.certifiable {
            return "the periodicity theorem does not apply to these rules (or only to finite \
                    codes whose moves leave at most two heaps), so no certificate can end the \
                    search"
                .into();
        }
        match (&self.next_command, self.next_bytes) {
            (Some(cmd), Some(bytes)) => format!(
                "to go further: {cmd} (about {} of memory{})",
                bytes_words(bytes),
                match self.next_seconds {
                    Some(t) => format!(" and {} at this run's rate", seconds_words(t)),
                    None => String::new(),
                }
            ),
            _ => String::new(),
        }
    }

    /// Say it in one line.
    pub fn words(&self) -> String {
        format!(
            "no period certified up to n = {}: {}; {}",
            self.n,
            self.why(),
            self.further()
        )
    }
}

fn bytes_words(bytes: u64) -> String {
    if bytes >= 10 << 30 {
        format!("{} GB", bytes >> 30)
    } else if bytes >= 1 << 30 {
        format!("{:.1} GB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MB", (bytes >> 20).max(1))
    }
}

fn seconds_words(secs: f64) -> String {
    let s = secs.round().max(1.0) as u64;
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min", s.div_ceil(60))
    } else {
        format!("{:.1} h", s as f64 / 3600.0)
    }
}

/// The report of a search for a period that stopped at its limit without a certificate
/// (`None` when it certified one, or did not search). `seconds` is the run's time for
/// `computed` values; `given` whether the limit was the user's.
pub fn limit_report(
    rules: &Rules,
    computation: &grundy::takebreak::Computation,
    seconds: f64,
    given: bool,
    reason: &str,
    front: Front<'_>,
) -> Option<LimitReport> {
    if computation.period.is_some_and(|p| p.certified) {
        return None;
    }
    let n = computation.n() as u64;
    let certifiable = rules.periodicity_theorem_applies();
    let next_n = certifiable.then(|| {
        let by_candidate = computation
            .candidate
            .map(|c| c.certificate_at as u64)
            .filter(|&c| c > n);
        by_candidate
            .unwrap_or_else(|| n.saturating_mul(10).max(1000))
            .min(MAX_COMPUTED - 1)
    });
    let rate = computation.computed() as f64 / seconds.max(1e-6);
    Some(LimitReport {
        n,
        default: !given,
        reason: reason.to_owned(),
        certifiable,
        next_command: next_n.map(|k| front.command(k)),
        next_bytes: next_n.map(|k| budget::bytes_for(k as usize + 1)),
        next_seconds: next_n
            .filter(|_| computation.computed() > 1000 && seconds > 0.01)
            .map(|k| (k + 1) as f64 / rate),
        next_n,
    })
}

/// The heap size of a run: `n` if given, else 1000 (or, stopping at a certified period, the
/// limit: [`until_period_default`]'s, given here as `default_limit`), checked against the
/// engine's limit and JSON's.
pub fn heap_size(
    n: Option<u64>,
    until_period: bool,
    engine_limit: u64,
    default_limit: u64,
) -> Result<usize> {
    let n = n.unwrap_or(if until_period {
        engine_limit.min(default_limit)
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
    if let Some(b) = bytes.filter(|&b| budget::values_within(b) == 0) {
        return Err(Error::input(format!(
            "{} {}, not enough for any run: {} MB fixed (the engine's tables and the period \
             search) plus about 2 bytes per value",
            if request.max_memory.is_some() {
                "--max-memory allows"
            } else {
                "the memory available now (90%) is"
            },
            budget::size_words(b),
            budget::FIXED_BYTES >> 20
        )));
    }
    let mut max_values = bytes.map_or(usize::MAX, budget::values_within);
    // The rare/common engine keeps values in one byte where they allow (below 256, or
    // Officers-like with compact values): counted so for a run whose values stay in the engine
    // (not handed back or printed, where the front end may copy them to two bytes).
    let one_byte = sparse && !request.keep_all;
    let mut max_compact_values = match bytes {
        Some(b) if one_byte => budget::compact_values_within(b),
        _ => max_values,
    };
    if sparse {
        max_values = max_values.min(MAX_COMPUTED as usize);
        max_compact_values = max_compact_values.min(MAX_COMPUTED as usize);
    }
    let needs_all =
        finish == Finish::ComputeAll || request.keep_all || !rules.periodicity_theorem_applies();
    if needs_all && n >= max_compact_values {
        let why = match bytes {
            Some(b) if (max_compact_values as u64) < MAX_COMPUTED || !sparse => format!(
                "they need about {} MB{}, and {} MB {}",
                budget::bytes_for(n + 1) >> 20,
                if one_byte {
                    format!(
                        " ({} MB in one byte a value, where the values allow)",
                        budget::compact_bytes_for(n + 1) >> 20
                    )
                } else {
                    String::new()
                },
                b >> 20,
                if request.max_memory.is_some() {
                    "are allowed by --max-memory"
                } else {
                    "is 90% of the memory available now"
                }
            ),
            _ => format!("at most {MAX_COMPUTED} values are computed (heap sizes up to 2^53 - 1)"),
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
        max_compact_values,
    })
}

/// What a run told [`Plan::needs_one_byte`] hears at its start: its values fit the budget
/// only in one byte each, so the rare/common engine keeps them so where the game allows (values
/// below 256, or Officers-like, [`grundy::takebreak::RareCommon::set_compact_values`]), and the
/// run stops early (its checkpoint saved, when `saved`) if they need two bytes.
pub fn one_byte_note(plan: &Plan, saved: bool) -> String {
    format!(
        "G(0..={}) fits the memory budget (--max-memory, else 90% of the memory available at \
         the start) only in one byte a value (about {} MB; {} MB in two): the values are kept \
         in one byte where the game allows, as --compact-values does (about 1.1 times the \
         time); if they need two bytes, the run stops after at most G(0..={}){}",
        plan.n,
        budget::compact_bytes_for(plan.n.saturating_add(1)) >> 20,
        budget::bytes_for(plan.n.saturating_add(1)) >> 20,
        plan.max_values.saturating_sub(1),
        if saved { ", its checkpoint saved" } else { "" }
    )
}

/// What a run that may stop early by a certified period is told, once it has computed a good
/// part of what it may (see `run::run`), when its plan cannot reach `n`: how far it can go and
/// why, so that a long run does not surprise its user hours later (`None` when nothing stands
/// between the run and `n`). `value_bytes`: how many bytes each of its values takes at that
/// point (in one the budget holds more of them, [`Plan::limit`]).
pub fn budget_note(plan: &Plan, sparse: bool, value_bytes: usize) -> Option<String> {
    let wanted = plan.n as u128 + 1;
    let limit = plan.limit(value_bytes);
    if plan.finish == Finish::ComputeAll || limit as u128 >= wanted {
        return None;
    }
    let last = limit.saturating_sub(1);
    Some(if sparse && limit as u64 >= MAX_COMPUTED {
        format!(
            "at most {MAX_COMPUTED} values are computed (heap sizes up to 2^53 - 1): unless a \
             period is certified first, the run stops after G(0..={last})"
        )
    } else {
        format!(
            "G(0..={}) would need about {} MB, and the memory budget (--max-memory, else 90% of \
             the memory available at the start) holds {limit} values {}: unless a period is \
             certified first, the run stops after G(0..={last}) (--tiered DIR keeps the middle \
             of the values on disk)",
            plan.n,
            budget::bytes_in(plan.n.saturating_add(1), value_bytes) >> 20,
            if value_bytes == 1 {
                "in one byte each, as they are now"
            } else {
                "in two bytes each, as they are now"
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_sizes_default_and_refuse_as_documented() {
        assert_eq!(heap_size(None, false, u64::MAX, 7).unwrap(), 1000);
        assert_eq!(
            heap_size(None, true, u64::MAX, 1_000_000).unwrap(),
            1_000_000
        );
        assert_eq!(heap_size(None, true, 200_000, 1_000_000).unwrap(), 200_000);
        let e = heap_size(Some(2_000_001), false, MAX_N_NAIVE, 7).unwrap_err();
        assert!(e.to_string().contains("at most 2000000"), "{e}");
        let e = heap_size(Some(MAX_JSON_INT + 1), false, u64::MAX, 7).unwrap_err();
        assert!(e.to_string().contains("2^53 - 1"), "{e}");
    }

    #[test]
    fn plans_refuse_what_must_be_kept_and_does_not_fit() {
        let rules = Rules::parse("0.07").unwrap();
        let tiny = Request {
            max_memory: Some(1 << 20),
            ..Request::default()
        };
        // below the fixed allowance no run fits, whatever its end
        let e = plan(&tiny, &rules, 100, false).unwrap_err();
        assert!(e.to_string().contains("not enough for any run"), "{e}");
        // nor just past it, where not one value fits
        let edge = Request {
            max_memory: Some(budget::FIXED_BYTES + 1),
            ..Request::default()
        };
        assert!(plan(&edge, &rules, 100, false).is_err());
        let small = Request {
            max_memory: Some(65 << 20),
            ..Request::default()
        };
        // extended by the period: given the budget, not refused, and told where it stops
        let p = plan(&small, &rules, 10_000_000, true).unwrap();
        assert_eq!(p.finish, Finish::Extend);
        assert_eq!(p.max_values, budget::values_within(65 << 20));
        // what it can reach (its progress's length, its checkpoint's size) is the budget's, in
        // one byte a value for the rare/common engine (in two for the others)
        assert_eq!(
            p.max_compact_values,
            budget::compact_values_within(65 << 20)
        );
        assert_eq!(p.reach(), p.max_compact_values);
        assert_eq!(
            plan(&small, &rules, 10_000_000, false).unwrap().reach(),
            p.max_values
        );
        assert_eq!(plan(&small, &rules, 1000, true).unwrap().reach(), 1001);
        // told where it stops in the width its values are in
        let note = budget_note(&p, true, 2).unwrap();
        let last = format!("stops after G(0..={})", p.max_values - 1);
        assert!(
            note.contains(&last) && note.contains("--max-memory") && note.contains("two bytes"),
            "{note}"
        );
        let note = budget_note(&p, true, 1).unwrap();
        let last = format!("stops after G(0..={})", p.max_compact_values - 1);
        assert!(note.contains(&last) && note.contains("one byte"), "{note}");
        // between the two limits: nothing to say of values in one byte, the limit in two
        let between = plan(&small, &rules, 700_000, true).unwrap();
        assert!(budget_note(&between, true, 1).is_none());
        assert!(budget_note(&between, true, 2).is_some());
        // every value computed: admitted between the two limits (told it needs one byte a
        // value), refused past the one-byte limit, and past the two-byte one for other engines
        let all = Request {
            no_extend: true,
            ..small
        };
        let p = plan(&all, &rules, 700_000, true).unwrap();
        assert!(p.needs_one_byte() && !plan(&all, &rules, 400_000, true).unwrap().needs_one_byte());
        let note = one_byte_note(&p, true);
        assert!(
            note.contains(&format!("stops after at most G(0..={})", p.max_values - 1)),
            "{note}"
        );
        let e = plan(&all, &rules, 700_000, false).unwrap_err();
        assert!(e.to_string().contains("--max-memory"), "{e}");
        let e = plan(&all, &rules, 1_000_000, true).unwrap_err();
        assert!(e.to_string().contains("MB in one byte a value"), "{e}");
        // nothing to say when the budget reaches n, or for the engine's own limit when it is
        // the one that binds
        assert!(budget_note(&plan(&small, &rules, 1000, true).unwrap(), true, 2).is_none());
        let far = Plan {
            n: MAX_COMPUTED as usize,
            finish: Finish::Extend,
            max_values: MAX_COMPUTED as usize,
            max_compact_values: MAX_COMPUTED as usize,
        };
        let note = budget_note(&far, true, 1).unwrap();
        assert!(note.contains("at most 9007199254740992 values"), "{note}");
        // heap sizes past 2^32 are planned like any other (the engine no longer stops at
        // 2^32 - 2 values): memory is what limits them
        let roomy = Request {
            no_extend: true,
            max_memory: Some(32 << 30),
            ..Request::default()
        };
        let past = (1usize << 33) + 1;
        let p = plan(&roomy, &rules, past, true).unwrap();
        assert_eq!((p.reach(), p.needs_one_byte()), (past + 1, false));
        let e = plan(&roomy, &rules, 1 << 35, true).unwrap_err();
        assert!(e.to_string().contains("MB in one byte a value"), "{e}");
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
