//! What a picture of a Young diagram shows, for every front end that draws one (the CLI's
//! `young --svg/--png`, the Python package's notebook display), so they show the same thing and
//! only turn it into pixels: each box (English notation, row 0 on top) with its hook length;
//! the boxes of even hook length marked, since they are the moves of the even-hook game whose
//! value is the `2·v_{φ₂}(p)` part of Theorem 4 (hook paper); and the boxes whose hook is a
//! winning move to remove (Welter's formula, hook paper Theorem 2).

use super::{winning_hook_moves, Partition};
use crate::{Error, Result};

/// Largest diagram a picture shows, in rows and in columns.
pub const MAX_PICTURE_SIDE: u64 = 150;

/// One box of a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct PictureBox {
    /// Its row (0-based, row 0 on top).
    pub row: usize,
    /// Its column (0-based).
    pub column: u64,
    /// The length of its hook, written in the box.
    pub hook_length: u64,
    /// Whether the hook length is even (the box is shaded).
    pub even_hook: bool,
    /// Whether removing its hook is a winning move (the box is outlined).
    pub winning: bool,
}

/// The boxes of the picture of `p`, row by row; refused (with the reason) when `p` has more
/// than [`MAX_PICTURE_SIDE`] rows or columns.
pub fn picture_boxes(p: &Partition) -> Result<Vec<PictureBox>> {
    let rows = p.len() as u64;
    let columns = p.parts().first().copied().unwrap_or(0);
    if rows > MAX_PICTURE_SIDE || columns > MAX_PICTURE_SIDE {
        return Err(Error::Invalid(format!(
            "the diagram is {rows} x {columns}; pictures are drawn up to \
             {MAX_PICTURE_SIDE} x {MAX_PICTURE_SIDE} boxes"
        )));
    }
    let winning: Vec<(usize, u64)> = winning_hook_moves(p)
        .iter()
        .map(|m| (m.row, m.column))
        .collect();
    Ok(p.hook_lengths()
        .into_iter()
        .enumerate()
        .flat_map(|(row, hooks)| {
            let winning = &winning;
            hooks
                .into_iter()
                .zip(0u64..)
                .map(move |(hook_length, column)| PictureBox {
                    row,
                    column,
                    hook_length,
                    even_hook: hook_length % 2 == 0,
                    winning: winning.contains(&(row, column)),
                })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_carry_their_hooks_parity_and_winning_moves() {
        let p = Partition::new(vec![3, 1]).unwrap();
        let boxes = picture_boxes(&p).unwrap();
        let hooks: Vec<(usize, u64, u64)> = boxes
            .iter()
            .map(|b| (b.row, b.column, b.hook_length))
            .collect();
        assert_eq!(hooks, vec![(0, 0, 4), (0, 1, 2), (0, 2, 1), (1, 0, 1)]);
        assert!(boxes
            .iter()
            .all(|b| b.even_hook == (b.hook_length % 2 == 0)));
        let winning: Vec<(usize, u64)> = boxes
            .iter()
            .filter(|b| b.winning)
            .map(|b| (b.row, b.column))
            .collect();
        let moves: Vec<(usize, u64)> = winning_hook_moves(&p)
            .iter()
            .map(|m| (m.row, m.column))
            .collect();
        assert!(!moves.is_empty());
        assert_eq!(winning, moves);
    }

    #[test]
    fn pictures_stop_at_the_side_limit() {
        let side = MAX_PICTURE_SIDE;
        assert_eq!(
            picture_boxes(&Partition::new(vec![side; 2]).unwrap())
                .unwrap()
                .len(),
            300
        );
        for parts in [vec![side + 1], vec![1; side as usize + 1]] {
            let e = picture_boxes(&Partition::new(parts).unwrap()).unwrap_err();
            assert!(e.to_string().contains("drawn up to 150 x 150"), "{e}");
        }
        assert!(picture_boxes(&Partition::new(vec![]).unwrap())
            .unwrap()
            .is_empty());
    }
}
