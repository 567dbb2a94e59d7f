//! Misère quotients of heap games (Plambeck, "Taming the wild in impartial combinatorial
//! games", Integers 5 (2005) G05; Plambeck & Siegel, "Misère quotients for impartial games",
//! JCTA 115 (2008); the theory is restated in `docs/misere.md`).
//!
//! The misère quotient of a set of positions closed under options and sums identifies two
//! positions when no third position added to both tells them apart by misère outcome. For a
//! heap game and its heaps `0..=n` the quotient `Q_n` is a finite commutative monoid with a
//! P-portion, and a pretending function `Φ` sends each heap to an element: a position is a
//! misère P-position exactly when the product of its heaps' images lies in the P-portion.
//!
//! | module | what |
//! |---|---|
//! | [`heaps`] | the [`HeapGame`] rules: take-and-break codes, subtraction sets |
//! | [`components`] | general games: the components of any [`crate::Game`] as heaps |
//! | [`monoid`] | finite commutative monoids: products, submonoids, reduction by indistinguishability |
//! | [`verify`] | the two failure checks that prove a candidate right for every position |
//! | [`engine`] | `Q_n` heap by heap: conservative extension, adjoining a generator, recalibration |
//! | [`presentation`] | generators, normal forms, relations in the literature's notation |
//! | [`periodicity`] | the periodicity certificate (quotient fixed for every heap size) |
//! | [`structure`] | idempotents, kernel, recognition of T0..T3, R8 and every T_k |
//! | [`tame`] | tame quotients read through misère Nim: the genus of elements, heaps, positions |
//! | [`brute`] | the independent reference: outcomes by plain search |
//! | [`checkpoint`] | saving and resuming long runs (re-verified on load) |

pub mod brute;
pub mod checkpoint;
pub mod components;
pub mod engine;
pub mod heaps;
pub mod monoid;
pub mod periodicity;
pub mod presentation;
pub mod structure;
pub mod tame;
pub mod verify;

pub use components::{game_quotient, Components, GameQuotient};
pub use engine::{QuotientEngine, Stop};
pub use heaps::HeapGame;
pub use periodicity::Certificate;
pub use presentation::Presentation;

use crate::solve::misere_genus::Genus;
use crate::{Error, Outcome};
use serde::Serialize;

/// How a computation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// A periodicity certificate fixes the quotient for every heap size.
    Certified,
    /// The requested last heap was reached.
    MaxHeap,
    /// Stopped (timeout or interrupt) before the requested heap.
    Stopped,
    /// A general game: every component of the finite set was computed, so the quotient is
    /// that of the whole set (see [`components`]).
    Complete,
    /// A limit of the run (memory, the engine's cap on recalibrations) stopped it before the
    /// requested heap: [`MisereQuotient::limit`] says which.
    Limit,
}

/// A computed quotient: `Q_N` with its pretending function, and how far it is known.
pub struct MisereQuotient {
    engine: QuotientEngine,
    /// The certificate, when one was found.
    pub certificate: Option<Certificate>,
    /// How the computation ended.
    pub finish: Finish,
    /// With [`Finish::Limit`]: the limit that stopped the run, one line.
    pub limit: Option<String>,
    presentation: Presentation,
    /// The quotient read through misère Nim when it is tame ([`tame::read`]).
    tame: Result<tame::TameReading, tame::NotRead>,
}

/// A winning move: in heap number `index` (0-based, as given), replace `from` by `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuotientMove {
    /// Position of the heap in the list given.
    pub index: usize,
    /// The heap moved in.
    pub from: u64,
    /// The heaps it leaves (empty: taken whole).
    pub to: Vec<u64>,
}

/// Compute `Q_n` for `n = 1..=max_heap`, stopping early when a certificate is found (if
/// `stop_when_certified`) or when `stop()` says so. `progress(n, |Q_n|)` is called per heap.
pub fn compute(
    game: Box<dyn HeapGame + Send + Sync>,
    max_heap: u32,
    stop_when_certified: bool,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(u32, usize),
) -> Result<MisereQuotient, Error> {
    compute_with(
        game,
        max_heap,
        stop_when_certified,
        stop,
        progress,
        &RunOptions::default(),
    )
}

/// Memory bound and checkpoint of a run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Bytes the run may use (half for the failure search, half for multiplication tables).
    pub memory: usize,
    /// Resume from this file when it exists, and save the quotient reached into it every
    /// `save_every` and when the run ends (the file is kept: a later run with a larger
    /// `max_heap` continues from it).
    pub checkpoint: Option<std::path::PathBuf>,
    /// Time between saves.
    pub save_every: std::time::Duration,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            memory: engine::DEFAULT_MEMORY,
            checkpoint: None,
            save_every: std::time::Duration::from_secs(60),
        }
    }
}

/// [`compute`] with a memory bound and a checkpoint (see [`RunOptions`]).
pub fn compute_with(
    game: Box<dyn HeapGame + Send + Sync>,
    max_heap: u32,
    stop_when_certified: bool,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(u32, usize),
    run: &RunOptions,
) -> Result<MisereQuotient, Error> {
    // Only one run at a time writes a checkpoint; the lock is held to the end.
    let lock = match &run.checkpoint {
        Some(path) => Some(
            crate::takebreak::checkpoint::Lock::try_acquire(path)?.ok_or_else(|| {
                Error::Invalid(format!(
                    "checkpoint '{}' is in use by another run",
                    path.display()
                ))
            })?,
        ),
        None => None,
    };
    let mut engine = match &run.checkpoint {
        Some(path) if path.exists() => checkpoint::load(path, game, stop)?,
        _ => QuotientEngine::new(game),
    };
    engine.max_search_bytes = run.memory / 2;
    engine.max_order = ((run.memory / 8) as f64).sqrt() as usize;
    let mut last_save = std::time::Instant::now();
    let bounds = engine.game().move_bounds();
    // Found, then re-checked from the stored Φ (the inequality and every equality).
    let certify = |e: &QuotientEngine| {
        bounds.and_then(|(j, t)| {
            Certificate::find(&e.quotient().phi, j, t).filter(|c| c.recheck(&e.quotient().phi))
        })
    };
    let mut certificate = certify(&engine);
    let mut finish = Finish::MaxHeap;
    let mut limit = None;
    if certificate.is_some() && stop_when_certified {
        finish = Finish::Certified;
    }
    while finish != Finish::Certified && engine.heap() < max_heap {
        if stop() {
            finish = Finish::Stopped;
            break;
        }
        match engine.next_heap(stop) {
            Ok(()) => {}
            Err(Stop::Stopped) => {
                finish = Finish::Stopped;
                break;
            }
            Err(Stop::Failed(e)) => {
                // A partial result is a result: Q_n as reached, with the limit named.
                finish = Finish::Limit;
                limit = Some(e.to_string());
                break;
            }
            Err(Stop::BadGame(e)) => {
                if let Some(path) = &run.checkpoint {
                    checkpoint::save(path, &engine)?;
                }
                return Err(e);
            }
        }
        if let Some(path) = &run.checkpoint {
            if last_save.elapsed() >= run.save_every {
                checkpoint::save(path, &engine)?;
                last_save = std::time::Instant::now();
            }
        }
        progress(engine.heap(), engine.quotient().monoid.size());
        certificate = certify(&engine);
        if certificate.is_some() && stop_when_certified {
            finish = Finish::Certified;
        }
    }
    if finish != Finish::Certified && certificate.is_some() {
        finish = Finish::Certified;
    }
    if let Some(path) = &run.checkpoint {
        checkpoint::save(path, &engine)?;
    }
    drop(lock);
    let q = engine.quotient();
    let presentation = Presentation::new(&q.monoid, &q.phi);
    let tame = read_tame(&engine);
    Ok(MisereQuotient {
        engine,
        certificate,
        finish,
        limit,
        presentation,
        tame,
    })
}

/// The quotient read through misère Nim, with `ψ` fixed by the heaps' normal-play values
/// (computed here from the heaps' options).
fn read_tame(engine: &QuotientEngine) -> Result<tame::TameReading, tame::NotRead> {
    let q = engine.quotient();
    tame::tame_index(&q.monoid, &q.p).ok_or(tame::NotRead::NotTame)?;
    let options: Vec<&[Vec<u32>]> = (0..=engine.heap()).map(|h| engine.options(h)).collect();
    let normal = tame::normal_values(&options);
    tame::read(&q.monoid, &q.p, &q.phi, &normal)
}

impl MisereQuotient {
    /// The engine's state (monoid, P-portion, `Φ`).
    pub fn quotient(&self) -> &engine::Quotient {
        self.engine.quotient()
    }

    /// The presentation.
    pub fn presentation(&self) -> &Presentation {
        &self.presentation
    }

    /// The engine (options, transitions, history).
    pub fn engine(&self) -> &QuotientEngine {
        &self.engine
    }

    /// The last heap computed.
    pub fn computed_to_heap(&self) -> u32 {
        self.engine.heap()
    }

    /// `Φ(h)` for any heap the quotient covers: computed heaps, and every heap when certified.
    pub fn phi(&self, h: u64) -> Result<u32, Error> {
        let q = self.quotient();
        let n = self.computed_to_heap() as u64;
        if h <= n {
            return Ok(q.phi[h as usize]);
        }
        match &self.certificate {
            Some(c) => Ok(q.phi[c.reduce_heap(h) as usize]),
            None => Err(Error::Invalid(format!(
                "heap {h} is beyond the partial quotient, which covers heaps up to {n} and is \
                 not certified for larger heaps (compute further with a larger --max-heap)"
            ))),
        }
    }

    /// The reading of a tame quotient through misère Nim (`Q ≅ T_k` and the Nim class of each
    /// element), or why there is none.
    pub fn tame_reading(&self) -> Result<&tame::TameReading, &tame::NotRead> {
        self.tame.as_ref()
    }

    /// The genus of element `x`, when the quotient is tame and read ([`tame`]).
    pub fn element_genus(&self, x: u32) -> Option<Genus> {
        self.tame.as_ref().ok().map(|r| r.genus(x))
    }

    /// The genus of a position (a sum of heaps) when the quotient is tame and read: that of
    /// the product of its heaps' images ([`tame`]); `Ok(None)` otherwise. Heaps beyond a partial
    /// quotient are refused as by [`MisereQuotient::outcome`].
    pub fn genus(&self, heaps: &[u64]) -> Result<Option<Genus>, Error> {
        let m = &self.quotient().monoid;
        let mut x = 0;
        for &h in heaps {
            x = m.mul(x, self.phi(h)?);
        }
        Ok(self.element_genus(x))
    }

    /// The misère outcome of a position.
    pub fn outcome(&self, heaps: &[u64]) -> Result<Outcome, Error> {
        let m = &self.quotient().monoid;
        let mut x = 0;
        for &h in heaps {
            x = m.mul(x, self.phi(h)?);
        }
        Ok(if self.quotient().p[x as usize] {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// A winning move (to a position whose image is in the P-portion), if any.
    pub fn winning_move(&self, heaps: &[u64]) -> Result<Option<QuotientMove>, Error> {
        let q = self.quotient();
        let m = &q.monoid;
        let images: Vec<u32> = heaps
            .iter()
            .map(|&h| self.phi(h))
            .collect::<Result<_, _>>()?;
        for (i, &h) in heaps.iter().enumerate() {
            if heaps[..i].contains(&h) {
                continue;
            }
            let rest = images
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != i)
                .fold(0, |acc, (_, &y)| m.mul(acc, y));
            let h32 = u32::try_from(h).map_err(|_| {
                Error::Invalid(format!(
                    "heap {h} is too large for a move search (at most 2^32 - 1)"
                ))
            })?;
            let mut found = None;
            let mut err = None;
            self.engine.game().heap_options(h32, &mut |left| {
                if found.is_some() || err.is_some() {
                    return;
                }
                let mut x = rest;
                for &l in left {
                    match self.phi(l as u64) {
                        Ok(y) => x = m.mul(x, y),
                        Err(e) => {
                            err = Some(e);
                            return;
                        }
                    }
                }
                if q.p[x as usize] {
                    let mut to: Vec<u64> =
                        left.iter().filter(|&&l| l > 0).map(|&l| l as u64).collect();
                    to.sort_unstable();
                    found = Some(QuotientMove {
                        index: i,
                        from: h,
                        to,
                    });
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
            if found.is_some() {
                return Ok(found);
            }
        }
        Ok(None)
    }

    /// The report: every key of `grundy misere-quotient --json`.
    pub fn report(&self) -> Report {
        let q = self.quotient();
        let m = &q.monoid;
        let pres = &self.presentation;
        let word = |x: u32| pres.element_text(x);
        let kernel = structure::kernel(m);
        let in_kernel = |x: u32| kernel.binary_search(&x).is_ok();
        let last_rogue = (0..q.phi.len() as u32)
            .rev()
            .find(|&h| !in_kernel(q.phi[h as usize]));
        let name = structure::recognise(m, &q.p);
        let reading = self.tame.as_ref().ok();
        let mut element_genus: Option<Vec<ElementGenus>> = reading.map(|r| {
            (0..m.size() as u32)
                .map(|x| ElementGenus {
                    element: word(x),
                    nim: r.class[x as usize].nim_position(),
                    genus: r.genus(x).symbol(),
                })
                .collect()
        });
        if let (Some(list), Some(r)) = (element_genus.as_mut(), reading) {
            // In the order of the Nim classes: 0, *1, *2+*2, *2+*3, *2, *3, ...
            let mut order: Vec<usize> = (0..list.len()).collect();
            order.sort_by_key(|&x| r.class[x]);
            let mut sorted: Vec<ElementGenus> = Vec::with_capacity(list.len());
            for x in order {
                sorted.push(list[x].clone());
            }
            *list = sorted;
        }
        let (j, t) = self.engine.game().move_bounds().unwrap_or((0, 0));
        let observed = if self.engine.game().move_bounds().is_some() {
            periodicity::observed_period(&q.phi, j, t)
        } else {
            None
        };
        let mut p_portion: Vec<u32> = (0..m.size() as u32).filter(|&x| q.p[x as usize]).collect();
        p_portion.sort_by(|&a, &b| {
            word(a)
                .len()
                .cmp(&word(b).len())
                .then(word(a).cmp(&word(b)))
        });
        Report {
            code: self.engine.game().name(),
            certified: self.certificate.is_some(),
            finish: self.finish,
            limit: self.limit.clone(),
            computed_to_heap: self.computed_to_heap(),
            order: m.size(),
            p_portion_size: q.p.iter().filter(|&&b| b).count(),
            tame: !matches!(self.tame, Err(tame::NotRead::NotTame)),
            recognised: name,
            genus: reading.map(|r| q.phi.iter().map(|&x| r.genus(x).symbol()).collect()),
            element_genus,
            genus_note: match &self.tame {
                Err(tame::NotRead::Unlabelled(why)) => Some(why.clone()),
                _ => None,
            },
            presentation: pres.text(),
            generators: pres
                .generators
                .iter()
                .zip(&pres.generator_heaps)
                .map(|(g, &h)| GeneratorReport {
                    letter: g.clone(),
                    heap: h,
                })
                .collect(),
            relations: pres.relation_texts(),
            p_portion: p_portion.iter().map(|&x| word(x)).collect(),
            pretending_function: q.phi.iter().map(|&x| word(x)).collect(),
            period: self.certificate.as_ref().map(|c| c.period),
            preperiod: self.certificate.as_ref().map(|c| c.preperiod),
            observed_period: observed.map(|(n0, p, need)| ObservedPeriod {
                preperiod: n0,
                period: p,
                certified_at_heap: need,
            }),
            last_rogue,
            presentation_changes: self.engine.changes.clone(),
            orders: self.engine.orders.clone(),
            idempotents: m.idempotents().into_iter().map(word).collect(),
            kernel: kernel.iter().map(|&x| word(x)).collect(),
            certificate: self.certificate.clone(),
        }
    }
}

/// A generator and the heap it is the image of.
#[derive(Debug, Clone, Serialize)]
pub struct GeneratorReport {
    /// `a`, `b`, ...
    pub letter: String,
    /// The heap.
    pub heap: u32,
}

/// The genus of an element of a tame quotient, and the misère Nim position it stands for.
#[derive(Debug, Clone, Serialize)]
pub struct ElementGenus {
    /// The element as a word.
    pub element: String,
    /// A Nim position of its class: `0`, `*1`, `*2+*2`, `*2+*3`, `*2`, `*3`, ...
    pub nim: String,
    /// Its genus, e.g. `2^20`.
    pub genus: String,
}

/// A period seen in `Φ` but not (yet) long enough for the certificate.
#[derive(Debug, Clone, Serialize)]
pub struct ObservedPeriod {
    /// `n0`.
    pub preperiod: u32,
    /// `p`.
    pub period: u32,
    /// The heap `N` the certificate would need (`j·(max(n0, 1) + p) + t - 1`).
    pub certified_at_heap: u64,
}

/// Everything a reader of the papers expects of a quotient (the JSON keys are a contract).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub code: String,
    pub certified: bool,
    pub finish: Finish,
    /// The limit that stopped the run (`finish` is `limit`), else null.
    pub limit: Option<String>,
    pub computed_to_heap: u32,
    pub order: usize,
    pub p_portion_size: usize,
    /// Whether `Q` is isomorphic to some `T_k` (the quotient of Nim with heaps below `2^k`).
    pub tame: bool,
    pub recognised: Option<String>,
    /// When tame (and read through misère Nim, [`tame`]): the genus of each heap
    /// `0..=computed_to_heap`, as `takebreak --misere` writes it; else null.
    pub genus: Option<Vec<String>>,
    /// When tame and read: each element's genus and a Nim position of its class, in the order
    /// `0, *1, *2+*2, *2+*3, *2, *3, ...`; else null.
    pub element_genus: Option<Vec<ElementGenus>>,
    /// When tame but not read through misère Nim: why (one line); else null.
    pub genus_note: Option<String>,
    pub presentation: String,
    pub generators: Vec<GeneratorReport>,
    pub relations: Vec<String>,
    pub p_portion: Vec<String>,
    pub pretending_function: Vec<String>,
    pub period: Option<u32>,
    pub preperiod: Option<u32>,
    pub observed_period: Option<ObservedPeriod>,
    pub last_rogue: Option<u32>,
    pub presentation_changes: Vec<u32>,
    pub orders: Vec<usize>,
    pub idempotents: Vec<String>,
    pub kernel: Vec<String>,
    pub certificate: Option<Certificate>,
}

#[cfg(test)]
mod tests;
