//! Play the Sato–Welter (Maya) game; the engine's moves come from Welter's formula.

use super::Playable;
use crate::games::welter::{Coins, WelterMove};
use crate::text::parse_u64;
use crate::Error;

struct WelterPlay {
    coins: Coins,
}

impl Playable for WelterPlay {
    fn show(&self) -> String {
        let squares = self.coins.squares();
        let mut s = format!(
            "coins on squares: {}",
            squares
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
        if let Some(&top) = squares.last() {
            if top < 64 {
                let strip: String = (0..=top)
                    .map(|q| if self.coins.is_occupied(q) { 'o' } else { '.' })
                    .collect();
                s.push_str(&format!("\nstrip (square 0 on the left): {strip}"));
            }
        }
        s
    }
    fn move_syntax(&self) -> String {
        "Sato-Welter game: slide one coin to an EMPTY square further left. Move: 'FROM TO' (e.g. '7 2').".into()
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        match self.coins.grundy_value() {
            0 => "value 0 (Welter's formula): P-position, the player to move loses against perfect play".into(),
            v => format!("value {v} (Welter's formula): N-position, the player to move wins"),
        }
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        if let Some(m) = self.coins.winning_moves().into_iter().next() {
            return Some((
                format!("{} {}", m.from, m.to),
                "to a position of value 0".into(),
            ));
        }
        // No winning move: slide the leftmost movable coin by one free square.
        let squares = self.coins.squares();
        let m = squares.iter().find_map(|&c| {
            (0..c)
                .rev()
                .find(|&t| !self.coins.is_occupied(t))
                .map(|t| WelterMove { from: c, to: t })
        })?;
        let after = self.coins.play(m).ok()?;
        Some((
            format!("{} {}", m.from, m.to),
            format!(
                "no winning move exists; to a position of value {}",
                after.grundy_value()
            ),
        ))
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let w: Vec<&str> = input.split_whitespace().collect();
        if w.len() != 2 {
            return Err("type the coin's square and the square it moves to, e.g. '7 2'".into());
        }
        let from = parse_u64("square", w[0]).map_err(|e| e.to_string())?;
        let to = parse_u64("square", w[1]).map_err(|e| e.to_string())?;
        if !self.coins.is_occupied(from) {
            return Err(format!("there is no coin on square {from}"));
        }
        if to >= from {
            return Err(format!(
                "a coin moves left: square {to} is not left of {from}"
            ));
        }
        if self.coins.is_occupied(to) {
            return Err(format!("square {to} is not empty"));
        }
        self.coins = self
            .coins
            .play(WelterMove { from, to })
            .map_err(|e| e.to_string())?;
        Ok(())
    }
    fn is_over(&self) -> bool {
        // Terminal exactly when the coins fill squares 0..k-1.
        self.coins
            .squares()
            .iter()
            .enumerate()
            .all(|(i, &c)| c == i as u64)
    }
}

pub fn build(words: &[String]) -> Result<Box<dyn Playable>, Error> {
    if words.is_empty() {
        return Err(Error::Invalid(
            "no coins given (e.g. 'grundy play welter 1 4 7 8')".into(),
        ));
    }
    let squares = words
        .iter()
        .map(|w| parse_u64("square", w))
        .collect::<Result<Vec<u64>, Error>>()?;
    Ok(Box::new(WelterPlay {
        coins: Coins::new(squares)?,
    }))
}
