//! The one trait every game implements: rules only, no solving.
//!
//! A game is a set of positions and, for each position, its options (the positions one move
//! reaches). Evaluators in [`crate::solve`] read these rules in different ways (normal play,
//! misère play, several players with preferences) without the game knowing.

use std::fmt::Debug;
use std::hash::Hash;

/// The rules of a finite impartial game.
///
/// Only [`options`](Game::options) is required. The other methods are optional hooks that make
/// the engines in [`crate::solve`] faster; each has a default that is always correct.
///
/// Implementations must describe a *finite* game: every play ends. Evaluators detect a loop
/// (a position reachable from itself) and report it as [`crate::Error::Loop`] instead of hanging.
///
/// # Example: Cram in a dozen lines
///
/// Cram is played on a board of empty cells; a move places a domino on two adjacent empty
/// cells. Here a row of `n` empty cells is the whole state (a 1 x n board):
///
/// ```
/// use grundy::{Game, NormalPlay};
///
/// struct CramRow;
/// impl Game for CramRow {
///     /// The lengths of the runs of empty cells, sorted.
///     type Position = Vec<u32>;
///     fn options(&self, runs: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
///         for (i, &n) in runs.iter().enumerate() {
///             for left in 0..n.saturating_sub(1) {
///                 // a domino on cells left, left+1 leaves runs of `left` and `n - left - 2`
///                 let mut next = runs.clone();
///                 next.remove(i);
///                 next.extend([left, n - left - 2].into_iter().filter(|&k| k > 1));
///                 next.sort();
///                 out.push(next);
///             }
///         }
///     }
///     /// Each run is an independent game: the position is their disjunctive sum.
///     fn components(&self, runs: &Vec<u32>) -> Option<Vec<Vec<u32>>> {
///         (runs.len() > 1).then(|| runs.iter().map(|&n| vec![n]).collect())
///     }
/// }
///
/// let mut solver = NormalPlay::new(CramRow);
/// // 1 x n Cram is the octal game 0.07 (Dawson's Kayles): G(0..8) = 0 0 1 1 2 0 3 1
/// let values: Vec<u64> = (0..8).map(|n| solver.grundy_value(&vec![n]).unwrap()).collect();
/// assert_eq!(values, [0, 0, 1, 1, 2, 0, 3, 1]);
/// assert_eq!(solver.grundy_value(&vec![4, 6]).unwrap(), 2 ^ 3);
/// ```
pub trait Game {
    /// A position. Equal positions must have equal options; canonicalise (e.g. sort heaps) so
    /// that the memo table recognises transpositions.
    type Position: Clone + Eq + Hash + Debug;

    /// Every option of `position`, pushed onto `out` (which the caller has cleared).
    ///
    /// The order matters to the pruned search ([`crate::solve::pruned`]): it tries options in
    /// this order, so list the moves most likely to win first when you know them.
    fn options(&self, position: &Self::Position, out: &mut Vec<Self::Position>);

    /// Optionally split `position` into independent components (a disjunctive sum).
    ///
    /// Return `None` when the position does not split (the default). When it returns
    /// `Some(parts)`, the contract is:
    ///
    /// 1. `position` is the disjunctive sum of `parts`: a move in `position` is a move in
    ///    exactly one part, and every move in a part is a move in `position`. Parts that are
    ///    terminal (no options, value 0) may be left out. (Normal play needs only the value:
    ///    a proved reduction may return parts whose sum merely has the value of `position`,
    ///    as Cram's cuts at 2x2 junctions do.)
    /// 2. Each part is *strictly simpler* than `position`: no part equals `position`, and
    ///    splitting a part again eventually stops. Return `None`, not `Some(vec![position])`,
    ///    for a position that does not split.
    /// 3. `parts` may be empty (every part was terminal: the position's value is 0).
    ///
    /// Normal-play evaluators then use the Sprague–Grundy theorem: the sum's value is the
    /// nim-sum of the parts' values, and they store only the parts' values, never the sum's.
    /// A breach of rule 2 is reported as an [`crate::Error::Invalid`] naming `components()`.
    /// Misère and multiplayer evaluators ignore this method: sums do not behave there.
    fn components(&self, _position: &Self::Position) -> Option<Vec<Self::Position>> {
        None
    }

    /// [`components`](Game::components) appending the parts to `out` instead of returning a
    /// new vector: `true` when `position` splits (its parts were appended), `false` when it
    /// does not (`out` unchanged). The same contract; engines call this one, once per option,
    /// so a game whose splitting is cheap may implement it to save an allocation each time.
    fn components_into(&self, position: &Self::Position, out: &mut Vec<Self::Position>) -> bool {
        match self.components(position) {
            Some(parts) => {
                out.extend(parts);
                true
            }
            None => false,
        }
    }

    /// Whether the parts [`components`](Game::components) returns are always single
    /// components already (it would return `None` for each of them), so that engines need not
    /// ask again. `false` (the default) is always correct.
    fn parts_are_final(&self) -> bool {
        false
    }

    /// Optionally, every option of `position` handed over already split into its components:
    /// for each option, in the order [`options`](Game::options) lists them, one
    /// [`OptionParts::push_option`] with the parts [`components`](Game::components) would
    /// return for it (or the option alone, when it does not split). Return `true` when `out`
    /// holds them; `false` (the default) to let the engine call `options` and split each option
    /// itself.
    ///
    /// This is a speed hook for games whose options are sums (a move cuts a region in two, a
    /// heap into two heaps): the plain evaluator ([`crate::NormalPlay`]) then never builds an
    /// option as a whole position only to split it again, and looks its parts up directly.
    /// The contract, besides that of `components` for each option's parts (terminal parts may
    /// be left out; an option whose parts are all terminal is an empty list):
    ///
    /// - the options are those of `options(position)`, same count, same order: option `i`
    ///   is the disjunctive sum of the parts of entry `i` (normal play needs only equal values);
    /// - the parts are split again by the engine unless
    ///   [`parts_are_final`](Game::parts_are_final) says they never split.
    ///
    /// The engine asks only about positions that `components` does not split (a sum is split
    /// first), so returning `false` for anything but a single component is fine. Only the
    /// normal-play evaluator calls it (misère play and the multiplayer readings, where sums do
    /// not behave, use `options`); the pruned search uses `options` and `components`.
    /// The examples `bacterial_tactics` and `grundys_game` of this crate use it (their timings
    /// with and without it are in the project's `docs/performance.md`).
    ///
    /// ```
    /// use grundy::{Game, NormalPlay, OptionParts};
    ///
    /// /// Grundy's game: split a heap into two unequal heaps; a position is its sorted heaps.
    /// struct Grundys;
    /// impl Grundys {
    ///     /// Every split of heap `h`, as the two heaps it leaves.
    ///     fn splits(h: u32) -> impl Iterator<Item = [u32; 2]> {
    ///         (1..h.div_ceil(2)).map(move |a| [a, h - a])
    ///     }
    /// }
    /// impl Game for Grundys {
    ///     type Position = Vec<u32>;
    ///     fn options(&self, heaps: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
    ///         for (i, &h) in heaps.iter().enumerate() {
    ///             for pair in Self::splits(h) {
    ///                 let mut next = heaps.clone();
    ///                 next.remove(i);
    ///                 next.extend(pair);
    ///                 next.sort();
    ///                 out.push(next);
    ///             }
    ///         }
    ///     }
    ///     fn components(&self, heaps: &Vec<u32>) -> Option<Vec<Vec<u32>>> {
    ///         (heaps.len() > 1).then(|| heaps.iter().map(|&h| vec![h]).collect())
    ///     }
    ///     /// A single heap's options, as their two heaps; sums are left to `components`.
    ///     fn option_parts(&self, heaps: &Vec<u32>, out: &mut OptionParts<Vec<u32>>) -> bool {
    ///         let [h] = heaps[..] else { return false };
    ///         for pair in Self::splits(h) {
    ///             out.push_option(pair.map(|k| vec![k]));
    ///         }
    ///         true
    ///     }
    ///     fn parts_are_final(&self) -> bool {
    ///         true // a part is one heap
    ///     }
    /// }
    ///
    /// let mut solver = NormalPlay::new(Grundys);
    /// let g: Vec<u64> = (1..=10).map(|n| solver.grundy_value(&vec![n]).unwrap()).collect();
    /// assert_eq!(g, [0, 0, 1, 0, 2, 1, 0, 2, 1, 0]); // OEIS A002188
    /// ```
    fn option_parts(
        &self,
        _position: &Self::Position,
        _out: &mut OptionParts<Self::Position>,
    ) -> bool {
        false
    }

    /// A canonical representative of `position` for the transposition table: a position with
    /// the same value, the same for every position the game considers equivalent (e.g. the
    /// least image under the board's symmetries; see [`crate::games::grid`]). The default is
    /// the position itself. Only called on positions that do not split into components.
    ///
    /// Contract: `canonical(p)` has the same Grundy value as `p`, and is a valid position of
    /// the game (the engine explores its options).
    fn canonical(&self, position: &Self::Position) -> Self::Position {
        position.clone()
    }

    /// A value the game knows without search (a theorem beside the rules, e.g. Cram's
    /// symmetry strategy), or `None` (the default). Engines trust it, so tests must compare it
    /// with the plain evaluator. The pruned search asks it again each time rather than store
    /// its answers: keep it cheap.
    fn known_value(&self, _position: &Self::Position) -> Option<crate::Nimber> {
        None
    }

    /// How hard the single component `position` is to search (e.g. its number of empty
    /// cells), or `None` (the default: the engine counts its options instead, which costs a
    /// call to [`options`](Game::options)). The pruned search ([`crate::solve::pruned`]) tries
    /// the options whose parts are lightest first, and in a sum of several unknown parts it
    /// computes the full values of all parts but the heaviest, which it only queries.
    fn weight(&self, _position: &Self::Position) -> Option<u64> {
        None
    }

    /// How many positions the dense numbering of [`dense_index`](Game::dense_index) has for
    /// a search that starts at `start`, or `None` (the default: no dense numbering).
    ///
    /// An optional speed-up for games whose positions can be numbered `0..n` without gaps to
    /// speak of: the pruned search ([`crate::solve::pruned`]) then keeps exact values in a
    /// plain array of `n` bytes, one look-up one memory access, instead of in its hashed
    /// table (which keeps only what is still partial, and values above 254). It does so only
    /// when `n` bytes fit in half its memory budget. Chomp numbers the Young diagrams inside
    /// the `R x C` box of its start as lattice paths, `C(R + C, R)` of them.
    fn dense_size(&self, _start: &Self::Position) -> Option<usize> {
        None
    }

    /// The number of `position` in the dense numbering for `start` (see
    /// [`dense_size`](Game::dense_size)), or `None` for a position the numbering leaves out
    /// (the engine then uses its hashed table for it). Only called when `dense_size(start)`
    /// is `Some(n)`, on canonical single components ([`canonical`](Game::canonical)).
    ///
    /// Contract: every number is below `n` (the engine ignores those that are not), and two
    /// positions share a number only when they have the same Grundy value (equal positions,
    /// or positions the game considers equivalent, as a Chomp diagram and its transpose).
    /// Engines trust it: test it, e.g. that it is a bijection on every position of small
    /// starts (see `games/chomp.rs`). It is asked on every table look-up: keep it cheap.
    fn dense_index(&self, _start: &Self::Position, _position: &Self::Position) -> Option<usize> {
        None
    }

    /// Whether the evaluation must stop now, and with which error; `None` (the default) to go
    /// on. The shared traversal ([`crate::solve::Solver`]) asks after every call of
    /// [`options`](Game::options), [`option_parts`](Game::option_parts) and
    /// [`components`](Game::components) and, on `Some`, stops
    /// and returns that error, keeping in its memo table only the values it had finished.
    ///
    /// This is for rules that can fail or be interrupted while the engine runs: a game whose
    /// options come from a callback in another language (the Python package's `grundy.Game`
    /// stores the callback's exception here and reports it to its caller) or that watches for
    /// Ctrl-C. A game that cannot fail keeps the default.
    fn interrupted(&self) -> Option<crate::Error> {
        None
    }

    /// Convenience: the options as a fresh vector.
    fn options_vec(&self, position: &Self::Position) -> Vec<Self::Position> {
        let mut out = Vec::new();
        self.options(position, &mut out);
        out
    }
}

/// A game whose options carry the user's move (a domino's cells, a bite's square), so that
/// winning moves can be reported as moves rather than as resulting positions.
///
/// Optional: a [`Game`] without it still gets values and winning moves (as positions).
pub trait LabelledMoves: Game {
    /// A move as the user would name it.
    type Move: Clone + Debug;

    /// Every `(move, resulting position)` of `position`, in any order, pushed onto `out`.
    fn moves(&self, position: &Self::Position, out: &mut Vec<(Self::Move, Self::Position)>);
}

/// The options of a position, each as the list of its components: what
/// [`Game::option_parts`] fills. Option `i` is the disjunctive sum of [`get(i)`](Self::get).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionParts<P> {
    /// Every option's parts, one option after another.
    pub(crate) parts: Vec<P>,
    /// `ends[i]`: where option `i`'s parts end in `parts`.
    pub(crate) ends: Vec<usize>,
}

impl<P> Default for OptionParts<P> {
    fn default() -> Self {
        OptionParts {
            parts: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl<P> OptionParts<P> {
    /// No options yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add an option: the disjunctive sum of `parts` (none for an option of value 0).
    pub fn push_option(&mut self, parts: impl IntoIterator<Item = P>) {
        self.parts.extend(parts);
        self.ends.push(self.parts.len());
    }

    /// The number of options.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no option (a terminal position).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The parts of option `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn get(&self, i: usize) -> &[P] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.parts[start..self.ends[i]]
    }

    /// Every option's parts, in order.
    pub fn iter(&self) -> impl Iterator<Item = &[P]> {
        (0..self.len()).map(|i| self.get(i))
    }
}

macro_rules! forward_game {
    ($ty:ty) => {
        impl<G: Game + ?Sized> Game for $ty {
            type Position = G::Position;
            fn options(&self, position: &Self::Position, out: &mut Vec<Self::Position>) {
                (**self).options(position, out)
            }
            fn components(&self, position: &Self::Position) -> Option<Vec<Self::Position>> {
                (**self).components(position)
            }
            fn components_into(
                &self,
                position: &Self::Position,
                out: &mut Vec<Self::Position>,
            ) -> bool {
                (**self).components_into(position, out)
            }
            fn parts_are_final(&self) -> bool {
                (**self).parts_are_final()
            }
            fn option_parts(
                &self,
                position: &Self::Position,
                out: &mut OptionParts<Self::Position>,
            ) -> bool {
                (**self).option_parts(position, out)
            }
            fn canonical(&self, position: &Self::Position) -> Self::Position {
                (**self).canonical(position)
            }
            fn known_value(&self, position: &Self::Position) -> Option<crate::Nimber> {
                (**self).known_value(position)
            }
            fn weight(&self, position: &Self::Position) -> Option<u64> {
                (**self).weight(position)
            }
            fn dense_size(&self, start: &Self::Position) -> Option<usize> {
                (**self).dense_size(start)
            }
            fn dense_index(
                &self,
                start: &Self::Position,
                position: &Self::Position,
            ) -> Option<usize> {
                (**self).dense_index(start, position)
            }
            fn interrupted(&self) -> Option<crate::Error> {
                (**self).interrupted()
            }
        }
    };
}
forward_game!(&G);
forward_game!(Box<G>);

/// Outcome class of a two-player position: `P` (previous player wins: the player to move
/// loses) or `N` (next player, the one to move, wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// The player to move loses.
    P,
    /// The player to move wins.
    N,
}

impl Outcome {
    /// Normal-play outcome of a position with Grundy value `value`.
    pub fn from_value(value: crate::Nimber) -> Self {
        if value == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// "P" or "N".
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::P => "P",
            Outcome::N => "N",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
