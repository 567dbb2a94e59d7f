//! The naive engine: G(n) as the mex over every option, for any code and for Grundy's game.
//!
//! "Naive" means it looks at all options (no rare/common shortcut), not that it is careless:
//! - a move that removes `k` and leaves `j` heaps from a heap of `n` reaches every nim-sum in
//!   `S_j(n - k)`, the set of nim-sums of `j` non-empty heaps summing to `n - k`. For `j = 2`
//!   it is one pass over `a + b = r`; for `j >= 3` it is the dynamic programme
//!   `S_j(r) = ∪_a G(a) ⊕ S_{j-1}(r - a)` over bitsets of values — never an enumeration of
//!   partitions, whose number grows like `r^(j-1)`. The union is grouped by the value `G(a)`,
//!   so each `a` costs one bitset OR and each distinct value one xor-translation;
//! - each `S_j(r)` is computed once and reused by every `k`: in order as `r` is reached when
//!   moves leave three or more heaps (the next row's programme reads the rows below), when
//!   first read for pairs (so a value after a gap costs one pass per split move);
//! - the mex is read off a bitset; all buffers are reused, nothing is allocated per heap size
//!   (tables grow by amortised pushes).
//!
//! Cost: `O(n²)` for octal codes (the pair pass), `O(n² · words)` per extra heap count for
//! codes that leave three or more heaps — fine for the everyday sizes this engine is for
//! (10^5 in about a second for octal codes in release builds).

use super::bitset;
use super::code::Code;
use super::engine::{next_values_of, value_too_large, CompactEngine, SequenceEngine};
use super::rules::Rules;
use super::values::{Value, Values};
use crate::Error;

/// The most memory the naive engine's nim-sum tables may take (1 GiB).
pub const TABLE_BUDGET: usize = 1 << 30;

/// The nim-sums reachable by splitting `r` tokens into `j` non-empty heaps, for `j >= 2` and
/// every `r` reached so far, as bitsets of `words` words (values below `64 * words`).
///
/// Rows `j < max_j` are kept for every `r` (the next row's programme reads them) and filled in
/// order ([`Self::push`]). When only pairs are needed (`max_j == 2`, octal codes) the single
/// row is a ring of `window` slots, filled on demand ([`Self::ensure_pair`]): a heap of `n`
/// reads `S_2(n - k)` for its split moves `k`, all within the last `window` values of `r` when
/// no move removes more than `window - 1` tokens. On demand, not in order, so that a value
/// after a gap (a resumed run, a trial of this engine after another computed the values)
/// costs one pass per split move, not one per slot of the window.
#[derive(Debug, Clone)]
pub(crate) struct SplitSets {
    words: usize,
    max_j: usize,
    window: Option<usize>,
    rows: Vec<Vec<u64>>,
    /// Without a window: rows hold `r < count`. With one: the length of the values the slots
    /// were computed from (shorter values start the slots over).
    count: usize,
    /// With a window: the `r` each slot holds (`usize::MAX`: none).
    held: Vec<usize>,
    /// With a window: the pair passes made so far (what a value costs; tests read it).
    passes: u64,
    group: Vec<u64>,
    touched: Vec<u32>,
    current: Vec<u64>,
    budget: usize,
}

impl SplitSets {
    /// Tables for `j = 2..=max_j` (`max_j >= 2`). `window`: keep only the last `window`
    /// values of `r` (allowed only when `max_j == 2`).
    pub(crate) fn new(max_j: usize, window: Option<usize>) -> Self {
        debug_assert!(max_j >= 2);
        debug_assert!(window.is_none() || max_j == 2);
        SplitSets {
            words: 1,
            max_j,
            window,
            rows: vec![Vec::new(); max_j - 1],
            count: 0,
            held: Vec::new(),
            passes: 0,
            group: Vec::new(),
            touched: Vec::new(),
            current: Vec::new(),
            budget: TABLE_BUDGET,
        }
    }

    /// Whether `x` is in `S_j(r)` (false when `r < j`).
    pub(crate) fn contains(&self, j: usize, r: usize, x: u32) -> bool {
        r >= j && bitset::contains(self.set(j, r), x)
    }

    /// Make every set wide enough for values up to `max_value` (call before any push).
    pub(crate) fn widen_for(&mut self, max_value: usize) -> Result<(), Error> {
        let words = (max_value / 64 + 1).next_power_of_two();
        if words > self.words {
            self.widen(words)?;
        }
        Ok(())
    }

    /// Refuse tables larger than the budget (`count` values of r, `words` per set).
    fn check_budget(&self, count: usize, words: usize) -> Result<(), Error> {
        let slots = self.window.map_or(count, |w| w.min(count));
        let bytes = self
            .rows
            .len()
            .saturating_mul(slots)
            .saturating_mul(words)
            .saturating_mul(8);
        if bytes > self.budget {
            return Err(Error::TooLarge(format!(
                "too large: the naive engine's tables of nim-sums of {} heaps would need {} MiB \
                 (values up to {} at heap size {count}); the limit is {} MiB",
                self.max_j,
                bytes >> 20,
                64 * words - 1,
                self.budget >> 20
            )));
        }
        Ok(())
    }

    fn slot(&self, r: usize) -> usize {
        match self.window {
            Some(w) => r % w,
            None => r,
        }
    }

    /// `S_j(r)`; `2 <= j <= max_j`, `r < count` (with a window: `r` held, see
    /// [`Self::ensure_pair`]).
    pub(crate) fn set(&self, j: usize, r: usize) -> &[u64] {
        debug_assert!(self.window.is_none() || self.held[self.slot(r)] == r);
        let s = self.slot(r) * self.words;
        &self.rows[j - 2][s..s + self.words]
    }

    /// Make room for values below `64 * words` (a power of two, larger than the current one).
    pub(crate) fn widen(&mut self, words: usize) -> Result<(), Error> {
        debug_assert!(words.is_power_of_two() && words > self.words);
        self.check_budget(self.count, words)?;
        let old = self.words;
        for row in &mut self.rows {
            let slots = row.len() / old;
            let mut wide = vec![0u64; slots * words];
            for s in 0..slots {
                wide[s * words..s * words + old].copy_from_slice(&row[s * old..(s + 1) * old]);
            }
            *row = wide;
        }
        self.words = words;
        Ok(())
    }

    /// Bring the tables up to `r = g.len()` (exclusive) when `g` holds values they have not
    /// seen, e.g. a run resumed from a checkpoint or handed over by another engine; start
    /// over when `g` is shorter than what they reflect. Without a window only (with one,
    /// [`Self::ensure_pair`] fills what is read). Values in `g` must be below `64 * words`.
    pub(crate) fn catch_up<V: Value>(&mut self, g: &[V]) -> Result<(), Error> {
        debug_assert!(self.window.is_none());
        let r = g.len();
        if r < self.count {
            for row in &mut self.rows {
                row.clear();
            }
            self.count = 0;
        }
        while self.count < r {
            self.push(&g[..self.count])?;
        }
        Ok(())
    }

    /// With a window: make the slot of `r` hold `S_2(r)`, computed from `g` (`r <= g.len()`;
    /// values below `64 * words`) unless it holds it already. Values shorter than the last
    /// ones seen start every slot over (they may be other values).
    pub(crate) fn ensure_pair<V: Value>(&mut self, g: &[V], r: usize) -> Result<(), Error> {
        let win = self.window.expect("a window");
        debug_assert!(self.max_j == 2 && r <= g.len());
        if g.len() < self.count {
            self.held.fill(usize::MAX);
        }
        self.count = g.len();
        let w = self.words;
        if self.held.len() < win {
            self.check_budget(win, w)?;
            self.rows[0] = vec![0; win * w];
            self.held = vec![usize::MAX; win];
        }
        let s = r % win;
        if self.held[s] != r {
            let set = &mut self.rows[0][s * w..(s + 1) * w];
            set.fill(0);
            if r >= 2 {
                pair_sums(g, r, r / 2, set);
                self.passes += 1;
            }
            self.held[s] = r;
        }
        Ok(())
    }

    /// Compute `S_j(r)` for `r = g.len()` and every `j`, from `g = G(0..r)`. Every value in
    /// `g` must be below `64 * words`.
    /// Without a window only.
    pub(crate) fn push<V: Value>(&mut self, g: &[V]) -> Result<(), Error> {
        let r = g.len();
        debug_assert!(self.window.is_none());
        debug_assert_eq!(r, self.count);
        let w = self.words;
        if r.is_power_of_two() {
            // Checked as the tables double, so the cost is nil.
            self.check_budget(2 * r, w)?;
        }
        for j in 2..=self.max_j {
            self.current.clear();
            self.current.resize(w, 0);
            if r >= j {
                if j == 2 {
                    pair_sums(g, r, r / 2, &mut self.current);
                } else {
                    self.split_sums(g, r, j);
                }
            }
            self.rows[j - 2].extend_from_slice(&self.current);
        }
        self.count += 1;
        Ok(())
    }

    /// `current = S_j(r) = ∪_{a=1}^{r-j+1} G(a) ⊕ S_{j-1}(r - a)`, grouped by `G(a)`.
    fn split_sums<V: Value>(&mut self, g: &[V], r: usize, j: usize) {
        let w = self.words;
        let values = 64 * w;
        if self.group.len() < values * w {
            self.group.resize(values * w, 0);
        }
        self.touched.clear();
        let prev = &self.rows[j - 3];
        for a in 1..=r - (j - 1) {
            let x = g[a].get() as usize;
            let src = &prev[(r - a) * w..(r - a + 1) * w];
            let dst = &mut self.group[x * w..(x + 1) * w];
            if dst.iter().all(|&d| d == 0) {
                if src.iter().all(|&s| s == 0) {
                    continue;
                }
                self.touched.push(x as u32);
            }
            bitset::or_into(dst, src);
        }
        for &x in &self.touched {
            let xs = x as usize;
            bitset::or_xor_translated(&mut self.current, &self.group[xs * w..(xs + 1) * w], x);
            self.group[xs * w..(xs + 1) * w].fill(0);
        }
    }
}

/// `out |= { G(a) ⊕ G(r - a) : 1 <= a <= h }` (`h <= r/2`): the values of splitting `r` into
/// two non-empty heaps (`h = r/2`; Grundy's game, unequal heaps only: `h = (r-1)/2`). Every
/// value in `g[1..r]` is below `64 * out.len()`.
pub(crate) fn pair_sums<V: Value>(g: &[V], r: usize, h: usize, out: &mut [u64]) {
    let low = &g[1..=h];
    let high = &g[r - h..r];
    match out.len() {
        1 => {
            // One word: accumulate in registers (the hot loop of every octal game); four
            // independent accumulators keep the OR chain from serialising the loop.
            let mut acc = [0u64; 4];
            let mut lo = low.chunks_exact(4);
            let mut hi = high.rchunks_exact(4);
            for (l, h) in (&mut lo).zip(&mut hi) {
                acc[0] |= 1u64 << ((l[0].get() ^ h[3].get()) & 63);
                acc[1] |= 1u64 << ((l[1].get() ^ h[2].get()) & 63);
                acc[2] |= 1u64 << ((l[2].get() ^ h[1].get()) & 63);
                acc[3] |= 1u64 << ((l[3].get() ^ h[0].get()) & 63);
            }
            for (&x, &y) in lo.remainder().iter().zip(hi.remainder().iter().rev()) {
                acc[0] |= 1u64 << ((x.get() ^ y.get()) & 63);
            }
            out[0] |= acc[0] | acc[1] | acc[2] | acc[3];
        }
        2 => pair_sums_fixed::<V, 2>(low, high, out),
        4 => pair_sums_fixed::<V, 4>(low, high, out),
        8 => pair_sums_fixed::<V, 8>(low, high, out),
        _ => {
            for (&x, &y) in low.iter().zip(high.iter().rev()) {
                bitset::insert(out, (x.get() ^ y.get()) as u32);
            }
        }
    }
}

/// With a window: make `sets` hold `S_2(n - k)` for the heap `n = g.len()` and every split
/// move `k` but `except` (the pair sets a value of `n` reads).
fn ensure_pairs<V: Value>(
    sets: &mut SplitSets,
    splits: &[usize],
    g: &[V],
    except: Option<usize>,
) -> Result<(), Error> {
    let n = g.len();
    for &k in splits {
        if Some(k) != except && n >= k + 2 {
            sets.ensure_pair(g, n - k)?;
        }
    }
    Ok(())
}

/// [`pair_sums`] with a local `W`-word accumulator (values below `64 * W`).
fn pair_sums_fixed<V: Value, const W: usize>(low: &[V], high: &[V], out: &mut [u64]) {
    let mut acc = [0u64; W];
    for (&x, &y) in low.iter().zip(high.iter().rev()) {
        let v = (x.get() ^ y.get()) as usize;
        acc[(v >> 6) % W] |= 1u64 << (v & 63);
    }
    for (o, a) in out.iter_mut().zip(acc) {
        *o |= a;
    }
}

/// Which moves a code allows, grouped by the number of heaps they leave.
#[derive(Debug, Clone)]
struct MoveLists {
    /// `k >= 1` such that a heap of exactly `k` may be taken whole (bit 1 of `d_k`).
    whole: Vec<usize>,
    /// `k >= 1` such that `k` may be removed leaving one heap (bit 2 of `d_k`).
    single: Vec<usize>,
    /// `split[j - 2]`: `k >= 0` such that removing `k` may leave `j >= 2` heaps.
    split: Vec<Vec<usize>>,
}

impl MoveLists {
    fn new(code: &Code) -> Self {
        let max_j = code.max_heaps_left() as usize;
        let mut lists = MoveLists {
            whole: Vec::new(),
            single: Vec::new(),
            split: vec![Vec::new(); max_j.saturating_sub(1)],
        };
        for (k, &d) in code.digits().iter().enumerate() {
            for j in 0..128u32 {
                if d >> j & 1 == 0 {
                    continue;
                }
                match j {
                    0 => lists.whole.push(k),
                    1 => lists.single.push(k),
                    _ => lists.split[j as usize - 2].push(k),
                }
            }
        }
        lists
    }

    fn max_j(&self) -> usize {
        self.split.len() + 1
    }
}

/// The naive engine for any [`Rules`].
#[derive(Debug, Clone)]
pub struct Naive {
    rules: Rules,
    moves: Option<MoveLists>,
    sets: Option<SplitSets>,
    words: usize,
    acc: Vec<u64>,
    /// Every value of the `g` last seen below this length is below `64 * words` (scanned, or
    /// computed here): a catch-up scans only the values past it.
    known: usize,
    /// See [`SequenceEngine::set_resize_limit`].
    resize_limit: usize,
}

impl Naive {
    /// An engine for `rules` (a [`Code`] or [`Rules`]), ready for n = 0.
    pub fn new(rules: impl Into<Rules>) -> Self {
        let rules = rules.into();
        let moves = rules.code().map(MoveLists::new);
        let sets = moves.as_ref().and_then(|m| {
            let max_j = m.max_j();
            (max_j >= 2).then(|| {
                let window =
                    (max_j == 2).then(|| m.split[0].iter().max().copied().unwrap_or(0) + 1);
                SplitSets::new(max_j, window)
            })
        });
        Naive {
            rules,
            moves,
            sets,
            words: 1,
            acc: vec![0; 1],
            known: 0,
            resize_limit: usize::MAX,
        }
    }

    /// Limit the memory of the nim-sum tables to `bytes` (default [`TABLE_BUDGET`]); beyond
    /// it `next_value` reports [`Error::TooLarge`].
    pub fn with_table_budget(mut self, bytes: usize) -> Self {
        if let Some(s) = &mut self.sets {
            s.budget = bytes;
        }
        self
    }

    /// The rules this engine runs.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Bring the nim-sum tables in step with `g = G(0..n)` when this engine did not compute
    /// all of it (a run resumed from a checkpoint, or handed over by another engine; the
    /// next [`SequenceEngine::next_value`] does it anyway). For octal codes this is a scan of
    /// the values not seen yet (for their largest) and one pair pass per split move but the
    /// shortest, whose pass is the one every value costs: what is left for the next value is
    /// what it costs in a run of this engine alone (the automatic engine times that part).
    pub fn catch_up<V: Value>(&mut self, g: &[V]) -> Result<(), Error> {
        let n = g.len();
        if n < self.known {
            self.known = 0;
        }
        if n > self.known {
            let max = g[self.known..]
                .iter()
                .copied()
                .max()
                .map_or(0, |v| v.get() as usize);
            self.widen_for(max)?;
            self.known = n;
        }
        let (Some(sets), Some(moves)) = (&mut self.sets, &self.moves) else {
            return Ok(());
        };
        if sets.window.is_none() {
            return sets.catch_up(g);
        }
        let shortest = moves.split[0].iter().min().copied();
        ensure_pairs(sets, &moves.split[0], g, shortest)
    }

    fn widen_for(&mut self, value: usize) -> Result<(), Error> {
        let words = (value / 64 + 1).next_power_of_two();
        if words > self.words {
            if let Some(s) = &mut self.sets {
                s.widen(words)?;
            }
            self.words = words;
            self.acc = vec![0; words];
        }
        Ok(())
    }
}

impl SequenceEngine for Naive {
    fn name(&self) -> &'static str {
        "naive"
    }

    fn next_value(&mut self, g: &[u16]) -> Result<u16, Error> {
        self.value_of(g)
    }

    fn next_values(&mut self, values: &mut Values, count: usize) -> Result<(), Error> {
        next_values_of(self, values, count)
    }

    fn compact(&self) -> bool {
        true
    }

    fn set_resize_limit(&mut self, values: usize) {
        self.resize_limit = values;
    }
}

impl CompactEngine for Naive {
    fn resize_limit(&self) -> usize {
        self.resize_limit
    }

    fn next_values_in<V: Value>(
        &mut self,
        values: &mut crate::takebreak::values::Buf<V>,
        count: usize,
    ) -> Result<Option<u16>, Error> {
        for _ in 0..count {
            let v = self.value_of(values)?;
            match V::fit(v as usize) {
                Some(x) => values.push(x),
                None => return Ok(Some(v)),
            }
        }
        Ok(None)
    }
}

impl Naive {
    /// G(n) for `n = g.len()` (values in bytes or `u16`).
    pub(crate) fn value_of<V: Value>(&mut self, g: &[V]) -> Result<u16, Error> {
        let n = g.len();
        self.catch_up(g)?;
        self.acc.fill(0);
        match &self.moves {
            None => {
                // Grundy's game: (n) -> (a, n - a) with 0 < a < n - a.
                if n >= 3 {
                    pair_sums(g, n, (n - 1) / 2, &mut self.acc);
                }
            }
            Some(moves) => {
                if let Some(sets) = &mut self.sets {
                    if sets.window.is_some() {
                        ensure_pairs(sets, &moves.split[0], g, None)?;
                    } else {
                        sets.push(g)?;
                    }
                }
                if moves.whole.contains(&n) {
                    bitset::insert(&mut self.acc, 0);
                }
                for &k in &moves.single {
                    if k < n {
                        bitset::insert(&mut self.acc, g[n - k].get() as u32);
                    }
                }
                if let Some(sets) = &self.sets {
                    for (i, ks) in moves.split.iter().enumerate() {
                        let j = i + 2;
                        for &k in ks {
                            if n >= k + j {
                                bitset::or_into(&mut self.acc, sets.set(j, n - k));
                            }
                        }
                    }
                }
            }
        }
        let value = bitset::mex(&self.acc);
        let checked = checked_value(value, n)?;
        if value >= 64 * self.words {
            self.widen_for(value)?;
        }
        Ok(checked)
    }
}

/// `value` as a `u16`, or the error for G(n) beyond `u16::MAX`.
fn checked_value(value: usize, n: usize) -> Result<u16, Error> {
    u16::try_from(value).map_err(|_| value_too_large(n))
}

/// G(0..=n) for `code` with the naive engine (n + 1 values).
pub fn sequence(code: &Code, n: usize) -> Result<Vec<u16>, Error> {
    sequence_of(&Rules::Code(code.clone()), n)
}

/// G(0..=n) for any [`Rules`] with the naive engine (n + 1 values).
pub fn sequence_of(rules: &Rules, n: usize) -> Result<Vec<u16>, Error> {
    let mut engine = Naive::new(rules.clone());
    let mut g = Vec::with_capacity(n.saturating_add(1).min(1 << 24));
    for _ in 0..=n {
        let v = engine.next_value(&g)?;
        g.push(v);
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(code: &str, n: usize) -> Vec<u16> {
        sequence_of(&Rules::parse(code).unwrap(), n).unwrap()
    }

    #[test]
    fn kayles_and_dawsons_kayles_start_as_published() {
        // Winning Ways: Kayles 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 ...
        assert_eq!(
            seq("kayles", 15),
            [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]
        );
        // Dawson's Kayles 0.07: 0 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 ...
        assert_eq!(
            seq("0.07", 15),
            [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0]
        );
    }

    #[test]
    fn grundys_game_starts_as_published() {
        // OEIS A002188: 0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0
        assert_eq!(
            seq("grundys-game", 20),
            [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
        );
    }

    #[test]
    fn nim_is_the_identity_and_values_widen_past_64() {
        // 0.333...: remove any 1..=m leaving 0 or 1 heap; with 200 threes, G(n) = n for n <= 200.
        let code = format!("0.{}", "3".repeat(200));
        let g = seq(&code, 200);
        assert!(g.iter().enumerate().all(|(n, &v)| v as usize == n));
    }

    #[test]
    fn a_value_after_a_gap_costs_one_pair_pass_per_split_move() {
        // split moves: 0.16 removes 2; 0.137 removes 3; 0.4407 removes 1, 2 or 4
        for (text, splits) in [("0.16", 1), ("0.137", 1), ("0.4407", 3)] {
            let code = Code::parse(text).unwrap();
            let truth = sequence(&code, 3000).unwrap();
            for gap in [7, 1000, 2500] {
                let mut e = Naive::new(code.clone());
                e.catch_up(&truth[..gap]).unwrap();
                let passes = |e: &Naive| e.sets.as_ref().unwrap().passes;
                // the catch-up leaves exactly the pass of the shortest split move
                assert_eq!(passes(&e), splits - 1, "{text} at {gap}");
                assert_eq!(e.value_of(&truth[..gap]).unwrap(), truth[gap]);
                assert_eq!(passes(&e), splits, "{text} at {gap}");
                // and every value on from there is the naive sequence's, each costing one pass
                // once the window is filled again
                for n in gap + 1..gap + 60 {
                    assert_eq!(e.value_of(&truth[..n]).unwrap(), truth[n], "{text}: G({n})");
                }
                let before = passes(&e);
                for n in gap + 60..gap + 100 {
                    assert_eq!(e.value_of(&truth[..n]).unwrap(), truth[n], "{text}: G({n})");
                }
                assert_eq!(passes(&e) - before, 40, "{text} after {gap}");
            }
        }
    }

    #[test]
    fn values_shorter_than_the_last_ones_start_the_slots_over() {
        // a run handed other values (e.g. a test's, or a rolled-back store) must not read
        // slots computed from the first ones
        let code = Code::parse("0.16").unwrap();
        let truth = sequence(&code, 400).unwrap();
        let mut forged = truth[..300].to_vec();
        for (i, v) in forged.iter_mut().enumerate().skip(1) {
            *v = (i % 7) as u16;
        }
        let mut e = Naive::new(code.clone());
        // S_2(298) from the forged values, in the slot G(300) reads
        e.value_of(&forged).unwrap();
        for n in [299, 300] {
            assert_eq!(e.value_of(&truth[..n]).unwrap(), truth[n], "G({n})");
        }
    }

    #[test]
    fn tables_beyond_the_budget_are_an_error() {
        // 0.8 grows like n/3, so its tables grow like n²: 64 KiB is exceeded before n = 2000.
        let mut e = Naive::new(Code::parse("0.8").unwrap()).with_table_budget(64 << 10);
        let mut g = Vec::new();
        let err = loop {
            match e.next_value(&g) {
                Ok(v) => g.push(v),
                Err(err) => break err,
            }
            assert!(g.len() < 2000, "the budget must stop the engine");
        };
        assert!(matches!(err, Error::TooLarge(_)), "{err}");
        assert!(err.to_string().contains("MiB"), "{err}");
    }

    #[test]
    fn values_beyond_u16_are_an_error() {
        assert_eq!(checked_value(65_535, 9).unwrap(), 65_535);
        let e = checked_value(65_536, 70_000).unwrap_err().to_string();
        assert!(e.contains("G(70000)") && e.contains("65535"), "{e}");
    }

    /// G(0..=n) from the generic solver running the literal rules.
    fn reference(rules: &Rules, n: u32) -> Vec<u16> {
        use crate::takebreak::game::TakeBreakGame;
        let mut play = crate::NormalPlay::new(TakeBreakGame::new(rules.clone()));
        (0..=n)
            .map(|h| play.grundy_value(&TakeBreakGame::position(&[h])).unwrap() as u16)
            .collect()
    }

    #[test]
    fn named_hexadecimal_and_large_digit_codes_match_the_generic_solver() {
        for code in [
            "0.77",
            "0.07",
            "0.137",
            "0.6",
            "4.07",
            "8.7",
            "0.F",
            "0.FF",
            "0.8",
            "0.B3",
            "0.Z",
            "0.&64;1",
            "C.3",
            "0.&1024;7",
            "grundys-game",
        ] {
            let rules = Rules::parse(code).unwrap();
            assert_eq!(
                sequence_of(&rules, 22).unwrap(),
                reference(&rules, 22),
                "{code}"
            );
        }
    }

    /// Direct loops over 1, 2 and 3 parts (codes with digits below 16), for sizes where the
    /// generic solver is too slow: exercises tables wider than one word.
    fn direct_hexadecimal(code: &Code, n: usize) -> Vec<u16> {
        let mut g: Vec<u16> = Vec::new();
        for h in 0..=n {
            let mut seen = vec![false; 4 * h + 8];
            for k in 0..=h.min(code.last_nonzero()) {
                let r = h - k;
                if code.allows(k, 0) && r == 0 {
                    seen[0] = true;
                }
                if code.allows(k, 1) && r >= 1 {
                    seen[g[r] as usize] = true;
                }
                if code.allows(k, 2) {
                    for a in 1..=r / 2 {
                        seen[(g[a] ^ g[r - a]) as usize] = true;
                    }
                }
                if code.allows(k, 3) {
                    for a in 1..=r / 3 {
                        for b in a..=(r - a) / 2 {
                            seen[(g[a] ^ g[b] ^ g[r - a - b]) as usize] = true;
                        }
                    }
                }
            }
            g.push(seen.iter().position(|&x| !x).unwrap() as u16);
        }
        g
    }

    #[test]
    fn wide_values_match_direct_loops() {
        for text in [
            format!("0.{}", "F".repeat(70)),
            format!("0.{}", "7".repeat(90)),
            "0.F7B".into(),
            "4.F".into(),
        ] {
            let code = Code::parse(&text).unwrap();
            let g = sequence(&code, 150).unwrap();
            assert_eq!(g, direct_hexadecimal(&code, 150), "{text}");
        }
        let g = sequence(&Code::parse(&format!("0.{}", "F".repeat(70))).unwrap(), 150).unwrap();
        assert!(
            g.iter().any(|&v| v >= 128),
            "the test must reach four-word sets"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        #[test]
        fn random_codes_match_the_generic_solver(
            d0 in proptest::sample::select(vec![0u128, 4, 8, 12, 16, 20]),
            digits in proptest::collection::vec(0u128..64, 1..5),
        ) {
            let code = Code::from_digits(std::iter::once(d0).chain(digits).collect()).unwrap();
            let rules = Rules::Code(code.clone());
            proptest::prop_assert_eq!(sequence(&code, 16).unwrap(), reference(&rules, 16), "{}", code);
        }
    }
}
