//! Play the Sato–Welter (Maya) game; the engine's moves come from Welter's formula.
//!
//! The coins on squares `s_0 < s_1 < ... < s_{k-1}` are the beta-numbers of the Young diagram
//! with rows `s_j - j`: sliding a coin from `a` to the empty square `b` removes a hook of
//! length `a - b` (the cell whose hook it is belongs to the coin's row). [`Playable::state`]
//! lists every cell with its hook length and the move that removes that hook, so a front end
//! can let the student click a hook.

use super::{mex_text, MoveInfo, Playable};
use crate::games::welter::{Coins, WelterMove};
use crate::text::parse_u64;
use crate::{Error, Nimber};

/// Diagrams with more cells than this are not listed cell by cell in the state.
const CELL_LIMIT: u64 = 2_500;

struct WelterPlay {
    coins: Coins,
}

impl WelterPlay {
    fn moves(&self, limit: usize) -> Option<Vec<WelterMove>> {
        let mut out = Vec::new();
        for &c in self.coins.squares() {
            for t in (0..c).rev() {
                if !self.coins.is_occupied(t) {
                    if out.len() == limit {
                        return None;
                    }
                    out.push(WelterMove { from: c, to: t });
                }
            }
        }
        Some(out)
    }
    /// Rows of the Young diagram, longest first, with the coin square each row belongs to.
    fn rows(&self) -> Vec<(u64, u64)> {
        self.coins
            .squares()
            .iter()
            .enumerate()
            .rev()
            .map(|(j, &s)| (s - j as u64, s))
            .filter(|&(len, _)| len > 0)
            .collect()
    }
}

impl Playable for WelterPlay {
    fn show(&self) -> String {
        let squares = self.coins.squares();
        let mut s = format!("coins on squares: {}", self.show_position());
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
    fn show_position(&self) -> String {
        self.coins
            .squares()
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn state(&self) -> serde_json::Value {
        let rows = self.rows();
        let cells_total: u64 = rows.iter().map(|r| r.0).sum();
        let mut cells = Vec::new();
        if cells_total <= CELL_LIMIT {
            for (r, &(len, square)) in rows.iter().enumerate() {
                for c in 0..len {
                    let arm = len - c - 1;
                    let leg = rows[r + 1..].iter().filter(|&&(l, _)| l > c).count() as u64;
                    let hook = arm + leg + 1;
                    cells.push(serde_json::json!({
                        "row": r, "col": c, "hook": hook,
                        "move": format!("{square} {}", square - hook),
                    }));
                }
            }
        }
        serde_json::json!({
            "kind": "welter",
            "squares": self.coins.squares(),
            "partition": rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            "cells": cells,
        })
    }
    fn move_syntax(&self) -> String {
        "Sato-Welter game: slide one coin to an EMPTY square further left (on the Young diagram: remove a hook). Move: 'FROM TO' (e.g. '7 2').".into()
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        match self.coins.grundy_value() {
            0 => "value 0 (Welter's formula): P-position, the player to move loses against perfect play".into(),
            v => format!("value {v} (Welter's formula): N-position, the player to move wins"),
        }
    }
    fn explain(&mut self, mover: usize) -> Vec<String> {
        let v = self.coins.grundy_value();
        let squares = self.coins.squares();
        let mut lines = vec![format!(
            "Welter's formula gives the value {v} without searching: the nim-sum of the coins' squares, and for each pair of coins at distance d the term d ⊕ (d−1)."
        )];
        if (2..=8).contains(&squares.len()) {
            let sum = squares.iter().fold(0, |a, &s| a ^ s);
            let mut pairs = Vec::new();
            let mut total = sum;
            for (i, &lo) in squares.iter().enumerate() {
                for &hi in &squares[i + 1..] {
                    let d = hi - lo;
                    total ^= d ^ (d - 1);
                    pairs.push(format!("{}", d ^ (d - 1)));
                }
            }
            lines.push(format!(
                "squares {} = {sum}; pair terms {} ; together {total}",
                squares
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" ⊕ "),
                pairs.join(" ⊕ ")
            ));
        }
        if let Some(opts) = self.options(mover, super::OPTION_LIMIT) {
            let values: Vec<Nimber> = opts.iter().filter_map(|o| o.value).collect();
            lines.push(format!(
                "Check by the definition: the {} options have values whose {}",
                values.len(),
                mex_text(&values)
            ));
        }
        lines
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
    fn options(&mut self, _mover: usize, limit: usize) -> Option<Vec<MoveInfo>> {
        let moves = self.moves(limit)?;
        Some(
            moves
                .into_iter()
                .filter_map(|m| {
                    let after = self.coins.play(m).ok()?;
                    let value = after.grundy_value();
                    let name = format!("{} {}", m.from, m.to);
                    Some(MoveInfo {
                        good: value == 0,
                        name,
                        after: after
                            .squares()
                            .iter()
                            .map(u64::to_string)
                            .collect::<Vec<_>>()
                            .join(" "),
                        value: Some(value),
                        verdict: None,
                    })
                })
                .collect(),
        )
    }
    fn heap_multiset(&self) -> bool {
        // coins in any order name one position (square 0 is a coin, not an empty heap)
        false
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
