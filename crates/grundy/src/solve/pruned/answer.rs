//! One labelled position answered the way every front end asks (the CLI's `grundy cram` and
//! `grundy chomp`, the Python package's `grundy.cram` and `grundy.chomp`): the full value
//! (unless only the outcome is wanted), the outcome, the winning moves as the game labels them
//! (unless skipped) and what the search cost — all by the pruned search of this module's
//! parent (Beling & Rogalski, "On pruning search trees of impartial games", Artificial
//! Intelligence 283, 2020).

use super::{ProgressFn, PrunedSolver, Stats, ValueMethod};
use crate::{Error, LabelledMoves, Nimber, Outcome};
use serde::Serialize;

/// The message of a search stopped by its progress callback.
pub const INTERRUPTED: &str = "interrupted: the search was stopped before it finished";

/// What to ask about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Question {
    /// Memory budget of the transposition table in bytes (see
    /// [`crate::text::parse_memory`] for the `512M` form people type).
    pub memory: usize,
    /// How full values are computed.
    pub method: ValueMethod,
    /// Only decide the outcome, not the full value.
    pub outcome_only: bool,
    /// List the winning moves (each costs a query).
    pub moves: bool,
}

impl Default for Question {
    fn default() -> Self {
        Question {
            memory: super::DEFAULT_MEMORY,
            method: ValueMethod::default(),
            outcome_only: false,
            moves: true,
        }
    }
}

/// The answer and what it cost; serialised with the keys of the CLI's `--json` reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Answer<M> {
    /// `None` when only the outcome was asked for.
    pub grundy_value: Option<Nimber>,
    pub outcome: Outcome,
    /// `None` when the moves were not asked for; empty for a P-position.
    pub winning_moves: Option<Vec<M>>,
    pub search: SearchStats,
}

/// The search's counters, named as in the reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// Components whose options were generated.
    pub nodes: u64,
    /// Entries in the transposition table at the end.
    pub positions_stored: usize,
    /// Entries overwritten because the table was at its budget.
    pub positions_replaced: u64,
    /// Bytes of the table.
    pub table_bytes: usize,
}

impl From<Stats> for SearchStats {
    fn from(s: Stats) -> Self {
        SearchStats {
            nodes: s.nodes,
            positions_stored: s.stored,
            positions_replaced: s.replaced,
            table_bytes: s.table_bytes,
        }
    }
}

/// Answer `question` about `position` of `game` with a fresh [`PrunedSolver`]. `progress` is
/// told of the search every few thousand nodes; its returning `false` stops the search with
/// the error [`INTERRUPTED`].
pub fn answer<G: LabelledMoves>(
    game: G,
    position: &G::Position,
    question: &Question,
    progress: Option<ProgressFn>,
) -> Result<Answer<G::Move>, Error> {
    ask(&mut solver(game, question, progress), position, question)
}

/// A fresh [`PrunedSolver`] for `question` (its memory budget and value method), told of
/// `progress`.
pub(crate) fn solver<G: LabelledMoves>(
    game: G,
    question: &Question,
    progress: Option<ProgressFn>,
) -> PrunedSolver<G> {
    let mut solver =
        PrunedSolver::with_memory(game, question.memory).with_value_method(question.method);
    if let Some(f) = progress {
        solver.on_progress(f);
    }
    solver
}

/// Answer `question` about `position` with `solver` (and whatever its table already knows).
pub(crate) fn ask<G: LabelledMoves, T: super::KnowledgeStore<G::Position>>(
    solver: &mut PrunedSolver<G, T>,
    position: &G::Position,
    question: &Question,
) -> Result<Answer<G::Move>, Error> {
    let mut run = || -> Result<_, Error> {
        let (value, outcome) = if question.outcome_only {
            (None, solver.outcome(position)?)
        } else {
            let v = solver.grundy_value(position)?;
            (Some(v), Outcome::from_value(v))
        };
        let moves = match outcome {
            _ if !question.moves => None,
            Outcome::P => Some(Vec::new()),
            Outcome::N => Some(solver.winning_moves(position)?),
        };
        Ok((value, outcome, moves))
    };
    let (grundy_value, outcome, winning_moves) = run().map_err(|e| match e {
        Error::Invalid(m) if m == "interrupted" => Error::Invalid(INTERRUPTED.into()),
        e => e,
    })?;
    Ok(Answer {
        grundy_value,
        outcome,
        winning_moves,
        search: solver.stats().into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chomp::{Bite, Chomp};
    use crate::games::cram::Cram;
    use crate::NormalPlay;

    /// Every question on small Cram boards and Chomp shapes against the plain evaluator: the
    /// value, the outcome, and the winning moves (the labelled moves to P-positions).
    #[test]
    fn answers_equal_the_plain_evaluator() {
        fn check<G: LabelledMoves + Clone>(game: G, p: &G::Position, method: ValueMethod)
        where
            G::Move: PartialEq + std::fmt::Debug,
        {
            let mut plain = NormalPlay::new(game.clone());
            let v = plain.grundy_value(p).unwrap();
            let mut all = Vec::new();
            game.moves(p, &mut all);
            let winning: Vec<G::Move> = all
                .into_iter()
                .filter(|(_, q)| plain.grundy_value(q).unwrap() == 0)
                .map(|(m, _)| m)
                .collect();
            for outcome_only in [false, true] {
                for moves in [false, true] {
                    let q = Question {
                        memory: 1 << 16,
                        method,
                        outcome_only,
                        moves,
                    };
                    let a = answer(game.clone(), p, &q, None).unwrap();
                    assert_eq!(a.grundy_value, (!outcome_only).then_some(v));
                    assert_eq!(a.outcome, Outcome::from_value(v));
                    assert_eq!(a.winning_moves.as_ref(), moves.then_some(&winning));
                    assert!(a.search.positions_stored > 0 || a.search.nodes <= 1);
                }
            }
        }
        for (r, c) in [(1, 1), (2, 2), (2, 3), (3, 3), (3, 4), (1, 7)] {
            let cram = Cram::new(r, c).unwrap();
            check(cram, &cram.start(), ValueMethod::Queries);
        }
        for shape in [&[1][..], &[3, 3], &[4, 2, 1], &[5, 5, 5], &[6, 3, 3, 1]] {
            check(Chomp, &Chomp::shape(shape).unwrap(), ValueMethod::Mex);
        }
    }

    #[test]
    fn a_progress_callback_returning_false_interrupts_with_one_line() {
        // Chomp 9x9 takes about 25,000 nodes: the callback is asked at least once.
        let p = Chomp::rectangle(9, 9).unwrap();
        let q = Question {
            method: ValueMethod::Mex,
            ..Question::default()
        };
        let stop: ProgressFn = Box::new(|_| false);
        let e = answer(Chomp, &p, &q, Some(stop)).unwrap_err();
        assert_eq!(e.to_string(), INTERRUPTED);
    }

    #[test]
    fn reports_have_the_keys_of_the_cli_json() {
        use crate::games::chomp::ChompReport;
        use crate::games::cram::CramReport;
        let p = Chomp::rectangle(2, 2).unwrap();
        let a = answer(Chomp, &p, &Question::default(), None).unwrap();
        assert_eq!(a.winning_moves, Some(vec![Bite { row: 1, col: 1 }]));
        let json = serde_json::to_value(ChompReport::new(p, a)).unwrap();
        assert_eq!(json["rows"], serde_json::json!([2, 2]));
        assert_eq!(json["squares"], 4);
        assert_eq!(
            json["winning_moves"],
            serde_json::json!([{"row": 1, "col": 1}])
        );
        assert!(json["search"]["nodes"].is_u64());
        let cram = Cram::new(1, 3).unwrap();
        let a = answer(cram, &cram.start(), &Question::default(), None).unwrap();
        let json = serde_json::to_value(CramReport::new(&cram, cram.start(), a)).unwrap();
        assert_eq!(json["grundy_value"], 1);
        assert_eq!(json["empty_cells"], 3);
        assert_eq!(json["symmetric"], false);
        // 1x3: either domino leaves one cell, a P-position: both win
        assert_eq!(
            json["winning_moves"],
            serde_json::json!([{"cells": [[0, 0], [0, 1]]}, {"cells": [[0, 1], [0, 2]]}])
        );
    }
}
