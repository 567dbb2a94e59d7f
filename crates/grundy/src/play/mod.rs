//! The rules of play against a perfect opponent: each family implements [`Playable`] (show
//! the position, read a move in its own natural syntax, evaluate, choose the engine's move),
//! so that any front end can run a game — the CLI's `grundy play` loop reads moves from
//! standard input; a notebook could call the same methods.
//!
//! | family | engine's moves from |
//! |---|---|
//! | [`heapgames`] | Nim (nim-sum), subtraction games (their sequence), Wythoff (golden ratio) |
//! | [`welter`] | Welter's formula (hook paper, Thm 2) |
//! | [`generic`] | the normal-play evaluator, for any game of the [`crate::games::registry`] |
//! | [`multi`] | the multiplayer evaluator: every player plays its preference order (Def. 4.1) |
//! | [`graph`] | the loopy evaluator on a game graph, cycles allowed |

pub mod generic;
pub mod graph;
pub mod heapgames;
pub mod multi;
pub mod welter;

/// A game in progress, as the play loop sees it.
pub trait Playable {
    /// The position, for people.
    fn show(&self) -> String;
    /// One line on how to type a move.
    fn move_syntax(&self) -> String;
    /// Number of players (2 unless the family is multiplayer).
    fn players(&self) -> usize {
        2
    }
    /// Value and outcome of the current position with `mover` to move, for `hint`.
    fn evaluation(&mut self, mover: usize) -> String;
    /// A good move for `mover`: (the move in the input syntax, why it is good). `None` when
    /// the game is over.
    fn best_move(&mut self, mover: usize) -> Option<(String, String)>;
    /// Play a move typed by the user or chosen by the engine; `Err` gives the reason it is
    /// illegal or unreadable.
    fn play(&mut self, input: &str) -> Result<(), String>;
    /// Whether the player to move has no move (and so, in normal play, has lost).
    fn is_over(&self) -> bool;
}

/// The heaps typed as "the position after the move" (`(no heaps)` for the empty position),
/// in the game's canonical form, if that position is an option of `from`.
fn position_move(
    game: &impl crate::Game<Position = Vec<u64>>,
    canonical: fn(&[u64]) -> Vec<u64>,
    from: &[u64],
    input: &str,
) -> Result<Vec<u64>, String> {
    let heaps = if input.trim() == "(no heaps)" {
        Vec::new()
    } else {
        input
            .split_whitespace()
            .map(|w| crate::text::parse_u64("heap", w).map_err(|e| e.to_string()))
            .collect::<Result<Vec<u64>, String>>()?
    };
    let target = canonical(&heaps);
    if game.options_vec(&from.to_vec()).contains(&target) {
        Ok(target)
    } else {
        Err(format!(
            "'{}' cannot be reached in one move from '{}'",
            heaps_text(&heaps),
            heaps_text(from)
        ))
    }
}

/// Heaps for people; `(no heaps)` for the empty position.
pub fn heaps_text(h: &[u64]) -> String {
    if h.is_empty() {
        "(no heaps)".into()
    } else {
        h.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both seats play the engine's moves to the end; returns who moved last (0 or 1).
    fn play_out(game: &mut dyn Playable) -> usize {
        let mut mover = 0;
        let mut moves = 0;
        while !game.is_over() {
            let (mv, _) = game.best_move(mover).expect("a move");
            game.play(&mv).expect("the engine's move is legal");
            mover = 1 - mover;
            moves += 1;
            assert!(moves < 10_000, "the game ends");
        }
        1 - mover
    }

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_engine_wins_exactly_the_positions_the_evaluator_calls_n() {
        for heaps in [[3u64, 5, 2], [1, 2, 3], [4, 4, 1], [6, 0, 9]] {
            let typed: Vec<String> = heaps.iter().map(u64::to_string).collect();
            let value = crate::grundy_value(&crate::games::nim::nim(), &heaps.to_vec()).unwrap();
            let first_wins = value != 0;
            let families: Vec<Box<dyn Playable>> = vec![
                heapgames::nim(&typed).unwrap(),
                generic::build("nim", &typed).unwrap(),
            ];
            for mut game in families {
                assert_eq!(play_out(game.as_mut()) == 0, first_wins, "{heaps:?}");
            }
        }
        // Welter: the formula's moves against the evaluator's outcome
        for squares in [["1", "4", "6"], ["0", "3", "5"], ["2", "3", "7"]] {
            let mut game = welter::build(&words(&squares)).unwrap();
            let p: Vec<u64> = squares.iter().map(|s| s.parse().unwrap()).collect();
            let mut solver = crate::NormalPlay::new(crate::games::welter::Welter);
            let first_wins = solver.grundy_value(&p).unwrap() != 0;
            assert_eq!(play_out(game.as_mut()) == 0, first_wins, "{squares:?}");
        }
        // a take-and-break code of the registry, moves typed as the position after the move
        let mut kayles = generic::build("takebreak:0.77", &words(&["4", "7"])).unwrap();
        assert!(kayles.play("4 3 3").is_ok());
        assert!(kayles.play("9").is_err());
    }
}
