//! The shared traversal: memoised post-order evaluation with an explicit stack.

use crate::{Error, Game, OptionParts};
use rustc_hash::FxHashMap;

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

/// The error for a `components()` that broke its contract (a part not strictly simpler).
pub(crate) fn components_error<P: std::fmt::Debug>(part: &P) -> Error {
    Error::Invalid(format!(
        "the game's components() is wrong: it returned a part ({part:?}) that is not strictly \
         simpler than the position it splits (a part equal to the position, or splitting back \
         into it); return None for a position that does not split"
    ))
}

/// Options of a position paired with their values.
pub type OptionValues<P, V> = Vec<(P, V)>;

/// A frame's lists: children still to value, values found, option ends (see [`Frame`]).
type Lists<P, V> = (Vec<P>, Vec<V>, Vec<usize>);

/// How many emptied lists the solver keeps for reuse. Frames come and go at the top of the
/// stack, so a few dozen serve them all; a cap keeps a once-deep stack (a million-move chain)
/// from leaving a million empty lists behind.
const SPARE_LISTS: usize = 64;

/// What a frame's children are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The options of the position, one child each.
    Options,
    /// The options of the position as [`Game::option_parts`] handed them over: the parts of
    /// every option one after another, option `i`'s ending at `ends[i]`.
    Parts,
    /// The components of a sum (the position is never stored).
    Sum,
}

/// A position being evaluated: its options (or parts) not yet valued, and the values found.
///
/// Children are taken from the end of `children` and dropped as soon as they are valued, so
/// `values` holds them last first (reversed before [`Reading::combine`]). Taking the last
/// option first also keeps the stack shallow for the common option order "smallest change
/// first": Grundy's game lists the split `1 + (n-1)` first, and following it first would put
/// every heap below `n` on the stack at once, each holding all of its options.
struct Frame<P, V> {
    position: P,
    children: Vec<P>,
    values: Vec<V>,
    /// For [`Kind::Parts`], where each option's parts end in the children as first listed.
    ends: Vec<usize>,
    kind: Kind,
}

/// A new frame, or the error that prevented it with the position it was for.
type Expanded<P, V> = Result<Frame<P, V>, (Error, P)>;

/// A game, a reading of it, and the memo table of values found so far.
///
/// The memo table persists between calls, so asking for many positions of the same game (all
/// options of a position, a whole sequence) reuses earlier work.
pub struct Solver<G: Game, R: Reading<G::Position>> {
    game: G,
    reading: R,
    /// `Some(value)` once evaluated; `None` while the position is on the stack of the current
    /// evaluation (meeting it again is a loop). One map serves both, so each position is hashed
    /// and stored once.
    memo: FxHashMap<G::Position, Option<R::Value>>,
    limit: Option<usize>,
    /// The game's [`Game::parts_are_final`], asked once.
    parts_are_final: bool,
    /// The parts' values of the sum [`known_sum`](Self::known_sum) is adding up, and the
    /// options' values of a [`Kind::Parts`] frame.
    scratch: Vec<R::Value>,
    /// Emptied lists of finished frames, reused by new frames: a frame then costs no
    /// allocation, and a game with many options per position no regrowth of its list.
    spare: Vec<Lists<G::Position, R::Value>>,
}

impl<G: Game, R: Reading<G::Position>> Solver<G, R> {
    /// A solver with an empty memo table and no limit on the positions it may store.
    pub fn new(game: G, reading: R) -> Self {
        Solver {
            parts_are_final: game.parts_are_final(),
            game,
            reading,
            memo: FxHashMap::default(),
            limit: None,
            scratch: Vec::new(),
            spare: Vec::new(),
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

    /// The stored value of a position, if it was evaluated already. Sums (positions that
    /// [`Game::components`] splits) are never stored.
    pub fn cached(&self, position: &G::Position) -> Option<&R::Value> {
        self.memo.get(position).and_then(Option::as_ref)
    }

    /// The split of `position` by [`Game::components`] when this reading evaluates sums.
    fn split(&mut self, position: &G::Position) -> Result<Option<Vec<G::Position>>, Error> {
        if !self.reading.uses_components() {
            return Ok(None);
        }
        let split = self.game.components(position);
        if let Some(e) = self.game.interrupted() {
            return Err(e);
        }
        Ok(split)
    }

    /// The value of the sum of `parts` when every part's value is stored already (no frame,
    /// no table entry: a sum is never stored), else `None`.
    fn known_sum(&mut self, parts: &[G::Position]) -> Option<R::Value> {
        let mut values = std::mem::take(&mut self.scratch);
        values.clear();
        for part in parts {
            match self.memo.get(part) {
                Some(Some(v)) => values.push(v.clone()),
                _ => {
                    self.scratch = values;
                    return None;
                }
            }
        }
        let v = self.reading.sum(&values);
        self.scratch = values;
        Some(v)
    }

    fn expand(&mut self, position: G::Position) -> Result<Frame<G::Position, R::Value>, Error> {
        let split = self.split(&position)?;
        self.expand_split(position, split).map_err(|(e, _)| e)
    }

    /// The frame of `position`, whose split by `components()` is `split`; on an error, the
    /// error and `position` back.
    fn expand_split(
        &mut self,
        position: G::Position,
        split: Option<Vec<G::Position>>,
    ) -> Expanded<G::Position, R::Value> {
        let (mut children, values, mut ends) = self.spare.pop().unwrap_or_default();
        let kind = if let Some(parts) = split {
            if parts.contains(&position) {
                return Err((components_error(&position), position));
            }
            children.extend(parts);
            Kind::Sum
        } else {
            let mut parts = OptionParts {
                parts: children,
                ends,
            };
            let handed_over =
                self.reading.uses_components() && self.game.option_parts(&position, &mut parts);
            OptionParts {
                parts: children,
                ends,
            } = parts;
            if handed_over {
                Kind::Parts
            } else {
                children.clear();
                ends.clear();
                self.game.options(&position, &mut children);
                Kind::Options
            }
        };
        if let Some(e) = self.game.interrupted() {
            return Err((e, position));
        }
        Ok(Frame {
            position,
            children,
            values,
            ends,
            kind,
        })
    }

    /// The value of `position`, evaluating (and memoising) everything below it.
    pub fn value(&mut self, position: &G::Position) -> Result<R::Value, Error> {
        if let Some(Some(v)) = self.memo.get(position) {
            return Ok(v.clone());
        }
        self.memo.insert(position.clone(), None);
        let mut stack = match self.expand(position.clone()) {
            Ok(frame) => vec![frame],
            Err(e) => {
                self.memo.remove(position);
                return Err(e);
            }
        };
        match self.run(&mut stack) {
            Ok(v) => Ok(v),
            Err(e) => {
                // Unmark what was in progress, so later calls do not see phantom loops.
                for frame in stack {
                    self.memo.remove(&frame.position);
                }
                Err(e)
            }
        }
    }

    /// The value of a finished frame from its children's values (in the children's order).
    fn finish(&mut self, frame: &Frame<G::Position, R::Value>) -> R::Value {
        match frame.kind {
            Kind::Sum => self.reading.sum(&frame.values),
            Kind::Options => self.reading.combine(&frame.position, &frame.values),
            Kind::Parts => {
                // each option's value is the sum of its parts' values
                let mut options = std::mem::take(&mut self.scratch);
                options.clear();
                let mut start = 0;
                for &end in &frame.ends {
                    options.push(self.reading.sum(&frame.values[start..end]));
                    start = end;
                }
                let v = self.reading.combine(&frame.position, &options);
                self.scratch = options;
                v
            }
        }
    }

    /// The traversal proper: post-order over `stack`, returning the bottom frame's value.
    ///
    /// Per option the work is kept to what the reading needs: when the reading evaluates sums,
    /// the option is split first (a sum is never in the table, so looking it up would only
    /// miss), and a sum whose parts are all valued is settled by its parts' table entries
    /// alone. Options are taken last first (see [`Frame`]). Parts handed over by
    /// [`Game::option_parts`] are looked up directly (and split again only when the game does
    /// not say [`Game::parts_are_final`]).
    fn run(&mut self, stack: &mut Vec<Frame<G::Position, R::Value>>) -> Result<R::Value, Error> {
        loop {
            let top = stack
                .last_mut()
                .expect("the stack holds the position being evaluated");
            if top.kind == Kind::Parts && self.parts_are_final {
                // Final parts already valued (most of them, once the small ones are known):
                // settled in one tight loop, each with one table look-up.
                while let Some(Some(Some(v))) = top.children.last().map(|c| self.memo.get(c)) {
                    top.values.push(v.clone());
                    top.children.pop();
                }
            }
            if let Some(child) = top.children.pop() {
                let parent = top.kind;
                let split = if parent == Kind::Parts && self.parts_are_final {
                    None
                } else {
                    self.split(&child)?
                };
                let known = match &split {
                    // A sum of parts already valued (the common case once a game's small
                    // positions are known) is settled here, without a frame or a table entry.
                    Some(parts) => self.known_sum(parts),
                    None => match self.memo.get(&child) {
                        Some(Some(v)) => Some(v.clone()),
                        // Meeting a position in progress is a loop of moves, unless the step
                        // that led here was a split: then `components()` broke its contract.
                        Some(None) if parent == Kind::Sum => return Err(components_error(&child)),
                        Some(None) => return Err(Error::Loop(format!("{child:?}"))),
                        None => None,
                    },
                };
                if let Some(v) = known {
                    stack.last_mut().expect("the parent frame").values.push(v);
                    continue;
                }
                // A sum gets a table entry only while its frame is on the stack (to catch a
                // `components()` whose parts split back into it); it never keeps a value.
                if split.is_some() {
                    match self.memo.get(&child) {
                        Some(_) if parent == Kind::Sum => return Err(components_error(&child)),
                        Some(_) => return Err(Error::Loop(format!("{child:?}"))),
                        None => {}
                    }
                }
                if let Some(limit) = self.limit {
                    if self.memo.len() >= limit {
                        return Err(Error::TooLarge(format!(
                            "too large to brute-force: more than {limit} positions would have to be explored"
                        )));
                    }
                }
                self.memo.insert(child.clone(), None);
                match self.expand_split(child, split) {
                    Ok(frame) => stack.push(frame),
                    // `value` unmarks the positions on the stack; this one is not on it yet
                    Err((e, child)) => {
                        self.memo.remove(&child);
                        return Err(e);
                    }
                }
            } else {
                let mut frame = stack.pop().expect("stack is non-empty");
                frame.values.reverse(); // back into the order of the children
                let v = self.finish(&frame);
                let Frame {
                    position,
                    children,
                    mut values,
                    mut ends,
                    kind,
                } = frame;
                if kind == Kind::Sum {
                    // Sums are never stored: their parts are, and the nim-sum is cheap.
                    self.memo.remove(&position);
                } else if let Some(slot) = self.memo.get_mut(&position) {
                    // its mark "in progress", set when its frame was pushed
                    *slot = Some(v.clone());
                }
                if self.spare.len() < SPARE_LISTS {
                    values.clear();
                    ends.clear();
                    self.spare.push((children, values, ends));
                }
                match stack.last_mut() {
                    Some(parent) => parent.values.push(v),
                    None => return Ok(v),
                }
            }
        }
    }

    /// Every option of `position` together with its value.
    pub fn options_with_values(
        &mut self,
        position: &G::Position,
    ) -> Result<OptionValues<G::Position, R::Value>, Error> {
        let options = self.game.options_vec(position);
        if let Some(e) = self.game.interrupted() {
            return Err(e);
        }
        options
            .into_iter()
            .map(|o| {
                let v = self.value(&o)?;
                Ok((o, v))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::games::subtraction::{subtraction, SubtractionSet};
    use crate::{Error, NormalPlay};

    /// Subtraction of 1 or 2 from one heap, whose options "fail" on the `fail_at`-th call
    /// (as a Python callback may raise): `interrupted()` reports it once.
    struct Failing {
        calls: std::cell::Cell<usize>,
        fail_at: usize,
        failed: std::cell::Cell<bool>,
    }

    impl crate::Game for Failing {
        type Position = u64;
        fn options(&self, n: &u64, out: &mut Vec<u64>) {
            self.calls.set(self.calls.get() + 1);
            if self.calls.get() == self.fail_at {
                self.failed.set(true);
                return; // a wrong (empty) list: the engine must not keep what follows from it
            }
            out.extend((1..=2).filter(|&k| k <= *n).map(|k| n - k));
        }
        fn interrupted(&self) -> Option<Error> {
            self.failed
                .replace(false)
                .then(|| Error::Invalid("stopped by the game".into()))
        }
    }

    #[test]
    fn an_interrupted_evaluation_stops_and_keeps_only_finished_values() {
        let game = Failing {
            calls: 0.into(),
            fail_at: 40,
            failed: false.into(),
        };
        let mut solver = NormalPlay::new(game);
        assert_eq!(
            solver.grundy_value(&100),
            Err(Error::Invalid("stopped by the game".into()))
        );
        // It stopped at the failing call: no option was asked for after it.
        assert_eq!(solver.game().calls.get(), 40);
        // Every value kept is right (G(n) = n mod 3), and asking again finishes the job.
        for n in 0..=100 {
            assert_eq!(solver.grundy_value(&n).unwrap(), n % 3, "G({n})");
        }
    }

    /// A reading that writes out the tree of option values, so their order shows.
    struct Tree;

    impl super::Reading<u64> for Tree {
        type Value = String;
        fn combine(&mut self, _position: &u64, option_values: &[String]) -> String {
            format!("({})", option_values.join(","))
        }
    }

    /// Take 1 or 2, options listed as `n - 1` then `n - 2`.
    struct TakeOneOrTwo;

    impl crate::Game for TakeOneOrTwo {
        type Position = u64;
        fn options(&self, n: &u64, out: &mut Vec<u64>) {
            out.extend((1..=2).filter(|&k| k <= *n).map(|k| n - k));
        }
    }

    #[test]
    fn option_values_reach_the_reading_in_the_order_of_the_options() {
        // the same tree built by plain recursion, options in the game's order
        fn tree(n: u64) -> String {
            let options: Vec<String> = (1..=2).filter(|&k| k <= n).map(|k| tree(n - k)).collect();
            format!("({})", options.join(","))
        }
        let mut solver = super::Solver::new(TakeOneOrTwo, Tree);
        for n in [0, 1, 2, 5, 12] {
            assert_eq!(solver.value(&n).unwrap(), tree(n), "n = {n}");
        }
    }

    #[test]
    fn a_deep_chain_leaves_few_spare_lists_behind() {
        // take 1 or 2 from 200000: the stack is 100000 frames deep at its deepest
        let mut solver = super::Solver::new(TakeOneOrTwo, crate::solve::Normal::default());
        assert_eq!(solver.value(&200_000).unwrap(), 200_000 % 3);
        assert!(!solver.spare.is_empty() && solver.spare.len() <= super::SPARE_LISTS);
    }

    /// Nim on sorted heaps, with (`split`) or without components.
    struct SplitNim {
        split: bool,
    }

    impl crate::Game for SplitNim {
        type Position = Vec<u64>;
        fn options(&self, heaps: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
            for i in 0..heaps.len() {
                for k in 0..heaps[i] {
                    let mut next = heaps.clone();
                    next[i] = k;
                    next.sort();
                    out.push(next);
                }
            }
        }
        fn components(&self, heaps: &Vec<u64>) -> Option<Vec<Vec<u64>>> {
            (self.split && heaps.len() > 1).then(|| heaps.iter().map(|&h| vec![h]).collect())
        }
    }

    #[test]
    fn sums_of_known_parts_are_valued_without_being_stored() {
        let mut split = NormalPlay::new(SplitNim { split: true });
        let mut whole = NormalPlay::new(SplitNim { split: false });
        for a in 0..6 {
            for b in a..6 {
                for c in b..6 {
                    let p = vec![a, b, c];
                    let v = split.grundy_value(&p).unwrap();
                    assert_eq!(v, a ^ b ^ c);
                    assert_eq!(v, whole.grundy_value(&p).unwrap());
                    assert_eq!(split.winning_moves(&p), whole.winning_moves(&p));
                }
            }
        }
        // Only single heaps 0..=5 are stored: every sum, met as an option or asked for, is not.
        assert_eq!(split.positions_evaluated(), 6);
    }

    #[test]
    fn a_refused_evaluation_leaves_no_phantom_loops() {
        let game = subtraction(SubtractionSet::finite(vec![1, 2]).unwrap());
        let mut solver = NormalPlay::new(game).with_limit(50);
        assert!(matches!(
            solver.grundy_value(&vec![1000]),
            Err(Error::TooLarge(_))
        ));
        // Positions that were on the stack when it was refused evaluate normally afterwards.
        assert_eq!(solver.grundy_value(&vec![30]).unwrap(), 0);
        assert_eq!(solver.grundy_value(&vec![31]).unwrap(), 1);
        assert!(matches!(
            solver.grundy_value(&vec![1000]),
            Err(Error::TooLarge(_))
        ));
    }

    /// A random game of *atoms*: atom `a` moves to a multiset of smaller atoms (`moves[a]`),
    /// and a position is a sorted multiset of atoms, their disjunctive sum. How the game hands
    /// its options over is chosen by `hand_over`.
    #[derive(Debug, Clone)]
    struct Atoms {
        moves: Vec<Vec<Vec<usize>>>,
        hand_over: HandOver,
    }

    #[derive(Debug, Clone, Copy)]
    enum HandOver {
        /// `options` and `components` only.
        Options,
        /// `option_parts` for single atoms, each part one atom (`parts_are_final`).
        FinalParts,
        /// `option_parts` for every position, each option as one part, the whole option,
        /// which the engine must split again.
        WholeParts,
    }

    impl crate::Game for Atoms {
        type Position = Vec<usize>;
        fn options(&self, p: &Vec<usize>, out: &mut Vec<Vec<usize>>) {
            for (i, &a) in p.iter().enumerate() {
                for m in &self.moves[a] {
                    let mut next: Vec<usize> = p[..i].iter().chain(&p[i + 1..]).copied().collect();
                    next.extend(m);
                    next.sort_unstable();
                    out.push(next);
                }
            }
        }
        fn components(&self, p: &Vec<usize>) -> Option<Vec<Vec<usize>>> {
            (p.len() > 1).then(|| p.iter().map(|&a| vec![a]).collect())
        }
        fn option_parts(&self, p: &Vec<usize>, out: &mut crate::OptionParts<Vec<usize>>) -> bool {
            match self.hand_over {
                HandOver::Options => false,
                HandOver::FinalParts => {
                    let [a] = p[..] else { return false };
                    for m in &self.moves[a] {
                        out.push_option(m.iter().map(|&b| vec![b]));
                    }
                    true
                }
                HandOver::WholeParts => {
                    for option in self.options_vec(p) {
                        out.push_option([option].into_iter().filter(|o| !o.is_empty()));
                    }
                    true
                }
            }
        }
        fn parts_are_final(&self) -> bool {
            matches!(self.hand_over, HandOver::FinalParts)
        }
    }

    fn arb_atoms() -> impl proptest::strategy::Strategy<Value = Vec<Vec<Vec<usize>>>> {
        use proptest::prelude::*;
        (1usize..12).prop_flat_map(|n| {
            (0..n)
                .map(|a| {
                    let part = if a == 0 { 0..1 } else { 0..a };
                    let one = proptest::collection::vec(part, 0..3);
                    proptest::collection::vec(one, if a == 0 { 0..1 } else { 0..4 })
                })
                .collect::<Vec<_>>()
        })
    }

    proptest::proptest! {
        #[test]
        fn options_handed_over_as_parts_give_the_same_values(
            moves in arb_atoms(),
            starts in proptest::collection::vec(proptest::collection::vec(0usize..12, 0..4), 1..6),
        ) {
            let game = |hand_over| Atoms { moves: moves.clone(), hand_over };
            let mut plain = NormalPlay::new(game(HandOver::Options));
            let mut final_parts = NormalPlay::new(game(HandOver::FinalParts));
            let mut whole_parts = NormalPlay::new(game(HandOver::WholeParts));
            for start in starts {
                let mut p: Vec<usize> = start.into_iter().map(|a| a % moves.len()).collect();
                p.sort_unstable();
                let v = plain.grundy_value(&p).unwrap();
                // the Sprague-Grundy theorem, by the atoms' values
                let by_atoms = p.iter().fold(0, |x, &a| x ^ plain.grundy_value(&vec![a]).unwrap());
                proptest::prop_assert_eq!(v, by_atoms);
                proptest::prop_assert_eq!(final_parts.grundy_value(&p).unwrap(), v);
                proptest::prop_assert_eq!(whole_parts.grundy_value(&p).unwrap(), v);
                proptest::prop_assert_eq!(final_parts.winning_moves(&p), plain.winning_moves(&p));
                // misère play does not take parts: the same answer either way
                proptest::prop_assert_eq!(
                    crate::solve::misere_outcome(game(HandOver::FinalParts), &p),
                    crate::solve::misere_outcome(game(HandOver::Options), &p)
                );
            }
            // parts are stored as single atoms, never as sums
            proptest::prop_assert!(final_parts.positions_evaluated() <= moves.len() + 1);
        }
    }

    #[test]
    fn a_part_that_is_the_position_itself_is_a_loop() {
        /// Heap `n` moves to `n - 1` plus a copy of itself: play never ends.
        struct Grows;
        impl crate::Game for Grows {
            type Position = u32;
            fn options(&self, _: &u32, _: &mut Vec<u32>) {}
            fn option_parts(&self, &n: &u32, out: &mut crate::OptionParts<u32>) -> bool {
                if n > 0 {
                    out.push_option([n - 1, n]);
                }
                true
            }
        }
        let e = NormalPlay::new(Grows).grundy_value(&3).unwrap_err();
        assert!(matches!(e, Error::Loop(_)), "{e}");
    }
}
