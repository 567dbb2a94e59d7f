//! One module per subcommand: argument struct, `run`, and the report it prints.

pub mod graph;
pub mod graph_structure;
pub mod nim;
pub mod subtraction;
pub mod tour;
pub mod verify;
pub mod welter;
pub mod wythoff;
pub mod young;
pub mod young_draw;
