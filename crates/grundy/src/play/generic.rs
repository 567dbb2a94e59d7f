//! Play any game of the `--game` registry (common-divisor Nim, take-and-break codes, ...):
//! two players, normal play, the engine evaluating with the generic normal-play evaluator.
//! Moves are typed as the position after the move, which works for splitting moves too.

use super::{heaps_text, position_move, Playable};
use crate::games::registry::{parse_game, HeapGame};
use crate::text::parse_u64;
use crate::Error;
use crate::{Game, NormalPlay};

/// Positions the engine may evaluate before refusing the game as too large.
const POSITION_LIMIT: usize = 2_000_000;

struct GenericPlay {
    solver: NormalPlay<HeapGame>,
    canonical: fn(&[u64]) -> Vec<u64>,
    name: String,
    position: Vec<u64>,
}

impl Playable for GenericPlay {
    fn show(&self) -> String {
        format!("position: {}   ({})", heaps_text(&self.position), self.name)
    }
    fn move_syntax(&self) -> String {
        format!(
            "{}: type the position after your move (heaps in any order), e.g. '{}'.",
            self.name,
            heaps_text(&self.position)
        )
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        match self.solver.grundy_value(&self.position) {
            Ok(0) => "value 0: P-position, the player to move loses against perfect play".into(),
            Ok(v) => format!("value {v}: N-position, the player to move wins"),
            Err(e) => format!("cannot evaluate: {e}"),
        }
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        let options = self.solver.options_with_values(&self.position).ok()?;
        let (best, v) = options
            .iter()
            .find(|(_, v)| *v == 0)
            .or_else(|| options.iter().min_by_key(|(p, _)| p.iter().sum::<u64>()))?
            .clone();
        let why = if v == 0 {
            "to a position of value 0".to_string()
        } else {
            format!("no winning move exists; to a position of value {v}")
        };
        Some((heaps_text(&best), why))
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        self.position = position_move(self.solver.game(), self.canonical, &self.position, input)?;
        Ok(())
    }
    fn is_over(&self) -> bool {
        self.solver.game().options_vec(&self.position).is_empty()
    }
}

pub fn build(spec: &str, words: &[String]) -> Result<Box<dyn Playable>, Error> {
    let choice = parse_game(spec)?;
    let heaps = words
        .iter()
        .map(|w| parse_u64("heap", w))
        .collect::<Result<Vec<u64>, Error>>()?;
    if heaps.is_empty() {
        return Err(Error::Invalid(format!(
            "no position given (e.g. 'grundy play {} 6 3 2')",
            choice.spec
        )));
    }
    if (choice.work)(&heaps) > 50 * POSITION_LIMIT as u128 {
        return Err(Error::Invalid(
            "that position is too large to play out exactly; choose smaller heaps".into(),
        ));
    }
    let position = (choice.position)(&heaps);
    Ok(Box::new(GenericPlay {
        solver: NormalPlay::new(choice.game).with_limit(POSITION_LIMIT),
        canonical: choice.position,
        name: choice.name,
        position,
    }))
}
