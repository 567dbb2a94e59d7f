//! The class tables of m-player Nim (`grundy::games::multiplayer::tables`) against an
//! independent brute force of the paper's definition: `W(G, A)` of §4 (Def. 4.1), written out
//! here with absolute player numbers and each player's own order, memoised on (position,
//! mover), sharing no code with the library's evaluators. Every table entry of total at most
//! 12 is compared, for every order of four and of five players.

use grundy::games::multiplayer::tables::{all_orders, Domain, Table};
use std::collections::HashMap;

/// `W(G, A)` by Def. 4.1: terminal -> the previous player; otherwise the mover picks the
/// option whose last mover (with the next player to move) stands highest in its own order.
struct Definition {
    m: usize,
    /// `prefs[a]`: player `a`'s order on the players, most wanted first (absolute numbers).
    prefs: Vec<Vec<usize>>,
    memo: HashMap<(Vec<u64>, usize), usize>,
}

impl Definition {
    fn new(offsets: &[usize]) -> Self {
        let m = offsets.len();
        let prefs = (0..m)
            .map(|a| offsets.iter().map(|&k| (a + k) % m).collect())
            .collect();
        Definition {
            m,
            prefs,
            memo: HashMap::new(),
        }
    }

    fn place(&self, a: usize, winner: usize) -> usize {
        self.prefs[a].iter().position(|&x| x == winner).unwrap()
    }

    fn w(&mut self, heaps: &[u64], mover: usize) -> usize {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&w) = self.memo.get(&(key.clone(), mover)) {
            return w;
        }
        let next = (mover + 1) % self.m;
        let mut best: Option<usize> = None;
        for i in 0..key.len() {
            for smaller in 0..key[i] {
                let mut option = key.clone();
                option[i] = smaller;
                let w = self.w(&option, next);
                if best.map_or(true, |b| self.place(mover, w) < self.place(mover, b)) {
                    best = Some(w);
                }
            }
        }
        let w = best.unwrap_or((mover + self.m - 1) % self.m);
        self.memo.insert((key, mover), w);
        w
    }
}

/// Every multiset of positive heaps with total at most `total`.
fn partitions(total: u64) -> Vec<Vec<u64>> {
    fn go(left: u64, max: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        out.push(cur.clone());
        for h in 1..=left.min(max) {
            cur.push(h);
            go(left - h, h, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(total, total, &mut Vec::new(), &mut out);
    out
}

fn check_players(m: usize) {
    let positions = partitions(12);
    assert_eq!(positions.len(), 272); // p(0) + ... + p(12)
                                      // 12 heaps of at most 12 with total at most 12: every such position is an entry
    let domain = Domain::new(m, 12, 12, Some(12)).unwrap();
    let orders = all_orders(m);
    let mut compared = 0;
    for chunk in orders.chunks(12) {
        let tables = Table::compute_all(&domain, chunk, None, None)
            .unwrap()
            .unwrap();
        for table in &tables {
            let mut def = Definition::new(table.order());
            for p in &positions {
                // the class: the offset of the last mover from player 0, who moves first;
                // with a symmetric profile it is the same for every first mover
                let class = def.w(p, 0);
                for mover in 1..m {
                    assert_eq!((def.w(p, mover) + m - mover) % m, class);
                }
                assert_eq!(
                    table.class_of(p),
                    Some(class),
                    "GAMES{:?} position {p:?}",
                    table.order()
                );
                compared += 1;
            }
            // and no entry of the table lies outside the total cap by mistake
            let inside = (0..domain.len())
                .filter(|&r| table.class_at(r).is_some())
                .count();
            assert_eq!(inside, positions.len());
        }
    }
    assert_eq!(compared, orders.len() * positions.len());
}

#[test]
fn four_player_tables_follow_the_definition() {
    check_players(4);
}

#[test]
fn five_player_tables_follow_the_definition() {
    check_players(5);
}

/// The production domains (6 heaps of at most 15 for four players, 5 of at most 10 for
/// five) agree with the definition on their entries of total at most 12 too.
#[test]
fn production_domains_follow_the_definition_below_total_12() {
    for (m, k, n) in [(4, 6, 15), (5, 5, 10)] {
        let domain = Domain::new(m, k, n, None).unwrap();
        let orders = all_orders(m);
        let tables = Table::compute_all(&domain, &orders, None, None)
            .unwrap()
            .unwrap();
        for table in &tables {
            let mut def = Definition::new(table.order());
            for r in 0..domain.len() {
                let p = domain.position(r);
                if p.iter().sum::<u64>() <= 12 {
                    assert_eq!(table.class_at(r), Some(def.w(&p, 0)), "{p:?}");
                }
            }
        }
    }
}
