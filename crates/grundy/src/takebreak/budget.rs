//! How many values a run may hold: the memory budget that replaces a fixed ceiling on `n`.
//!
//! A sequence is kept as at most 2 bytes per heap size (`u16`; values of octal games in the
//! literature stay far below 65536, and an engine that meets a larger value stops with
//! [`Error::TooLarge`](crate::Error::TooLarge) rather than store a wrong one). While every value
//! is below 256 it takes one byte ([`super::values`]), but the budget counts two: it is checked
//! before the run, which cannot know whether its values will stay below 256. The rare/common
//! engine adds at most one 4-byte rare position per 32 heap sizes (see
//! [`super::sparse`]), so a run needs about [`BYTES_PER_VALUE`] per value plus a fixed
//! allowance. The budget is checked before a run starts, against the memory the system says
//! is available (`MemAvailable` in `/proc/meminfo`) or a limit the user gives.
//!
//! A run may also count on one byte a value ([`COMPACT_BYTES_PER_VALUE`]): its plan then holds
//! two limits ([`super::driver::Plan`]), one for a store of bytes and one for `u16`, and the
//! driver applies the one of the store the values are in at each step. A store moves between
//! the two widths in one pass that holds both copies (three bytes a value and the rare
//! positions), so it may do so only up to [`resize_within`] values.

/// Bytes a run needs per value it computes: the value (2) and, at most, 1/8 for rare positions.
pub const BYTES_PER_VALUE: f64 = 2.125;
/// Bytes a run needs per value it keeps in one byte: the value (1) and, at most, 1/8 for rare
/// positions (a store with a head in `u16` counts one byte more for each value of the head).
pub const COMPACT_BYTES_PER_VALUE: f64 = 1.125;
/// Fixed allowance: the engine's tables, the period detector's rescan (one `u32` per residue of
/// its base period, at most 2^22), the program itself.
pub const FIXED_BYTES: u64 = 64 << 20;
/// Share of the available memory a run allows itself (others use the machine too).
pub const SHARE: f64 = 0.9;

/// The memory the system reports as available (`MemAvailable` in `/proc/meminfo`), in bytes;
/// `None` where that is not known.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo(&text)
}

fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let amount: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => amount.checked_mul(1024),
        None => Some(amount),
        Some(_) => None,
    }
}

/// A memory size as a message gives it: whole MB (2^20 bytes), or bytes below one MB (so that
/// `--max-memory 1K` is not shown as "0 MB").
pub fn size_words(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{bytes} bytes")
    } else {
        format!("{} MB", bytes >> 20)
    }
}

/// The most values a run may compute with `bytes` of memory.
pub fn values_within(bytes: u64) -> usize {
    let usable = bytes.saturating_sub(FIXED_BYTES) as f64;
    (usable / BYTES_PER_VALUE) as usize
}

/// The memory `values` values need, in bytes (the inverse of [`values_within`]).
pub fn bytes_for(values: usize) -> u64 {
    (values as f64 * BYTES_PER_VALUE) as u64 + FIXED_BYTES
}

/// The most values a run may compute with `bytes` of memory when they are kept in one byte.
pub fn compact_values_within(bytes: u64) -> usize {
    let usable = bytes.saturating_sub(FIXED_BYTES) as f64;
    (usable / COMPACT_BYTES_PER_VALUE) as usize
}

/// The memory `values` values need in one byte each (the inverse of [`compact_values_within`]).
pub fn compact_bytes_for(values: usize) -> u64 {
    (values as f64 * COMPACT_BYTES_PER_VALUE) as u64 + FIXED_BYTES
}

/// The memory `values` values need in `value_bytes` bytes each (1: [`compact_bytes_for`],
/// else [`bytes_for`]).
pub fn bytes_in(values: usize, value_bytes: usize) -> u64 {
    if value_bytes == 1 {
        compact_bytes_for(values)
    } else {
        bytes_for(values)
    }
}

/// The most values a store may hold when it moves between one byte and two a value, for a run
/// whose budget holds `max_values` values in two bytes ([`values_within`]): the move holds both
/// copies, three bytes a value and the rare positions' 1/8, within what `max_values` take.
pub fn resize_within(max_values: usize) -> usize {
    if max_values == usize::MAX {
        return usize::MAX;
    }
    (max_values as f64 * BYTES_PER_VALUE / (BYTES_PER_VALUE + 1.0)) as usize
}

/// The default budget: [`SHARE`] of the available memory, or `None` if unknown.
pub fn default_bytes() -> Option<u64> {
    available_memory().map(|b| (b as f64 * SHARE) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(parse_meminfo(text), Some(2048 * 1024));
        assert_eq!(parse_meminfo("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_meminfo("MemAvailable: x kB\n"), None);
    }

    #[test]
    fn sizes_and_values_agree() {
        // (sizes are read by crate::text::parse_bytes, tested there)
        assert_eq!(values_within(FIXED_BYTES), 0);
        let v = values_within(1 << 30);
        assert!(bytes_for(v) <= 1 << 30 && bytes_for(v + 2) > 1 << 30);
        let c = compact_values_within(1 << 30);
        assert!(compact_bytes_for(c) <= 1 << 30 && compact_bytes_for(c + 2) > 1 << 30);
        assert!(
            c > v * 18 / 10,
            "one byte a value holds about 1.9 times as many"
        );
        // moving between widths at r values: 3.125 bytes a value within the budget's 2.125 * v
        let r = resize_within(v);
        assert!(r as f64 * (BYTES_PER_VALUE + 1.0) <= v as f64 * BYTES_PER_VALUE);
        assert!((r + 2) as f64 * (BYTES_PER_VALUE + 1.0) > v as f64 * BYTES_PER_VALUE);
        assert_eq!(resize_within(usize::MAX), usize::MAX);
    }
}
