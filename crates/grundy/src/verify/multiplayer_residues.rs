//! Multiplayer Nim, teams: the residue reduction (ours, `games::multiplayer::residues`) and,
//! for teams mod 2, the closed form of the class's parity — on every position of a range,
//! every grouped order of `m` players, against the class tables (which the tests check
//! against Def. 4.1).

use super::{exhaustive, CheckReport, Progress};
use crate::games::multiplayer::residues::{class_parity, groupings};
use crate::games::multiplayer::tables::{all_orders, Domain, Table, MAX_TABLE_PLAYERS};
use crate::Error;
use num_bigint::BigUint;
use serde::Serialize;

/// Most table entries one check may compute (over the orders).
pub const ENTRY_BUDGET: u128 = 200_000_000;

/// Both checks (the keys of `grundy verify multiplayer-residues --json`).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub players: usize,
    pub heaps: usize,
    pub max_heap: u64,
    /// The grouped orders checked, with `d` and the residue order.
    pub orders: Vec<GroupedOrder>,
    pub holds: bool,
    pub checks: Vec<CheckReport>,
}

/// An order grouped mod `d`.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct GroupedOrder {
    pub order: Vec<usize>,
    pub d: usize,
    pub residues: Vec<usize>,
}

/// Check the reduction (class mod d = the d-player class) and, for d = 2, the parity closed
/// form, on every position of at most `heaps` heaps each below `max_heap` (the convention of
/// the other `verify` checks).
pub fn check_all(
    players: u64,
    heaps: u64,
    max_heap: u64,
    progress: Progress<'_>,
) -> Result<Report, Error> {
    if !(2..=MAX_TABLE_PLAYERS as u64).contains(&players) {
        return Err(Error::Invalid(format!(
            "--players must be between 2 and {MAX_TABLE_PLAYERS} (got {players})"
        )));
    }
    let m = players as usize;
    if max_heap < 2 {
        return Err(Error::Invalid(format!(
            "--max-heap must be at least 2 (heaps range over 0..N-1; got {max_heap})"
        )));
    }
    let domain = Domain::new(m, heaps.min(64) as usize, max_heap - 1, None)?;
    let grouped: Vec<GroupedOrder> = all_orders(m)
        .into_iter()
        .flat_map(|order| {
            groupings(&order)
                .into_iter()
                .map(move |(d, residues)| GroupedOrder {
                    order: order.clone(),
                    d,
                    residues,
                })
        })
        .collect();
    if grouped.len() as u128 * domain.len() as u128 > ENTRY_BUDGET {
        return Err(Error::Invalid(format!(
            "that range would compute {} table entries (at most {ENTRY_BUDGET}); choose fewer heaps or a smaller --max-heap",
            grouped.len() as u128 * domain.len() as u128
        )));
    }
    let mut orders: Vec<Vec<usize>> = grouped.iter().map(|g| g.order.clone()).collect();
    orders.dedup();
    let big = Table::compute_all(&domain, &orders, None, None)?.expect("no stop flag");
    let mut small: Vec<Table> = Vec::new();
    for g in &grouped {
        if !small.iter().any(|t| t.order() == g.residues.as_slice()) {
            let d = Domain::new(g.d, domain.heaps(), domain.max_heap(), None)?;
            small.push(Table::compute(&d, &g.residues)?);
        }
    }
    let find_big = |o: &[usize]| big.iter().find(|t| t.order() == o).expect("computed");
    let find_small = |o: &[usize]| small.iter().find(|t| t.order() == o).expect("computed");
    let ranks: Vec<u64> = (0..domain.len()).collect();
    let scope = format!(
        "{}; every order of {m} players grouped by residues mod a proper divisor d of {m} ({} order-divisor pairs)",
        domain.describe(),
        grouped.len()
    );
    let reduction = exhaustive(
        &format!("residue reduction (m = {m}): class mod d = class under GAMES(r1..rd)"),
        &scope,
        &ranks,
        |&r| {
            let p = domain.position(r);
            for g in &grouped {
                let c = find_big(&g.order).class_at(r).expect("no cap");
                let cd = find_small(&g.residues).class_of(&p).expect("same range");
                if c % g.d != cd {
                    return Some(format!(
                        "{p:?} under GAMES{:?}: class {c}, but {}-player class {cd} under GAMES{:?}",
                        g.order, g.d, g.residues
                    ));
                }
            }
            None
        },
        progress,
    );
    let pairs: Vec<&GroupedOrder> = grouped.iter().filter(|g| g.d == 2).collect();
    let parity = exhaustive(
        &format!("class parity (m = {m}, teams mod 2): Thm 4.2 of two players"),
        &format!(
            "{}; {} orders grouped mod 2",
            domain.describe(),
            pairs.len()
        ),
        &ranks,
        |&r| {
            let p = domain.position(r);
            let heaps: Vec<BigUint> = p.iter().map(|&h| h.into()).collect();
            for g in &pairs {
                let c = find_big(&g.order).class_at(r).expect("no cap");
                let closed = class_parity(&heaps, g.residues[0]);
                if c % 2 != closed {
                    return Some(format!(
                        "{p:?} under GAMES{:?}: class {c}, closed form says parity {closed}",
                        g.order
                    ));
                }
            }
            None
        },
        progress,
    );
    Ok(Report {
        players: m,
        heaps: domain.heaps(),
        max_heap,
        orders: grouped,
        holds: reduction.holds && parity.holds,
        checks: vec![reduction, parity],
    })
}
