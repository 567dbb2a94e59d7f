//! Misère quotients of general games: the quotient of every sum of the component positions
//! reachable from some start positions of any [`Game`], not only of heap games.
//!
//! Plambeck and Siegel define the quotient of any set of games closed under options and sums
//! ("Misère quotients for impartial games", JCTA 115 (2008), §2): two sums are identified when
//! no third sum added to both tells them apart by misère outcome. Here the set is spanned by
//! the *components* (positions that [`Game::components`] does not split) reachable from the
//! user's start positions, closed under options; a position is a multiset of them.
//!
//! Heap games are the special case whose components are heaps, and there is one engine: the
//! components are numbered so that they *are* heaps to [`super::engine`] — `0` is the empty
//! sum (every terminal component), `1, 2, ...` the others in order of their size
//! ([`HeapGame::tokens`]: `1 +` the largest total size of an option's parts, so every option
//! is smaller and every part of it has a smaller number) — and the heap-by-heap construction,
//! the two failure checks that prove the result, the presentation and the structure are the
//! ones heap games use. `Φ` is a word per component. There is no periodicity certificate (the
//! set is finite), so a finished run is the quotient of the whole set ([`Finish::Complete`]).
//!
//! The split into components must be an exact disjunctive sum (the first rule of
//! [`Game::components`] without its normal-play relaxation): the misère outcome of a sum is
//! not determined by its parts' Grundy values, so a reduction that keeps only values would
//! give a wrong quotient.

use super::heaps::HeapGame;
use super::{compute_with, Finish, MisereQuotient, Report, RunOptions};
use crate::{Error, Game, Outcome};
use std::collections::HashMap;
use std::fmt::Debug;

/// Default cap on the number of component positions enumerated.
pub const DEFAULT_MAX_COMPONENTS: usize = 100_000;
/// Largest size of a component: the engine's searches keep a bucket per unit of size.
const MAX_TOKENS: u64 = 1 << 22;

/// The component positions reachable from the start positions, numbered for the engine.
pub struct Components<P> {
    /// `positions[k]`: component number `k` (`None` for 0, the empty sum).
    positions: Vec<Option<P>>,
    /// The number of every component seen (terminal ones are 0).
    index: HashMap<P, u32>,
    /// Per number: the options as lists of numbers (terminal parts left out).
    options: Vec<Vec<Vec<u32>>>,
    /// Per number: its size.
    tokens: Vec<u64>,
}

/// The components as a [`HeapGame`]: heap `k` is component `k`.
pub struct ComponentRules {
    name: String,
    options: Vec<Vec<Vec<u32>>>,
    tokens: Vec<u64>,
}

impl HeapGame for ComponentRules {
    fn heap_options(&self, n: u32, visit: &mut dyn FnMut(&[u32])) {
        if let Some(opts) = self.options.get(n as usize) {
            for o in opts {
                visit(o);
            }
        }
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn move_bounds(&self) -> Option<(u32, u32)> {
        None
    }

    fn tokens(&self, n: u32) -> u64 {
        self.tokens.get(n as usize).copied().unwrap_or(u64::MAX)
    }
}

/// Split `position` into components (again and again, until no part splits).
fn split<G: Game>(
    game: &G,
    position: &G::Position,
    out: &mut Vec<G::Position>,
) -> Result<(), Error> {
    let mut stack = vec![position.clone()];
    let mut steps = 0usize;
    while let Some(x) = stack.pop() {
        match game.components(&x) {
            Some(parts) => {
                if parts.contains(&x) {
                    return Err(Error::Invalid(format!(
                        "components() of {x:?} returned the position itself as a part"
                    )));
                }
                steps += 1;
                if steps > 1 << 24 {
                    return Err(Error::Invalid(format!(
                        "components() keeps splitting the parts of {position:?}"
                    )));
                }
                // in their order (the stack pops the last first)
                stack.extend(parts.into_iter().rev());
            }
            None => out.push(x),
        }
        if let Some(e) = game.interrupted() {
            return Err(e);
        }
    }
    Ok(())
}

impl<P: Clone + Eq + std::hash::Hash + Debug> Components<P> {
    /// Every component reachable from `start` (positions, each split into its components),
    /// closed under options; refused past `max_components` components or when `stop()`.
    pub fn enumerate<G: Game<Position = P>>(
        game: &G,
        start: &[P],
        max_components: usize,
        stop: &dyn Fn() -> bool,
    ) -> Result<Self, Error> {
        // Discovery order: ids, and each component's options as lists of ids.
        let mut found: Vec<P> = Vec::new();
        let mut id: HashMap<P, u32> = HashMap::new();
        let mut moves: Vec<Vec<Vec<u32>>> = Vec::new();
        let mut parts = Vec::new();
        let mut intern = |p: P, found: &mut Vec<P>| -> Result<u32, Error> {
            if let Some(&i) = id.get(&p) {
                return Ok(i);
            }
            if found.len() >= max_components {
                return Err(Error::Invalid(format!(
                    "more than {max_components} component positions are reachable from the \
                     start positions (raise max_components)"
                )));
            }
            id.insert(p.clone(), found.len() as u32);
            found.push(p);
            Ok(found.len() as u32 - 1)
        };
        for p in start {
            parts.clear();
            split(game, p, &mut parts)?;
            for q in parts.drain(..) {
                intern(q, &mut found)?;
            }
        }
        let mut opts = Vec::new();
        let mut next = 0;
        while next < found.len() {
            if next % 256 == 0 && stop() {
                return Err(Error::Invalid(
                    "stopped while enumerating the components".into(),
                ));
            }
            opts.clear();
            game.options(&found[next], &mut opts);
            if let Some(e) = game.interrupted() {
                return Err(e);
            }
            let mut lists = Vec::with_capacity(opts.len());
            for o in &opts {
                parts.clear();
                split(game, o, &mut parts)?;
                let mut list = Vec::with_capacity(parts.len());
                for q in parts.drain(..) {
                    list.push(intern(q, &mut found)?);
                }
                lists.push(list);
            }
            moves.push(lists);
            next += 1;
        }
        // Sizes, by a depth-first search with an explicit stack (a loop is refused).
        let n = found.len();
        const NEW: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![NEW; n];
        let mut size = vec![0u64; n];
        for root in 0..n {
            if state[root] != NEW {
                continue;
            }
            let mut stack = vec![(root, false)];
            while let Some((c, expanded)) = stack.pop() {
                if expanded {
                    let mut s = 0u64;
                    for o in &moves[c] {
                        let total = o.iter().map(|&q| size[q as usize]).sum::<u64>() + 1;
                        s = s.max(total);
                    }
                    if s > MAX_TOKENS {
                        return Err(Error::Invalid(format!(
                            "component {:?} has size {s} (1 + the largest total size of an \
                             option's parts), more than {MAX_TOKENS}",
                            found[c]
                        )));
                    }
                    size[c] = s;
                    state[c] = DONE;
                    continue;
                }
                match state[c] {
                    DONE => continue,
                    OPEN => return Err(Error::Loop(format!("{:?}", found[c]))),
                    _ => {}
                }
                state[c] = OPEN;
                stack.push((c, true));
                for o in &moves[c] {
                    for &q in o {
                        match state[q as usize] {
                            NEW => stack.push((q as usize, false)),
                            OPEN => return Err(Error::Loop(format!("{:?}", found[q as usize]))),
                            _ => {}
                        }
                    }
                }
            }
        }
        // Number the components with options 1, 2, ... by size (then discovery).
        let mut order: Vec<usize> = (0..n).filter(|&c| size[c] > 0).collect();
        order.sort_by_key(|&c| (size[c], c));
        let mut number = vec![0u32; n];
        for (k, &c) in order.iter().enumerate() {
            number[c] = k as u32 + 1;
        }
        let mut positions: Vec<Option<P>> = vec![None];
        let mut options = vec![Vec::new()];
        let mut tokens = vec![0];
        for &c in &order {
            positions.push(Some(found[c].clone()));
            tokens.push(size[c]);
            options.push(
                moves[c]
                    .iter()
                    .map(|o| {
                        o.iter()
                            .map(|&q| number[q as usize])
                            .filter(|&k| k > 0)
                            .collect()
                    })
                    .collect(),
            );
        }
        let index = found.into_iter().zip(number).collect();
        Ok(Components {
            positions,
            index,
            options,
            tokens,
        })
    }

    /// How many numbers there are (the empty sum included).
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether only the empty sum is there (every component is terminal).
    pub fn is_empty(&self) -> bool {
        self.positions.len() == 1
    }

    /// Component number `k` (`None` for 0, the empty sum).
    pub fn position(&self, k: u32) -> Option<&P> {
        self.positions.get(k as usize).and_then(Option::as_ref)
    }

    /// The number of a component (0 for a terminal one), if it was enumerated.
    pub fn number(&self, component: &P) -> Option<u32> {
        self.index.get(component).copied()
    }

    /// The size of component number `k`.
    pub fn tokens(&self, k: u32) -> u64 {
        self.tokens[k as usize]
    }

    /// The components as heaps for the engine.
    pub fn rules(&self, name: &str) -> ComponentRules {
        ComponentRules {
            name: name.to_string(),
            options: self.options.clone(),
            tokens: self.tokens.clone(),
        }
    }
}

/// A winning move of a sum: component number `index` (0-based, in the order the split gives)
/// goes from `from` to `to` (an option of it, itself possibly a sum).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameMove<P> {
    /// Which component of the position.
    pub index: usize,
    /// The component moved in.
    pub from: P,
    /// The option it moves to.
    pub to: P,
}

/// The misère quotient of a finite set of sums of a game's components.
pub struct GameQuotient<P> {
    quotient: MisereQuotient,
    components: Components<P>,
}

/// The quotient of every sum of the components reachable from `start` (see the module docs),
/// computed heap by heap as for heap games; `name` names the game in the report. Refused past
/// `max_components` components. A run stopped by `stop()` (or, after enumerating, by a limit of
/// `run`) gives the partial quotient of the components computed so far.
pub fn game_quotient<G: Game>(
    game: &G,
    name: &str,
    start: &[G::Position],
    max_components: usize,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(u32, usize),
    run: &RunOptions,
) -> Result<GameQuotient<G::Position>, Error> {
    let components = Components::enumerate(game, start, max_components, stop)?;
    quotient_of(components, name, stop, progress, run)
}

/// The quotient of enumerated components (see [`game_quotient`]).
pub fn quotient_of<P: Clone + Eq + std::hash::Hash + Debug>(
    components: Components<P>,
    name: &str,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(u32, usize),
    run: &RunOptions,
) -> Result<GameQuotient<P>, Error> {
    let last = components.len() as u32 - 1;
    let quotient = compute_with(
        Box::new(components.rules(name)),
        last,
        false,
        stop,
        progress,
        run,
    )?;
    Ok(GameQuotient::new(components, quotient))
}

impl<P: Clone + Eq + std::hash::Hash + Debug> GameQuotient<P> {
    /// The quotient of `components` from a run of [`compute_with`] on
    /// [`Components::rules`] up to the last number (the run may be done apart from the
    /// positions, e.g. without the Python package's GIL, which only the positions need).
    pub fn new(components: Components<P>, mut quotient: MisereQuotient) -> Self {
        if quotient.computed_to_heap() as usize == components.len() - 1
            && matches!(quotient.finish, Finish::MaxHeap)
        {
            quotient.finish = Finish::Complete;
        }
        GameQuotient {
            quotient,
            components,
        }
    }

    /// The quotient, its components numbered as heaps.
    pub fn quotient(&self) -> &MisereQuotient {
        &self.quotient
    }

    /// The components (number `k` is heap `k` of the quotient).
    pub fn components(&self) -> &Components<P> {
        &self.components
    }

    /// The report (the keys of `grundy misere-quotient --json`; a heap is a component's
    /// number, `finish` is `complete` when every component was computed).
    pub fn report(&self) -> Report {
        self.quotient.report()
    }

    /// Whether the quotient covers every component (not stopped early).
    pub fn is_complete(&self) -> bool {
        self.quotient.finish == Finish::Complete
    }

    /// The element of the quotient that `position` (any sum of enumerated components) maps to.
    pub fn element<G: Game<Position = P>>(&self, game: &G, position: &P) -> Result<u32, Error> {
        let mut parts = Vec::new();
        split(game, position, &mut parts)?;
        let m = &self.quotient.quotient().monoid;
        let phi = &self.quotient.quotient().phi;
        let mut x = 0;
        for part in &parts {
            let k = self.components.number(part).ok_or_else(|| {
                Error::Invalid(format!(
                    "{part:?} is not a component reachable from the start positions"
                ))
            })?;
            if k > self.quotient.computed_to_heap() {
                return Err(Error::Invalid(format!(
                    "the quotient was stopped before component {part:?} (number {k})"
                )));
            }
            x = m.mul(x, phi[k as usize]);
        }
        Ok(x)
    }

    /// The genus of `position` when the quotient is tame and read through misère Nim
    /// ([`super::tame`]; components play the part of heaps); `Ok(None)` otherwise.
    pub fn genus<G: Game<Position = P>>(
        &self,
        game: &G,
        position: &P,
    ) -> Result<Option<crate::solve::misere_genus::Genus>, Error> {
        let x = self.element(game, position)?;
        Ok(self.quotient.element_genus(x))
    }

    /// The misère outcome of `position`, from the quotient.
    pub fn outcome<G: Game<Position = P>>(&self, game: &G, position: &P) -> Result<Outcome, Error> {
        let x = self.element(game, position)?;
        Ok(if self.quotient.quotient().p[x as usize] {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// A winning move in misère play, if any: a move in one component of `position` (in the
    /// order [`Game::components`] gives them) to an option whose sum with the others lies in
    /// the P-portion. Only options of single components are asked for, so the game's
    /// `options` need not handle sums.
    pub fn winning_move<G: Game<Position = P>>(
        &self,
        game: &G,
        position: &P,
    ) -> Result<Option<GameMove<P>>, Error> {
        let mut parts = Vec::new();
        split(game, position, &mut parts)?;
        let m = &self.quotient.quotient().monoid;
        let p = &self.quotient.quotient().p;
        let images: Vec<u32> = parts
            .iter()
            .map(|c| self.element(game, c))
            .collect::<Result<_, _>>()?;
        let mut opts = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            if parts[..i].contains(part) {
                continue;
            }
            let rest = (0..parts.len())
                .filter(|&k| k != i)
                .fold(0, |acc, k| m.mul(acc, images[k]));
            opts.clear();
            game.options(part, &mut opts);
            if let Some(e) = game.interrupted() {
                return Err(e);
            }
            for o in &opts {
                if p[m.mul(rest, self.element(game, o)?) as usize] {
                    return Ok(Some(GameMove {
                        index: i,
                        from: part.clone(),
                        to: o.clone(),
                    }));
                }
            }
        }
        Ok(None)
    }

    /// The word of an element in the presentation.
    pub fn word(&self, x: u32) -> String {
        self.quotient.presentation().element_text(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::{Rules, TakeBreakGame};

    /// A take-and-break code written as a user's game: a position is a sorted list of heaps,
    /// a sum of single heaps.
    struct CodeAsGame(Rules);

    impl Game for CodeAsGame {
        type Position = Vec<u32>;
        fn options(&self, heaps: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
            let g = TakeBreakGame::new(self.0.clone());
            for (i, &h) in heaps.iter().enumerate() {
                g.heap_moves(h, |_, left| {
                    let mut next: Vec<u32> =
                        heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
                    next.extend(left.iter().copied().filter(|&x| x > 0));
                    next.sort_unstable();
                    out.push(next);
                });
            }
        }
        fn components(&self, heaps: &Vec<u32>) -> Option<Vec<Vec<u32>>> {
            (heaps.len() > 1).then(|| heaps.iter().map(|&h| vec![h]).collect())
        }
    }

    /// Kayles on rows and on circles of pins: knock down one pin or two adjacent ones; a
    /// circle opens into a row, a row may split in two. Components are not heaps of one kind.
    #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
    enum Pins {
        Row(u32),
        Circle(u32),
    }

    struct CircularKayles;

    impl Game for CircularKayles {
        type Position = Vec<Pins>;
        fn options(&self, parts: &Vec<Pins>, out: &mut Vec<Vec<Pins>>) {
            for (i, &c) in parts.iter().enumerate() {
                let rest =
                    || -> Vec<Pins> { parts[..i].iter().chain(&parts[i + 1..]).copied().collect() };
                let mut push = |left: &[u32]| {
                    let mut next = rest();
                    next.extend(left.iter().filter(|&&x| x > 0).map(|&x| Pins::Row(x)));
                    next.sort_unstable();
                    out.push(next);
                };
                match c {
                    Pins::Circle(n) => {
                        for k in 1..=2.min(n) {
                            push(&[n - k]);
                        }
                    }
                    Pins::Row(n) => {
                        for k in 1..=2.min(n) {
                            for a in 0..=(n - k) / 2 {
                                push(&[a, n - k - a]);
                            }
                        }
                    }
                }
            }
        }
        fn components(&self, parts: &Vec<Pins>) -> Option<Vec<Vec<Pins>>> {
            (parts.len() > 1).then(|| parts.iter().map(|&c| vec![c]).collect())
        }
    }

    fn quotient<G: Game>(game: &G, start: &[G::Position]) -> GameQuotient<G::Position> {
        game_quotient(
            game,
            "test",
            start,
            DEFAULT_MAX_COMPONENTS,
            &|| false,
            &mut |_, _| {},
            &RunOptions::default(),
        )
        .unwrap()
    }

    /// A heap game written as a user's game gives its code's quotient: the same order,
    /// P-portion size and (Kayles: its components are numbered as its heaps) presentation
    /// and pretending function, and the same outcome for every position of up to 16 tokens.
    #[test]
    fn a_code_written_as_a_game_has_the_codes_quotient() {
        for (code, n) in [
            ("0.77", 30u32),
            ("0.75", 24),
            ("0.07", 20),
            ("0.137", 18),
            ("4.7", 14),
        ] {
            let rules = Rules::parse(code).unwrap();
            let q_code =
                super::super::compute(Box::new(rules.clone()), n, false, &|| false, &mut |_, _| {})
                    .unwrap();
            let game = CodeAsGame(rules);
            // Heaps n-1 and n reach every smaller heap in these games.
            let q = quotient(&game, &[vec![n - 1, n]]);
            assert!(q.is_complete());
            let (a, b) = (q_code.report(), q.report());
            assert_eq!(
                (a.order, a.p_portion_size),
                (b.order, b.p_portion_size),
                "{code}"
            );
            if code == "0.77" {
                for h in 1..=n {
                    assert_eq!(q.components().number(&vec![h]), Some(h), "{code}");
                }
                assert_eq!(a.presentation, b.presentation);
                assert_eq!(a.pretending_function, b.pretending_function);
            }
            // Every multiset of heaps 1..=n with at most 16 tokens.
            let all =
                super::super::brute::all_outcomes(&Rules::parse(code).unwrap(), n, 16, 1 << 20)
                    .unwrap();
            for (heaps, &p) in &all {
                let h64: Vec<u64> = heaps.iter().map(|&x| x as u64).collect();
                assert_eq!(
                    q_code.outcome(&h64).unwrap() == Outcome::P,
                    p,
                    "{code} {heaps:?}"
                );
                assert_eq!(
                    q.outcome(&game, heaps).unwrap() == Outcome::P,
                    p,
                    "{code} {heaps:?}"
                );
            }
        }
    }

    /// Circular Kayles: every multiset of the enumerated components with at most 14 pins
    /// agrees with the library's plain misère evaluator on the sum, and so does every winning
    /// move.
    /// A tame code written as a game: the genus read from the game's quotient against Conway's
    /// recursion over the code's positions.
    #[test]
    fn a_tame_code_written_as_a_game_gives_conways_genus() {
        for (code, n) in [("0.52", 16u32), ("0.156", 14)] {
            let rules = Rules::parse(code).unwrap();
            let q = quotient(&CodeAsGame(rules.clone()), &[(1..=n).collect()]);
            assert!(q.is_complete() && q.report().tame, "{code}");
            let mut compared = 0;
            let all = super::super::brute::all_outcomes(&rules, n, 12, 1 << 20).unwrap();
            for heaps in all.keys().filter(|h| !h.is_empty()) {
                // Heaps without options are not components (they are the empty sum).
                let parts: Vec<u32> = heaps
                    .iter()
                    .copied()
                    .filter(|&h| q.components().number(&vec![h]).is_some())
                    .collect();
                let read = q
                    .genus(&CodeAsGame(rules.clone()), &parts)
                    .unwrap()
                    .unwrap();
                let direct =
                    crate::solve::misere_genus::position_genus(&rules, heaps, 1 << 20).unwrap();
                assert_eq!(read, direct, "{code} {heaps:?}");
                compared += 1;
            }
            assert!(compared > 100, "{code}");
        }
    }

    #[test]
    fn circular_kayles_agrees_with_a_plain_misere_search() {
        let game = CircularKayles;
        let start: Vec<Vec<Pins>> = (1..=9).map(|n| vec![Pins::Circle(n)]).collect();
        let q = quotient(&game, &start);
        assert!(q.is_complete());
        let comps: Vec<Pins> = (1..q.components().len() as u32)
            .map(|k| q.components().position(k).unwrap()[0])
            .collect();
        assert!(comps.contains(&Pins::Circle(9)) && comps.contains(&Pins::Row(8)));
        let pins = |c: &Pins| match *c {
            Pins::Row(n) | Pins::Circle(n) => n,
        };
        let mut solver = crate::solve::Solver::misere(CircularKayles);
        let mut checked = 0;
        // Multisets of components (as indices into comps, non-decreasing) of at most 14 pins.
        let mut stack: Vec<(Vec<usize>, u32)> = vec![(Vec::new(), 0)];
        while let Some((ms, total)) = stack.pop() {
            let pos: Vec<Pins> = {
                let mut v: Vec<Pins> = ms.iter().map(|&i| comps[i]).collect();
                v.sort_unstable();
                v
            };
            let want = solver.value(&pos).unwrap();
            assert_eq!(q.outcome(&game, &pos).unwrap(), want, "{pos:?}");
            match q.winning_move(&game, &pos).unwrap() {
                Some(mv) => {
                    let mut after = pos.clone();
                    after.remove(mv.index);
                    after.extend(mv.to.iter().copied());
                    after.sort_unstable();
                    assert_eq!(mv.from, vec![pos[mv.index]], "{pos:?}");
                    assert_eq!(solver.value(&after).unwrap(), Outcome::P, "{pos:?}");
                }
                // No move to P: a P-position, or terminal (the player to move wins by not moving).
                None => assert!(want == Outcome::P || pos.is_empty(), "{pos:?}"),
            }
            checked += 1;
            let from = ms.last().copied().unwrap_or(0);
            for (i, c) in comps.iter().enumerate().skip(from) {
                if total + pins(c) <= 14 {
                    let mut next = ms.clone();
                    next.push(i);
                    stack.push((next, total + pins(c)));
                }
            }
        }
        assert!(checked > 1000, "{checked}");
        assert!(q.report().order > 8);
    }

    /// Past the cap, one line; a loop is refused.
    #[test]
    fn the_cap_and_loops_are_refused() {
        let game = CodeAsGame(Rules::parse("0.77").unwrap());
        let e = game_quotient(
            &game,
            "kayles",
            &[vec![50]],
            10,
            &|| false,
            &mut |_, _| {},
            &RunOptions::default(),
        )
        .err()
        .unwrap();
        assert!(
            e.to_string().contains("more than 10 component positions"),
            "{e}"
        );
        struct Loop;
        impl Game for Loop {
            type Position = u32;
            fn options(&self, p: &u32, out: &mut Vec<u32>) {
                out.push((p + 1) % 3);
            }
        }
        let e = game_quotient(
            &Loop,
            "loop",
            &[0],
            10,
            &|| false,
            &mut |_, _| {},
            &RunOptions::default(),
        )
        .err()
        .unwrap();
        assert!(matches!(e, Error::Loop(_)), "{e}");
    }
}
