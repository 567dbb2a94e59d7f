//! The quotient engine against plain search, and the published quotients.

use super::*;
use crate::games::subtraction::SubtractionSet;
use crate::takebreak::Rules;

fn run(code: &str, n: u32) -> MisereQuotient {
    let rules = Rules::parse(code).unwrap();
    compute(Box::new(rules), n, false, &|| false, &mut |_, _| {}).unwrap()
}

/// Every position of heaps up to `n` with at most `total` tokens: the quotient's outcome is
/// the plain search's; and the presentation's relations hold in the monoid.
fn check(game: Box<dyn HeapGame + Send + Sync>, n: u32, total: u32) {
    let name = game.name();
    let brute = brute::all_outcomes(game.as_ref(), n, total, 2_000_000).unwrap();
    let q = compute(game, n, false, &|| false, &mut |_, _| {}).unwrap();
    for (pos, &p) in &brute {
        let heaps: Vec<u64> = pos.iter().map(|&h| h as u64).collect();
        let o = q.outcome(&heaps).unwrap();
        assert_eq!(o == Outcome::P, p, "{name}: position {pos:?}");
        if !p && !pos.is_empty() {
            // A non-P position with options has a winning move, and it leads to P.
            if let Some(mv) = q.winning_move(&heaps).unwrap() {
                let mut next: Vec<u32> = pos.clone();
                let i = next.iter().position(|&h| h as u64 == mv.from).unwrap();
                next.remove(i);
                next.extend(mv.to.iter().map(|&h| h as u32));
                next.sort_unstable();
                if let Some(&np) = brute.get(&next) {
                    assert!(
                        np,
                        "{name}: move from {pos:?} to {next:?} is not to a P-position"
                    );
                }
            }
        }
    }
    check_presentation(&q);
}

fn check_presentation(q: &MisereQuotient) {
    let m = &q.quotient().monoid;
    let pres = q.presentation();
    for (l, r) in &pres.relations {
        assert_eq!(
            pres.evaluate(m, l),
            pres.evaluate(m, r),
            "relation {l:?} = {r:?}"
        );
    }
    let mut seen = std::collections::HashSet::new();
    for (x, w) in pres.normal_forms.iter().enumerate() {
        assert_eq!(pres.evaluate(m, w) as usize, x);
        assert!(seen.insert(w.clone()));
    }
    assert!(m.is_commutative_monoid() || m.size() > 64);
}

#[test]
fn every_two_digit_octal_code_matches_plain_search() {
    for d1 in 0..8u8 {
        for d2 in 0..8u8 {
            let code = format!("0.{d1}{d2}");
            check(Box::new(Rules::parse(&code).unwrap()), 9, 13);
        }
    }
}

/// A certified quotient answers heaps beyond the last one computed: those answers against the
/// plain search, for every two-digit code (0.01 was once certified too early, at heap 4).
#[test]
fn certified_two_digit_quotients_answer_larger_heaps_rightly() {
    let mut certified = 0;
    for d1 in 0..8u8 {
        for d2 in 0..8u8 {
            let code = format!("0.{d1}{d2}");
            let rules = Rules::parse(&code).unwrap();
            let q = compute(Box::new(rules.clone()), 16, true, &|| false, &mut |_, _| {}).unwrap();
            if q.certificate.is_none() {
                continue;
            }
            certified += 1;
            let n = q.computed_to_heap();
            let brute = brute::all_outcomes(&rules, 18, 18, 2_000_000).unwrap();
            for (pos, &p) in &brute {
                if pos.iter().all(|&h| h <= n) {
                    continue;
                }
                let heaps: Vec<u64> = pos.iter().map(|&h| h as u64).collect();
                assert_eq!(
                    q.outcome(&heaps).unwrap() == Outcome::P,
                    p,
                    "{code} (certified at heap {n}): position {pos:?}"
                );
            }
        }
    }
    assert!(certified > 0);
}

#[test]
fn sample_of_three_digit_codes_matches_plain_search() {
    for code in [
        "0.137", "0.007", "0.777", "0.451", "0.156", "0.355", "0.73", "4.7", "0.F", "0.6",
    ] {
        check(Box::new(Rules::parse(code).unwrap()), 9, 12);
    }
    check(
        Box::new(SubtractionSet::finite(vec![1, 3, 4]).unwrap()),
        10,
        13,
    );
    check(Box::new(SubtractionSet::all_but(vec![]).unwrap()), 7, 12);
}

#[test]
fn nim_quotients_are_tame() {
    for (n, name) in [(1u32, "T1"), (3, "T2"), (7, "T3")] {
        let q = compute(
            Box::new(SubtractionSet::all_but(vec![]).unwrap()),
            n,
            false,
            &|| false,
            &mut |_, _| {},
        )
        .unwrap();
        let r = q.report();
        assert_eq!(r.recognised.as_deref(), Some(name));
        assert!(r.tame);
    }
}

#[test]
fn kayles_and_dawsons_kayles_small_quotients() {
    let r = run("0.75", 30).report();
    eprintln!("0.75: {} {:?} {}", r.order, r.p_portion, r.presentation);
    let r = run("0.77", 30).report();
    eprintln!("0.77: {} {:?} {}", r.order, r.p_portion, r.presentation);
}

#[test]
fn dawsons_kayles_q30_has_order_360() {
    let r = run("0.07", 30).report();
    eprintln!(
        "0.07: {} {} {} changes {:?}",
        r.order, r.p_portion_size, r.presentation, r.presentation_changes
    );
    assert_eq!((r.order, r.p_portion_size), (360, 65));
}

mod resume {
    use super::*;
    use std::cell::Cell;
    use std::path::PathBuf;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grundy-mq-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("q.ck");
        let _ = std::fs::remove_file(&path);
        path
    }

    fn game(code: &str) -> Box<dyn HeapGame + Send + Sync> {
        match code.strip_prefix("set ") {
            Some(s) => Box::new(
                SubtractionSet::finite(s.split(',').map(|x| x.parse().unwrap()).collect()).unwrap(),
            ),
            None => Box::new(Rules::parse(code).unwrap()),
        }
    }

    fn with(path: &std::path::Path) -> RunOptions {
        RunOptions {
            checkpoint: Some(path.to_path_buf()),
            ..RunOptions::default()
        }
    }

    /// The report as JSON without the seconds.
    fn report(q: &MisereQuotient) -> String {
        serde_json::to_string(&q.report()).unwrap()
    }

    /// A run interrupted (by its stop flag, at some point of a heap) and resumed from its
    /// checkpoint, perhaps several times, reports exactly what one run reports.
    #[test]
    fn interrupted_and_resumed_runs_give_the_one_run_quotient() {
        for (code, n) in [("0.07", 27), ("0.77", 90), ("4.7", 20), ("set 1,3,4", 12)] {
            let one = compute(game(code), n, true, &|| false, &mut |_, _| {}).unwrap();
            let path = temp(&code.replace([' ', ','], "_"));
            let mut resumed = None;
            let mut stopped = 0;
            for polls in [3u32, 40, 400, u32::MAX] {
                let count = Cell::new(0u32);
                let stop = || {
                    count.set(count.get().saturating_add(1));
                    count.get() > polls
                };
                let q =
                    compute_with(game(code), n, true, &stop, &mut |_, _| {}, &with(&path)).unwrap();
                if q.finish != Finish::Stopped {
                    resumed = Some(q);
                    break;
                }
                assert!(path.exists(), "{code}: a stopped run leaves its checkpoint");
                stopped += 1;
            }
            let resumed = resumed.expect("the last run is not stopped");
            assert!(stopped >= 1, "{code}: no run was interrupted");
            assert_eq!(report(&resumed), report(&one), "{code}");
            // Resuming a finished run to a larger heap continues from the file.
            let more = compute_with(
                game(code),
                n + 3,
                false,
                &|| false,
                &mut |_, _| {},
                &with(&path),
            )
            .unwrap();
            let plain = compute(game(code), n + 3, false, &|| false, &mut |_, _| {}).unwrap();
            assert_eq!(report(&more), report(&plain), "{code} to {}", n + 3);
            let _ = std::fs::remove_dir_all(path.parent().unwrap());
        }
    }

    /// Rewrite a checkpoint with one byte changed at `at` from the end of the table part, and
    /// a valid CRC: the file is intact but says something false.
    fn tamper(path: &std::path::Path, edit: impl Fn(&mut Vec<u8>)) {
        let mut b = std::fs::read(path).unwrap();
        b.truncate(b.len() - 4);
        edit(&mut b);
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        std::fs::write(path, b).unwrap();
    }

    type Edit = Box<dyn Fn(&mut Vec<u8>)>;

    #[test]
    fn a_tampered_checkpoint_is_refused_in_one_line() {
        let path = temp("tamper");
        let n = 25;
        compute_with(
            game("0.07"),
            n,
            false,
            &|| false,
            &mut |_, _| {},
            &with(&path),
        )
        .unwrap();
        let good = std::fs::read(&path).unwrap();
        let heaps = (n + 1) as usize;
        // The layout's tail: P bytes, the number of heaps, Φ.
        let phi_at = good.len() - 4 - 4 * heaps;
        let size = {
            let name_len = u32::from_le_bytes(good[16..20].try_into().unwrap()) as usize;
            u32::from_le_bytes(good[20 + name_len..24 + name_len].try_into().unwrap()) as usize
        };
        let p_at = phi_at - 4 - size;
        let edits: Vec<(&str, Edit)> = vec![
            (
                "a P-portion bit",
                Box::new(move |b: &mut Vec<u8>| b[p_at + 5] ^= 1),
            ),
            (
                "Φ of heap 20",
                Box::new(move |b: &mut Vec<u8>| b[phi_at + 4 * 20] ^= 1),
            ),
            (
                "a product",
                Box::new(move |b: &mut Vec<u8>| b[p_at - 4 * 7] ^= 1),
            ),
        ];
        for (what, edit) in edits {
            std::fs::write(&path, &good).unwrap();
            tamper(&path, edit);
            let e = compute_with(
                game("0.07"),
                n + 2,
                false,
                &|| false,
                &mut |_, _| {},
                &with(&path),
            )
            .err()
            .unwrap_or_else(|| panic!("{what}: accepted"))
            .to_string();
            assert!(!e.contains('\n'), "{what}: {e}");
            assert!(e.contains("cannot be true"), "{what}: {e}");
        }
        // A damaged file (CRC wrong) and a checkpoint of another game are refused too.
        let mut bad = good.clone();
        bad[30] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        let refusal = |code: &str| {
            compute_with(
                game(code),
                n,
                false,
                &|| false,
                &mut |_, _| {},
                &with(&path),
            )
            .err()
            .unwrap()
            .to_string()
        };
        let e = refusal("0.07");
        assert!(e.contains("corrupt"), "{e}");
        std::fs::write(&path, &good).unwrap();
        let e = refusal("0.77");
        assert!(e.contains("another run"), "{e}");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    /// A memory bound too small for the quotient is a budget spent, not an abort: the last
    /// quotient reached, `finish` Limit, the limit in one line naming `--memory`, and that
    /// partial quotient is the one a run to its last heap computes.
    #[test]
    fn memory_bound_gives_the_partial_quotient() {
        let run = RunOptions {
            memory: 1 << 20,
            ..RunOptions::default()
        };
        let q = compute_with(game("0.07"), 33, false, &|| false, &mut |_, _| {}, &run).unwrap();
        assert_eq!(q.finish, Finish::Limit);
        let e = q.limit.clone().expect("Q_33 of 0.07 needs more than 1 MB");
        assert!(!e.contains('\n') && e.contains("--memory"), "{e}");
        let n = q.computed_to_heap();
        assert!(n < 33);
        let plain = compute_with(
            game("0.07"),
            n,
            false,
            &|| false,
            &mut |_, _| {},
            &RunOptions::default(),
        )
        .unwrap();
        assert_eq!(q.report().presentation, plain.report().presentation);
        assert_eq!(q.report().orders, plain.report().orders);
    }
}

/// The genus read from tame quotients ([`tame`]) against Conway's recursion over positions
/// ([`crate::solve::misere_genus`]), two independent computations.
mod genus {
    use super::*;
    use crate::solve::misere_genus::{heap_genera, position_genus};

    /// Every multiset of heaps `1..=n` with at most `total` tokens.
    fn positions(n: u32, total: u32) -> Vec<Vec<u32>> {
        let mut out = vec![vec![]];
        let mut i = 0;
        while i < out.len() {
            let p: Vec<u32> = out[i].clone();
            let sum: u32 = p.iter().sum();
            let from = p.last().copied().unwrap_or(1);
            for h in from..=n.min(total - sum) {
                let mut q = p.clone();
                q.push(h);
                out.push(q);
            }
            i += 1;
        }
        out
    }

    /// What one game's check covered.
    #[derive(Default, Debug)]
    struct Covered {
        tame: bool,
        heaps: usize,
        sums: usize,
    }

    /// Compute the quotient up to `max_heap` (stopping at a certificate); when it is tame,
    /// compare the genus of every heap up to `genus_heaps` and of every sum of at most `total`
    /// tokens (heaps within the quotient's range) with the recursion. A tame quotient must be
    /// read (the theorem's labelling by normal-play values must be an isomorphism).
    fn check_game(
        make: &dyn Fn() -> Box<dyn HeapGame + Send + Sync>,
        max_heap: u32,
        genus_heaps: u32,
        total: u32,
    ) -> Covered {
        let game = make();
        let name = game.name();
        let q = compute(make(), max_heap, true, &|| false, &mut |_, _| {}).unwrap();
        let r = q.report();
        let reading = q.tame_reading();
        assert_eq!(
            r.tame,
            reading.is_ok(),
            "{name}: a tame quotient not read: {:?}",
            r.genus_note
        );
        let Ok(_) = reading else {
            assert!(r.genus.is_none() && r.element_genus.is_none(), "{name}");
            return Covered::default();
        };
        // A certified quotient answers every heap; a partial one its range.
        let n = if q.certificate.is_some() {
            genus_heaps
        } else {
            q.computed_to_heap().min(genus_heaps)
        };
        let direct = heap_genera(game.as_ref(), n, 2_000_000).unwrap();
        let listed = r.genus.as_ref().unwrap();
        for h in 0..=n {
            let read = q.genus(&[h as u64]).unwrap().unwrap();
            assert_eq!(read, direct[h as usize], "{name}: heap {h}");
            if let Some(l) = listed.get(h as usize) {
                assert_eq!(*l, direct[h as usize].symbol(), "{name}: heap {h}");
            }
        }
        let mut sums = 0;
        for pos in positions(n, total) {
            if pos.len() < 2 {
                continue;
            }
            let h64: Vec<u64> = pos.iter().map(|&h| h as u64).collect();
            let read = q.genus(&h64).unwrap().unwrap();
            let direct = position_genus(game.as_ref(), &pos, 2_000_000).unwrap();
            assert_eq!(read, direct, "{name}: position {pos:?}");
            sums += 1;
        }
        Covered {
            tame: true,
            heaps: n as usize + 1,
            sums,
        }
    }

    #[test]
    fn genus_of_tame_two_digit_codes_is_conways() {
        let mut tame = Vec::new();
        let (mut heaps, mut sums) = (0, 0);
        for d1 in 0..8u8 {
            for d2 in 0..8u8 {
                let code = format!("0.{d1}{d2}");
                let c = check_game(&|| Box::new(Rules::parse(&code).unwrap()), 16, 30, 14);
                if c.tame {
                    tame.push(code);
                    heaps += c.heaps;
                    sums += c.sums;
                }
            }
        }
        eprintln!(
            "tame two-digit codes: {} ({}), {heaps} heaps and {sums} sums compared",
            tame.len(),
            tame.join(" ")
        );
        assert!(!tame.is_empty() && sums > 0);
    }

    #[test]
    fn genus_of_tame_three_digit_codes_and_subtraction_games_is_conways() {
        let mut tame = Vec::new();
        for code in [
            "0.137", "0.007", "0.777", "0.451", "0.156", "0.355", "0.6", "0.F", "4.7", "0.123",
            "0.311", "0.132", "0.213", "0.333", "0.171", "0.404", "0.4", "0.44", "0.06",
        ] {
            if check_game(&|| Box::new(Rules::parse(code).unwrap()), 16, 26, 13).tame {
                tame.push(code.to_string());
            }
        }
        for set in [
            vec![1, 3, 4],
            vec![1, 2],
            vec![2, 3],
            vec![1, 4],
            vec![1, 2, 4, 8],
        ] {
            let g = SubtractionSet::finite(set).unwrap();
            let name = g.to_string();
            if check_game(&|| Box::new(g.clone()), 30, 30, 14).tame {
                tame.push(name);
            }
        }
        eprintln!("tame: {}", tame.join(" "));
        assert!(!tame.is_empty());
    }

    #[test]
    fn nim_itself_reads_as_nim_up_to_t4() {
        // Nim with heaps below 16: the quotient is T4, the genus of heap g is g^{g(g⊕2)}.
        let q = compute(
            Box::new(SubtractionSet::all_but(vec![]).unwrap()),
            15,
            false,
            &|| false,
            &mut |_, _| {},
        )
        .unwrap();
        let r = q.report();
        assert_eq!(r.recognised.as_deref(), Some("T4"));
        let direct = heap_genera(&SubtractionSet::all_but(vec![]).unwrap(), 15, 1 << 20).unwrap();
        for h in 0..=15u64 {
            assert_eq!(q.genus(&[h]).unwrap().unwrap(), direct[h as usize], "*{h}");
        }
        let p = q.genus(&[5, 9, 12]).unwrap().unwrap();
        let d = position_genus(
            &SubtractionSet::all_but(vec![]).unwrap(),
            &[5, 9, 12],
            1 << 20,
        );
        assert_eq!(p, d.unwrap());
    }
}
