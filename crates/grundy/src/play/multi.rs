//! Play with m players, the engine in every seat but yours, each engine seat playing
//! its own preference order exactly (multiplayer paper, Def. 4.1).

use super::{heaps_text, position_move, Playable};
use crate::games::multiplayer::LastMover;
use crate::games::multiplayer::Preferences;
use crate::games::registry::{parse_game, HeapGame};
use crate::solve::Solver;
use crate::text::parse_u64;
use crate::Error;
use crate::Game;

/// Positions the engine may evaluate before refusing the game as too large.
const POSITION_LIMIT: usize = 2_000_000;

struct MultiPlay {
    solver: Solver<HeapGame, LastMover>,
    canonical: fn(&[u64]) -> Vec<u64>,
    name: String,
    position: Vec<u64>,
}

impl Playable for MultiPlay {
    fn players(&self) -> usize {
        self.solver.players()
    }
    fn show(&self) -> String {
        format!("position: {}   ({})", heaps_text(&self.position), self.name)
    }
    fn move_syntax(&self) -> String {
        format!(
            "{}-player {}; each player ranks who should make the last move ({}). Move: type the position after your move, e.g. '{}'.",
            self.solver.players(),
            self.name,
            self.solver.reading().preferences(),
            heaps_text(&self.position)
        )
    }
    fn evaluation(&mut self, mover: usize) -> String {
        let m = self.solver.players();
        match self.solver.last_mover(&self.position, mover) {
            Ok(last) => format!(
                "a {}-position: with player {mover} to move and everyone following their preferences, the last mover is player {last}",
                (last + m - mover) % m
            ),
            Err(e) => format!("cannot evaluate: {e}"),
        }
    }
    fn best_move(&mut self, mover: usize) -> Option<(String, String)> {
        let line = self.solver.principal_line(&self.position, mover).ok()?;
        let first = line.first()?;
        let last = self.solver.last_mover(&self.position, mover).ok()?;
        Some((
            heaps_text(&first.position),
            format!("the best outcome player {mover} can reach in its order: player {last} makes the last move"),
        ))
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        self.position = position_move(self.solver.game(), self.canonical, &self.position, input)?;
        Ok(())
    }
    fn is_over(&self) -> bool {
        self.solver.game().options_vec(&self.position).is_empty()
    }
}

/// A game of `game` (a registry spec, default `nim`) from the heaps `words`, every player
/// following `prefs`.
pub fn build(
    prefs: Preferences,
    game: Option<&str>,
    words: &[String],
) -> Result<Box<dyn Playable>, Error> {
    let heaps = words
        .iter()
        .map(|w| parse_u64("heap", w))
        .collect::<Result<Vec<u64>, Error>>()?;
    if heaps.is_empty() {
        return Err(Error::Invalid(
            "no position given (e.g. 'grundy play multiplayer --players 3 2 2 2')".into(),
        ));
    }
    let choice = parse_game(game.unwrap_or("nim"))?;
    if (choice.work)(&heaps) > 50 * POSITION_LIMIT as u128 {
        return Err(Error::Invalid(
            "that position is too large to play out exactly; choose smaller heaps".into(),
        ));
    }
    let position = (choice.position)(&heaps);
    let solver = Solver::multiplayer(choice.game, prefs).with_limit(POSITION_LIMIT);
    Ok(Box::new(MultiPlay {
        solver,
        canonical: choice.position,
        name: choice.name,
        position,
    }))
}
