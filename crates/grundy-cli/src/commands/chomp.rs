//! `grundy chomp`: Chomp on a rectangle or any Young-diagram shape, by the library's pruned
//! search.

use super::search::{solve, value_lines, SearchArgs};
use crate::common::{emit, CliError, CliResult};
use grundy::games::chomp::{parse_shape, Chomp, ChompReport};
use grundy::solve::pruned::ValueMethod;
use grundy::text::parse_size;

/// Chomp: bite a square and everything above and to the right of it; the poisoned bottom-left
/// square cannot be taken, so who faces it alone loses.
///
/// Example: `grundy chomp 4x5` (4 rows of 5), or `grundy chomp --shape 5,3,3,1` (row lengths,
/// the poisoned row first). Rows plus columns at most 64.
#[derive(clap::Args, Debug)]
pub struct ChompArgs {
    /// The bar's size, ROWSxCOLS (e.g. 4x5)
    #[arg(
        value_name = "RxC",
        required_unless_present = "shape",
        conflicts_with = "shape"
    )]
    pub size: Option<String>,
    /// Any Young diagram: row lengths, longest (poisoned) row first, e.g. 5,3,3,1
    #[arg(long, value_name = "ROWS")]
    pub shape: Option<String>,
    #[command(flatten)]
    pub search: SearchArgs,
}

pub fn run(args: ChompArgs, json: bool) -> CliResult {
    let position = match (&args.size, &args.shape) {
        (Some(size), _) => {
            let (r, c) = parse_size("bar", size)?;
            Chomp::rectangle(r, c)?
        }
        (None, Some(shape)) => parse_shape(shape)?,
        (None, None) => return Err(CliError::input("give a size (e.g. 4x5) or --shape 5,3,3,1")),
    };
    // Chomp's values are large and nearly every position must be valued: mex of full values.
    let answer = solve(Chomp, &position, &args.search, ValueMethod::Mex)?;
    let report = ChompReport::new(position, answer);
    emit(json, &report, || {
        let mut s = format!(
            "shape: {} ({} squares; row 0, with the poison P, at the bottom)\n",
            crate::common::join(&report.rows),
            report.squares
        );
        s.push_str(&Chomp::draw(position));
        s.push_str(&value_lines(&report.answer));
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
                "winning moves ({}; bite (row,col), 0-based from the poison):\n",
                moves.len()
            ));
            for m in moves {
                s.push_str(&format!("  bite {m}\n"));
            }
        }
        s
    })
}
