//! `play multiplayer`: m players, the engine in every seat but yours, each engine seat playing
//! its own preference order exactly (multiplayer paper, Def. 4.1).

use super::{heaps_text, position_move, PlayArgs, Playable};
use crate::common::{parse_u64, CliError, CliResult};
use grundy::games::multiplayer::LastMover;
use grundy::games::registry::{parse_game, HeapGame};
use grundy::solve::Solver;
use grundy::Game;

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

pub fn build(args: &PlayArgs, words: &[String]) -> CliResult<Box<dyn Playable>> {
    let prefs = crate::commands::multiplayer::preferences_from(
        args.players.as_deref(),
        args.order.as_deref(),
        args.prefs.as_deref(),
    )?;
    let heaps = words
        .iter()
        .map(|w| parse_u64("heap", w))
        .collect::<CliResult<Vec<u64>>>()?;
    if heaps.is_empty() {
        return Err(CliError::input(
            "no position given (e.g. 'grundy play multiplayer --players 3 2 2 2')",
        ));
    }
    let choice = parse_game(args.game.as_deref().unwrap_or("nim"))?;
    if (choice.work)(&heaps) > 50 * POSITION_LIMIT as u128 {
        return Err(CliError::input(
            "that position is too large to play out exactly; choose smaller heaps",
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
