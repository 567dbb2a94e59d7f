//! Take-and-break codes as the field writes them: CGSuite's generalized notation.
//!
//! CGSuite (A. N. Siegel, *Combinatorial Game Suite*, the `TakeAndBreak` ruleset; notation as
//! in its manual) writes a code `d0.d1d2...` where digit `d_k` says how a heap may lose `k`
//! tokens and split the rest into a given number of non-empty heaps (splitting paper §1:
//! bit `2^j` of `d_k` allows exactly `j` heaps). Beyond the digits `0-9`, `A-Z`, it has:
//!
//! - `&N;`: a digit of any value `N`, in decimal (`0.&63;7`);
//! - `{j1,j2,...}`: a digit given by its heap counts (`0.{2,3}` = `0.C`); a trailing `+`
//!   allows every larger count too (`{2+}.0`: split into two or more heaps);
//! - `*`: any number of heaps, zero included (the same as `{0+}`);
//! - qualifiers after a digit (or after one count inside braces): `!` the heaps left must be
//!   pairwise unequal, `?` not all equal, `=` all equal (`4!.0` is Grundy's game);
//! - a repeating suffix in brackets: `0.[3]` = `0.333...` (Nim), `0.3003330[3]` (subtract any
//!   number but 2, 3 and 7).
//!
//! A qualifier constrains moves that leave two or more heaps; with zero or one heap left
//! there is nothing to compare. Codes as published tables write them also parse: `4.` and `4`
//! are `4.0`. Digits before `d0` are CGSuite's moves that *add* tokens: `d_-k` adds `k` tokens,
//! then splits as a digit does (`80.0`: add one, leave three heaps). They are accepted only
//! when every heap every such move leaves is smaller than the heap moved (so every game ends:
//! the multiset of heap sizes decreases), and refused with a move that keeps a heap as large
//! otherwise (`40.0`: 1 becomes 1 + 1; `20.017`: 1 becomes 2); only the general engine runs them.
//!
//! [`Notation`] holds every such code, and [`Notation::options`] lists the options of a heap by
//! plain enumeration — the brute force every other reading is checked against. The engines run
//! [`Rules`]: [`Notation::to_rules`] converts a finite, unqualified code to [`Code`] and `4!.0`
//! to Grundy's game, and refuses the rest with the feature it lacks.

use super::code::{Code, NAMED};
use super::rules::Rules;
use crate::Error;

/// The most heaps one move may leave in a finite digit (the engines' bit sets hold 128 bits).
pub const MAX_HEAP_COUNT: usize = 127;

/// A qualifier on the heaps one move leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Qualifier {
    /// No constraint.
    Any,
    /// `!`: the heaps left are pairwise unequal.
    Unequal,
    /// `?`: the heaps left are not all equal.
    NotAllEqual,
    /// `=`: the heaps left are all equal.
    AllEqual,
}

impl Qualifier {
    fn symbol(self) -> &'static str {
        match self {
            Qualifier::Any => "",
            Qualifier::Unequal => "!",
            Qualifier::NotAllEqual => "?",
            Qualifier::AllEqual => "=",
        }
    }

    fn from_char(c: char) -> Option<Self> {
        match c {
            '!' => Some(Qualifier::Unequal),
            '?' => Some(Qualifier::NotAllEqual),
            '=' => Some(Qualifier::AllEqual),
            _ => None,
        }
    }

    /// Whether non-increasing `parts` (at least two) satisfy the qualifier.
    fn admits(self, parts: &[u64]) -> bool {
        let all_equal = parts.first() == parts.last();
        match self {
            Qualifier::Any => true,
            Qualifier::Unequal => parts.windows(2).all(|w| w[0] != w[1]),
            Qualifier::NotAllEqual => !all_equal,
            Qualifier::AllEqual => all_equal,
        }
    }
}

/// One generalized digit: which numbers of heaps a move may leave, each with its qualifier.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Digit {
    /// `counts[j]`: the qualifier for leaving exactly `j` heaps, `None` when not allowed.
    counts: Vec<Option<Qualifier>>,
    /// Every count above `counts.len() - 1` is allowed too, with this qualifier (`+`, `*`).
    more: Option<Qualifier>,
}

impl Digit {
    fn zero() -> Self {
        Digit {
            counts: Vec::new(),
            more: None,
        }
    }

    /// The digit with bit set `bits` (bit `2^j`: exactly `j` heaps), all with `q`.
    fn from_bits(bits: u128, q: Qualifier) -> Self {
        let counts = (0..128)
            .map(|j| (bits >> j & 1 == 1).then_some(q))
            .collect::<Vec<_>>();
        Digit { counts, more: None }.trimmed()
    }

    fn trimmed(mut self) -> Self {
        while self.more.is_none() && self.counts.last() == Some(&None) {
            self.counts.pop();
        }
        self
    }

    fn is_zero(&self) -> bool {
        self.more.is_none() && self.counts.iter().all(Option::is_none)
    }

    /// The qualifier for leaving exactly `j` heaps, `None` when not allowed.
    pub fn allows(&self, j: usize) -> Option<Qualifier> {
        match self.counts.get(j) {
            Some(q) => *q,
            None => self.more,
        }
    }

    /// The plain bit set, if the digit has no `+` and no qualifier that matters (qualifiers
    /// on counts 0 and 1 constrain nothing).
    fn bits(&self) -> Option<u128> {
        if self.more.is_some() || self.counts.len() > 128 {
            return None;
        }
        let mut bits = 0u128;
        for (j, q) in self.counts.iter().enumerate() {
            match q {
                None => {}
                Some(Qualifier::Any) => bits |= 1 << j,
                Some(_) if j <= 1 => bits |= 1 << j,
                Some(_) => return None,
            }
        }
        Some(bits)
    }

    fn text(&self) -> String {
        let plain = |bits: u128| match bits {
            0..=9 => ((b'0' + bits as u8) as char).to_string(),
            10..=35 => ((b'A' + (bits - 10) as u8) as char).to_string(),
            _ => format!("&{bits};"),
        };
        if let Some(bits) = self.bits() {
            return plain(bits);
        }
        // One qualifier on every count and no `+`: the digit and the qualifier (`4!`).
        let mut qualifiers = self.counts.iter().flatten();
        if let (None, Some(&q)) = (self.more, qualifiers.next()) {
            if qualifiers.all(|&other| other == q) && self.counts.len() <= 128 {
                let bits = self
                    .counts
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.is_some())
                    .fold(0u128, |b, (j, _)| b | 1 << j);
                return format!("{}{}", plain(bits), q.symbol());
            }
        }
        // `more` always continues the last count (see the parser): written `{..., j+}`.
        let items: Vec<String> = self
            .counts
            .iter()
            .enumerate()
            .filter_map(|(j, q)| q.map(|q| format!("{j}{}", q.symbol())))
            .collect();
        let plus = if self.more.is_some() { "+" } else { "" };
        format!("{{{}{plus}}}", items.join(","))
    }
}

/// A take-and-break code in CGSuite's generalized notation (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Notation {
    /// `digits[k]` is `d_k`, `digits[0]` = `d0`; trailing zero digits trimmed (no repeat).
    digits: Vec<Digit>,
    /// The last `repeat` digits repeat forever (0: a finite code).
    repeat: usize,
    /// `adds[k - 1]` is `d_-k`, the digit `k` places before `d0`: add `k` tokens to a heap,
    /// then split it as the digit says. Leading zero digits trimmed; empty for most codes.
    /// Only digits whose every move leaves heaps smaller than the heap moved are kept (see
    /// [`Notation::parse`]), so every game ends.
    adds: Vec<Digit>,
}

fn malformed(text: &str, pos: usize, what: &str) -> Error {
    let shown: String = text.chars().flat_map(char::escape_debug).collect();
    let at = text[pos..]
        .chars()
        .next()
        .map(|c| format!(" ('{}')", c.escape_debug()))
        .unwrap_or_default();
    Error::Invalid(format!(
        "malformed code '{shown}': {what} at position {}{at}",
        text[..pos].chars().count() + 1
    ))
}

/// A small recursive-descent reader over the code text.
struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    /// The digits after the point, with an optional repeating part `[...]` at the end.
    fn fraction(
        &mut self,
        digits: &mut Vec<Digit>,
        repeat_start: &mut Option<usize>,
    ) -> Result<(), Error> {
        loop {
            if let Some(d) = self.digit()? {
                digits.push(d);
                continue;
            }
            match self.peek() {
                None => return Ok(()),
                Some('[') if repeat_start.is_none() => {
                    self.pos += 1;
                    *repeat_start = Some(digits.len());
                }
                Some(']') if repeat_start.is_some() => {
                    if *repeat_start == Some(digits.len()) {
                        return Err(self.error("empty repeating part '[]'"));
                    }
                    self.pos += 1;
                    if self.peek().is_some() {
                        return Err(self.error(
                            "the repeating part [ ] must end the code (CGSuite's notation, \
                             e.g. 0.3003330[3]; a single digit of value N is written &N;)",
                        ));
                    }
                    return Ok(());
                }
                Some('.') => return Err(self.error("a second '.'")),
                Some(_) => return Err(self.error("unexpected character")),
            }
        }
    }

    fn error(&self, what: &str) -> Error {
        malformed(self.text, self.pos, what)
    }

    fn decimal(&mut self, what: &str) -> Result<u128, Error> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error(what));
        }
        self.text[start..self.pos]
            .parse()
            .map_err(|_| malformed(self.text, start, "number too large (at most 2^128 - 1)"))
    }

    fn qualifier(&mut self) -> Qualifier {
        match self.peek().and_then(Qualifier::from_char) {
            Some(q) => {
                self.pos += 1;
                q
            }
            None => Qualifier::Any,
        }
    }

    /// One digit, if the next character starts one.
    fn digit(&mut self) -> Result<Option<Digit>, Error> {
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let digit = match c {
            '0'..='9' | 'a'..='z' | 'A'..='Z' => {
                self.pos += 1;
                let bits = c.to_digit(36).expect("base-36 digit") as u128;
                Digit::from_bits(bits, self.qualifier())
            }
            '&' => {
                self.pos += 1;
                let bits = self.decimal("expected a decimal digit value after '&' (e.g. &63;)")?;
                if self.peek() != Some(';') {
                    return Err(self.error("expected ';' to end the digit &N;"));
                }
                self.pos += 1;
                Digit::from_bits(bits, self.qualifier())
            }
            '*' => {
                self.pos += 1;
                let q = self.qualifier();
                Digit {
                    counts: vec![Some(q)],
                    more: Some(q),
                }
            }
            '{' => {
                self.pos += 1;
                self.brace_digit()?
            }
            _ => return Ok(None),
        };
        Ok(Some(digit))
    }

    /// `{j1,j2q,...[+]}q`: after the opening brace.
    fn brace_digit(&mut self) -> Result<Digit, Error> {
        let mut items: Vec<(usize, Qualifier)> = Vec::new();
        let mut more = false;
        loop {
            let start = self.pos;
            let j = self.decimal("expected a number of heaps inside { }")?;
            if j > MAX_HEAP_COUNT as u128 {
                return Err(malformed(
                    self.text,
                    start,
                    &format!("at most {MAX_HEAP_COUNT} heaps per move (use '+' for 'or more')"),
                ));
            }
            let q = self.qualifier();
            items.push((j as usize, q));
            match self.peek() {
                Some(',') => self.pos += 1,
                Some('+') => {
                    self.pos += 1;
                    more = true;
                    if self.peek() != Some('}') {
                        return Err(self.error("expected '}' after '+'"));
                    }
                    self.pos += 1;
                    break;
                }
                Some('}') => {
                    self.pos += 1;
                    break;
                }
                Some(_) => return Err(self.error("expected ',', '+' or '}'")),
                None => return Err(self.error("'{' without a matching '}'")),
            }
        }
        let outer = self.qualifier();
        let width = items.iter().map(|&(j, _)| j).max().unwrap_or(0) + 1;
        let mut counts = vec![None; width];
        for (j, q) in items {
            if q != Qualifier::Any && outer != Qualifier::Any {
                return Err(self.error("a count inside { } and the whole digit both qualified"));
            }
            counts[j] = Some(if q == Qualifier::Any { outer } else { q });
        }
        // `{j+}`: j itself and every larger count, with j's qualifier.
        let more = more.then(|| counts[width - 1].expect("the last count is allowed"));
        Ok(Digit { counts, more }.trimmed())
    }
}

impl Notation {
    /// Parse a code in CGSuite's notation, or a named game (`kayles`, `dawsons-kayles`,
    /// `dawsons-chess`, `officers`, `grundys-game`).
    pub fn parse(text: &str) -> Result<Self, Error> {
        let t = text.trim();
        if let Some((_, code)) = NAMED.iter().find(|(name, _)| name.eq_ignore_ascii_case(t)) {
            return Notation::parse(code);
        }
        if ["grundys-game", "grundy", "grundys"]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(t))
        {
            return Notation::parse("4!.0");
        }
        if t.is_empty() {
            return Err(Error::Invalid("empty code".into()));
        }
        // A word that cannot be a code (letters, no point) is a name, perhaps mistyped.
        if t.len() >= 2
            && !t.contains('.')
            && t.chars()
                .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_')
        {
            let mut names: Vec<&str> = NAMED.iter().map(|(n, _)| *n).collect();
            names.push("grundys-game");
            let hint = if t.eq_ignore_ascii_case("nim") {
                " (Nim is the code 0.[3]: take any number from one heap, leave 0 or 1 heap)".into()
            } else {
                crate::text::did_you_mean(t, &names)
            };
            return Err(Error::Invalid(format!(
                "unknown game '{}'{hint}; the named games are {}; a code is written \
                 d0.d1d2..., e.g. 0.77",
                t.escape_debug(),
                names.join(", ")
            )));
        }
        let mut r = Reader { text: t, pos: 0 };
        // Digits before the point: d0 last; the ones before it (d-1, d-2, ...) add tokens.
        let mut head = Vec::new();
        while let Some(d) = r.digit()? {
            head.push(d);
        }
        let d0 = head.pop().unwrap_or_else(Digit::zero);
        head.reverse();
        let adds = head;
        if !adds.is_empty() && (d0.allows(0).is_some() || d0.allows(1).is_some()) {
            return Err(Error::Invalid(format!(
                "code '{}': d0 = {} (the last of the {} digits before the point; the ones \
                 before it add tokens) is not allowed: d0 may only leave two or more heaps; \
                 an octal code is written 0.77 or .77",
                t.escape_debug(),
                d0.text(),
                adds.len() + 1
            )));
        }
        let mut digits = vec![d0];
        let mut repeat_start = None;
        match r.peek() {
            None => {}
            Some('.') => {
                r.pos += 1;
                r.fraction(&mut digits, &mut repeat_start)?;
            }
            Some(_) => return Err(r.error("unexpected character")),
        }
        if repeat_start.is_some() && !t.ends_with(']') {
            return Err(r.error("'[' without a matching ']'"));
        }
        let repeat = repeat_start.map_or(0, |s| digits.len() - s);
        let mut notation = Notation::new(digits, repeat)?;
        notation.set_adds(adds)?;
        Ok(notation)
    }

    /// Set the digits before `d0` (`adds[k - 1]` = `d_-k`), refused unless every heap every
    /// one of their moves leaves is smaller than the heap moved: then each move lowers the
    /// multiset of heap sizes (in the multiset order, which is well-founded) and every game
    /// ends. Otherwise the refusal names a move that leaves a heap as large as the one moved.
    fn set_adds(&mut self, mut adds: Vec<Digit>) -> Result<(), Error> {
        while adds.last().is_some_and(Digit::is_zero) {
            adds.pop();
        }
        for (i, d) in adds.iter().enumerate() {
            let k = i as u64 + 1;
            if let Some((n, parts)) = growing_move(d, k) {
                let shown: Vec<String> = parts.iter().map(u64::to_string).collect();
                let heaps = if parts.len() == 1 { "heap" } else { "heaps" };
                return Err(Error::Invalid(format!(
                    "code '{}' is refused: its digit d-{k} = {} adds {k} token{} and may leave \
                     {} {heaps}, so a heap of {n} can become {} (a heap as large as the one \
                     moved, so a game need not end); digits before d0 (moves that add tokens) \
                     are computed only when every heap a move leaves is smaller than the heap \
                     moved: adding k tokens, a move must leave at least k + 2 heaps (e.g. 80.0: \
                     add 1, leave 3 heaps)",
                    self.text_with(&adds),
                    d.text(),
                    if k == 1 { "" } else { "s" },
                    parts.len(),
                    shown.join(" + "),
                )));
            }
        }
        self.adds = adds;
        Ok(())
    }

    fn new(mut digits: Vec<Digit>, mut repeat: usize) -> Result<Self, Error> {
        let d0 = &digits[0];
        if d0.allows(0).is_some() || d0.allows(1).is_some() {
            return Err(Error::Invalid(format!(
                "digit d0 = {} is not allowed: d0 may only leave two or more heaps (removing \
                 nothing must split the heap)",
                d0.text()
            )));
        }
        // A repeating part of zeros is no repetition.
        if repeat > 0 && digits[digits.len() - repeat..].iter().all(Digit::is_zero) {
            digits.truncate(digits.len() - repeat);
            repeat = 0;
        }
        if repeat == 0 {
            while digits.len() > 1 && digits.last().is_some_and(Digit::is_zero) {
                digits.pop();
            }
        }
        Ok(Notation {
            digits,
            repeat,
            adds: Vec::new(),
        })
    }

    /// `d_k` (`d_0` for k = 0), following the repeating part.
    pub fn digit(&self, k: usize) -> Option<&Digit> {
        let len = self.digits.len();
        if k < len {
            return Some(&self.digits[k]);
        }
        if self.repeat == 0 {
            return None;
        }
        let start = len - self.repeat;
        Some(&self.digits[start + (k - start) % self.repeat])
    }

    /// The rules the engines run, or the reason these rules are beyond them.
    pub fn to_rules(&self) -> Result<Rules, Error> {
        let unsupported = |what: &str| {
            Error::Invalid(format!(
                "code '{self}' uses {what}, which the Grundy-sequence engines do not support \
                 (its options can be listed with --options N)"
            ))
        };
        if !self.adds.is_empty() {
            return Err(unsupported(
                "digits before d0 (moves that add tokens; the general engine computes them)",
            ));
        }
        if self.repeat > 0 {
            return Err(unsupported(
                "a repeating part in brackets: CGSuite's infinite code (0.[3] = 0.333... is \
                 Nim: use 'grundy nim' or a finite code; a single digit of value N, formerly \
                 written [N] here, is now &N;)",
            ));
        }
        let grundys_game = Notation::new(vec![Digit::from_bits(4, Qualifier::Unequal)], 0)?;
        if *self == grundys_game {
            return Ok(Rules::GrundysGame);
        }
        let mut bits = Vec::with_capacity(self.digits.len());
        for d in &self.digits {
            if d.more.is_some() {
                return Err(unsupported(
                    "'+' or '*' (any number of heaps, without a bound)",
                ));
            }
            match d.bits() {
                Some(b) => bits.push(b),
                None => {
                    return Err(unsupported(
                        "a qualifier '!', '?' or '=' on moves that leave two or more heaps \
                         (only 4!.0, Grundy's game, is supported)",
                    ))
                }
            }
        }
        Code::from_digits(bits).map(Rules::Code)
    }

    /// Every option of a heap of `n`, as heap sizes in non-increasing order (empty heaps
    /// dropped), in the order: tokens removed, then number of heaps, then lexicographically
    /// decreasing. Plain enumeration of the definition; `Err` once more than `limit` options
    /// have been found.
    pub fn options(&self, n: u64, limit: usize) -> Result<Vec<Vec<u64>>, Error> {
        let mut out = Vec::new();
        self.for_each_option(n, &mut |parts| {
            push_limited(&mut out, parts.to_vec(), limit, n)
        })?;
        Ok(out)
    }

    /// Call `f` with every option of a heap of `n`, in the order of [`Notation::options`],
    /// without collecting them (memory independent of their number); stops at `f`'s first
    /// error.
    pub fn for_each_option(
        &self,
        n: u64,
        f: &mut dyn FnMut(&[u64]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut parts = Vec::new();
        for k in 0..=n {
            let Some(d) = self.digit(k as usize) else {
                break;
            };
            if k == 0 && n == 0 {
                continue;
            }
            digit_options(d, n - k, &mut parts, f)?;
        }
        // Moves that add k tokens (an empty heap is no heap: it has no moves). Every heap
        // they leave is smaller than n (see `set_adds`).
        if n > 0 {
            for (i, d) in self.adds.iter().enumerate() {
                digit_options(d, n + i as u64 + 1, &mut parts, f)?;
            }
        }
        Ok(())
    }
}

/// Call `f` with every way digit `d` splits `r` tokens (what is left after removing, or
/// after adding), in increasing number of heaps, then lexicographically decreasing.
fn digit_options(
    d: &Digit,
    r: u64,
    parts: &mut Vec<u64>,
    f: &mut dyn FnMut(&[u64]) -> Result<(), Error>,
) -> Result<(), Error> {
    if d.allows(0).is_some() && r == 0 {
        f(&[])?;
    }
    let top = if d.more.is_some() {
        r
    } else {
        (d.counts.len() as u64).saturating_sub(1).min(r)
    };
    for j in 1..=top {
        let Some(q) = d.allows(j as usize) else {
            continue;
        };
        if j >= 2 && q == Qualifier::AllEqual {
            if r % j == 0 {
                parts.clear();
                parts.resize(j as usize, r / j);
                f(parts)?;
            }
            continue;
        }
        let strict = j >= 2 && q == Qualifier::Unequal;
        parts.clear();
        partitions(r, j, r, strict, parts, &mut |p| {
            if j < 2 || q.admits(p) {
                f(p)
            } else {
                Ok(())
            }
        })?;
    }
    Ok(())
}

impl Notation {
    /// Whether the code repeats forever (a bracketed suffix) or has a digit with `+` / `*`.
    pub fn is_unbounded(&self) -> bool {
        self.repeat > 0 || self.digits.iter().any(|d| d.more.is_some())
    }

    /// The number of options of all heaps `0..=n` together — what [`Notation::options`] would
    /// list for each — counted (not listed) by partition numbers: `p(r, j)` partitions of `r`
    /// into `j` parts (`p(r, j) = p(r-1, j-1) + p(r-j, j)`), `p(r - j(j-1)/2, j)` of them with
    /// distinct parts. `None` as soon as the options, or the steps of the count (heap sizes,
    /// digits and heap counts examined, which bound the steps of listing the options too),
    /// exceed `cap`: the work is bounded by `cap`, whatever `n`.
    pub fn option_total(&self, n: u64, cap: u128) -> Option<u128> {
        // p[r][j] for j <= min(r, widest); rows are added as heaps grow. Only counts with a
        // qualifier other than `=` read the table (`=` allows one partition or none), so only
        // they widen it: a code of `=` digits keeps one column however many heaps it allows.
        let counted = |q: &Option<Qualifier>| q.is_some_and(|q| q != Qualifier::AllEqual);
        let all_digits = || self.digits.iter().chain(&self.adds);
        let finite = all_digits()
            .filter_map(|d| d.counts.iter().rposition(counted))
            .max()
            .unwrap_or(0) as u64;
        let unbounded = all_digits().any(|d| counted(&d.more));
        let widest = |r: u64| if unbounded { r } else { finite.min(r) };
        // Moves that add k tokens split m + k: the table runs `adds.len()` rows ahead.
        let ahead = self.adds.len() as u64;
        let mut p: Vec<Vec<u128>> = vec![vec![1]];
        let mut total: u128 = 0;
        let mut steps: u128 = 0;
        for m in 0..=n {
            steps += 1 + u128::from(ahead);
            while (p.len() as u64) <= m.saturating_add(ahead) {
                let r = p.len() as u64;
                let row: Vec<u128> = (0..=widest(r))
                    .map(|j| {
                        if j == 0 {
                            0
                        } else {
                            table(&p, r - 1, j - 1).saturating_add(table(&p, r - j, j))
                        }
                    })
                    .collect();
                p.push(row);
            }
            for k in 0..=m {
                let Some(d) = self.digit(k as usize) else {
                    break;
                };
                if d.is_zero() || (k == 0 && m == 0) {
                    continue;
                }
                let (count, work) = digit_option_count(d, m - k, &p);
                total = total.saturating_add(count);
                steps += work;
                if total > cap || steps > cap {
                    return None;
                }
            }
            if m > 0 {
                for (i, d) in self.adds.iter().enumerate() {
                    let (count, work) = digit_option_count(d, m + i as u64 + 1, &p);
                    total = total.saturating_add(count);
                    steps += work;
                }
            }
            if total > cap || steps > cap {
                return None;
            }
        }
        Some(total)
    }
}

/// `p[r][j]`, the number of partitions of `r` into `j` parts, 0 outside the table.
fn table(p: &[Vec<u128>], r: u64, j: u64) -> u128 {
    p.get(r as usize)
        .and_then(|row| row.get(j as usize))
        .copied()
        .unwrap_or(0)
}

/// How many ways digit `d` splits `r` tokens (what [`digit_options`] lists), by the partition
/// table `p`, and the steps taken.
fn digit_option_count(d: &Digit, r: u64, p: &[Vec<u128>]) -> (u128, u128) {
    let top = if d.more.is_some() {
        r
    } else {
        (d.counts.len() as u64).saturating_sub(1).min(r)
    };
    let mut total = u128::from(r == 0 && d.allows(0).is_some());
    for j in 1..=top {
        let Some(q) = d.allows(j as usize) else {
            continue;
        };
        let all_equal = u128::from(r % j == 0);
        let count = match q {
            _ if j == 1 => 1,
            Qualifier::Any => table(p, r, j),
            Qualifier::AllEqual => all_equal,
            Qualifier::NotAllEqual => table(p, r, j) - all_equal,
            Qualifier::Unequal => {
                let lift = j * (j - 1) / 2;
                if lift <= r {
                    table(p, r - lift, j)
                } else {
                    0
                }
            }
        };
        total = total.saturating_add(count);
    }
    (total, 1 + u128::from(top))
}

/// A move of digit `d` placed `k` digits before `d0` (add `k` tokens, then split) that
/// leaves a heap at least as large as the heap moved, if there is one: the heap `n` and the
/// heaps left, largest first.
///
/// Adding `k` to a heap of `n` and leaving `j` heaps, the largest heap left is at most
/// `n + k - (j - 1)`, so only `j <= k + 1` can reach `n`; per qualifier (none on one heap):
/// any heaps or not all equal, `n + k - j + 1` is reached (`n = 2`: `k + 3 - j, 1, ..., 1`,
/// not all equal); pairwise unequal, the largest is at most `n + k - j(j-1)/2` (the others
/// `j - 1, ..., 1`), reached once `n + k >= j(j+1)/2`; all equal, `(n + k) / j >= n` for
/// `n <= k / (j - 1)` when `j` divides `n + k`.
fn growing_move(d: &Digit, k: u64) -> Option<(u64, Vec<u64>)> {
    // Counts above k + 1 never leave a heap as large as the one moved (see above); counts
    // up to k + 1 are checked one by one (the digit allows at most 127 finite ones, and a
    // `+` continues to every larger count).
    let last = if d.more.is_some() {
        k + 1
    } else {
        (d.counts.len() as u64).saturating_sub(1).min(k + 1)
    };
    for j in 1..=last {
        let Some(q) = d.allows(j as usize) else {
            continue;
        };
        let ones = |n: u64| {
            let mut parts = vec![n + k - (j - 1)];
            parts.resize(j as usize, 1);
            parts
        };
        match q {
            _ if j == 1 => return Some((1, vec![1 + k])),
            Qualifier::Any => return Some((1, ones(1))),
            Qualifier::NotAllEqual => return Some((2, ones(2))),
            Qualifier::Unequal => {
                let lift = j * (j - 1) / 2;
                if lift <= k {
                    let n = (j * (j + 1) / 2).saturating_sub(k).max(1);
                    let mut parts = vec![n + k - lift];
                    parts.extend((1..j).rev());
                    return Some((n, parts));
                }
            }
            Qualifier::AllEqual => {
                if let Some(n) = (1..=k / (j - 1)).find(|n| (n + k) % j == 0) {
                    return Some((n, vec![(n + k) / j; j as usize]));
                }
            }
        }
    }
    None
}

fn push_limited(
    out: &mut Vec<Vec<u64>>,
    item: Vec<u64>,
    limit: usize,
    n: u64,
) -> Result<(), Error> {
    if out.len() >= limit {
        return Err(Error::Invalid(format!(
            "a heap of {n} has more than {limit} options under these rules; choose a smaller heap"
        )));
    }
    out.push(item);
    Ok(())
}

/// Call `f` with every partition of `r` into exactly `j` parts, each at most `max`, parts in
/// non-increasing order (largest first), strictly decreasing when `strict`. Branches that
/// cannot complete are cut, so the work is proportional to the partitions produced.
fn partitions(
    r: u64,
    j: u64,
    max: u64,
    strict: bool,
    parts: &mut Vec<u64>,
    f: &mut dyn FnMut(&[u64]) -> Result<(), Error>,
) -> Result<(), Error> {
    if j == 0 {
        return if r == 0 { f(parts) } else { Ok(()) };
    }
    // The most j parts at most `max` can hold (strictly decreasing: max + (max-1) + ...).
    let capacity = if strict {
        if max < j {
            return Ok(());
        }
        (j as u128) * (2 * max as u128 - j as u128 + 1) / 2
    } else {
        j as u128 * max as u128
    };
    if r < j || (r as u128) > capacity {
        return Ok(());
    }
    // The first part a is at least ceil(r / j) and at most min(max, r - (j - 1)).
    let lo = r.div_ceil(j);
    let mut a = max.min(r - (j - 1));
    while a >= lo {
        parts.push(a);
        let next_max = if strict { a - 1 } else { a };
        partitions(r - a, j - 1, next_max, strict, parts, f)?;
        parts.pop();
        a -= 1;
    }
    Ok(())
}

impl Notation {
    /// The text of this code with `adds` as its digits before `d0`.
    fn text_with(&self, adds: &[Digit]) -> String {
        let mut code = self.clone();
        code.adds = adds.to_vec();
        code.to_string()
    }
}

impl std::fmt::Display for Notation {
    /// Canonical text: the digits before `d0` (if any), `d0`, the point, the digits, the
    /// repeating part in brackets.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for d in self.adds.iter().rev() {
            f.write_str(&d.text())?;
        }
        write!(f, "{}.", self.digits[0].text())?;
        let len = self.digits.len();
        if len == 1 {
            return f.write_str("0");
        }
        for (k, d) in self.digits.iter().enumerate().skip(1) {
            if self.repeat > 0 && k == len - self.repeat {
                f.write_str("[")?;
            }
            f.write_str(&d.text())?;
        }
        if self.repeat > 0 {
            f.write_str("]")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
