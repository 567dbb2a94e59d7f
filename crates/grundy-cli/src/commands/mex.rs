//! `grundy mex`: the minimum excludant of a set of numbers (primer §1).

use crate::common::{emit, parse_u64, CliResult, PositionArgs};
use serde::Serialize;

/// The mex (minimum excludant) of the given numbers: the least non-negative integer not among them.
///
/// Example: `grundy mex 0 1 3` (prints 2); with no numbers the mex is 0.
#[derive(clap::Args, Debug)]
pub struct MexArgs {
    #[command(flatten)]
    pub values: PositionArgs,
}

#[derive(Serialize)]
struct Report {
    values: Vec<u64>,
    mex: u64,
}

pub fn run(args: MexArgs, json: bool) -> CliResult {
    let values = args
        .values
        .words()?
        .iter()
        .map(|w| parse_u64("value", w))
        .collect::<CliResult<Vec<_>>>()?;
    let mex = grundy::mex(values.iter().copied());
    let report = Report { values, mex };
    emit(json, &report, || {
        let list = crate::common::join(&report.values);
        format!("mex{{{list}}} = {}\n", report.mex)
    })
}
