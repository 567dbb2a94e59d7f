//! One module per subcommand: argument struct, `run`, and the report it prints.

pub mod catalogue;
pub mod cdnim;
pub mod census;
pub mod chomp;
pub mod cram;
pub mod graph;
pub mod graph_loopy;
pub mod graph_structure;
pub mod loopy_subtraction;
pub mod mex;
pub mod multiplayer;
pub mod nim;
pub mod play;
pub mod runs;
pub mod search;
pub mod serve;
pub mod subtraction;
pub mod takebreak;
pub mod takebreak_options;
pub mod takebreak_plot;
pub mod tour;
pub mod verify;
pub mod welter;
pub mod wythoff;
pub mod young;
pub mod young_draw;
