//! Play Cram (place a domino) and Chomp (bite the bar) against the pruned search.
//!
//! A Cram move is `R1 C1 R2 C2`, the two cells the domino covers (0-based, either order); a
//! Chomp move is `ROW COL`, the bitten square (row 0 holds the poison at column 0). The hint
//! values every option with the same search, which keeps its table between questions.

use super::{mex_text, MoveInfo, Playable};
use crate::games::chomp::{parse_shape, Bite, Chomp};
use crate::games::cram::{Cram, Domino};
use crate::solve::pruned::PrunedSolver;
use crate::text::{parse_size, parse_u64};
use crate::{Error, LabelledMoves, Nimber};

/// The search's memory budget in a game (bytes).
const MEMORY: usize = 64 << 20;

/// The two front ends' common part: a position of a labelled game and its search.
struct Board<G: LabelledMoves<Position = u64>> {
    solver: PrunedSolver<G>,
    at: u64,
}

impl<G: LabelledMoves<Position = u64>> Board<G> {
    fn moves(&self) -> Vec<(G::Move, u64)> {
        let mut out = Vec::new();
        self.solver.game().moves(&self.at, &mut out);
        out
    }
    fn value(&mut self, p: u64) -> Option<Nimber> {
        self.solver.grundy_value(&p).ok()
    }
    /// The options with their values: winning ones first found by value 0.
    fn valued(&mut self) -> Option<Vec<(G::Move, u64, Nimber)>> {
        let moves = self.moves();
        let mut out = Vec::with_capacity(moves.len());
        for (m, p) in moves {
            let v = self.value(p)?;
            out.push((m, p, v));
        }
        Some(out)
    }
    fn evaluation(&mut self) -> String {
        match self.value(self.at) {
            Some(0) => "value 0: P-position, the player to move loses against perfect play".into(),
            Some(v) => format!("value {v}: N-position, the player to move wins"),
            None => "cannot evaluate within the search's budget".into(),
        }
    }
    fn explain(&mut self) -> Vec<String> {
        match self.valued() {
            Some(opts) => {
                let values: Vec<Nimber> = opts.iter().map(|o| o.2).collect();
                vec![format!(
                    "The value is the mex of the values of the {} options: {}",
                    values.len(),
                    mex_text(&values)
                )]
            }
            None => Vec::new(),
        }
    }
    /// A winning move, else the move to the option of least value... any move.
    fn best(&mut self, name: impl Fn(&G::Move) -> String) -> Option<(String, String)> {
        let opts = self.valued()?;
        let (m, _, v) = opts.iter().find(|o| o.2 == 0).or_else(|| opts.first())?;
        let why = if *v == 0 {
            "to a position of value 0".to_string()
        } else {
            format!("no winning move exists; to a position of value {v}")
        };
        Some((name(m), why))
    }
    fn options(
        &mut self,
        limit: usize,
        name: impl Fn(&G::Move) -> String,
        after: impl Fn(u64) -> String,
    ) -> Option<Vec<MoveInfo>> {
        let opts = self.valued()?;
        if opts.len() > limit {
            return None;
        }
        Some(
            opts.iter()
                .map(|(m, p, v)| {
                    let n = name(m);
                    MoveInfo {
                        good: *v == 0,
                        name: n,
                        after: after(*p),
                        value: Some(*v),
                        verdict: None,
                    }
                })
                .collect(),
        )
    }
}

fn domino_name(d: &Domino) -> String {
    let [(r1, c1), (r2, c2)] = d.cells;
    format!("{r1} {c1} {r2} {c2}")
}

struct CramPlay {
    board: Board<Cram>,
    cram: Cram,
}

impl CramPlay {
    fn rows(&self, empty: u64) -> Vec<String> {
        self.cram.draw(empty).lines().map(str::to_owned).collect()
    }
}

impl Playable for CramPlay {
    fn show(&self) -> String {
        let g = self.cram.grid();
        let mut s = format!(
            "board {}x{} ('.' empty, '#' covered):\n   ",
            g.height(),
            g.width()
        );
        for c in 0..g.width() {
            s.push_str(&format!("{}", c % 10));
        }
        for (r, line) in self.rows(self.board.at).iter().enumerate() {
            s.push_str(&format!("\n{r:>2} {line}"));
        }
        s
    }
    fn show_position(&self) -> String {
        self.rows(self.board.at).join(" ")
    }
    fn state(&self) -> serde_json::Value {
        let g = self.cram.grid();
        serde_json::json!({"kind": "cram", "rows": g.height(), "cols": g.width(), "board": self.rows(self.board.at)})
    }
    fn move_syntax(&self) -> String {
        "Cram: place a domino on two adjacent empty cells. Move: 'R1 C1 R2 C2', the two cells (row, column, from 0), e.g. '0 0 0 1'.".into()
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        self.board.evaluation()
    }
    fn explain(&mut self, _mover: usize) -> Vec<String> {
        let mut lines = vec!["The empty cells fall apart into regions played side by side; the search values them separately and nim-adds.".to_string()];
        lines.extend(self.board.explain());
        lines
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        self.board.best(domino_name)
    }
    fn options(&mut self, _mover: usize, limit: usize) -> Option<Vec<MoveInfo>> {
        let cram = self.cram;
        self.board.options(limit, domino_name, |p| {
            cram.draw(p).lines().collect::<Vec<_>>().join(" ")
        })
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let w: Vec<&str> = input.split_whitespace().collect();
        if w.len() != 4 {
            return Err(
                "type the two cells the domino covers: 'R1 C1 R2 C2' (e.g. '0 0 0 1')".into(),
            );
        }
        let n = w
            .iter()
            .map(|x| parse_u64("cell", x).map_err(|e| e.to_string()))
            .collect::<Result<Vec<u64>, String>>()?;
        let (a, b) = ((n[0], n[1]), (n[2], n[3]));
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        let found = self.board.moves().into_iter().find(|(d, _)| {
            let [(r1, c1), (r2, c2)] = d.cells;
            (u64::from(r1), u64::from(c1)) == a && (u64::from(r2), u64::from(c2)) == b
        });
        match found {
            Some((_, p)) => {
                self.board.at = p;
                Ok(())
            }
            None => Err(format!(
                "cells ({},{}) and ({},{}) are not two adjacent empty cells of the board",
                a.0, a.1, b.0, b.1
            )),
        }
    }
    fn is_over(&self) -> bool {
        self.board.moves().is_empty()
    }
}

/// Cram from `ROWSxCOLS`, or from the board drawn one row per word (`.` empty, `#` covered).
pub fn cram(words: &[String]) -> Result<Box<dyn Playable>, Error> {
    let (cram, at) = match words {
        [] => {
            return Err(Error::Invalid(
                "give a board size (e.g. 'grundy play cram 3x4') or the rows ('..# ...')".into(),
            ))
        }
        [size] if size.contains(['x', 'X']) => {
            let (r, c) = parse_size("board", size)?;
            let cram = Cram::new(r, c)?;
            (cram, cram.start())
        }
        rows => Cram::from_text(&rows.join("\n"))?,
    };
    Ok(Box::new(CramPlay {
        board: Board {
            solver: PrunedSolver::with_memory(cram, MEMORY),
            at,
        },
        cram,
    }))
}

fn bite_name(b: &Bite) -> String {
    format!("{} {}", b.row, b.col)
}

fn rows_text(p: u64) -> String {
    Chomp::rows(p)
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

struct ChompPlay {
    board: Board<Chomp>,
}

impl Playable for ChompPlay {
    fn show(&self) -> String {
        let rows = Chomp::rows(self.board.at);
        let mut s = format!(
            "rows (poisoned row 0 first): {}   ('P' the poison)",
            rows_text(self.board.at)
        );
        for (i, line) in Chomp::draw(self.board.at).lines().enumerate() {
            s.push_str(&format!("\n{:>2} {line}", rows.len() - 1 - i));
        }
        s
    }
    fn show_position(&self) -> String {
        rows_text(self.board.at)
    }
    fn state(&self) -> serde_json::Value {
        serde_json::json!({"kind": "chomp", "rows": Chomp::rows(self.board.at)})
    }
    fn move_syntax(&self) -> String {
        "Chomp: bite a square and eat everything above and to the right of it; the poison (row 0, column 0) may not be eaten. Move: 'ROW COL', e.g. '1 2'.".into()
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        self.board.evaluation()
    }
    fn explain(&mut self, _mover: usize) -> Vec<String> {
        let mut lines = self.board.explain();
        lines.push("Every rectangle but the poison alone is a first-player win (strategy stealing): if biting the top-right square lost, the answer to it would have won as a first move.".into());
        lines
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        self.board.best(bite_name)
    }
    fn options(&mut self, _mover: usize, limit: usize) -> Option<Vec<MoveInfo>> {
        self.board.options(limit, bite_name, rows_text)
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let w: Vec<&str> = input.split_whitespace().collect();
        if w.len() != 2 {
            return Err("type the bitten square: 'ROW COL' (e.g. '1 2')".into());
        }
        let row = parse_u64("row", w[0]).map_err(|e| e.to_string())?;
        let col = parse_u64("column", w[1]).map_err(|e| e.to_string())?;
        let found = self
            .board
            .moves()
            .into_iter()
            .find(|(b, _)| u64::from(b.row) == row && u64::from(b.col) == col);
        match found {
            Some((_, p)) => {
                self.board.at = p;
                Ok(())
            }
            None if row == 0 && col == 0 => Err("the poisoned square cannot be bitten".into()),
            None => Err(format!("there is no square at row {row}, column {col}")),
        }
    }
    fn is_over(&self) -> bool {
        self.board.moves().is_empty()
    }
}

/// Chomp from `ROWSxCOLS` or the row lengths (`5,3,3,1` or `5 3 3 1`), poisoned row first.
pub fn chomp(words: &[String]) -> Result<Box<dyn Playable>, Error> {
    let at = match words {
        [] => {
            return Err(Error::Invalid(
                "give a bar size (e.g. 'grundy play chomp 4x5') or row lengths (e.g. 5,3,3,1)"
                    .into(),
            ))
        }
        [size] if size.contains(['x', 'X']) => {
            let (r, c) = parse_size("bar", size)?;
            Chomp::rectangle(r, c)?
        }
        rows => parse_shape(&rows.join(","))?,
    };
    Ok(Box::new(ChompPlay {
        board: Board {
            solver: PrunedSolver::with_memory(Chomp, MEMORY),
            at,
        },
    }))
}
