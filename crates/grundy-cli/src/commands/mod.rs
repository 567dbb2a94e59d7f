//! One module per subcommand: argument struct, `run`, and the report it prints.

pub mod catalogue;
pub mod census;
pub mod graph;
pub mod nim;
pub mod runs;
pub mod subtraction;
pub mod takebreak;
pub mod takebreak_plot;
pub mod tour;
pub mod verify;
pub mod wythoff;
