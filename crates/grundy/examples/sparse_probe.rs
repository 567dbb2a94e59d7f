use grundy::takebreak::sparse::RareCommon;
use grundy::takebreak::Code;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = Code::parse(&args[1]).unwrap();
    let n: usize = args[2].parse().unwrap();
    let mut e = RareCommon::new(&code).unwrap();
    let mut g: Vec<u16> = Vec::with_capacity(n + 1);
    let t = std::time::Instant::now();
    let mut crc = 0u64;
    for _ in 0..=n {
        let v = e.next_value(&g).unwrap();
        crc = crc.wrapping_mul(31).wrapping_add(v as u64);
        g.push(v);
    }
    let el = t.elapsed();
    println!(
        "{} n={} G(n)={} time={:?} ns/value={:.1} hash={crc:x}",
        code,
        n,
        g[n],
        el,
        el.as_nanos() as f64 / n as f64
    );
    println!(
        "targets avg {}",
        grundy::takebreak::sparse::wide::TARGETS_SUM.load(std::sync::atomic::Ordering::Relaxed)
            as f64
            / grundy::takebreak::sparse::wide::TARGETS_N.load(std::sync::atomic::Ordering::Relaxed)
                as f64
    );
    println!(
        "{:?} mode={:?} rare_pos={} rare_values={} common={:?}",
        e.stats(),
        e.mode(),
        e.rare_positions(),
        e.rare_values(),
        e.common_values().len()
    );
}
