//! Number theory behind common-divisor Nim's winning moves: the gcd of many heaps, factoring its
//! odd part, and listing its divisors.
//!
//! Why this module exists: a move subtracts a common divisor `d` of all heaps (Definition 2.1),
//! and the winning ones are `d = 2^lambda * k` for odd divisors `k` of the gcd (see
//! [`super::moves`]). Listing *every* winning move therefore needs every odd divisor of the
//! gcd, i.e. its factorisation; listing *one* needs none.
//!
//! Heaps may have thousands of digits and there may be tens of thousands of them, so:
//! - the gcd is folded as `g <- gcd(g, n mod g)` with a machine-word path as soon as `g` fits in
//!   64 bits, and stops at 1 (Stein's algorithm on a tiny `g` against a huge `n` would walk
//!   every bit of `n`);
//! - factoring is exact or says it is not: trial division by primes below 2^20, then
//!   deterministic Miller–Rabin and Pollard–Brent rho once the cofactor fits in 64 bits, and
//!   deterministic Miller–Rabin (bases 2..41, valid below 3.3 * 10^24) for a larger cofactor.
//!   A composite (or unproven) cofactor above 2^64 is reported as *unfactored*; its divisors
//!   1 and itself are still divisors, so moves built from them are still legal.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// Primes below this bound are tried by trial division before anything cleverer.
pub const TRIAL_DIVISION_BOUND: u32 = 1 << 20;

/// `n mod m` for a machine-word modulus, without allocating.
pub fn rem_u64(n: &BigUint, m: u64) -> u64 {
    let m128 = m as u128;
    let digits: Vec<u64> = n.iter_u64_digits().collect();
    digits
        .iter()
        .rev()
        .fold(0u128, |r, &d| ((r << 64) | d as u128) % m128) as u64
}

/// Greatest common divisor of two machine words.
pub fn gcd_u64(a: u64, b: u64) -> u64 {
    a.gcd(&b)
}

/// The odd part of the gcd of the non-zero heaps (`None` when every heap is 0).
///
/// The gcd of all heaps is `2^lambda` times this (lambda = least ord2 of a heap), because the
/// gcd of the odd parts is odd and each heap is `2^ord2 * odd part`. Working with odd parts
/// lets a caller skip the power of two it already knows.
pub fn odd_gcd(heaps: &[BigUint]) -> Option<BigUint> {
    let mut nonzero = heaps.iter().filter(|n| !n.is_zero());
    let first = nonzero.next()?;
    let mut g = odd_part(first);
    for n in nonzero {
        if g.is_one() {
            break;
        }
        g = match g.to_u64() {
            // g is odd, so gcd(g, n) = gcd(g, odd part of n) = gcd(g, n mod g)
            Some(small) => BigUint::from(gcd_u64(small, rem_u64(n, small))),
            None => g.gcd(&(n % &g)),
        };
    }
    Some(g)
}

/// `n` with its factors of 2 removed (0 stays 0).
pub fn odd_part(n: &BigUint) -> BigUint {
    match n.trailing_zeros() {
        Some(z) if z > 0 => n >> z,
        _ => n.clone(),
    }
}

/// A factorisation of an odd number: prime powers, and possibly a part left unfactored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OddFactorization {
    /// Distinct primes (ascending) with their exponents.
    pub primes: Vec<(BigUint, u32)>,
    /// A factor > 1 that could not be split into proven primes (coprime to `primes`).
    pub unfactored: Option<BigUint>,
}

impl OddFactorization {
    /// Whether every prime factor is known (so the divisor list is complete).
    pub fn is_complete(&self) -> bool {
        self.unfactored.is_none()
    }

    /// The number of divisors this factorisation yields: `prod (e + 1)`, times 2 for an
    /// unfactored part (which contributes the divisors 1 and itself).
    pub fn divisor_count(&self) -> BigUint {
        let known = self
            .primes
            .iter()
            .fold(BigUint::one(), |acc, (_, e)| acc * (*e as u64 + 1));
        if self.unfactored.is_some() {
            known * 2u32
        } else {
            known
        }
    }

    /// The divisors this factorisation yields, ascending, and whether that is all of them.
    ///
    /// At most `limit` divisors are produced: when there are more, a subset of `limit` genuine
    /// divisors comes back with `false`. With an unfactored part `r` the divisors are those of
    /// the known part times 1 or `r`: genuine, but not all (so also `false`).
    pub fn divisors(&self, limit: usize) -> (Vec<BigUint>, bool) {
        let mut divisors = vec![BigUint::one()];
        let mut all = self.is_complete();
        let extra = self.unfactored.iter().map(|r| (r.clone(), 1u32));
        'factors: for (p, e) in self.primes.iter().cloned().chain(extra) {
            let before = divisors.len();
            let mut power = BigUint::one();
            for _ in 0..e {
                power *= &p;
                for i in 0..before {
                    if divisors.len() >= limit {
                        all = false;
                        break 'factors;
                    }
                    divisors.push(&divisors[i] * &power);
                }
            }
        }
        divisors.sort();
        (divisors, all)
    }
}

/// Factor an odd number `n >= 1` as far as can be proven (see the module docs).
pub fn factor_odd(n: &BigUint) -> OddFactorization {
    assert!(n.is_odd(), "factor_odd needs an odd number, got {n}");
    let mut primes: Vec<(BigUint, u32)> = Vec::new();
    let mut rest = n.clone();
    if rest.to_u64().is_none() {
        // Trial division on the big number until it fits in a machine word.
        for &p in small_odd_primes() {
            if rest.to_u64().is_some() {
                break;
            }
            let mut e = 0;
            while (&rest % p).is_zero() {
                rest /= p;
                e += 1;
            }
            if e > 0 {
                primes.push((BigUint::from(p), e));
            }
        }
    }
    let mut unfactored = None;
    match rest.to_u64() {
        Some(small) => {
            for (p, e) in factor_u64(small) {
                primes.push((BigUint::from(p), e));
            }
        }
        None => {
            // No prime factor below 2^20 is left, so a cofactor below 2^40 would be prime; this
            // one is above 2^64: prime if Miller–Rabin proves it, otherwise left unfactored.
            if !is_proven_prime_big(&rest) {
                unfactored = Some(rest);
            } else {
                primes.push((rest, 1));
            }
        }
    }
    primes.sort();
    OddFactorization { primes, unfactored }
}

/// Odd primes below [`TRIAL_DIVISION_BOUND`], by a sieve built once per process.
fn small_odd_primes() -> &'static [u32] {
    static PRIMES: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    PRIMES.get_or_init(|| {
        let n = TRIAL_DIVISION_BOUND as usize;
        let mut composite = vec![false; n];
        let mut out = Vec::new();
        for i in 3..n {
            if i % 2 == 1 && !composite[i] {
                out.push(i as u32);
                let mut j = i * i;
                while j < n {
                    composite[j] = true;
                    j += 2 * i;
                }
            }
        }
        out
    })
}

fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    ((a as u128 * b as u128) % m as u128) as u64
}

fn pow_mod(mut base: u64, mut exp: u64, m: u64) -> u64 {
    let mut acc = 1 % m;
    base %= m;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul_mod(acc, base, m);
        }
        base = mul_mod(base, base, m);
        exp >>= 1;
    }
    acc
}

/// Miller–Rabin bases that decide primality of every n < 3,317,044,064,679,887,385,961,981
/// (Sorenson and Webster, 2015), which includes every 64-bit n.
const MILLER_RABIN_BASES: [u64; 13] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41];

/// Deterministic primality test for 64-bit numbers.
pub fn is_prime_u64(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for &p in &MILLER_RABIN_BASES {
        if n % p == 0 {
            return n == p;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'bases: for &a in &MILLER_RABIN_BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// `true` only when `n` is proven prime: deterministic Miller–Rabin below 3.3 * 10^24.
/// Larger numbers are never claimed prime (a probable prime is not a proof).
fn is_proven_prime_big(n: &BigUint) -> bool {
    let bound: BigUint = "3317044064679887385961981"
        .parse()
        .expect("a decimal literal");
    if *n >= bound || n.is_even() {
        return false;
    }
    let one = BigUint::one();
    let minus_one = n - &one;
    let s = minus_one.trailing_zeros().expect("n - 1 > 0");
    let d = &minus_one >> s;
    'bases: for &a in &MILLER_RABIN_BASES {
        let a = BigUint::from(a);
        if (&a % n).is_zero() {
            continue;
        }
        let mut x = a.modpow(&d, n);
        if x == one || x == minus_one {
            continue;
        }
        for _ in 1..s {
            x = (&x * &x) % n;
            if x == minus_one {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// A non-trivial factor of an odd composite `n` by Pollard–Brent rho.
fn pollard_brent(n: u64) -> u64 {
    for c in 1..n {
        let f = |x: u64| (mul_mod(x, x, n) + c) % n;
        let (mut y, mut r, mut q, mut g) = (2u64, 1u64, 1u64, 1u64);
        let mut x = y;
        let mut ys = y;
        while g == 1 {
            x = y;
            for _ in 0..r {
                y = f(y);
            }
            let mut k = 0;
            while k < r && g == 1 {
                ys = y;
                for _ in 0..(128.min(r - k)) {
                    y = f(y);
                    q = mul_mod(q, x.abs_diff(y), n);
                }
                g = gcd_u64(q, n);
                k += 128;
            }
            r *= 2;
        }
        if g == n {
            // the batch overshot: step one at a time from the saved point
            loop {
                ys = f(ys);
                g = gcd_u64(x.abs_diff(ys), n);
                if g > 1 {
                    break;
                }
            }
        }
        if g != n {
            return g;
        }
    }
    unreachable!("every odd composite has a rho cycle for some c")
}

/// The prime factorisation of an odd 64-bit number (ascending primes with exponents).
pub fn factor_u64(n: u64) -> Vec<(u64, u32)> {
    let mut found: Vec<u64> = Vec::new();
    let mut rest = n;
    for p in [3u64, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47] {
        while rest % p == 0 {
            found.push(p);
            rest /= p;
        }
    }
    let mut stack = vec![rest];
    while let Some(m) = stack.pop() {
        if m == 1 {
            continue;
        }
        if is_prime_u64(m) {
            found.push(m);
            continue;
        }
        let f = pollard_brent(m);
        stack.push(f);
        stack.push(m / f);
    }
    found.sort_unstable();
    let mut out: Vec<(u64, u32)> = Vec::new();
    for p in found {
        match out.last_mut() {
            Some((q, e)) if *q == p => *e += 1,
            _ => out.push((p, 1)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_factor(mut n: u64) -> Vec<(u64, u32)> {
        let mut out = vec![];
        let mut p = 3;
        while p * p <= n {
            let mut e = 0;
            while n % p == 0 {
                n /= p;
                e += 1;
            }
            if e > 0 {
                out.push((p, e));
            }
            p += 2;
        }
        if n > 1 {
            out.push((n, 1));
        }
        out
    }

    #[test]
    fn small_odd_numbers_factor_exactly() {
        for n in (1..20_000u64).step_by(2) {
            assert_eq!(factor_u64(n), naive_factor(n), "{n}");
            let f = factor_odd(&BigUint::from(n));
            assert!(f.is_complete());
            let (divisors, all) = f.divisors(1000);
            assert!(all);
            let divisors: Vec<u64> = divisors.iter().map(|d| d.to_u64().unwrap()).collect();
            let expected: Vec<u64> = (1..=n).filter(|d| n % d == 0).collect();
            assert_eq!(divisors, expected, "{n}");
            assert_eq!(f.divisor_count(), BigUint::from(expected.len()));
        }
    }

    #[test]
    fn primality_agrees_with_trial_division() {
        for n in 0..50_000u64 {
            let naive = n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0);
            assert_eq!(is_prime_u64(n), naive, "{n}");
        }
        // strong pseudoprimes to the first several prime bases are still found composite
        assert_eq!(factor_u64(2047), vec![(23, 1), (89, 1)]);
        assert_eq!(factor_u64(3215031751), vec![(151, 1), (751, 1), (28351, 1)]);
        assert!(!is_prime_u64(3825123056546413051));
        assert_eq!(
            factor_u64(3825123056546413051),
            vec![(149491, 1), (747451, 1), (34233211, 1)]
        );
    }

    #[test]
    fn large_semiprimes_and_prime_powers() {
        // 4294967291 and 4294967279 are the two largest primes below 2^32
        let n = 4294967291u64 * 4294967279;
        assert_eq!(factor_u64(n), vec![(4294967279, 1), (4294967291, 1)]);
        let n = 3u64.pow(40);
        assert_eq!(factor_u64(n), vec![(3, 40)]);
        assert_eq!(
            factor_u64(18446744073709551557),
            vec![(18446744073709551557, 1)]
        );
    }

    #[test]
    fn big_numbers_with_small_factors_or_a_proven_prime_cofactor() {
        // 3^200 * 5^3 * (2^61 - 1): trial division, then the 64-bit path
        let p61 = BigUint::from((1u64 << 61) - 1);
        let n = BigUint::from(3u32).pow(200) * 125u32 * &p61;
        let f = factor_odd(&n);
        assert!(f.is_complete());
        assert_eq!(
            f.primes,
            vec![(3u32.into(), 200), (5u32.into(), 3), (p61.clone(), 1)]
        );
        assert_eq!(f.divisor_count(), BigUint::from(201u32 * 4 * 2));
        // 2^80 - 65 is prime and below 3.3e24: proven by deterministic Miller–Rabin
        let p80: BigUint = (BigUint::one() << 80) - 65u32;
        let f = factor_odd(&(&p80 * 7u32));
        assert_eq!(f.primes, vec![(7u32.into(), 1), (p80.clone(), 1)]);
        assert!(f.is_complete());
        // 2^89 - 1 is prime too, but above that bound: never claimed prime without proof
        let m89: BigUint = (BigUint::one() << 89) - 1u32;
        assert_eq!(factor_odd(&m89).unfactored, Some(m89.clone()));
        // the product of two primes above 2^64 is beyond what we prove: left unfactored
        let m127: BigUint = (BigUint::one() << 127) - 1u32;
        let f = factor_odd(&(&m89 * &m127 * 9u32));
        assert_eq!(f.primes, vec![(3u32.into(), 2)]);
        assert_eq!(f.unfactored, Some(&m89 * &m127));
        let (divisors, all) = f.divisors(100);
        assert!(!all);
        assert_eq!(divisors.len(), 6);
        for d in &divisors {
            assert!((&m89 * &m127 * 9u32 % d).is_zero());
        }
    }

    #[test]
    fn divisor_lists_are_capped() {
        // 3^2 * 5 * 7 * 11 has 24 divisors; ask for 10
        let f = factor_odd(&BigUint::from(9u32 * 5 * 7 * 11));
        assert_eq!(f.divisor_count(), BigUint::from(24u32));
        let (some, all) = f.divisors(10);
        assert!(!all);
        assert_eq!(some.len(), 10);
        for d in &some {
            assert!((BigUint::from(9u32 * 5 * 7 * 11) % d).is_zero());
        }
        assert_eq!(f.divisors(24).0.len(), 24);
        assert!(f.divisors(24).1);
    }

    #[test]
    fn odd_gcd_of_many_heaps() {
        let heaps: Vec<BigUint> = [0u64, 12, 18, 0, 30].iter().map(|&x| x.into()).collect();
        assert_eq!(odd_gcd(&heaps), Some(3u32.into()));
        assert_eq!(odd_gcd(&[BigUint::zero(), BigUint::zero()]), None);
        let big = BigUint::from(3u32).pow(300) * 1024u32;
        let heaps = vec![big.clone(), big.clone() * 5u32, big.clone() * 7u32];
        assert_eq!(odd_gcd(&heaps), Some(BigUint::from(3u32).pow(300)));
        assert_eq!(
            rem_u64(&big, 1_000_000_007),
            (&big % 1_000_000_007u64).to_u64().unwrap()
        );
    }
}
