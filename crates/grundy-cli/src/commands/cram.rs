//! `grundy cram`: Cram on a rectangle or on any board drawn in a text file, by the library's
//! pruned search.

use super::search::{solve, value_lines, SearchArgs};
use crate::common::{emit, read_text, CliError, CliResult};
use grundy::games::cram::{Cram, CramReport};
use grundy::solve::pruned::ValueMethod;
use grundy::text::parse_size;
use std::path::PathBuf;

/// Cram: place a domino on two adjacent empty cells; who cannot, loses.
///
/// Example: `grundy cram 3x4`, or `grundy cram --board FILE` with a board drawn as `.` (empty)
/// and `#` (blocked), one line per row. Boards have at most 64 cells.
#[derive(clap::Args, Debug)]
pub struct CramArgs {
    /// The board size, ROWSxCOLS (e.g. 3x4)
    #[arg(
        value_name = "RxC",
        required_unless_present = "board",
        conflicts_with = "board"
    )]
    pub size: Option<String>,
    /// Read the board from FILE: '.' an empty cell, '#' a blocked one, one line per row
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: CramArgs, json: bool) -> CliResult {
    let (cram, empty) = match (&args.size, &args.board) {
        (Some(size), _) => {
            let (r, c) = parse_size("board", size)?;
            let cram = Cram::new(r, c)?;
            (cram, cram.start())
        }
        (None, Some(path)) => Cram::from_text(&read_text(path)?)?,
        (None, None) => {
            return Err(CliError::input(
                "give a board size (e.g. 3x4) or --board FILE",
            ))
        }
    };
    let answer = solve(cram, &empty, &args.search, ValueMethod::Queries)?;
    let report = CramReport::new(&cram, empty, answer);
    emit(json, &report, || {
        let mut s = format!(
            "board: {}x{} ({} empty cells)\n",
            report.rows, report.cols, report.empty_cells
        );
        if args.board.is_some() {
            s.push_str(&cram.draw(empty));
        }
        s.push_str(&value_lines(&report.answer));
        if report.symmetric {
            s.push_str(
                "by the symmetry theorem: the empty cells are symmetric under a half turn and no \
                 domino covers a cell and its image, so the second player copies every move (no search)\n",
            );
        }
        let moves = match &report.answer.winning_moves {
            Some(moves) => moves,
            None => {
                s.push_str("winning moves: not listed (--no-moves)\n");
                return s;
            }
        };
        if moves.is_empty() {
            s.push_str("winning moves: none\n");
        } else {
            s.push_str(&format!(
                "winning moves ({}; cells as (row,col), 0-based):\n",
                moves.len()
            ));
            for m in moves {
                s.push_str(&format!("  domino {m}\n"));
            }
        }
        s
    })
}
