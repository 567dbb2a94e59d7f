//! The shared traversal: memoised post-order evaluation with an explicit stack.

use crate::{Error, Game};
use rustc_hash::{FxHashMap, FxHashSet};

/// How an evaluator reads a game: the value of a position from the values of its options.
pub trait Reading<P> {
    /// What the evaluator computes for each position.
    type Value: Clone;

    /// The value of `position` given the values of all its options (empty for a terminal
    /// position), in the order [`Game::options`] produced them.
    fn combine(&mut self, position: &P, option_values: &[Self::Value]) -> Self::Value;

    /// Whether this reading may evaluate a decomposable position as a sum of its components.
    fn uses_components(&self) -> bool {
        false
    }

    /// The value of a sum from its components' values. Only called when
    /// [`uses_components`](Reading::uses_components) is true.
    fn sum(&mut self, _component_values: &[Self::Value]) -> Self::Value {
        unreachable!("this reading does not evaluate sums")
    }
}

/// Options of a position paired with their values.
pub type OptionValues<P, V> = Vec<(P, V)>;

struct Frame<P> {
    position: P,
    children: Vec<P>,
    next: usize,
    is_sum: bool,
}

/// A game, a reading of it, and the memo table of values found so far.
///
/// The memo table persists between calls, so asking for many positions of the same game (all
/// options of a position, a whole sequence) reuses earlier work.
pub struct Solver<G: Game, R: Reading<G::Position>> {
    game: G,
    reading: R,
    memo: FxHashMap<G::Position, R::Value>,
    limit: Option<usize>,
}

impl<G: Game, R: Reading<G::Position>> Solver<G, R> {
    /// A solver with an empty memo table and no limit on the positions it may store.
    pub fn new(game: G, reading: R) -> Self {
        Solver {
            game,
            reading,
            memo: FxHashMap::default(),
            limit: None,
        }
    }

    /// Refuse (with [`Error::TooLarge`]) to store more than `limit` positions. Use this to keep
    /// brute force away from positions it cannot finish.
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// The game being evaluated.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The reading in use.
    pub fn reading(&self) -> &R {
        &self.reading
    }

    /// Number of positions whose value is stored.
    pub fn positions_evaluated(&self) -> usize {
        self.memo.len()
    }

    /// The stored value of a position, if it was evaluated already.
    pub fn cached(&self, position: &G::Position) -> Option<&R::Value> {
        self.memo.get(position)
    }

    fn expand(&mut self, position: G::Position) -> Frame<G::Position> {
        if self.reading.uses_components() {
            if let Some(parts) = self.game.components(&position) {
                return Frame {
                    position,
                    children: parts,
                    next: 0,
                    is_sum: true,
                };
            }
        }
        let mut children = Vec::new();
        self.game.options(&position, &mut children);
        Frame {
            position,
            children,
            next: 0,
            is_sum: false,
        }
    }

    /// The value of `position`, evaluating (and memoising) everything below it.
    pub fn value(&mut self, position: &G::Position) -> Result<R::Value, Error> {
        if let Some(v) = self.memo.get(position) {
            return Ok(v.clone());
        }
        let mut on_stack: FxHashSet<G::Position> = FxHashSet::default();
        on_stack.insert(position.clone());
        let mut stack = vec![self.expand(position.clone())];
        let mut values: Vec<R::Value> = Vec::new();
        while let Some(top) = stack.last_mut() {
            if top.next < top.children.len() {
                let child = &top.children[top.next];
                top.next += 1;
                if self.memo.contains_key(child) {
                    continue;
                }
                if on_stack.contains(child) {
                    return Err(Error::Loop(format!("{child:?}")));
                }
                let child = child.clone();
                if let Some(limit) = self.limit {
                    if self.memo.len() + stack.len() > limit {
                        return Err(Error::TooLarge(format!(
                            "more than {limit} positions would have to be explored"
                        )));
                    }
                }
                on_stack.insert(child.clone());
                let frame = self.expand(child);
                stack.push(frame);
            } else {
                let frame = stack.pop().expect("stack is non-empty");
                values.clear();
                values.extend(frame.children.iter().map(|c| self.memo[c].clone()));
                let v = if frame.is_sum {
                    self.reading.sum(&values)
                } else {
                    self.reading.combine(&frame.position, &values)
                };
                on_stack.remove(&frame.position);
                self.memo.insert(frame.position, v);
            }
        }
        Ok(self.memo[position].clone())
    }

    /// Every option of `position` together with its value.
    pub fn options_with_values(
        &mut self,
        position: &G::Position,
    ) -> Result<OptionValues<G::Position, R::Value>, Error> {
        let options = self.game.options_vec(position);
        options
            .into_iter()
            .map(|o| {
                let v = self.value(&o)?;
                Ok((o, v))
            })
            .collect()
    }
}
