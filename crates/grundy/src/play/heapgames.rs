//! Play the foundation families: Nim, subtraction games, Wythoff's game.

use super::Playable;
use crate::games::{nim, subtraction, wythoff};
use crate::text::{parse_big, parse_u64, parse_u64_list};
use crate::Error;
use num_bigint::BigUint;
use num_traits::Zero;

fn heap_list<T: std::fmt::Display>(heaps: &[T]) -> String {
    heaps
        .iter()
        .enumerate()
        .map(|(i, h)| format!("[{i}]={h}"))
        .collect::<Vec<_>>()
        .join("  ")
}

/// Parse "HEAP SIZE" (heap becomes SIZE) or "HEAP -K" (take K from heap).
fn parse_heap_move(input: &str, heaps: &[BigUint]) -> Result<(usize, BigUint), String> {
    let words: Vec<&str> = input.split_whitespace().collect();
    if words.len() != 2 {
        return Err("type two numbers: the heap index and its new size (or -K to take K)".into());
    }
    let i: usize = words[0]
        .parse()
        .map_err(|_| format!("'{}' is not a heap index", words[0]))?;
    let from = heaps.get(i).ok_or_else(|| {
        format!(
            "there is no heap {i} (heaps are numbered 0 to {})",
            heaps.len() - 1
        )
    })?;
    let to = if let Some(k) = words[1].strip_prefix('-') {
        let k = parse_big("count", k).map_err(|e| e.to_string())?;
        if k > *from {
            return Err(format!("heap {i} has only {from} tokens"));
        }
        from - k
    } else {
        parse_big("size", words[1]).map_err(|e| e.to_string())?
    };
    if to >= *from {
        return Err(format!(
            "heap {i} has {from} tokens; a move must make it smaller"
        ));
    }
    Ok((i, to))
}

struct NimPlay {
    heaps: Vec<BigUint>,
}

impl Playable for NimPlay {
    fn show(&self) -> String {
        format!("heaps: {}", heap_list(&self.heaps))
    }
    fn move_syntax(&self) -> String {
        "Nim: take any number of tokens from one heap. Move: 'HEAP SIZE' (e.g. '1 3': heap 1 becomes 3) or 'HEAP -K' (take K).".into()
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        let v = nim::nim_value(&self.heaps);
        let o = if v.is_zero() {
            "P-position: the player to move loses against perfect play"
        } else {
            "N-position: the player to move wins"
        };
        format!("value {v} (nim-sum of the heaps): {o}")
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
            format!(
                "no winning move exists; to a position of value {}",
                nim::nim_value(&after)
            ),
        ))
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let (i, to) = parse_heap_move(input, &self.heaps)?;
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
    values: Vec<u64>,
}

impl SubtractionPlay {
    fn value(&self) -> u64 {
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
}

impl Playable for SubtractionPlay {
    fn show(&self) -> String {
        format!(
            "heaps: {}   (subtraction set {})",
            heap_list(&self.heaps),
            self.set
        )
    }
    fn move_syntax(&self) -> String {
        format!("Subtraction game {}: take an allowed number from one heap. Move: 'HEAP -K' (take K) or 'HEAP SIZE'.", self.set)
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        let v = self.value();
        format!(
            "value {v}: {}",
            if v == 0 {
                "P-position: the player to move loses against perfect play"
            } else {
                "N-position: the player to move wins"
            }
        )
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
        let why = if after == 0 {
            "to a position of value 0".to_string()
        } else {
            format!("no winning move exists; to a position of value {after}")
        };
        Some((format!("{i} -{}", self.heaps[i] - to), why))
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let big: Vec<BigUint> = self.heaps.iter().map(|&h| h.into()).collect();
        let (i, to) = parse_heap_move(input, &big)?;
        let to = u64::try_from(&to).expect("smaller than a u64 heap");
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

pub fn subtraction(words: &[String], set: Option<&str>) -> Result<Box<dyn Playable>, Error> {
    let set = subtraction::SubtractionSet::finite(parse_u64_list(
        "subtraction",
        set.ok_or_else(|| {
            Error::Invalid("play subtraction needs --set (e.g. --set 1,3,4)".into())
        })?,
    )?)?;
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
}

impl Playable for WythoffPlay {
    fn show(&self) -> String {
        format!("heaps: ({}, {})", self.a, self.b)
    }
    fn move_syntax(&self) -> String {
        "Wythoff: take from one heap, or the same number from both. Move: 'A B' (the new pair)."
            .into()
    }
    fn evaluation(&mut self, _mover: usize) -> String {
        match wythoff::outcome(&self.a, &self.b) {
            crate::Outcome::P => {
                "P-position (a Wythoff pair (floor(kφ), floor(kφ²))): the player to move loses"
                    .into()
            }
            crate::Outcome::N => "N-position: the player to move wins".into(),
        }
    }
    fn best_move(&mut self, _mover: usize) -> Option<(String, String)> {
        if self.is_over() {
            return None;
        }
        if let Some((x, y)) = wythoff::winning_moves(&self.a, &self.b).into_iter().next() {
            return Some((format!("{x} {y}"), "to a P-position (value 0)".into()));
        }
        let (x, y) = if self.a > self.b {
            (&self.a - 1u32, self.b.clone())
        } else {
            (self.a.clone(), &self.b - 1u32)
        };
        Some((
            format!("{x} {y}"),
            "no winning move exists; taking one token".into(),
        ))
    }
    fn play(&mut self, input: &str) -> Result<(), String> {
        let w: Vec<&str> = input.split_whitespace().collect();
        if w.len() != 2 {
            return Err("type the new pair, e.g. '3 5'".into());
        }
        let x = parse_big("heap", w[0]).map_err(|e| e.to_string())?;
        let y = parse_big("heap", w[1]).map_err(|e| e.to_string())?;
        let legal = (x < self.a && y == self.b)
            || (x == self.a && y < self.b)
            || (x < self.a && y < self.b && &self.a - &x == &self.b - &y);
        if !legal {
            return Err(format!(
                "from ({}, {}) a move lowers one heap, or both by the same amount",
                self.a, self.b
            ));
        }
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
    }))
}
