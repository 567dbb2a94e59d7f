//! Building an explicit graph by exploring a game from a position.

use super::GameGraph;
use crate::{Error, Game, Result};
use rustc_hash::FxHashMap;

/// Every position reachable from `root`, as an explicit graph (node 0 is `root`; names are the
/// positions' `Debug` text). Refuses with [`Error::TooLarge`] past `limit` positions.
pub fn explore<G: Game>(game: &G, root: &G::Position, limit: usize) -> Result<GameGraph> {
    let (names, options) = explore_lists(game, root, limit)?;
    GameGraph::new(names, options, 0)
}

/// Every position reachable from `root` (`root` first), named by their `Debug` text, with their
/// option lists as indices; cycles are kept. Refuses with [`Error::TooLarge`] past `limit`.
pub(super) fn explore_lists<G: Game>(
    game: &G,
    root: &G::Position,
    limit: usize,
) -> Result<(Vec<String>, Vec<Vec<usize>>)> {
    let mut index: FxHashMap<G::Position, usize> = FxHashMap::default();
    let mut positions = vec![root.clone()];
    index.insert(root.clone(), 0);
    let mut options: Vec<Vec<usize>> = Vec::new();
    let mut buf = Vec::new();
    let mut next = 0;
    while next < positions.len() {
        buf.clear();
        game.options(&positions[next], &mut buf);
        let mut opts = Vec::with_capacity(buf.len());
        for o in buf.drain(..) {
            let id = match index.get(&o) {
                Some(&id) => id,
                None => {
                    if positions.len() >= limit {
                        return Err(Error::TooLarge(format!(
                            "too large to brute-force: more than {limit} positions are reachable"
                        )));
                    }
                    let id = positions.len();
                    index.insert(o.clone(), id);
                    positions.push(o);
                    id
                }
            };
            opts.push(id);
        }
        options.push(opts);
        next += 1;
    }
    let names = positions.iter().map(|p| format!("{p:?}")).collect();
    Ok((names, options))
}
