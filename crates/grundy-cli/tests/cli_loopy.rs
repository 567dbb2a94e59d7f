//! Loopy games through the real binary: `graph --loopy`, sums of graphs, `loopy-subtraction`,
//! and their refusals of bad input.

mod common;
use common::{bad_input, grundy, json};
use serde_json::{json as j, Value};
use std::path::{Path, PathBuf};

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn values_outcomes_and_moves_of_a_loopy_graph() {
    let g = example("loopy-graph.json");
    let v = json(&["graph", &g, "--loopy", "--all"]);
    assert_eq!(v["root"], "start");
    assert_eq!(v["grundy_value"], j!({"infinite": true, "k": [1]}));
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["drawing_moves"], j!(["spin"]));
    assert_eq!(v["winning_moves"], j!([]));
    let nodes = v["nodes"].as_array().unwrap();
    let value_of = |id: &str| nodes.iter().find(|n| n["id"] == id).unwrap()["grundy_value"].clone();
    assert_eq!(value_of("x"), j!(1));
    assert_eq!(value_of("y"), j!(0));
    assert_eq!(value_of("far"), j!(1));
    // From x both options are P-positions; the terminal one wins at once, the other only if
    // the winner keeps choosing least-rank moves.
    let v = json(&["graph", &g, "--loopy", "--root", "x"]);
    assert_eq!(
        v["winning_moves"],
        j!([{"to": "end", "wins_within": 1}, {"to": "y", "wins_within": 3}])
    );
    assert_eq!(v["wins_within"], 1);
}

#[test]
fn acyclic_graphs_keep_their_output_and_cycles_need_the_flag() {
    let small = example("small-graph.json");
    let v = json(&["graph", &small]);
    assert_eq!(v["grundy_value"], 2);
    assert_eq!(v["winning_moves"], j!(["c"]));
    assert!(v.get("has_cycle").is_none());
    // The same graph with --loopy: the same value.
    let v = json(&["graph", &small, "--loopy"]);
    assert_eq!(v["grundy_value"], 2);
    assert_eq!(v["has_cycle"], false);
    bad_input(&["graph", &example("loopy-graph.json")], "--loopy");
}

#[test]
fn sums_of_files_and_of_roots() {
    let g = example("loopy-graph.json");
    let small = example("small-graph.json");
    // ∞{1} + 1 = ∞{0}: N, won by moving the loopy component to x (1 + 1 = 0).
    let v = json(&[
        "graph", &g, &small, "--loopy", "--root", "start", "--root", "b",
    ]);
    assert_eq!(v["grundy_value"], j!({"infinite": true, "k": [0]}));
    assert_eq!(v["outcome"], "N");
    assert_eq!(
        v["winning_moves"],
        j!([{"component": 0, "from": "start", "to": "x"}])
    );
    // ∞ + ∞ is a draw.
    let v = json(&["graph", &g, "--loopy", "--root", "start", "--root", "spin"]);
    assert_eq!(v["grundy_value"], j!({"infinite": true, "k": []}));
    assert_eq!(v["outcome"], "D");
    // Acyclic files sum without the flag: 2 xor 1.
    let v = json(&["graph", &small, "--root", "a", "--root", "b"]);
    assert_eq!(v["grundy_value"], 3);
}

/// The sum command's value equals the value of the product graph, written as a file.
#[test]
fn a_sum_equals_its_product_graph() {
    let dir = tempfile::tempdir().unwrap();
    let x: Vec<Vec<usize>> = vec![vec![1, 2], vec![0], vec![2, 3], vec![]];
    let y: Vec<Vec<usize>> = vec![vec![1], vec![2, 1], vec![0], vec![0]];
    let spec = |lists: &[Vec<usize>], name: &dyn Fn(usize) -> String| -> String {
        let nodes: Vec<Value> = (0..lists.len())
            .map(|u| j!({"id": name(u), "options": lists[u].iter().map(|&v| name(v)).collect::<Vec<_>>()}))
            .collect();
        j!({"nodes": nodes}).to_string()
    };
    let fx = write(dir.path(), "x.json", &spec(&x, &|u| format!("x{u}")));
    let fy = write(dir.path(), "y.json", &spec(&y, &|u| format!("y{u}")));
    let mut prod = Vec::new();
    for xa in &x {
        for (b, yb) in y.iter().enumerate() {
            let a = prod.len() / y.len();
            let mut o: Vec<usize> = xa.iter().map(|&a2| a2 * y.len() + b).collect();
            o.extend(yb.iter().map(|&b2| a * y.len() + b2));
            prod.push(o);
        }
    }
    let fp = write(
        dir.path(),
        "p.json",
        &spec(&prod, &|u| format!("x{}y{}", u / y.len(), u % y.len())),
    );
    for a in 0..x.len() {
        for b in 0..y.len() {
            let (ra, rb, rp) = (format!("x{a}"), format!("y{b}"), format!("x{a}y{b}"));
            let sum = json(&[
                "graph",
                fx.to_str().unwrap(),
                fy.to_str().unwrap(),
                "--loopy",
                "--root",
                &ra,
                "--root",
                &rb,
            ]);
            let whole = json(&["graph", fp.to_str().unwrap(), "--loopy", "--root", &rp]);
            assert_eq!(sum["grundy_value"], whole["grundy_value"], "{rp}");
            assert_eq!(sum["outcome"], whole["outcome"], "{rp}");
        }
    }
}

#[test]
fn dot_marks_draws() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.dot");
    json(&[
        "graph",
        &example("loopy-graph.json"),
        "--loopy",
        "--dot",
        out.to_str().unwrap(),
    ]);
    let dot = std::fs::read_to_string(out).unwrap();
    assert!(
        dot.contains(r#"[label="spin\nsg = ∞{1}\ndraw", shape=diamond, style="dashed"]"#),
        "{dot}"
    );
    assert!(dot.contains(r#"[label="y\nsg = 0", shape=box]"#), "{dot}");
}

/// Outcomes by plain retrograde analysis of the rules, written here independently.
fn retrograde(take: &[u64], add: &[u64], max: u64) -> Vec<&'static str> {
    let opts = |n: u64| -> Vec<u64> {
        let mut o: Vec<u64> = take.iter().filter(|&&t| t <= n).map(|&t| n - t).collect();
        if n > 0 {
            o.extend(add.iter().filter(|&&a| n + a <= max).map(|&a| n + a));
        }
        o
    };
    let mut out: Vec<Option<&'static str>> = vec![None; max as usize + 1];
    loop {
        let mut changed = false;
        for n in 0..=max {
            if out[n as usize].is_some() {
                continue;
            }
            let o = opts(n);
            if o.iter().any(|&m| out[m as usize] == Some("P")) {
                out[n as usize] = Some("N");
                changed = true;
            } else if o.iter().all(|&m| out[m as usize] == Some("N")) {
                out[n as usize] = Some("P");
                changed = true;
            }
        }
        if !changed {
            return out.into_iter().map(|o| o.unwrap_or("D")).collect();
        }
    }
}

#[test]
fn loopy_subtraction_matches_a_retrograde_analysis() {
    let v = json(&[
        "loopy-subtraction",
        "--take",
        "2,5",
        "--add",
        "1",
        "--max",
        "12",
    ]);
    assert_eq!(v["values"], j!([0, 0, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0]));
    for (take, add) in [
        ("1,4", "2"),
        ("2,3", "1"),
        ("1,3", "2"),
        ("2,5", "1,3"),
        ("3", ""),
    ] {
        let v = json(&[
            "loopy-subtraction",
            "--take",
            take,
            "--add",
            add,
            "--max",
            "25",
        ]);
        let t: Vec<u64> = take.split(',').map(|w| w.parse().unwrap()).collect();
        let a: Vec<u64> = add
            .split(',')
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(
            v["outcomes"],
            j!(retrograde(&t, &a, 25)),
            "take {take} add {add}"
        );
    }
    // take {1, 4}, add {2}, cap 9: heap 5 is a draw, and so is its sum with heap 6.
    let heaps = |h: &[&str]| {
        let mut args = vec![
            "loopy-subtraction",
            "--take",
            "1,4",
            "--add",
            "2",
            "--max",
            "9",
        ];
        args.extend_from_slice(h);
        json(&args)
    };
    let v = heaps(&["5"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["drawing_moves"], j!([{"heap": 0, "from": 5, "to": 7}]));
    let v = heaps(&["6", "5"]);
    assert_eq!(v["grundy_value"], j!({"infinite": true, "k": []}));
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let g = example("loopy-graph.json");
    bad_input(&["graph", &g, "--loopy", "--root", "zz"], "'zz'");
    bad_input(&["graph", &g, "--loopy", "--misere"], "--misere");
    bad_input(&["graph", &g, "--loopy", "--divide", "2"], "--divide");
    bad_input(&["graph", &g, &g, "--loopy", "--all"], "--all");
    bad_input(&["graph", &g, &g, "--loopy", "--root", "x"], "one per file");
    let dup = write(
        dir.path(),
        "d.json",
        r#"{"nodes":[{"id":"a","options":["a"]},{"id":"a"}]}"#,
    );
    bad_input(&["graph", dup.to_str().unwrap(), "--loopy"], "duplicate");
    let unk = write(
        dir.path(),
        "u.json",
        r#"{"nodes":[{"id":"a","options":["a","q"]}]}"#,
    );
    bad_input(&["graph", unk.to_str().unwrap(), "--loopy"], "'q'");
    bad_input(
        &[
            "loopy-subtraction",
            "--take",
            "1",
            "--add",
            "2",
            "--max",
            "5",
            "6",
        ],
        "above the cap",
    );
    bad_input(
        &["loopy-subtraction", "--take", "0,1", "--max", "5"],
        "positive",
    );
    bad_input(
        &["loopy-subtraction", "--take", "1", "--max", "99999999999"],
        "at most",
    );
    let out = grundy().args(["graph", &g, "--loopy"]).output().unwrap();
    assert!(out.status.success());
}

#[test]
fn play_on_a_loopy_graph_wins_won_games_and_keeps_draws() {
    let g = example("loopy-graph.json");
    // From far (N) the engine moves; whatever the reply, it wins within 3 moves.
    let out = grundy()
        .args(["play", "graph", &g, "spin"])
        .write_stdin("far\nx\n")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains(
            "engine plays y: to a P-position of least rank: the game ends within 3 moves"
        ),
        "{text}"
    );
    assert!(text.contains("engine plays end"), "{text}");
    assert!(
        text.ends_with("You cannot move: the engine wins.\n"),
        "{text}"
    );
    // A drawn game: the engine keeps the draw for as long as the input lasts.
    let out = grundy()
        .args(["play", "graph", &g, "--first", "engine"])
        .write_stdin("spin\nspin\n")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("engine plays spin: to a D-position: keeps the draw"),
        "{text}"
    );
    assert!(text.contains("game abandoned"), "{text}");
    assert!(!text.contains("wins"), "{text}");
    bad_input(&["play", "graph", &g, "nowhere"], "'nowhere'");
    bad_input(&["play", "graph"], "graph file");
}

/// Regression (issue 27): `--loopy --all --json` built the whole document in memory (past
/// 11 GB on a 15-million-node graph); it is now written node by node. The streamed output is
/// one JSON object with every node, and the human text lists every node too.
#[test]
fn every_node_is_streamed_in_both_outputs() {
    let dir = std::env::temp_dir().join(format!("grundy-loopy-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let nodes: Vec<String> = (0..500)
        .map(|i| {
            format!(
                r#"{{"id":"n{i}","options":["n{}","n{}"]}}"#,
                (i * 7 + 1) % 500,
                i / 2
            )
        })
        .collect();
    let g = write(
        &dir,
        "g.json",
        &format!(r#"{{"nodes":[{}]}}"#, nodes.join(",")),
    );
    let g = g.to_str().unwrap();
    let dot = dir.join("g.dot");
    let v = json(&[
        "graph",
        g,
        "--loopy",
        "--all",
        "--dot",
        dot.to_str().unwrap(),
    ]);
    let listed = v["nodes"].as_array().unwrap();
    assert_eq!(listed.len(), 500);
    assert_eq!(v["root"], "n0");
    assert!(v["dot"].as_str().unwrap().ends_with("g.dot"));
    // Each node's entry is what the single-root report says of it.
    for i in [0usize, 17, 499] {
        let one = json(&["graph", g, "--loopy", "--root", &format!("n{i}")]);
        assert_eq!(listed[i]["grundy_value"], one["grundy_value"]);
        assert_eq!(listed[i]["outcome"], one["outcome"]);
    }
    let out = grundy()
        .args(["graph", g, "--loopy", "--all"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("  n")).count(), 500);
    assert!(text.contains("node values:\n"));
    std::fs::remove_dir_all(dir).unwrap();
}
