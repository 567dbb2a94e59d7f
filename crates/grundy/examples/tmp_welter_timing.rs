use grundy::games::welter::Coins;
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let t = Instant::now();
    let text = std::fs::read_to_string(path).unwrap();
    let squares: Vec<u64> = text
        .split_ascii_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let t1 = t.elapsed();
    let coins = Coins::new(squares).unwrap();
    let t2 = t.elapsed();
    let a = coins.analyse();
    let v = a.grundy_value();
    let t3 = t.elapsed();
    let m = a.moves_to(0);
    let t4 = t.elapsed();
    let cpu = || {
        let s = std::fs::read_to_string("/proc/self/stat").unwrap();
        let f: Vec<&str> = s.split_whitespace().collect();
        f[13].parse::<u64>().unwrap() + f[14].parse::<u64>().unwrap()
    };
    println!(
        "parse {t1:?} sort {:?} value {:?} moves {:?} total cpu ticks {} | v={v} moves={}",
        t2 - t1,
        t3 - t2,
        t4 - t3,
        cpu(),
        m.len()
    );
}
