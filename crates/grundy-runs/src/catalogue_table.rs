//! The catalogue as the field's tables show it (`grundy catalogue --table`): one row per code
//! with its status — periodic (preperiod, period, last exception, largest value, rare values,
//! and the certificate that proves it) or not yet periodic (how far it was computed) — and the
//! codes the literature treats as one game recognised and listed together.
//!
//! One game under several codes: two codes whose sequences agree up to a shift,
//! `G_B(n) = G_A(n + s)` for every n (e.g. Dawson's chess 0.137 is Dawson's Kayles 0.07 one
//! heap further on, and OEIS A071509 lists 0.454 as 0.1777 one heap earlier). Such pairs are
//! found by comparing the sequences themselves, recomputed here from the codes (a catalogue
//! row is trusted for what it records, never for values it does not hold). When both codes
//! have a period certified within the values compared, agreeing on
//! `max(preperiod_B, preperiod_A - s) + lcm(period_A, period_B)` values proves they agree
//! everywhere, and the group is marked proved; otherwise it says how far they agree.

use crate::catalogue::{list, Query, RunRecord};
use crate::engine::{Engine, EngineChoice};
use crate::{Error, Result};
use grundy::takebreak::{compute, Computation, Finish, Rules};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Values compared to recognise one game under two codes.
pub const COMPARED: usize = 4096;
/// The largest shift looked for.
pub const MAX_SHIFT: usize = 4;
/// Codes certified (by the catalogue's record) up to this heap size are recomputed to their
/// certificate, so that their group can be proved.
const PROVE_UP_TO: u64 = 1 << 17;

/// One code of the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRow {
    pub code: String,
    /// `periodic` (a certified period) or `not yet periodic`.
    pub status: String,
    /// The largest heap size computed (the record shown).
    pub n: u64,
    /// Certified periods only.
    pub preperiod: Option<u64>,
    pub period: Option<u64>,
    /// The last heap size where `G(n) != G(n + period)` (`preperiod - 1`); `None` when the
    /// sequence is periodic from 0 or not known to be periodic.
    pub last_exception: Option<u64>,
    /// The largest value among G(0..=n).
    pub max_value: u64,
    /// Distinct values at rare positions (rare/common engine).
    pub rare_values: Option<u64>,
    /// What proves the period, in words.
    pub certificate: Option<String>,
    /// The index of the last value the certificate needed.
    pub certified_at: Option<u64>,
    /// The first code of this code's group (same game up to a shift), if it has one.
    pub same_game_as: Option<String>,
    /// `G(n) = G_same_game_as(n + shift)`.
    pub shift: Option<u64>,
}

/// Codes that are one game: `G_code(n) = G_base(n + shift)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// The code the others are shifts of (shift 0).
    pub base: String,
    /// Every code of the group with its shift, the base first.
    pub members: Vec<Member>,
    /// Whether the agreement is proved for every n (certified periods, compared far enough).
    pub proved: bool,
    /// Heap sizes of the base compared (the agreement holds for these).
    pub compared: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Member {
    pub code: String,
    pub shift: u64,
}

/// The table (the keys of `grundy catalogue --table --json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    pub db: String,
    pub count: usize,
    pub certified: usize,
    pub rows: Vec<TableRow>,
    pub groups: Vec<Group>,
}

/// The record a table shows for a code: the certified one that reached furthest, else the
/// furthest, newest among equals.
fn best(runs: &[RunRecord]) -> &RunRecord {
    runs.iter()
        .max_by_key(|r| (r.certified, r.n, r.id))
        .expect("a code has a run")
}

/// The table of the runs `query` selects (its `latest` and `limit` are ignored: every code's
/// best run is shown).
pub fn table(query: &Query) -> Result<Table> {
    let listing = list(&Query {
        latest: false,
        limit: None,
        ..query.clone()
    })?;
    let mut by_code: BTreeMap<String, Vec<RunRecord>> = BTreeMap::new();
    for r in listing.runs {
        by_code.entry(r.code.clone()).or_default().push(r);
    }
    let mut rows: Vec<TableRow> = by_code
        .values()
        .map(|runs| {
            let r = best(runs);
            let certified = r.certified && r.period.is_some();
            let preperiod = r.preperiod.filter(|_| certified);
            TableRow {
                code: r.code.clone(),
                status: if certified {
                    "periodic"
                } else {
                    "not yet periodic"
                }
                .into(),
                n: r.n,
                preperiod,
                period: r.period.filter(|_| certified),
                last_exception: preperiod.and_then(|p| p.checked_sub(1)),
                max_value: r.max_value,
                rare_values: r.rare_values,
                certificate: r.certified_at.filter(|_| certified).map(|at| {
                    format!(
                        "periodicity theorem, G(0..={at}) computed ({} engine)",
                        r.engine
                    )
                }),
                certified_at: r.certified_at.filter(|_| certified),
                same_game_as: None,
                shift: None,
            }
        })
        .collect();
    let groups = groups(&rows)?;
    for g in &groups {
        for m in &g.members {
            if let Some(row) = rows.iter_mut().find(|r| r.code == m.code) {
                row.same_game_as = Some(g.base.clone());
                row.shift = Some(m.shift);
            }
        }
    }
    Ok(Table {
        db: listing.db,
        count: rows.len(),
        certified: rows.iter().filter(|r| r.status == "periodic").count(),
        rows,
        groups,
    })
}

/// A code's sequence as far as the table compares it.
struct Values {
    c: Computation,
}

impl Values {
    fn of(code: &str, n: usize) -> Result<Values> {
        let rules = Rules::parse(code)?;
        let mut engine = Engine::choose(EngineChoice::Auto, &rules)?;
        let c = compute(&rules, n, Finish::Extend, engine.as_dyn(), None)?;
        Ok(Values { c })
    }

    /// G(i), from the certified period beyond the values held; `None` when unknown.
    fn get(&self, i: usize) -> Option<u16> {
        if i <= self.c.n() {
            return Some(self.c.value(i));
        }
        let p = self.c.period.filter(|p| p.certified)?;
        let j = if i < p.preperiod {
            i
        } else {
            p.preperiod + (i - p.preperiod) % p.period
        };
        (j <= self.c.n()).then(|| self.c.value(j))
    }

    fn certified(&self) -> Option<(usize, usize)> {
        self.c
            .period
            .filter(|p| p.certified)
            .map(|p| (p.preperiod, p.period))
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The codes among `rows` that are one game up to a shift.
fn groups(rows: &[TableRow]) -> Result<Vec<Group>> {
    let lengths: Vec<usize> = rows
        .iter()
        .map(|r| {
            let proof = r
                .certified_at
                .filter(|&at| at <= PROVE_UP_TO)
                .map_or(0, |at| at as usize + 1);
            proof.max(COMPARED + MAX_SHIFT)
        })
        .collect();
    let values: Vec<Values> = rows
        .par_iter()
        .zip(&lengths)
        .map(|(r, &n)| Values::of(&r.code, n))
        .collect::<Result<_>>()?;
    // every window G(s..s+COMPARED) of every code, s = 0..=MAX_SHIFT
    let prefix = |v: &Values, s: usize| -> Vec<u16> {
        (s..s + COMPARED)
            .map(|i| v.get(i).expect("computed"))
            .collect()
    };
    // groups as (root, members with G_member(n) = G_root(n + shift)); codes in table order
    let mut found: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
    // windows G_root(s..s+COMPARED) of each group's root when it was added: (group, root, s)
    let mut windows: HashMap<Vec<u16>, Vec<(usize, usize, usize)>> = HashMap::new();
    for (b, v) in values.iter().enumerate() {
        let head = prefix(v, 0);
        // b is a shift of a group's root (the smallest shift if several)
        let joined = windows.get(&head).and_then(|l| {
            l.iter()
                .filter(|(g, root, _)| found[*g].0 == *root)
                .min_by_key(|(_, _, s)| *s)
                .copied()
        });
        if let Some((g, _, s)) = joined {
            found[g].1.push((b, s));
            continue;
        }
        // a group's root is a shift of b: b becomes the root
        let rebased = (1..=MAX_SHIFT).find_map(|s| {
            windows.get(&prefix(v, s)).and_then(|l| {
                l.iter()
                    .find(|(g, root, s0)| *s0 == 0 && found[*g].0 == *root)
                    .map(|&(g, _, _)| (g, s))
            })
        });
        let g = match rebased {
            Some((g, s)) => {
                for m in found[g].1.iter_mut() {
                    m.1 += s;
                }
                found[g].0 = b;
                found[g].1.insert(0, (b, 0));
                g
            }
            None => {
                found.push((b, vec![(b, 0)]));
                found.len() - 1
            }
        };
        for s in 0..=MAX_SHIFT {
            windows.entry(prefix(v, s)).or_default().push((g, b, s));
        }
    }
    let mut groups = Vec::new();
    for (base, mut list) in found {
        if list.len() < 2 {
            continue;
        }
        list.sort_by_key(|&(b, s)| (b != base, s, b));
        // prove each member against the base where both periods are certified
        let mut proved = true;
        for &(b, s) in &list[1..] {
            match (values[base].certified(), values[b].certified()) {
                (Some((pre_a, p_a)), Some((pre_b, p_b))) => {
                    let lcm = p_a / gcd(p_a, p_b) * p_b;
                    let upto = pre_b.max(pre_a.saturating_sub(s)) + lcm;
                    if upto > 1 << 24 {
                        proved = false;
                        continue;
                    }
                    let agree = (0..upto).all(|k| {
                        let (x, y) = (values[b].get(k), values[base].get(k + s));
                        x.is_some() && x == y
                    });
                    if !agree {
                        return Err(Error::input(format!(
                            "internal: {} and {} agree on {COMPARED} values but not on {upto}",
                            rows[b].code, rows[base].code
                        )));
                    }
                }
                _ => proved = false,
            }
        }
        groups.push(Group {
            base: rows[base].code.clone(),
            members: list
                .iter()
                .map(|&(b, s)| Member {
                    code: rows[b].code.clone(),
                    shift: s as u64,
                })
                .collect(),
            proved,
            compared: (COMPARED + MAX_SHIFT) as u64,
        });
    }
    Ok(groups)
}

/// The table as Markdown (a pipe table, then the groups).
pub fn markdown(t: &Table) -> String {
    let mut s = String::from(
        "| code | status | n | preperiod | period | last exception | max value | rare values | \
         certificate | same game as |\n|---|---|--:|--:|--:|--:|--:|--:|---|---|\n",
    );
    for r in &t.rows {
        let cells = cells(r);
        s.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    if !t.groups.is_empty() {
        s.push_str("\nOne game under several codes (G_code(n) = G_first(n + shift)):\n\n");
        for g in &t.groups {
            s.push_str(&format!("- {}\n", group_words(g)));
        }
    }
    s
}

/// The table as CSV (RFC 4180: a header line, fields with commas quoted).
pub fn csv(t: &Table) -> String {
    let mut s = String::from(
        "code,status,n,preperiod,period,last_exception,max_value,rare_values,certified_at,\
         certificate,same_game_as,shift\n",
    );
    let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
    let quote = |v: &str| {
        if v.contains([',', '"', '\n']) {
            format!("\"{}\"", v.replace('"', "\"\""))
        } else {
            v.to_string()
        }
    };
    for r in &t.rows {
        s.push_str(
            &[
                quote(&r.code),
                r.status.clone(),
                r.n.to_string(),
                opt(r.preperiod),
                opt(r.period),
                opt(r.last_exception),
                r.max_value.to_string(),
                opt(r.rare_values),
                opt(r.certified_at),
                quote(r.certificate.as_deref().unwrap_or("")),
                quote(r.same_game_as.as_deref().unwrap_or("")),
                opt(r.shift),
            ]
            .join(","),
        );
        s.push('\n');
    }
    s
}

fn cells(r: &TableRow) -> Vec<String> {
    let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
    vec![
        r.code.clone(),
        r.status.clone(),
        r.n.to_string(),
        opt(r.preperiod),
        opt(r.period),
        opt(r.last_exception),
        r.max_value.to_string(),
        opt(r.rare_values),
        r.certificate.clone().unwrap_or_else(|| "-".into()),
        match (&r.same_game_as, r.shift) {
            (Some(base), Some(s)) if *base != r.code => format!("{base} (n+{s})"),
            _ => "-".into(),
        },
    ]
}

/// A group in words.
pub fn group_words(g: &Group) -> String {
    let members: Vec<String> = g
        .members
        .iter()
        .map(|m| {
            if m.shift == 0 {
                m.code.clone()
            } else {
                format!("{} (shift {})", m.code, m.shift)
            }
        })
        .collect();
    format!(
        "{}: {}",
        members.join(", "),
        if g.proved {
            "proved equal for every n (certified periods)".to_string()
        } else {
            format!("agree on G(0..{}) of {}", g.compared, g.base)
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Catalogue;
    use crate::census_task::{compute_code, CheckpointDir, CodeTask};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn dawsons_chess_is_dawsons_kayles_one_heap_on_and_the_table_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("c.sqlite3");
        let cat = Catalogue::open(&db).unwrap();
        let stop = AtomicBool::new(false);
        for code in ["0.07", "0.137", "0.77", "0.6"] {
            let r = compute_code(
                &CodeTask {
                    code: code.into(),
                    n: 3000,
                    until_period: true,
                    engine: EngineChoice::Auto,
                    checkpoint: CheckpointDir::Off,
                    every: std::time::Duration::from_secs(60),
                },
                &stop,
                &|_| {},
            )
            .unwrap();
            cat.record(&r.record).unwrap();
        }
        let t = table(&Query {
            db: Some(db),
            ..Query::default()
        })
        .unwrap();
        assert_eq!(t.count, 4);
        let row = |c: &str| t.rows.iter().find(|r| r.code == c).unwrap().clone();
        let kayles = row("0.77");
        assert_eq!(kayles.status, "periodic");
        assert_eq!((kayles.preperiod, kayles.period), (Some(71), Some(12)));
        // Kayles' last exception is G(70) (Winning Ways: 70 is the last exceptional heap)
        assert_eq!(kayles.last_exception, Some(70));
        assert_eq!(row("0.6").status, "not yet periodic");
        assert_eq!(row("0.6").period, None);
        // G_0.07(n) = G_0.137(n - 1): 0.07 is the base, 0.137 its shift by one
        assert_eq!(t.groups.len(), 1, "{:?}", t.groups);
        let g = &t.groups[0];
        assert_eq!(g.base, "0.07");
        assert_eq!(
            g.members,
            [
                Member {
                    code: "0.07".into(),
                    shift: 0
                },
                Member {
                    code: "0.137".into(),
                    shift: 1
                }
            ]
        );
        assert!(g.proved);
        assert_eq!(row("0.137").same_game_as.as_deref(), Some("0.07"));
        let md = markdown(&t);
        assert!(
            md.contains("| 0.137 | periodic |") && md.contains("0.07 (n+1)"),
            "{md}"
        );
        let csv = csv(&t);
        assert_eq!(csv.lines().count(), 5);
        assert!(csv.contains("0.137,periodic,"), "{csv}");
    }
}
