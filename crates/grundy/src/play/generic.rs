//! Play any game of the `--game` registry (common-divisor Nim, take-and-break codes, ...):
//! two players, normal play, the engine evaluating with the generic normal-play evaluator.
//!
//! The heaps stay in the order the user sees them; a move names a heap and what it becomes
//! (`HEAP PARTS...`, so splitting moves are typed like any other), and is legal when the
//! game's canonical form of the result is an option of the canonical position.

use super::{
    heap_list, heaps_text, mex_text, nim_sum_lines, parse_heap_input, HeapInput, MoveInfo, Playable,
};
use crate::games::registry::{parse_game, HeapGame};
use crate::text::parse_u64;
use crate::{Error, Game, Nimber, NormalPlay};

/// Positions the engine may evaluate before refusing the game as too large.
pub(crate) const POSITION_LIMIT: usize = 2_000_000;

/// A heap-list position in the user's order, with the registry's canonical form.
pub(crate) struct Heaps {
    pub shown: Vec<u64>,
    pub canonical: fn(&[u64]) -> Vec<u64>,
}

impl Heaps {
    pub fn key(&self) -> Vec<u64> {
        (self.canonical)(&self.shown)
    }

    /// The move from the shown heaps to the canonical option `option`: the heap that
    /// disappeared (its first occurrence) and the heaps that appeared, which take its place.
    /// `None` when more than one heap changed.
    pub fn name_of(&self, option: &[u64]) -> Option<(String, Vec<u64>)> {
        let mut removed: Vec<u64> = self.shown.iter().copied().filter(|&h| h > 0).collect();
        let mut added = Vec::new();
        for &h in option.iter().filter(|&&h| h > 0) {
            if let Some(i) = removed.iter().position(|&r| r == h) {
                removed.swap_remove(i);
            } else {
                added.push(h);
            }
        }
        if removed.len() != 1 {
            return None;
        }
        let i = self.shown.iter().position(|&h| h == removed[0])?;
        let parts = if added.is_empty() { vec![0] } else { added };
        let mut after = self.shown[..i].to_vec();
        after.extend(parts.iter().copied().filter(|&p| p > 0 || parts.len() == 1));
        after.extend_from_slice(&self.shown[i + 1..]);
        if !option.contains(&0) {
            after.retain(|&h| h > 0);
        }
        Some((
            format!(
                "{i} {}",
                parts
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            after,
        ))
    }

    /// A legal move from here for the prompt (a split when there is one): `, e.g. '0 2 1'`.
    pub fn example(&self, game: &dyn Game<Position = Vec<u64>>) -> String {
        let options = game.options_vec(&self.key());
        let named: Vec<String> = options
            .iter()
            .filter_map(|o| self.name_of(o).map(|(n, _)| n))
            .collect();
        named
            .iter()
            .find(|n| n.split_whitespace().count() > 2)
            .or_else(|| named.first())
            .map_or_else(String::new, |n| format!(", e.g. '{n}'"))
    }

    /// The shown heaps after `input` (`HEAP PARTS...` or `HEAP -K`), if `game` allows it.
    pub fn apply(
        &self,
        game: &dyn Game<Position = Vec<u64>>,
        input: &str,
    ) -> Result<Vec<u64>, String> {
        let (i, parts) = match parse_heap_input(input, self.shown.len(), parse_u64)? {
            HeapInput::Take(i, k) => {
                if k == 0 || k > self.shown[i] {
                    return Err(format!(
                        "heap {i} has {} tokens; take between 1 and {}",
                        self.shown[i], self.shown[i]
                    ));
                }
                (i, vec![self.shown[i] - k])
            }
            HeapInput::Into(i, parts) => (i, parts),
        };
        let mut after = self.shown[..i].to_vec();
        after.extend(parts.iter().copied());
        after.extend_from_slice(&self.shown[i + 1..]);
        let target = (self.canonical)(&after);
        if game.options_vec(&self.key()).contains(&target) {
            let keep_zero = target.contains(&0);
            if !keep_zero {
                after.retain(|&h| h > 0);
            }
            Ok(after)
        } else {
            Err(format!(
                "heap {i} ({}) cannot become {} in one move",
                self.shown[i],
                heaps_text(&parts).replace(' ', " + ")
            ))
        }
    }
}

struct GenericPlay {
    solver: NormalPlay<HeapGame>,
    name: String,
    heaps: Heaps,
}

impl GenericPlay {
    fn value(&mut self) -> Result<Nimber, Error> {
        let key = self.heaps.key();
        self.solver.grundy_value(&key)
    }
}

impl Playable for GenericPlay {
    fn show(&self) -> String {
        format!("heaps: {}   ({})", heap_list(&self.heaps.shown), self.name)
    }
    fn show_position(&self) -> String {
        heaps_text(&self.heaps.shown)
    }
    fn state(&self) -> serde_json::Value {
        serde_json::json!({"kind": "heaps", "heaps": self.heaps.shown, "game": self.name})
    }
    fn heap_multiset(&self) -> bool {
        true
    }
    fn move_syntax(&self) -> String {
        format!(
            "{}: name a heap and what it becomes. Move: 'HEAP PARTS...' (heap HEAP, counted from 0, becomes the parts; 'HEAP 0': it is taken away) or 'HEAP -K' (take K, the rest stays one heap){}.",
            self.name,
            self.heaps.example(self.solver.game().as_ref())
        )
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        match self.value() {
            Ok(0) => "value 0: P-position, the player to move loses against perfect play".into(),
            Ok(v) => format!("value {v}: N-position, the player to move wins"),
            Err(e) => format!("cannot evaluate: {e}"),
        }
    }
    fn explain(&mut self, _mover: usize) -> Vec<String> {
        let key = self.heaps.key();
        let mut lines = Vec::new();
        let Ok(v) = self.value() else {
            return lines;
        };
        let parts = self.solver.game().components(&key);
        match parts {
            Some(parts) if parts.len() > 1 => {
                lines.push("Each heap is a game of its own; a heap's value is the mex of the values of what it can become:".into());
                let mut done: Vec<Vec<u64>> = Vec::new();
                let mut terms = Vec::new();
                for p in &parts {
                    let Ok(pv) = self.solver.grundy_value(p) else {
                        return lines;
                    };
                    terms.push(pv);
                    if done.contains(p) {
                        continue;
                    }
                    done.push(p.clone());
                    if let Ok(opts) = self.solver.options_with_values(p) {
                        let values: Vec<Nimber> = opts.iter().map(|(_, v)| *v).collect();
                        lines.push(format!("G({}) = {}", heaps_text(p), mex_text(&values)));
                    }
                }
                lines.push(format!(
                    "The position is the sum of its heaps: {}",
                    nim_sum_lines(&terms, &v)[0]
                ));
            }
            _ => {
                if let Ok(opts) = self.solver.options_with_values(&key) {
                    let values: Vec<Nimber> = opts.iter().map(|(_, v)| *v).collect();
                    lines.push(format!(
                        "G({}) = {} over the values of its {} options",
                        heaps_text(&self.heaps.shown),
                        mex_text(&values),
                        values.len()
                    ));
                }
            }
        }
        lines
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        let key = self.heaps.key();
        let options = self.solver.options_with_values(&key).ok()?;
        let (best, v) = options
            .iter()
            .find(|(_, v)| *v == 0)
            .or_else(|| options.iter().min_by_key(|(p, _)| p.iter().sum::<u64>()))?
            .clone();
        let why = if v == 0 {
            "to a position of value 0".to_string()
        } else {
            format!("no winning move exists; to a position of value {v}")
        };
        let name = self
            .heaps
            .name_of(&best)
            .map_or_else(|| format!("= {}", heaps_text(&best)), |(n, _)| n);
        Some((name, why))
    }
    fn options(&mut self, _mover: usize, limit: usize) -> Option<Vec<MoveInfo>> {
        let key = self.heaps.key();
        let options = self.solver.options_with_values(&key).ok()?;
        if options.len() > limit {
            return None;
        }
        Some(
            options
                .into_iter()
                .map(|(o, v)| {
                    let (name, after) = self
                        .heaps
                        .name_of(&o)
                        .unwrap_or_else(|| (format!("= {}", heaps_text(&o)), o.clone()));
                    MoveInfo {
                        good: v == 0,
                        name,
                        after: heaps_text(&after),
                        value: Some(v),
                        verdict: None,
                    }
                })
                .collect(),
        )
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        self.heaps.shown = self.heaps.apply(self.solver.game().as_ref(), input)?;
        Ok(())
    }
    fn is_over(&self) -> bool {
        self.solver.game().options_vec(&self.heaps.key()).is_empty()
    }
}

pub fn build(spec: &str, words: &[String]) -> Result<Box<dyn Playable>, Error> {
    let choice = parse_game(spec)?;
    let heaps = words
        .iter()
        .map(|w| parse_u64("heap", w))
        .collect::<Result<Vec<u64>, Error>>()?;
    if heaps.is_empty() {
        return Err(Error::Invalid(format!(
            "no position given (e.g. 'grundy play {} 6 3 2')",
            choice.spec
        )));
    }
    if (choice.work)(&heaps) > 50 * POSITION_LIMIT as u128 {
        return Err(Error::Invalid(
            "that position is too large to play out exactly; choose smaller heaps".into(),
        ));
    }
    let mut shown = heaps;
    if !(choice.position)(&shown).contains(&0) {
        shown.retain(|&h| h > 0);
    }
    Ok(Box::new(GenericPlay {
        solver: NormalPlay::new(choice.game).with_limit(POSITION_LIMIT),
        name: choice.name,
        heaps: Heaps {
            shown,
            canonical: choice.position,
        },
    }))
}
