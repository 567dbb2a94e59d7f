//! Play with m players, the engine in every seat but yours, each engine seat playing
//! its own preference order exactly (multiplayer paper, Def. 4.1). Moves are typed as in
//! every heap game: `HEAP PARTS...` or `HEAP -K`.

use super::generic::{Heaps, POSITION_LIMIT};
use super::{heap_list, heaps_text, MoveInfo, Playable};
use crate::games::multiplayer::LastMover;
use crate::games::multiplayer::Preferences;
use crate::games::registry::{parse_game, HeapGame};
use crate::solve::Solver;
use crate::text::parse_u64;
use crate::Error;
use crate::Game;

struct MultiPlay {
    solver: Solver<HeapGame, LastMover>,
    name: String,
    heaps: Heaps,
}

impl Playable for MultiPlay {
    fn players(&self) -> usize {
        self.solver.players()
    }
    fn show(&self) -> String {
        format!("heaps: {}   ({})", heap_list(&self.heaps.shown), self.name)
    }
    fn show_position(&self) -> String {
        heaps_text(&self.heaps.shown)
    }
    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "kind": "heaps",
            "heaps": self.heaps.shown,
            "game": self.name,
            "preferences": self.solver.reading().preferences().to_string(),
        })
    }
    fn heap_multiset(&self) -> bool {
        true
    }
    fn move_syntax(&self) -> String {
        format!(
            "{}-player {}; each player ranks who should make the last move ({}). Move: 'HEAP PARTS...' (heap HEAP, counted from 0, becomes the parts) or 'HEAP -K' (take K){}.",
            self.solver.players(),
            self.name,
            self.solver.reading().preferences(),
            self.heaps.example(self.solver.game().as_ref())
        )
    }
    fn evaluation(&mut self, mover: usize) -> String {
        let m = self.solver.players();
        match self.solver.last_mover(&self.heaps.key(), mover) {
            Ok(last) => format!(
                "a {}-position: with player {mover} to move and everyone following their preferences, the last mover is player {last}",
                (last + m - mover) % m
            ),
            Err(e) => format!("cannot evaluate: {e}"),
        }
    }
    fn explain(&mut self, mover: usize) -> Vec<String> {
        let m = self.solver.players();
        vec![
            format!("Each player's preference order ranks who should make the last move, counted from that player ({}).", self.solver.reading().preferences()),
            format!(
                "Player {mover} looks at where each option leads (player {} moves next) and picks the option whose last mover it ranks highest.",
                (mover + 1) % m
            ),
        ]
    }
    fn best_move(&mut self, mover: usize) -> Option<(String, String)> {
        let key = self.heaps.key();
        let line = self.solver.principal_line(&key, mover).ok()?;
        let first = line.first()?;
        let last = self.solver.last_mover(&key, mover).ok()?;
        let name = self
            .heaps
            .name_of(&first.position)
            .map_or_else(|| format!("= {}", heaps_text(&first.position)), |(n, _)| n);
        Some((
            name,
            format!("the best outcome player {mover} can reach in its order: player {last} makes the last move"),
        ))
    }
    fn options(&mut self, mover: usize, limit: usize) -> Option<Vec<MoveInfo>> {
        let key = self.heaps.key();
        let opts = self.solver.game().options_vec(&key);
        if opts.len() > limit {
            return None;
        }
        let best = self.best_move(mover).map(|(m, _)| m);
        let next = (mover + 1) % self.solver.players();
        let mut out = Vec::new();
        for o in opts {
            let last = self.solver.last_mover(&o, next).ok()?;
            let (name, after) = self
                .heaps
                .name_of(&o)
                .unwrap_or_else(|| (format!("= {}", heaps_text(&o)), o.clone()));
            if out.iter().any(|m: &MoveInfo| m.name == name) {
                continue;
            }
            out.push(MoveInfo {
                good: Some(&name) == best.as_ref(),
                name,
                after: heaps_text(&after),
                value: None,
                verdict: Some(format!("last mover: player {last}")),
            });
        }
        Some(out)
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        self.heaps.shown = self.heaps.apply(self.solver.game().as_ref(), input)?;
        Ok(())
    }
    fn is_over(&self) -> bool {
        self.solver.game().options_vec(&self.heaps.key()).is_empty()
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
    let mut shown = heaps;
    if !(choice.position)(&shown).contains(&0) {
        shown.retain(|&h| h > 0);
    }
    let solver = Solver::multiplayer(choice.game, prefs).with_limit(POSITION_LIMIT);
    Ok(Box::new(MultiPlay {
        solver,
        name: choice.name,
        heaps: Heaps {
            shown,
            canonical: choice.position,
        },
    }))
}
