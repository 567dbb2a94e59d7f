//! `cargo run -p my-game -- 10 7 3`: the value, the outcome and the winning moves of a
//! position of subtract-a-square, and `--graph FILE` writes its game graph for the `grundy`
//! command line (`grundy graph FILE --dot OUT`, `grundy play graph FILE`).

use grundy::graph::explore;
use grundy::NormalPlay;
use my_game::SquareTake;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let graph_file = match args.iter().position(|a| a == "--graph") {
        Some(i) if i + 1 < args.len() => {
            let file = args.remove(i + 1);
            args.remove(i);
            Some(file)
        }
        Some(_) => fail("--graph needs a file name"),
        None => None,
    };
    let heaps: Vec<u64> = args
        .iter()
        .map(|a| {
            a.parse()
                .unwrap_or_else(|_| fail(&format!("'{a}' is not a heap size")))
        })
        .collect();
    if heaps.is_empty() {
        fail("give the heaps, e.g. 10 7 3");
    }
    let mut solver = NormalPlay::new(SquareTake);
    let value = solver
        .grundy_value(&heaps)
        .unwrap_or_else(|e| fail(&e.to_string()));
    println!("heaps {heaps:?}: grundy value {value}");
    let winning = solver
        .winning_moves(&heaps)
        .unwrap_or_else(|e| fail(&e.to_string()));
    for to in winning {
        println!("winning move: to {to:?}");
    }
    if let Some(file) = graph_file {
        // Every position reachable from the start, as the graph file `grundy graph` reads.
        let graph = explore(&SquareTake, &heaps, 100_000).unwrap_or_else(|e| fail(&e.to_string()));
        let text = serde_json::to_string_pretty(&graph.to_spec()).expect("a graph serialises");
        std::fs::write(&file, text + "\n")
            .unwrap_or_else(|e| fail(&format!("cannot write '{file}': {e}")));
        println!("wrote the game graph ({} positions) to {file}", graph.len());
    }
}

fn fail(message: &str) -> ! {
    eprintln!("my-game: {message}");
    std::process::exit(2)
}
