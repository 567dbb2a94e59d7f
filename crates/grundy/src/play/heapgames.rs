//! Play the foundation families: Nim, subtraction games, Wythoff's game.

use super::{heap_list, mex_text, nim_sum_lines, parse_heap_input, HeapInput, MoveInfo, Playable};
use crate::games::{nim, subtraction, wythoff};
use crate::text::{parse_big, parse_u64, parse_u64_list};
use crate::{Error, Nimber};
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

fn big_text(heaps: &[BigUint]) -> String {
    heaps
        .iter()
        .map(BigUint::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn outcome_text(zero: bool) -> &'static str {
    if zero {
        "P-position: the player to move loses against perfect play"
    } else {
        "N-position: the player to move wins"
    }
}

fn why_text(after: &str) -> String {
    if after == "0" {
        "to a position of value 0".into()
    } else {
        format!("no winning move exists; to a position of value {after}")
    }
}

struct NimPlay {
    heaps: Vec<BigUint>,
}

impl Playable for NimPlay {
    fn show(&self) -> String {
        format!("heaps: {}", heap_list(&self.heaps))
    }
    fn show_position(&self) -> String {
        big_text(&self.heaps)
    }
    fn state(&self) -> serde_json::Value {
        serde_json::json!({
            "kind": "heaps",
            "heaps": self.heaps.iter().map(BigUint::to_string).collect::<Vec<_>>(),
        })
    }
    fn heap_multiset(&self) -> bool {
        true
    }
    fn move_syntax(&self) -> String {
        "Nim: take any number of tokens from one heap. Move: 'HEAP SIZE' (e.g. '1 3': heap 1 becomes 3) or 'HEAP -K' (take K).".into()
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        let v = nim::nim_value(&self.heaps);
        format!(
            "value {v} (nim-sum of the heaps): {}",
            outcome_text(v.is_zero())
        )
    }
    fn explain(&mut self, _mover: usize) -> Vec<String> {
        let v = nim::nim_value(&self.heaps);
        let mut lines = vec![
            "A Nim position's value is the nim-sum (binary addition without carries) of its heaps:"
                .to_string(),
        ];
        lines.extend(nim_sum_lines(&self.heaps, &v));
        if v.is_zero() {
            lines.push("The nim-sum is 0: every move changes one heap and so makes it non-zero; the opponent can always answer back to 0.".into());
        } else if let Some(m) = nim::winning_moves(&self.heaps).into_iter().next() {
            lines.push(format!(
                "Heap {} ({}) has the highest bit of {v} set; {} ⊕ {v} = {} is smaller, so heap {} becomes {} and the nim-sum becomes 0.",
                m.heap, m.from, m.from, m.to, m.heap, m.to
            ));
        }
        lines
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        if self.is_over() {
            return None;
        }
        if let Some(m) = nim::winning_moves(&self.heaps).into_iter().next() {
            return Some((
                format!("{} {}", m.heap, m.to),
                "to a position of value 0".into(),
            ));
        }
        // No winning move: take one token from the largest heap and hope.
        let (i, h) = self
            .heaps
            .iter()
            .enumerate()
            .max_by_key(|(_, h)| *h)
            .expect("non-empty");
        let mut after = self.heaps.clone();
        after[i] = h - 1u32;
        Some((
            format!("{i} {}", &after[i]),
            why_text(&nim::nim_value(&after).to_string()),
        ))
    }
    fn options(&mut self, _mover: usize, limit: usize) -> Option<Vec<MoveInfo>> {
        let total: BigUint = self.heaps.iter().sum();
        if total > BigUint::from(limit) {
            return None;
        }
        let v = nim::nim_value(&self.heaps).to_u64()?;
        let mut out = Vec::new();
        for (i, h) in self.heaps.iter().enumerate() {
            let h = h.to_u64()?;
            for to in 0..h {
                let name = format!("{i} {to}");
                let mut after = self.heaps.clone();
                after[i] = to.into();
                let value = v ^ h ^ to;
                out.push(MoveInfo {
                    good: value == 0,
                    name,
                    after: big_text(&after),
                    value: Some(value),
                    verdict: None,
                });
            }
        }
        Some(out)
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let (i, to) = match parse_heap_input(input, self.heaps.len(), parse_big)? {
            HeapInput::Take(i, k) => {
                if k > self.heaps[i] {
                    return Err(format!("heap {i} has only {} tokens", self.heaps[i]));
                }
                (i, &self.heaps[i] - k)
            }
            HeapInput::Into(i, mut parts) if parts.len() == 1 => (i, parts.remove(0)),
            HeapInput::Into(..) => {
                return Err(
                    "in Nim a heap only shrinks: type the heap's number and its new size".into(),
                )
            }
        };
        if to >= self.heaps[i] {
            return Err(format!(
                "heap {i} has {} tokens; a move must make it smaller",
                self.heaps[i]
            ));
        }
        self.heaps[i] = to;
        Ok(())
    }
    fn is_over(&self) -> bool {
        self.heaps.iter().all(Zero::is_zero)
    }
}

pub fn nim(words: &[String]) -> Result<Box<dyn Playable>, Error> {
    if words.is_empty() {
        return Err(Error::Invalid(
            "no heaps given (e.g. 'grundy play nim 3 5 2')".into(),
        ));
    }
    let heaps = words
        .iter()
        .map(|w| parse_big("heap", w))
        .collect::<Result<_, Error>>()?;
    Ok(Box::new(NimPlay { heaps }))
}

struct SubtractionPlay {
    set: subtraction::SubtractionSet,
    heaps: Vec<u64>,
    values: Vec<Nimber>,
}

impl SubtractionPlay {
    fn value(&self) -> Nimber {
        self.heaps
            .iter()
            .fold(0, |a, &h| a ^ self.values[h as usize])
    }
    fn moves(&self) -> Vec<(usize, u64)> {
        let mut v = Vec::new();
        for (i, &n) in self.heaps.iter().enumerate() {
            for s in 1..=n {
                if self.set.allows(s) {
                    v.push((i, n - s));
                }
            }
        }
        v
    }
    fn after(&self, i: usize, to: u64) -> Vec<u64> {
        let mut a = self.heaps.clone();
        a[i] = to;
        a
    }
}

impl Playable for SubtractionPlay {
    fn show(&self) -> String {
        format!(
            "heaps: {}   (subtraction set {})",
            heap_list(&self.heaps),
            self.set
        )
    }
    fn show_position(&self) -> String {
        super::heaps_text(&self.heaps)
    }
    fn state(&self) -> serde_json::Value {
        serde_json::json!({"kind": "heaps", "heaps": self.heaps, "set": self.set.to_string()})
    }
    fn heap_multiset(&self) -> bool {
        true
    }
    fn move_syntax(&self) -> String {
        format!("Subtraction game {}: take an allowed number from one heap. Move: 'HEAP -K' (take K) or 'HEAP SIZE' (its new size).", self.set)
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        let v = self.value();
        format!("value {v}: {}", outcome_text(v == 0))
    }
    fn explain(&mut self, _mover: usize) -> Vec<String> {
        let mut lines = vec![format!(
            "Each heap is a game of its own; its value G(n) is the mex of the values of the heaps it can become (subtraction set {}):",
            self.set
        )];
        let mut seen: Vec<u64> = self.heaps.clone();
        seen.sort_unstable();
        seen.dedup();
        for &n in &seen {
            let opts: Vec<Nimber> = (1..=n)
                .filter(|&s| self.set.allows(s))
                .map(|s| self.values[(n - s) as usize])
                .collect();
            lines.push(format!("G({n}) = {}", mex_text(&opts)));
        }
        let terms: Vec<Nimber> = self
            .heaps
            .iter()
            .map(|&h| self.values[h as usize])
            .collect();
        lines.push(format!(
            "The position is the sum of its heaps: {} = {}",
            self.heaps
                .iter()
                .map(|h| format!("G({h})"))
                .collect::<Vec<_>>()
                .join(" ⊕ "),
            nim_sum_lines(&terms, &self.value())[0]
        ));
        lines
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        let total = self.value();
        let moves = self.moves();
        let best = moves
            .iter()
            .find(|&&(i, to)| {
                total ^ self.values[self.heaps[i] as usize] ^ self.values[to as usize] == 0
            })
            .or(moves.first())?;
        let (i, to) = *best;
        let after = total ^ self.values[self.heaps[i] as usize] ^ self.values[to as usize];
        Some((
            format!("{i} -{}", self.heaps[i] - to),
            why_text(&after.to_string()),
        ))
    }
    fn options(&mut self, _mover: usize, limit: usize) -> Option<Vec<MoveInfo>> {
        let moves = self.moves();
        if moves.len() > limit {
            return None;
        }
        let total = self.value();
        Some(
            moves
                .into_iter()
                .map(|(i, to)| {
                    let name = format!("{i} -{}", self.heaps[i] - to);
                    let value =
                        total ^ self.values[self.heaps[i] as usize] ^ self.values[to as usize];
                    MoveInfo {
                        good: value == 0,
                        name,
                        after: super::heaps_text(&self.after(i, to)),
                        value: Some(value),
                        verdict: None,
                    }
                })
                .collect(),
        )
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let (i, to) = match parse_heap_input(input, self.heaps.len(), parse_u64)? {
            HeapInput::Take(i, k) => {
                if k > self.heaps[i] {
                    return Err(format!("heap {i} has only {} tokens", self.heaps[i]));
                }
                (i, self.heaps[i] - k)
            }
            HeapInput::Into(i, parts) if parts.len() == 1 => (i, parts[0]),
            HeapInput::Into(..) => {
                return Err("a heap only shrinks: type 'HEAP -K' or the heap's new size".into())
            }
        };
        if to >= self.heaps[i] {
            return Err(format!(
                "heap {i} has {} tokens; a move must make it smaller",
                self.heaps[i]
            ));
        }
        let k = self.heaps[i] - to;
        if !self.set.allows(k) {
            return Err(format!(
                "taking {k} is not allowed: the subtraction set is {}",
                self.set
            ));
        }
        self.heaps[i] = to;
        Ok(())
    }
    fn is_over(&self) -> bool {
        self.moves().is_empty()
    }
}

/// Subtraction play: `set` is the finite set, or with `all_but` the numbers it excludes.
pub fn subtraction(
    words: &[String],
    set: Option<&str>,
    all_but: Option<&str>,
) -> Result<Box<dyn Playable>, Error> {
    let set = match (set, all_but) {
        (Some(s), None) => subtraction::SubtractionSet::finite(parse_u64_list("subtraction", s)?)?,
        (None, Some(s)) => subtraction::SubtractionSet::all_but(parse_u64_list("all-but", s)?)?,
        (Some(_), Some(_)) => {
            return Err(Error::Invalid(
                "give either --set or --all-but, not both".into(),
            ))
        }
        (None, None) => {
            return Err(Error::Invalid(
                "play subtraction needs --set (e.g. --set 1,3,4) or --all-but (e.g. --all-but 1,2)"
                    .into(),
            ))
        }
    };
    let heaps: Vec<u64> = words
        .iter()
        .map(|w| parse_u64("heap", w))
        .collect::<Result<_, Error>>()?;
    if heaps.is_empty() {
        return Err(Error::Invalid(
            "no heaps given (e.g. 'grundy play subtraction --set 1,3,4 10 7')".into(),
        ));
    }
    let max = *heaps.iter().max().expect("non-empty");
    if max > 10_000_000 {
        return Err(Error::Invalid(
            "heaps up to 10,000,000 can be played".into(),
        ));
    }
    let values = subtraction::sequence(&set, max)?;
    Ok(Box::new(SubtractionPlay { set, heaps, values }))
}

struct WythoffPlay {
    a: BigUint,
    b: BigUint,
    /// Grundy values of small positions (both heaps at most [`WYTHOFF_VALUES`]), by the
    /// generic evaluator; larger positions show outcomes only.
    solver: crate::NormalPlay<wythoff::Wythoff>,
}

/// Heaps up to which Wythoff's options are listed with their Grundy values.
const WYTHOFF_VALUES: u64 = 120;

impl WythoffPlay {
    fn small(&self) -> Option<(u64, u64)> {
        let (a, b) = (self.a.to_u64()?, self.b.to_u64()?);
        (a <= WYTHOFF_VALUES && b <= WYTHOFF_VALUES).then_some((a, b))
    }
    fn value(&mut self, a: u64, b: u64) -> Option<Nimber> {
        self.solver
            .grundy_value(&wythoff::Wythoff::position(a, b))
            .ok()
    }
}

impl Playable for WythoffPlay {
    fn show(&self) -> String {
        format!("heaps: [0]={}  [1]={}", self.a, self.b)
    }
    fn show_position(&self) -> String {
        format!("{} {}", self.a, self.b)
    }
    fn state(&self) -> serde_json::Value {
        serde_json::json!({"kind": "heaps", "heaps": [self.a.to_string(), self.b.to_string()], "wythoff": true})
    }
    fn move_syntax(&self) -> String {
        "Wythoff: take from one heap, or the same number from both. Move: 'HEAP SIZE' or 'HEAP -K' (as in Nim), or 'both -K'."
            .into()
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        let value = self.small().and_then(|(a, b)| self.value(a, b));
        let v = value.map_or(String::new(), |v| format!("value {v}: "));
        match wythoff::outcome(&self.a, &self.b) {
            crate::Outcome::P => format!(
                "{v}P-position (a Wythoff pair (floor(kφ), floor(kφ²))): the player to move loses"
            ),
            crate::Outcome::N => format!("{v}N-position: the player to move wins"),
        }
    }
    fn explain(&mut self, mover: usize) -> Vec<String> {
        let mut lines = vec![
            "The P-positions of Wythoff's game are the pairs (⌊kφ⌋, ⌊kφ²⌋), φ the golden ratio: (0,0), (1,2), (3,5), (4,7), (6,10), ..."
                .to_string(),
        ];
        if let Some((a, b)) = self.small() {
            if let Some(opts) = self.options(mover, super::OPTION_LIMIT) {
                let values: Vec<Nimber> = opts.iter().filter_map(|o| o.value).collect();
                lines.push(format!(
                    "G({a}, {b}) = {} over the values of its {} options",
                    mex_text(&values),
                    values.len()
                ));
            }
        }
        lines
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        if self.is_over() {
            return None;
        }
        let name = |x: &BigUint, y: &BigUint, a: &BigUint, b: &BigUint| {
            if x != a && y != b {
                format!("both -{}", a - x)
            } else if x != a {
                format!("0 {x}")
            } else {
                format!("1 {y}")
            }
        };
        if let Some((x, y)) = wythoff::winning_moves(&self.a, &self.b).into_iter().next() {
            return Some((
                name(&x, &y, &self.a, &self.b),
                "to a P-position (value 0)".into(),
            ));
        }
        let (x, y) = if self.a > self.b {
            (&self.a - 1u32, self.b.clone())
        } else {
            (self.a.clone(), &self.b - 1u32)
        };
        Some((
            name(&x, &y, &self.a, &self.b),
            "no winning move exists; taking one token".into(),
        ))
    }
    fn options(&mut self, _mover: usize, limit: usize) -> Option<Vec<MoveInfo>> {
        let (a, b) = self.small()?;
        if (a + b + a.min(b)) as usize > limit {
            return None;
        }
        let mut out = Vec::new();
        let mut push = |this: &mut Self, name: String, x: u64, y: u64| {
            let value = this.value(x, y);
            out.push(MoveInfo {
                good: value == Some(0),
                name,
                after: format!("{x} {y}"),
                value,
                verdict: None,
            });
        };
        for x in 0..a {
            push(self, format!("0 {x}"), x, b);
        }
        for y in 0..b {
            push(self, format!("1 {y}"), a, y);
        }
        for k in 1..=a.min(b) {
            push(self, format!("both -{k}"), a - k, b - k);
        }
        Some(out)
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let words: Vec<&str> = input.split_whitespace().collect();
        let (x, y) = if words.first() == Some(&"both") {
            let k = match words.as_slice() {
                [_, k] => k.strip_prefix('-').unwrap_or(k),
                _ => return Err("type 'both -K' to take K from both heaps".into()),
            };
            let k = parse_big("count", k).map_err(|e| e.to_string())?;
            if k.is_zero() || k > self.a || k > self.b {
                return Err(format!(
                    "'both -{k}' takes {k} from each heap; the heaps are {} and {}",
                    self.a, self.b
                ));
            }
            (&self.a - &k, &self.b - &k)
        } else {
            let heaps = [self.a.clone(), self.b.clone()];
            let (i, to) = match parse_heap_input(input, 2, parse_big)? {
                HeapInput::Take(i, k) => {
                    if k > heaps[i] {
                        return Err(format!("heap {i} has only {} tokens", heaps[i]));
                    }
                    (i, &heaps[i] - k)
                }
                HeapInput::Into(i, mut parts) if parts.len() == 1 => (i, parts.remove(0)),
                HeapInput::Into(..) => {
                    return Err("type the heap's number and its new size, or 'both -K'".into())
                }
            };
            if to >= heaps[i] {
                return Err(format!(
                    "heap {i} has {} tokens; a move must make it smaller",
                    heaps[i]
                ));
            }
            if i == 0 {
                (to, self.b.clone())
            } else {
                (self.a.clone(), to)
            }
        };
        self.a = x;
        self.b = y;
        Ok(())
    }
    fn is_over(&self) -> bool {
        self.a.is_zero() && self.b.is_zero()
    }
}

pub fn wythoff(words: &[String]) -> Result<Box<dyn Playable>, Error> {
    if words.len() != 2 {
        return Err(Error::Invalid(
            "Wythoff's game has two heaps (e.g. 'grundy play wythoff 4 8')".into(),
        ));
    }
    Ok(Box::new(WythoffPlay {
        a: parse_big("heap", &words[0])?,
        b: parse_big("heap", &words[1])?,
        solver: crate::NormalPlay::new(wythoff::Wythoff),
    }))
}
