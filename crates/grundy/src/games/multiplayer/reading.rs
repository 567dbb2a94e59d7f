//! The multiplayer evaluator: who makes the last move when `m` players move in turn and every
//! player follows its own preference order (multiplayer paper, Def. 4.1).
//!
//! The paper defines the last mover `W(G, A)` of game `G` with player `A` to move by
//!
//! 1. `W(G, A) = P(A)` (the previous player) when `G` is terminal;
//! 2. otherwise `W(G, A) = W(G', N(A))` for the option `G'` whose `W(G', N(A))` is highest in
//!    `A`'s order.
//!
//! This is a [`Reading`] of the shared traversal. The memo table is keyed by position alone,
//! but `W` also depends on who is to move, so the value stored for a position is the whole row
//! `[W(G, 0), W(G, 1), ..., W(G, m-1)]` ([`LastMovers`]): one entry per possible mover, each
//! an absolute player number. `combine` fills entry `a` from the options' entries `a + 1`.
//! For a symmetric profile the row is a rotation of one offset, but for an arbitrary profile
//! the entries are unrelated, which is why all of them are kept.
//!
//! **Tie-break.** Several options may give the same (best) last mover; the value does not
//! depend on which one is played, but the principal line does. The mover always plays the
//! FIRST such option in the order [`Game::options`] lists them.

use super::prefs::{Preferences, MAX_PLAYERS};
use crate::solve::{Reading, Solver};
use crate::{Error, Game};

/// For one position, the last mover (an absolute player number) for each possible player to
/// move: entry `a` is `W(G, a)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LastMovers {
    by_mover: [u8; MAX_PLAYERS],
}

impl LastMovers {
    /// `W(G, mover)`: the last mover when `mover` is to move.
    #[inline]
    pub fn with_mover(&self, mover: usize) -> usize {
        self.by_mover[mover] as usize
    }
}

/// The reading of Def. 4.1: each mover picks the option whose last mover it prefers most.
#[derive(Debug, Clone)]
pub struct LastMover {
    prefs: Preferences,
}

impl LastMover {
    /// The reading for a preference profile.
    pub fn new(prefs: Preferences) -> Self {
        LastMover { prefs }
    }

    /// The preference profile.
    pub fn preferences(&self) -> &Preferences {
        &self.prefs
    }

    /// The index of the option `mover` plays, given the options' values: the first option
    /// whose last mover (with the next player to move) ranks highest in `mover`'s order.
    /// `None` when there is no option (a terminal position).
    pub fn choice(&self, mover: usize, option_values: &[LastMovers]) -> Option<usize> {
        let next = (mover + 1) % self.prefs.players();
        let mut best: Option<(usize, usize)> = None; // (rank, index)
        for (j, v) in option_values.iter().enumerate() {
            let r = self.prefs.rank(mover, v.with_mover(next));
            if best.map_or(true, |(best_rank, _)| r < best_rank) {
                best = Some((r, j));
                if r == 0 {
                    break; // nothing beats the most wanted last mover
                }
            }
        }
        best.map(|(_, j)| j)
    }
}

impl<P> Reading<P> for LastMover {
    type Value = LastMovers;

    fn combine(&mut self, _position: &P, option_values: &[LastMovers]) -> LastMovers {
        let m = self.prefs.players();
        let mut out = LastMovers {
            by_mover: [0; MAX_PLAYERS],
        };
        for a in 0..m {
            out.by_mover[a] = match self.choice(a, option_values) {
                // Terminal: the previous player made the last move.
                None => ((a + m - 1) % m) as u8,
                Some(j) => option_values[j].by_mover[(a + 1) % m],
            };
        }
        out
    }
}

/// One move of a principal line: who played it and the position it left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineMove<P> {
    /// The player who moved (absolute number).
    pub player: usize,
    /// The position after the move.
    pub position: P,
}

/// The result of playing a position out under a profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Play<P> {
    /// The player to move at the start.
    pub mover: usize,
    /// The last mover, an absolute player number.
    pub last_mover: usize,
    /// The `i` of "i-position" (Def. 4.3): the last mover is `N^i(mover)`.
    pub position_offset: usize,
    /// The moves actually played when every player follows its choice (see the module's
    /// tie-break rule); empty for a terminal position.
    pub line: Vec<LineMove<P>>,
}

impl<G: Game> Solver<G, LastMover> {
    /// A multiplayer evaluator for `game` under the profile `prefs`.
    pub fn multiplayer(game: G, prefs: Preferences) -> Self {
        Solver::new(game, LastMover::new(prefs))
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.reading().preferences().players()
    }

    fn check_mover(&self, mover: usize) -> Result<(), Error> {
        let m = self.players();
        if mover >= m {
            return Err(Error::Invalid(format!(
                "player {mover} does not exist: with {m} players they are 0..{}",
                m - 1
            )));
        }
        Ok(())
    }

    /// `W(position, mover)`: the last mover (absolute number) when `mover` is to move.
    pub fn last_mover(&mut self, position: &G::Position, mover: usize) -> Result<usize, Error> {
        self.check_mover(mover)?;
        Ok(self.value(position)?.with_mover(mover))
    }

    /// The `i` such that `position` is an i-position for `mover` (Def. 4.3): the last mover
    /// is `N^i(mover)`. For a symmetric profile it does not depend on `mover`.
    pub fn position_offset(
        &mut self,
        position: &G::Position,
        mover: usize,
    ) -> Result<usize, Error> {
        let m = self.players();
        Ok((self.last_mover(position, mover)? + m - mover) % m)
    }

    /// The principal line from `position` with `mover` to move: each player in turn plays
    /// its choice (the first option giving its most wanted reachable last mover).
    pub fn principal_line(
        &mut self,
        position: &G::Position,
        mover: usize,
    ) -> Result<Vec<LineMove<G::Position>>, Error> {
        self.check_mover(mover)?;
        let m = self.players();
        let mut line = Vec::new();
        let mut current = position.clone();
        let mut player = mover;
        loop {
            let mut options = self.options_with_values(&current)?;
            let values: Vec<LastMovers> = options.iter().map(|(_, v)| *v).collect();
            let Some(j) = self.reading().choice(player, &values) else {
                break;
            };
            current = options.swap_remove(j).0;
            line.push(LineMove {
                player,
                position: current.clone(),
            });
            player = (player + 1) % m;
        }
        Ok(line)
    }

    /// Last mover, offset and principal line of `position` with `mover` to move.
    pub fn play(
        &mut self,
        position: &G::Position,
        mover: usize,
    ) -> Result<Play<G::Position>, Error> {
        let last_mover = self.last_mover(position, mover)?;
        let line = self.principal_line(position, mover)?;
        let m = self.players();
        Ok(Play {
            mover,
            last_mover,
            position_offset: (last_mover + m - mover) % m,
            line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nim::{nim, Nim};

    /// Def. 4.1 read literally: a plain recursion, independent of the shared traversal.
    fn w_by_definition(p: &Preferences, heaps: &[u64], mover: usize) -> usize {
        let m = p.players();
        let options = nim().options_vec(&Nim::position(heaps));
        let mut best: Option<usize> = None;
        for o in options {
            let w = w_by_definition(p, &o, (mover + 1) % m);
            if best.map_or(true, |b| p.prefers(mover, w, b)) {
                best = Some(w);
            }
        }
        best.unwrap_or((mover + m - 1) % m)
    }

    fn all_orders(m: usize) -> Vec<Vec<usize>> {
        fn go(cur: &mut Vec<usize>, m: usize, out: &mut Vec<Vec<usize>>) {
            if cur.len() == m {
                out.push(cur.clone());
                return;
            }
            for x in 0..m {
                if !cur.contains(&x) {
                    cur.push(x);
                    go(cur, m, out);
                    cur.pop();
                }
            }
        }
        let mut out = Vec::new();
        go(&mut Vec::new(), m, &mut out);
        out
    }

    #[test]
    fn agrees_with_the_definition_for_every_three_player_profile() {
        let orders = all_orders(3);
        let positions: Vec<Vec<u64>> =
            crate::games::multiplayer::tests_support::sorted_tuples(3, 4);
        for a in &orders {
            for b in &orders {
                for c in &orders {
                    let p = Preferences::new(vec![a.clone(), b.clone(), c.clone()]).unwrap();
                    let mut solver = Solver::multiplayer(nim(), p.clone());
                    for pos in &positions {
                        for mover in 0..3 {
                            assert_eq!(
                                solver.last_mover(pos, mover).unwrap(),
                                w_by_definition(&p, pos, mover),
                                "{p} {pos:?} mover {mover}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_principal_line_ends_with_the_last_mover() {
        let p = Preferences::parse_orders("0,2,1,3/3,1,0,2/2,3,1,0/1,0,3,2").unwrap();
        let mut solver = Solver::multiplayer(nim(), p);
        for pos in crate::games::multiplayer::tests_support::sorted_tuples(3, 5) {
            for mover in 0..4 {
                let play = solver.play(&pos, mover).unwrap();
                let expected_last = match play.line.last() {
                    Some(step) => step.player,
                    None => (mover + 3) % 4,
                };
                assert_eq!(play.last_mover, expected_last, "{pos:?}");
                if let Some(step) = play.line.last() {
                    assert!(step.position.iter().all(|&h| h == 0), "{pos:?}");
                }
                for (k, step) in play.line.iter().enumerate() {
                    assert_eq!(step.player, (mover + k) % 4);
                }
            }
        }
    }

    #[test]
    fn symmetric_profiles_give_an_offset_independent_of_the_mover() {
        for offsets in all_orders(3) {
            let p = Preferences::games(&offsets).unwrap();
            let mut solver = Solver::multiplayer(nim(), p);
            for pos in crate::games::multiplayer::tests_support::sorted_tuples(3, 5) {
                let i = solver.position_offset(&pos, 0).unwrap();
                for mover in 1..3 {
                    assert_eq!(solver.position_offset(&pos, mover).unwrap(), i);
                }
            }
        }
    }

    /// Worked by hand. Three players; player 0 wants 0 > 2 > 1, player 1 wants 1 > 0 > 2,
    /// player 2 wants 2 > 0 > 1. Nim (1,2) has options (0,2), (0,1), (1,1).
    /// - From (0,2) or (0,1) the next player takes the last heap and moves last (everybody
    ///   wants itself first). From (1,1) the next player must leave (0,1) and the player after
    ///   it moves last.
    /// - Player 0 to move: (0,2)/(0,1) make player 1 last, (1,1) makes player 2 last; player 0
    ///   prefers 2 to 1, so it plays (1,1): last mover 2, a 2-position for player 0. (Under
    ///   Li's symmetric GAMES(0,1,2) player 0 would prefer 1 instead.)
    /// - Player 1 to move: 2 is last after (0,2)/(0,1), 0 after (1,1); player 1 prefers 0:
    ///   last mover 0, offset 2.
    /// - Player 2 to move: 0 is last after (0,2)/(0,1), 1 after (1,1); player 2 prefers 0 and
    ///   plays the first such option, (0,2): last mover 0, offset 1 — the offset now depends
    ///   on who moves, which cannot happen with a symmetric profile.
    #[test]
    fn an_asymmetric_profile_worked_by_hand() {
        let p = Preferences::parse_orders("0,2,1/1,0,2/2,0,1").unwrap();
        let mut solver = Solver::multiplayer(nim(), p);
        let pos = vec![1, 2];
        let play = solver.play(&pos, 0).unwrap();
        assert_eq!((play.last_mover, play.position_offset), (2, 2));
        let line: Vec<(usize, Vec<u64>)> = play
            .line
            .into_iter()
            .map(|s| (s.player, s.position))
            .collect();
        assert_eq!(
            line,
            vec![(0, vec![1, 1]), (1, vec![0, 1]), (2, vec![0, 0])]
        );
        assert_eq!(solver.last_mover(&pos, 1).unwrap(), 0);
        assert_eq!(solver.position_offset(&pos, 1).unwrap(), 2);
        let play = solver.play(&pos, 2).unwrap();
        assert_eq!((play.last_mover, play.position_offset), (0, 1));
        assert_eq!(play.line[0].position, vec![0, 2]);
        let mut li = Solver::multiplayer(nim(), Preferences::li(3).unwrap());
        assert_eq!(li.last_mover(&pos, 0).unwrap(), 1);
    }

    #[test]
    fn ties_go_to_the_first_option() {
        // Nim (1,2) under Li's ranking, player 0 to move. The options, in the game's order,
        // are (0,2), (0,1), (1,1) with last movers 1, 1, 2 (player 1 to move next); player 0
        // cannot be last and prefers player 1, reached by the first two: it plays (0,2).
        let mut solver = Solver::multiplayer(nim(), Preferences::li(3).unwrap());
        let play = solver.play(&vec![1, 2], 0).unwrap();
        assert_eq!(play.last_mover, 1);
        let line: Vec<(usize, Vec<u64>)> = play
            .line
            .into_iter()
            .map(|s| (s.player, s.position))
            .collect();
        assert_eq!(line, vec![(0, vec![0, 2]), (1, vec![0, 0])]);
    }

    /// The reading is generic: with two players, GAMES(0,1) is normal play and GAMES(1,0) is
    /// misère play, on any game of the trait (here Wythoff's game and a subtraction game).
    #[test]
    fn two_player_profiles_are_normal_and_misere_play_on_any_game() {
        use crate::games::subtraction::{subtraction, SubtractionSet};
        use crate::games::wythoff::Wythoff;
        use crate::{NormalPlay, Outcome};
        fn check<G: Game + Clone>(game: G, positions: &[G::Position]) {
            let mut normal = NormalPlay::new(game.clone());
            let mut misere = Solver::misere(game.clone());
            let mut games_0_1 =
                Solver::multiplayer(game.clone(), Preferences::games(&[0, 1]).unwrap());
            let mut games_1_0 = Solver::multiplayer(game, Preferences::misere());
            for p in positions {
                let previous_wins = normal.outcome(p).unwrap() == Outcome::P;
                assert_eq!(
                    games_0_1.position_offset(p, 0).unwrap() == 1,
                    previous_wins,
                    "{p:?}"
                );
                let mover_loses = misere.value(p).unwrap() == Outcome::P;
                assert_eq!(
                    games_1_0.position_offset(p, 0).unwrap() == 0,
                    mover_loses,
                    "{p:?}"
                );
            }
        }
        let pairs: Vec<(u64, u64)> = (0..12).flat_map(|a| (a..12).map(move |b| (a, b))).collect();
        check(Wythoff, &pairs);
        let set = SubtractionSet::finite(vec![1, 3, 4]).unwrap();
        check(
            subtraction(set),
            &crate::games::multiplayer::tests_support::sorted_tuples(3, 9),
        );
    }

    #[test]
    fn a_missing_player_is_refused() {
        let mut solver = Solver::multiplayer(nim(), Preferences::li(3).unwrap());
        let e = solver.last_mover(&vec![1], 3).unwrap_err().to_string();
        assert!(e.contains("player 3 does not exist"), "{e}");
    }
}
