//! The rare/common ("sparse space") engine for octal codes.
//!
//! It computes the same G(n) as the naive engine — the mex over every option of the code's
//! moves (`docs/theory.md` §3: bit 2^j of d_k removes k tokens and leaves j heaps,
//! j <= 2 for octal codes) — but proves most values without looking at most options.
//!
//! Why a second engine: the naive engine looks at every split `a + b = n - k` of every heap, so
//! G(0..n) costs O(n²). For most octal games the values that occur split into a few *common*
//! ones and a handful of *rare* ones that occur at few positions (Gangolli–Plambeck's and
//! Flammenkamp's "sparse space"). Options that involve a rare position are few, so the engine
//! enumerates them all; options between two common positions can only produce values in a known
//! set (see [`split`]), so a candidate mex outside that set is proved without looking at them.
//! When the candidate is inside, a witness search over the skipped options usually finds it
//! soon; only when no witness exists is every option scanned — and then the value is a rare one.
//!
//! The split is chosen from value frequencies and re-chosen when it goes stale (the rare
//! positions double, or the sequence doubles in length). Games without a sparse space (where
//! many positions would be rare) run in a *dense* mode that scans every split with vectorised
//! kernels (see [`kernels`]). Whatever the split and the mode, every value is proved: the
//! property tests compare this engine with the definition value by value.
//!
//! Two paths compute a value: `word` while every value is below 64 (option sets are one
//! machine word, kept in registers), `wide` beyond (option sets are byte maps).
//! On the wide path, when the common values are those of odd parity under a bit mask (Officers),
//! `far` marks the options of the rare positions far below a block of 32 heaps in AVX-512
//! registers instead of one byte store each.
//!
//! With two threads or more (the [`pipeline`]), the verifying threads also mark the far rare
//! options of later blocks of byte maps when they have no search to run ([`ahead`]).
//!
//! The witness search looks its wanted values up 32 splits at a time in AVX-512 registers when
//! every value is below 4096 (one register for 512 values, two for 1024, four for 2048, eight
//! for 4096); beyond that, or without AVX-512, one split at a time in a byte map.
//!
//! Memory: besides the value array the engine keeps only the rare positions (4 bytes each, at
//! most one for every 32 positions beyond a fixed allowance, else the dense mode drops them),
//! so a run costs about what the value array itself costs: one byte per heap size while every
//! value is below 256, two beyond (see "Compact values" below).
//!
//! # Games with many rare positions and wide values (0.146): where the time goes, what is next
//!
//! 0.146 to 2^18 (measured with a trace, issue 25): 5,814 rare positions spread over the whole
//! sequence (the last ones near n, unlike Officers'), values below 2048, and a split that is a
//! parity class as Officers': half of the values (1024 of 2048) are blocked, the rare options
//! produce only unblocked ones, and (in every heap sampled) every unblocked value below the
//! candidate is among them — so the candidate is the first unblocked value that no rare option
//! produces, and the witness search then needs a witness for every blocked value below it
//! (about candidate / 2 of them, 36 to 396 in the heaps sampled). Per heap, about 11,400 rare
//! options are marked (two split moves), one byte store each ([`kernels::far_maps`]: about
//! half a nanosecond of CPU per option once the maps stopped sharing cache sets), and about
//! 14,800 splits are looked at by the witness search. A `perf` profile of 0.146 to 2^19 at
//! commit 58dd872: far rare options 53%, the witness lookups 29%, the rest of the search 7%
//! (the next commit then halved the far stores: see `build_map_block`).
//!
//! The store per rare option (about 6,100 per heap of 0.146 once its second move reuses the
//! first's) was the floor of this design: at one store per cycle of a 3 GHz core the marking
//! alone would cap 0.146 near 500,000 values/s (an estimate, not a measurement). Two ways
//! round it were measured in session 32 (`docs/performance.md`, "The far options read before
//! they are stored"):
//! - *lookups instead of stores* (each heap's options looked up against the values it still
//!   lacks, the partners `G(m - r)` gathered one heap at a time, as the witness index does):
//!   not kept. A gathered option cost 0.7 to 0.9 ns against 0.42 ns for a store (0.206 to
//!   2^20 on one thread, 8.0 s with stores, 9.2 s with a third of the options looked up, 12.6 s
//!   with all): one heap's partners lie on as many cache lines as it has rare positions,
//!   where a block's sixteen heaps share each line;
//! - *reads before stores* (built, [`kernels::far_maps`]'s filtered copy): the block is
//!   kept, and each option's byte in its own map is read first, sixteen at a time with one
//!   gather from the maps themselves (which sit in the L1 cache), and stored only if it is
//!   still 0 — 7% of 0.206's far options and 16% of 0.146's; a load goes two or three a
//!   cycle where a store goes one. But a gather is not a load everywhere: on an Ice Lake Xeon
//!   (session 33) the same copy made 0.206 half again as slow, so it runs only where a
//!   measurement at the first block finds it faster (`kernels::filter_pays`).

//!
//! # The witness search of 0.146: a coupon collector (issue 25, measured)
//!
//! Where the other half of 0.146's time goes. A `perf record -e cpu-clock` of 0.146 to 2^19
//! (this branch's start, 901ae62): the witness lookups ([`kernels::take_in_bits`]) 37%, the far
//! rare options ([`kernels::far_maps`]) 35%, the rest of the search 10%, the candidate stage
//! 6%. The search looks at about 14,400 splits per heap, about 0.23 ns of CPU each (32 splits
//! per AVX-512 step). It needs a witness for every blocked value below the candidate (36 to
//! 502 of them in the heaps sampled), and the blocked values are far from equally likely as
//! xors of two common values: over the splits of heap 262,142 (values to 2^18, mask
//! `0b111_1111_0101`), the median blocked value below 1000 is produced by one split in 830,
//! the rarest by one in 10,000 to 18,700 (432, 818, 831, 445, 821, ...). Which value comes last
//! changes from heap to heap (a trace of every 997th heap to 2^19: 20 to 950), and the number of
//! splits looked at is that of the rarest wanted value's first witness (3,000 to 85,000 in the
//! trace). At 0.23 ns a split, the search alone is about 3.3 µs per heap, the whole budget of
//! 300,000 values/s: that target needs either a lookup several times cheaper per split or a
//! search that does not scan for the rarest values, and neither is in this engine.
//!
//! One saving is exact and built ([`wide`]'s `Carry`): heap `n + 1`'s split move `k + 1` leaves
//! the heap that heap `n`'s move `k` left, so every value heap `n` found under its first move
//! is witnessed for heap `n + 1` before its search starts, and the later moves' stretches take a
//! quarter of the first move's share so that more is carried (0.146 to 2^19: 14,398 splits per
//! heap before, 13,858 after; the values the same). It cannot remove the rarest values' cost:
//! every heap `m` needs its own witness for each of them, shared by at most the two heaps that
//! leave `m` (and 0.206 and 0.143 have a single split move).
//!
//! A store removed from the far options (an experiment, not kept): the sixteen extractions of a
//! rare position's options (`vpextrw`, two uops each) replaced by offsets written to memory and
//! read back; 0.146 to 2^19 took 8.1 s of CPU against 4.2 to 5.0 s before (the loads wait for
//! the stores before them), so the extraction was not the bottleneck.
//!
//! # 0.146 in session 9 (issue 25): what a bound on the far options, the batches and more
//! stretches do
//!
//! A fresh `perf record -e cpu-clock` of `grundy takebreak 0.146 -n 1048576 --no-extend`
//! (899b6a5): far rare options 41%, the witness lookup 31%, the rest of the search 13%, the
//! candidate stage 6%.
//!
//! *A bound on the far options does not pay on 0.146.* The mex of a heap's options only needs
//! the options below it, so the far stores could be limited to values below a bound `B`, with a
//! full pass for the heaps whose candidate reaches `B`. Replayed on the values (400 heaps drawn
//! from 2^19..2^20, parity mask `0x7F5`, 5,816 rare positions): the candidates' median is 441,
//! 90% are below 906 and all below 1,100 (span 2048), but the far options are concentrated low:
//! 55% below 512, 75% below 768, 90% below 1024. A bound of 768 keeps 75% of the stores and
//! sends 19% of the heaps to a full pass; 512 keeps 55% and sends 44%. Neither saves anything.
//!
//! *Built* (exact, the same options marked and the same values found):
//! - the far options' sixteen marks per rare position come out of the vector through four
//!   64-bit moves and shifts instead of sixteen `vpextrw`, at a constant map stride
//!   ([`kernels::far_maps`]'s packed copy). The profile's far share went from 32.7% to 30.8%
//!   (0.146 to 2^19): the loop waits mostly on the partner load of each rare position and on the
//!   stores, not on the extraction;
//! - the witness search's later rounds (when hints are not being recorded) look their splits up
//!   in batches of up to 512 with no branch per witness: the wanted values met are packed by the
//!   vectorised lookup of the first round ([`kernels::collect_wanted_xors`]) and taken out of
//!   the set at the batch's end (`wide`'s `BATCH`). The search looks at up to 511 splits past its
//!   last witness (0.146 to 2^20: 14,457 splits per heap instead of 14,225) but no longer pays a
//!   mispredicted branch and a reload of the set's registers per witness. The lookup itself
//!   stayed near 0.2 ns per split (about 29% of the profile for about 14,000 splits per heap).
//!
//! *More stretches: fewer splits, not less time.* The rarest values' witnesses are not spread
//! evenly over a heap's splits (in the replay, a value produced once in 4,000 splits can have
//! two to three times its average density in a quarter of the range), so sampling more places
//! early finds them sooner: 0.146 to 2^18 looks at 14,293 splits per heap with 4 stretches,
//! 13,020 with 8, 11,772 with 16 and 11,368 with 32. But the time did not fall (16 stretches:
//! 2.04, 2.27, 2.26 s of CPU against 2.18, 2.42, 2.25 s with 4, alternating; 32 stretches of 32
//! splits: 3.2 to 3.7 s), nor with the wanted set loaded once for all the stretches of a round:
//! short stretches read the values in short runs from many places, and the search is bound by
//! reading them. A search that looks at fewer splits per heap has to keep its reads in long runs
//! (for instance the stretches of two consecutive heaps read together, their partners one value
//! apart) — not built.

//!
//! # A witness index (issue 25, session 11): the last values from the positions of a rare bit
//!
//! A split `(a, m - a)` produces `w` only if, for every bit `j` of `w`, exactly one of `G(a)`,
//! `G(m - a)` has bit `j`: a witness of `w` can be looked for among the positions `p` whose
//! value has bit `j` (checking `G(m - p) = w ^ G(p)`), and every witness is there. Measured
//! before building, with a replay on the real values (`replay_tests`: the wanted sets the
//! candidate stage leaves, the search's order, 200 heaps from the second half of 2^20):
//!
//! | | splits per heap today | its last value's least frequent bit | K = 16 last values: splits + listed positions |
//! |---|---|---|---|
//! | 0.206 | 26,031 | bit 4 (2.0% of positions; 0.7% to 2^22) in 179 of 201 heaps | 5,340 + 2,526 (one bit indexed) |
//! | 0.146 | 14,860 | bit 5 (32%) in 105, bit 9 (31.5%) in 30; bit 10 (5.5%) in 2 | 14,747 + 38 (bit 10 indexed) |
//! | 0.143 | 26,196 (15,265 with hints) | bit 2 (4.9%) in 102 of 200 | 12,312 + 748 (bit 2 indexed) |
//!
//! A listed position costs more than a split: its partner `G(m - p)` is far from the last one's
//! and is gathered (`replay_costs`: 0.11 to 0.13 ns per split of the contiguous kernel, 0.29 to
//! 0.31 ns per listed position with one gather per 16 positions and the values kept in the
//! list, 0.7 to 1.2 ns with both values and the wanted set gathered, 0.9 to 1.7 ns one at a
//! time). So a list pays only for a bit that few positions have: on 0.146 the last values'
//! bits are set at a third of the positions, and no list (nor a list of the positions of the
//! least frequent values, which needs 2,200 to 9,300 positions for the last 1 to 32 values) beats
//! the contiguous scan at 2.5 splits per position: **nothing to gain on 0.146 this way**. On
//! 0.206 one bit carries the tail, and the list is built ([`wide`]'s `BitIndex`): the least
//! frequent bit, kept when at most one position in 32 has it (re-chosen every 2^16 positions;
//! 6 bytes per listed position), scanned for the values with that bit once at most 16 values
//! are left; the others stay with the contiguous scan, and a value the list does not find is
//! proved by it as before. 0.206 to 2^20 (the list from about 2^19.2 on): 14,389 splits and
//! 1,002 listed positions per heap instead of 22,354 splits; user CPU 0.85 of main's to 2^22,
//! 0.92 to 0.94 to 2^20 (`docs/performance.md`, session 11): the rare options and the
//! contiguous scan before the tail remain. 0.143's values stay below 64 (the
//! one-word path, whose search does not use the list) and its tail is split between bit 2 and
//! the others: not built there.
//!
//! At 0.206's frontier (6.4·10^8, session 23) the list's partners are scattered over the whole
//! value array, and a run on one thread takes about 1.4 times as long with the index as without
//! it; its trial ([`IndexTrial`]) leaves it out there. With two threads or more the verifiers
//! scan a list of the same bit for 32 consecutive heaps at once, one heap per lane (their
//! partners of a listed position are 32 consecutive values): [`lanes`], measured first by
//! `replay_tests`' `replay_block_tail` (see `docs/performance.md`).
//!
//! # Compact values (issue 25): one byte per value below 256
//!
//! The engine reads the values only through `g: &[V]`, generic over the store's element type
//! ([`crate::takebreak::values::Value`]: `u8` or `u16`), so every path (one-word, wide, far,
//! dense, the pipeline) runs on bytes while every value is below 256 and on `u16` beyond. The
//! kernels written with intrinsics widen what they load (`vpmovzxbw`: 16 or 32 bytes to 16-bit
//! lanes, one instruction more per vector step, half the bytes read); everything after the
//! load is the `u16` code, so the two copies compute the same xors. The driver owns the store
//! ([`crate::takebreak::values::Values`], `U8` or `U16`) and starts in bytes for engines that
//! read them ([`SequenceEngine::compact`]: this one, the naive one and the automatic one). The
//! first value past 255 ends the call where it is found — on one thread after the value, in
//! the pipeline when the lead *takes* it (a value that is new to the engine is never
//! speculated, so every value written speculatively was seen before and fits) — and the
//! caller moves the store to `u16` in one pass, appends the value and goes on: at most once
//! per run. Games whose values pass 255 do so early (Officers first at heap 10,344, 0.146 at
//! 5,305: `grundy takebreak CODE -n 300000 --no-extend --print --json`), so their long runs
//! are on `u16` as before; `--json` says which (`"value_bytes"`). Peak memory of a game below
//! 256 is then about one byte per value: 0.167 to 2^26 peaks at 73,444 KB against 138,216 KB
//! (1.12 bytes per value against 2.11; 1.00 per value beyond 2^24), measured with the
//! commands in `docs/performance.md` ("Compact values").
//!
//! Speed: reading half the bytes helps the wide path (0.143 to 2^20: 0.81 of the `u16`
//! store's CPU on one build) and, with a byte copy of [`kernels::xor_mask`] (a byte table
//! lookup and a compare per byte of the set instead of two widenings and a variable shift),
//! the dense mode (0.07: 0.69); the one-word witness search's short loops widen every byte
//! and lose a little (0.167 to 2^24: 1.06). Values are the same either way (the tests compare
//! the byte store with the naive engine, `compact_tests`).
//!
//! # Officers in one byte (issue 25): built, behind `--compact-values`
//!
//! Values below 512 whose bit 8 is fixed by the parity of the others under Officers' mask
//! `M = 0b1_1110_1110` (Grossman's 8-bit store) keep their low byte only
//! ([`crate::takebreak::values::Odd8`]: bit 8 is `1 ^ parity(byte & M)`). Officers' values
//! past its last rare heap (20,627, to 2^22 at least) all have odd parity under `M`, the ones
//! before do not, so the store ([`crate::takebreak::values::Odd8Store`]) is a *head* `G(0..H)`
//! in `u16` (`H` the last value that does not fit, rounded up to 64: 20,672) and a byte for
//! every heap. Its rule for the engine: a read of heap `i >= H` decodes the byte (`get` with a
//! table; the vector loops as below); a read below `H` goes to the head ([`kernels::at`]).
//! Rebuilding bit 8 in the vector loops is the store's cost, so the two hot loops do it with
//! GFNI where the processor has it (with AVX-512 VBMI for the lookups): bit 8 is a parity of the
//! byte's bits, an affine map over GF(2), one `vgf2p8affineqb` per 32 bytes:
//! - *the far options in registers* ([`far`]'s `far_words_gfni`) need `D(G(r) ^ G(p))`, `D`
//!   dropping bit `b`; `D(G(p))` is itself an affine map of `p`'s byte and `D` is linear, so
//!   32 partners take one map, a widening and an xor with `D(G(r))`: no rebuild, no compression
//!   (the nibble rebuild cost this kernel a third more time than `u16`);
//! - *the witness lookups* ([`kernels::collect_wanted_xors`]): two common values' bytes are
//!   xored first, and bit 8 of the xor (both parities odd: the parity of the xored bytes) is
//!   rebuilt once per 32 splits and laid out with them as 16-bit lanes by one `vpermt2b`.
//!
//! Elsewhere the loaders rebuild bit 8 with two nibble lookups per vector (`load8/16/32`).
//! Where the engine reads below `H`:
//! - *the rare positions' values* `G(r)` (far options in registers and in byte maps, the
//!   candidate's near and top options, the far mask's checks): [`kernels::at`];
//! - *partners below `H`*: a far position is marked in bulk only if `m0 - r` is past the head
//!   ([`wide::far_below`]), the others one by one as the "top" ones;
//! - *the witness search*: its stretches start at `H`, and the splits `(i, m - i)` with `i < H`
//!   are a stretch of their own looked at first in each round, the head's values looked up
//!   against the partners' bytes in place ([`kernels::collect_wanted_pairs`]; `wide`'s
//!   `head_chunk`), its first chunk in the first round with the others (one mark and pack for
//!   all, `wide`'s `first_head_chunks`). Without it the search looked at
//!   the same splits per heap only *after* the stretches above `H`: some values are witnessed
//!   mostly by small heaps (Officers near 2^21: heaps of value 256 whose last witness in the
//!   `u16` search came after about 4,000 splits took about 150,000 above `H`), and Officers to
//!   2^22 looked at 18.2·10^9 splits instead of 8.2·10^9; with it, 8.1·10^9;
//! - *the dense mode's scan, the reviews, the resynchronisation* (a rollback or a hand-over
//!   absorbs the head from the head); the bit index is off (its partners may lie below `H`),
//!   and so are the one-word path and the lanes (`u16` only).
//!
//! The first value that no byte keeps ends the call (as the first value past 255 does for
//! bytes); the store goes back to `u16` and is narrowed again once the sequence has doubled
//! ([`RareCommon::narrow_store`], from 2^16 values on, when the head is at most a quarter of
//! them). The pipeline speculates only values that fit. The driver's readers (summaries, the
//! period detector through [`crate::takebreak::period::Seq`], the results files, the split's
//! report) read the store through [`crate::takebreak::values::ValuesRef::Split`]; checkpoints
//! are written in two bytes a value as before, and a resumed run reads its checkpoint straight
//! into bytes with a head, a chunk at a time ([`crate::takebreak::checkpoint::Load::Odd8`]),
//! and checks it where it is: read into `u16` and narrowed at the first chunk, the resume of a
//! run at 2^24 peaked at 56.7 MB, now 25.1 MB (the run itself peaks at about 24 MB).
//!
//! Measured (`odd8_tests` check the values against the `u16` store and the naive engine;
//! `kernels` and `far` tests each vector copy against a plain loop): the peak memory of
//! `grundy takebreak 0.6 -n 67108864 --no-extend --compact-values` is 72,972 KB, 1.11 bytes per
//! value with the program's own (0.99 per value from 2^24 to 2^26); without it about 2.1. The
//! time: with the nibble rebuild everywhere (session 28) the CLI to 2^24 on one thread took
//! 1.25 and 1.33 times the `u16` time; with the GFNI loops, the head's splits in place and in
//! the first round (session 29), 1.04 to 1.11 (`grundy takebreak 0.6 -n 16777216 --no-extend
//! --json [--compact-values]`, alternating: 15.9 to 16.5 s against 14.8 to 15.5 s) and 1.07
//! on two threads. `perf record -e cpu-clock` of the CLI to 2^24 (17.8 s of CPU in bytes,
//! 16.4 s in `u16`, under perf), in seconds: the far kernel 5.13 against 4.94 (a widening
//! more), the lookups 4.46 against 4.09 (1.30 of it below `H`, where a split reads two bytes of
//! head and one byte), the stretch below `H`'s own bookkeeping 0.5 (none in `u16`), the
//! candidate stage 1.26 against 1.08 (reads through [`kernels::at`]), the search loop itself
//! 4.75 against 4.87. So it stays an option, not the default: half the memory for 5 to 10% more
//! time is a researcher's choice at the frontier, not the benchmark's. (Keeping the bit that the
//! far compression drops out of the byte instead of bit 8, the remedy written here last
//! session, is not needed for the far options any more: their map does the same in one
//! instruction.)
//!
//! # Tiered storage (issue 25): built, in [`crate::takebreak::tiered`]
//!
//! A heap `n` reads `G(i)` for the rare positions (a list), for `i` near `n` (the take moves,
//! the split moves' first and last stretches) and, in the witness search, for stretches spread
//! over `1..n/2` and their mirror `n/2..n`; a rare value's proof scans every split. So the
//! middle is read, and this engine is not told where the values live: it reads them through
//! the same slice `g: &[V]`, which in a tiered run is a shared mapping of the values file
//! ([`crate::takebreak::mapped`]). A read of a value that is not resident is a page fault the
//! kernel serves from the page cache or the disk — correct whatever is read, only slower — and
//! a thread of the store drops the middle's pages from the process when its resident set
//! passes the bound, keeping the first and last `M` values. The file is the checkpoint: its
//! state (count, width, a CRC per 2^20 values) is written atomically at each tick, so
//! resuming maps the file and checks it instead of rewriting it. How often the middle was read
//! is reported (page faults during the run), not assumed. Measured in `docs/performance.md`
//! ("Tiered storage").
//!
//! # Long runs (issue 25): built outside this engine
//!
//! What a run left alone for days needs is not in the engine but around it: the driver's
//! progress callback ([`crate::takebreak::driver`]) feeds the CLI's log line (rate, `n`, ETA,
//! largest value, rare heaps at the last power of two, checkpoint size); the values are saved
//! every minute by appending to the checkpoint ([`crate::takebreak::checkpoint`], "format 2":
//! a kill at any moment loses at most one interval); and with `--results DIR`, at every power
//! of two from 2^10 the histogram, the rare heaps and the largest value go to a plain-text
//! results folder and (unless `--no-record`) the catalogue ([`crate::takebreak::powers`],
//! written by `grundy-runs`). The user's view is in `docs/takebreak.md` ("Long runs").

mod ahead;
pub mod classes;
mod far;
pub mod kernels;
mod lanes;
mod pipeline;
pub mod split;
mod wide;
mod word;

use crate::takebreak::engine::{next_values_of, CompactEngine};
use crate::takebreak::values::{Value, Values};
use crate::takebreak::{Code, Rules, SequenceEngine};
use crate::Error;
use split::{Split, SplitParities};

/// Version of the engine's algorithm and state, recorded in checkpoints and the catalogue.
pub const ENGINE_VERSION: u32 = 1;

/// The engine's name as shown to users and recorded in the catalogue.
pub const ENGINE_NAME: &str = "sparse";

/// How the rare/common split is chosen.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SplitPolicy {
    /// From value frequencies, re-chosen as they change (the default).
    #[default]
    Frequency,
    /// Fixed: `v` is common when `v & mask` has an odd number of bits.
    Mask(u16),
    /// Fixed: exactly these values are common (any set, even a poor one, gives right answers).
    Values(Vec<u16>),
}

/// How the engine is currently enumerating options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Options with a rare position one by one, the rest proved or witnessed.
    Sparse,
    /// Every option, with vectorised scans (games without a sparse space).
    Dense,
}

/// Counters describing the work done (for benchmarks and the catalogue).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SparseStats {
    /// Options with a rare position looked at.
    pub rare_options: u64,
    /// Options looked at while searching for witnesses or scanning exhaustively.
    pub scanned_options: u64,
    /// Values whose candidate mex was proved with no search at all.
    pub proved_directly: u64,
    /// Values whose witnesses were all found around earlier witnesses.
    pub hinted: u64,
    /// Values that needed a scan of every option (the sparse mode's expensive case).
    pub exhaustive_scans: u64,
    /// Listed positions the witness search looked at through its bit index (see `wide`'s
    /// `BitIndex`), apart from `scanned_options`.
    pub indexed_positions: u64,
    /// Heaps whose witness search a verifier finished in a block of heaps (see `lanes`).
    pub tail_deferred: u64,
    /// Blocks of heaps so searched, and listed positions they looked at.
    pub tail_blocks: u64,
    pub tail_positions: u64,
    /// Deferred heaps with a value the block did not find, searched again.
    pub tail_resumed: u64,
    /// Time in the blocks' scans.
    pub tail_nanos: u64,
    /// Pipeline: blocks of byte maps whose far rare options a verifying thread marked ahead of
    /// the lead (see `ahead`), and of those, the blocks the lead used.
    pub far_blocks_prepared: u64,
    /// See `far_blocks_prepared`.
    pub far_blocks_ahead: u64,
    /// Pipeline: nanoseconds the lead waited for a block a verifier was still marking.
    pub far_ahead_wait_nanos: u64,
    /// Times the split was re-chosen and the rare positions rebuilt.
    pub rebuilds: u64,
    /// Values computed on one thread with the bit index left out, because a trial found the
    /// search faster without it (see `IndexTrial`).
    pub unindexed_values: u64,
    /// Values computed in the dense mode.
    pub dense_values: u64,
    /// Times the store was moved to one byte per value with a head ([`RareCommon::narrow_store`]).
    pub narrowed: u64,
    /// Values computed by the two-thread pipeline (see [`RareCommon::set_threads`]).
    pub pipelined: u64,
    /// Pipeline: heaps whose speculated value (the candidate) was wrong, each followed by a
    /// rollback.
    pub rollbacks: u64,
    /// Pipeline: speculated values thrown away by rollbacks (the counters above include the
    /// work spent on them).
    pub discarded: u64,
    /// Pipeline: witness searches the lead ran itself (the verifiers were behind, or
    /// failures came close together).
    pub lead_searches: u64,
    /// Pipeline: witness searches the verifying threads ran.
    pub second_searches: u64,
    /// Pipeline: nanoseconds the verifying threads spent in witness searches (summed).
    pub verify_nanos: u64,
    /// Pipeline: nanoseconds the lead thread waited for the verifying threads.
    pub lead_wait_nanos: u64,
    /// Pipeline: nanoseconds the verifying threads spent waiting for batches (summed).
    pub verifier_idle_nanos: u64,
    /// Pipeline: nanoseconds of the lead thread inside the pipeline (wall time of its calls).
    pub pipeline_nanos: u64,
    /// Pipeline: nanoseconds the lead spent starting and joining the verifying threads.
    pub setup_nanos: u64,
    /// Pipeline: CPU time of the lead thread inside the pipeline, and its time waiting for a
    /// core (nanoseconds; Linux's `/proc/thread-self/schedstat`, 0 elsewhere).
    pub lead_cpu_nanos: u64,
    /// See `lead_cpu_nanos`.
    pub lead_runqueue_nanos: u64,
    /// Pipeline: CPU time of the verifying threads, and their time waiting for a core (summed).
    pub verifier_cpu_nanos: u64,
    /// See `verifier_cpu_nanos`.
    pub verifier_runqueue_nanos: u64,
}

impl SparseStats {
    /// Add the counters of `other`.
    pub fn add(&mut self, other: &SparseStats) {
        self.rare_options += other.rare_options;
        self.far_blocks_prepared += other.far_blocks_prepared;
        self.far_blocks_ahead += other.far_blocks_ahead;
        self.far_ahead_wait_nanos += other.far_ahead_wait_nanos;
        self.unindexed_values += other.unindexed_values;
        self.scanned_options += other.scanned_options;
        self.proved_directly += other.proved_directly;
        self.hinted += other.hinted;
        self.exhaustive_scans += other.exhaustive_scans;
        self.indexed_positions += other.indexed_positions;
        self.tail_deferred += other.tail_deferred;
        self.tail_blocks += other.tail_blocks;
        self.tail_positions += other.tail_positions;
        self.tail_resumed += other.tail_resumed;
        self.tail_nanos += other.tail_nanos;
        self.rebuilds += other.rebuilds;
        self.dense_values += other.dense_values;
        self.narrowed += other.narrowed;
        self.pipelined += other.pipelined;
        self.rollbacks += other.rollbacks;
        self.discarded += other.discarded;
        self.lead_searches += other.lead_searches;
        self.second_searches += other.second_searches;
        self.verify_nanos += other.verify_nanos;
        self.lead_wait_nanos += other.lead_wait_nanos;
        self.verifier_idle_nanos += other.verifier_idle_nanos;
        self.pipeline_nanos += other.pipeline_nanos;
        self.setup_nanos += other.setup_nanos;
        self.lead_cpu_nanos += other.lead_cpu_nanos;
        self.lead_runqueue_nanos += other.lead_runqueue_nanos;
        self.verifier_cpu_nanos += other.verifier_cpu_nanos;
        self.verifier_runqueue_nanos += other.verifier_runqueue_nanos;
    }
}

/// Knobs of the automatic behaviour. The defaults are what users get; tests shrink them to
/// exercise every path on short sequences.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tuning {
    /// Length at which the split is first reviewed (then at every doubling).
    pub first_review: usize,
    /// While values are below 64 (vectorised scans), prefer the dense mode when more than
    /// `len / dense_ratio` positions are rare.
    pub dense_ratio: usize,
    /// Memory bound: at most `len / memory_ratio + min_rare_budget` rare positions are kept.
    pub memory_ratio: usize,
    /// See `memory_ratio`.
    pub min_rare_budget: usize,
    /// Compute through the bit-set path even when values are small (tests).
    pub force_wide: bool,
    /// Force a mode (tests).
    pub force_mode: Option<Mode>,
    /// With two threads, run on one for a while after a batch in which the threads did not
    /// overlap (a timing: tests that count the pipeline's work turn it off).
    pub pipeline_backoff: bool,
    /// With two threads or more, the far options of the rare positions at or above this are
    /// marked by the verifying threads ahead of the lead (see `ahead`; 0: never).
    pub ahead_from: usize,
    /// Whether the witness search may keep a list of the positions of a rare bit (`wide`'s
    /// `BitIndex`).
    pub bit_index: bool,
    /// With two threads or more, whether a verifier may finish the witness searches' last
    /// values in blocks of heaps (see `lanes`; on processors with AVX-512 BW).
    pub block_tail: bool,
    /// Whether [`SequenceEngine::next_values`] moves a `u16` store to one byte per value with
    /// a head when the values allow it (see "Officers in one byte" above).
    pub odd8: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            first_review: 256,
            dense_ratio: 16,
            memory_ratio: 32,
            min_rare_budget: 1 << 16,
            force_wide: false,
            force_mode: None,
            pipeline_backoff: true,
            ahead_from: 1024,
            bit_index: true,
            block_tail: true,
            odd8: false,
        }
    }
}

/// The moves of an octal code, grouped by what they leave.
#[derive(Debug, Clone)]
struct OctalMoves {
    /// `k` such that a heap of exactly `k` may be taken whole.
    whole: Vec<usize>,
    /// `k` such that removing `k` may leave one heap.
    take: Vec<usize>,
    /// `k` such that removing `k` may leave two heaps.
    split: Vec<usize>,
}

impl OctalMoves {
    fn new(code: &Code) -> Result<Self, Error> {
        if !code.is_octal() {
            return Err(Error::Invalid(format!(
                "the rare/common engine handles octal codes only (every digit below 8); \
                 '{code}' is not octal: use the naive engine"
            )));
        }
        let mut moves = OctalMoves {
            whole: Vec::new(),
            take: Vec::new(),
            split: Vec::new(),
        };
        for (k, &d) in code.digits().iter().enumerate() {
            if d & 1 != 0 && k >= 1 {
                moves.whole.push(k);
            }
            if d & 2 != 0 && k >= 1 {
                moves.take.push(k);
            }
            if d & 4 != 0 {
                moves.split.push(k);
            }
        }
        Ok(moves)
    }

    /// The heap sizes `m = n - k >= 2` that split moves leave from a heap of `n`, one per
    /// split move (0 where the move does not apply).
    fn split_heaps(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        self.split
            .iter()
            .map(move |&k| if k + 2 <= n { n - k } else { 0 })
    }
}

/// The bit index is re-chosen every this many positions (and at every review).
const INDEX_REVIEW: usize = 1 << 16;
/// `sync` absorbs a stretch of at least this many values together ([`RareCommon::absorb_stretch`]) ...
const STRETCH_MIN: usize = 1 << 10;
/// ... while every value is below this (its tallies are `STRETCH_LANES * 2 * span` counters,
/// cleared for each stretch of at most [`INDEX_REVIEW`] values) ...
const STRETCH_SPAN: usize = 1 << 12;
/// ... in this many interleaved tallies.
const STRETCH_LANES: usize = 4;

/// How many past witnesses per value are kept as hints.
const HINT_DEPTH: usize = 4;
/// How far around a hint the witness search looks.
const HINT_REACH: usize = 3;

/// Past witnesses of one value for one split move: the smaller parts `i` of the last splits
/// `(i, m - i)` that produced it, most recent first (0 = none).
type Hints = [u32; HINT_DEPTH];

/// Put `i` first among the hints of a value (no duplicates). A split position past
/// `u32::MAX` (heaps past 2^33) is not recorded: a hint only says where to look first, and
/// the search is exact whatever the hints hold.
fn record_hint(hints: &mut Hints, i: usize) {
    let Ok(i) = u32::try_from(i) else {
        return;
    };
    if hints[0] == i {
        return;
    }
    let at = hints.iter().position(|&h| h == i).unwrap_or(HINT_DEPTH - 1);
    // the hints before `at` move one place on, `i` goes first: selects, not a `copy_within`
    // (a call of `memmove` for at most three words took about 3% of 0.16's time)
    *hints = std::array::from_fn(|k| match k {
        0 => i,
        k if k <= at => hints[k - 1],
        k => hints[k],
    });
}

/// Heaps for which hints are left alone after the first run of failures.
const HINT_PAUSE: u32 = 1024;
/// Longest pause: runs of failures double the pause up to this.
const HINT_PAUSE_MAX: u32 = 1 << 16;

/// Whether looking around past witnesses pays. It does when the sequence has local structure
/// (0.16 repeats short patterns, so the splits that produced a value for the last heaps produce
/// it again), and not when it looks random (0.6): hints are tried, and after repeated failures
/// left alone for a while — twice as long after each run of failures with no success between
/// (the heaps that record or try hints skip the witness search's fastest first round, about 7%
/// of Officers' heaps with a fixed pause).
#[derive(Debug, Clone)]
struct HintControl {
    failures: u32,
    skip: u32,
    pause: u32,
}

impl Default for HintControl {
    fn default() -> Self {
        HintControl {
            failures: 0,
            skip: 0,
            pause: HINT_PAUSE,
        }
    }
}

impl HintControl {
    fn should_try(&mut self) -> bool {
        if self.skip > 0 {
            self.skip -= 1;
            false
        } else {
            true
        }
    }

    /// Whether witnesses are worth remembering now (hints are in use, or soon will be tried).
    fn recording(&self) -> bool {
        self.skip < 64
    }

    fn report(&mut self, success: bool) {
        if success {
            self.failures = 0;
            self.pause = HINT_PAUSE;
        } else {
            self.failures += 1;
            if self.failures >= 8 {
                self.failures = 0;
                self.skip = self.pause;
                self.pause = (2 * self.pause).min(HINT_PAUSE_MAX);
            }
        }
    }
}

/// The rare positions of the sparse mode, ascending, in 32 bits each (read as a `[u32]`): the
/// far rare options read them once per block of heaps, and a game's rare positions are few
/// and, in every game we know, early (Officers' last is 20,627; 0.206's, to 2^31, 5,668,113).
/// Heaps past `u32::MAX` are computed, but a rare position there cannot be listed: it is kept
/// out (never cut to 32 bits, which would name another heap) and remembered in
/// [`Self::unlisted`], and the engine computes nothing more ([`RareCommon::next_value`] fails
/// with [`Error::TooLarge`]), since every later heap would need it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct RarePositions {
    list: Vec<u32>,
    unlisted: Option<usize>,
}

impl RarePositions {
    /// List rare position `i` (the next one, ascending).
    #[inline]
    fn push(&mut self, i: usize) {
        match u32::try_from(i) {
            Ok(p) => self.list.push(p),
            Err(_) => {
                self.unlisted.get_or_insert(i);
            }
        }
    }

    /// Start over (a rebuild, or no list in the dense mode).
    fn clear(&mut self) {
        self.list.clear();
        self.unlisted = None;
    }

    /// The first rare position that could not be listed, if any.
    fn unlisted(&self) -> Option<usize> {
        self.unlisted
    }
}

impl std::ops::Deref for RarePositions {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.list
    }
}

/// The rare/common engine. Feed it `G(0..n)` and it returns `G(n)`; it keeps its own state
/// (split, rare positions, counts) in step with the values it is given, and rebuilds that state
/// from scratch if it is handed a sequence it has not seen (a resumed run).
pub struct RareCommon {
    code: Code,
    moves: OctalMoves,
    policy: SplitPolicy,
    tuning: Tuning,
    parities: SplitParities,
    split: Split,
    mode: Mode,
    /// Sparse mode: positions `i >= 1` whose key is rare, ascending.
    rare: RarePositions,
    /// Positions `i >= 1` whose key is rare under the current split (both modes).
    rare_count: u64,
    /// Incremented whenever `rare` is rebuilt (invalidates derived data).
    rare_epoch: u64,
    /// Positions `i >= 1` per key `2 G(i) + (i mod 2)`.
    counts: Vec<u64>,
    /// A power of two above every value so far (xors of values stay below it).
    span: usize,
    /// How many values of the sequence the state reflects.
    seen: usize,
    next_review: usize,
    rare_trigger: u64,
    word: word::WordState,
    wide: wide::WideState,
    /// The positions whose value has a bit set that few values have (wide path, sparse mode).
    index: wide::BitIndex,
    stats: SparseStats,
    /// Threads the wide path may use (2 or more: the pipeline of [`pipeline`], one lead and
    /// `threads - 1` verifiers).
    threads: usize,
    /// When the two threads did not overlap (the machine's other cores busy): how the
    /// pipeline backs off (see [`pipeline`]).
    backoff: pipeline::Backoff,
    /// Whether the witness search uses `index` (see [`IndexTrial`]).
    use_index: bool,
    index_trial: IndexTrial,
    /// `sync`'s tallies of a stretch (see [`Self::absorb_stretch`]).
    tallies: Vec<u32>,
    /// With a store of low bytes ([`crate::takebreak::values::Odd8`]): the values of the heaps
    /// below its end, which the bytes need not give (see "Officers in one byte" above); empty
    /// otherwise. Set by the caller for each call ([`RareCommon::next_values_odd8`]).
    head: Vec<u16>,
    /// The length from which [`Self::narrow_store`] next tries to move the store to bytes.
    narrow_from: usize,
    /// See [`SequenceEngine::set_resize_limit`]: no narrowing or widening of a store past it.
    resize_limit: usize,
}

/// The plain values of a stretch for [`RareCommon::absorb_stretch`]: from `i`, every value below
/// the span (`keys / 2`) whose key has been counted before is tallied (lane `i %`
/// [`STRETCH_LANES`]), listed in the bit index and, if rare, counted (and listed in `rare`).
/// Stops at the first other value (returned, not absorbed), at the end of `g`, or after a value
/// that takes the rare count past `trigger` (then `true`). A function of its own so that what
/// it reads stays in registers across the tallies' stores.
#[allow(clippy::too_many_arguments)] // the engine's fields, borrowed apart
#[inline(never)]
fn absorb_plain<V: Value>(
    g: &[V],
    mut i: usize,
    keys: usize,
    counts: &[u64],
    split: &Split,
    tallies: &mut [u32],
    index: &mut wide::BitIndex,
    mut rare: Option<&mut RarePositions>,
    rare_count: &mut u64,
    trigger: u64,
) -> (usize, bool) {
    let counts = &counts[..keys];
    let mut count = *rare_count;
    let mut tripped = false;
    while i < g.len() {
        let v = g[i].get();
        let key = 2 * v as usize + (i & 1);
        if key >= keys || counts[key] == 0 {
            break;
        }
        tallies[(i % STRETCH_LANES) * keys + key] += 1;
        index.absorb(i, v);
        if !split.is_common(v, i & 1) {
            count += 1;
            if let Some(rare) = rare.as_deref_mut() {
                rare.push(i);
            }
            if count > trigger {
                i += 1;
                tripped = true;
                break;
            }
        }
        i += 1;
    }
    *rare_count = count;
    (i, tripped)
}

/// Heaps between two trials of the witness search's bit index ...
const INDEX_TRIAL_EVERY: usize = 1 << 23;
/// ... and the chunks (calls of `next_values`) of a trial, alternately with and without it.
const INDEX_TRIAL_CHUNKS: u32 = 12;

/// Whether the bit index pays, measured rather than assumed.
///
/// The index saves contiguous splits at the price of a read of `G(m - p)` from anywhere in the
/// values for each listed position. 0.206 on one thread (`docs/performance.md`, "Two threads
/// at the frontier"): it takes 0.79 of the time without it from 2^26, 0.90 from 2^29, and 1.16
/// to 1.31 from 6.4·10^8, where each listed position's read costs twice what it did at 2^29 —
/// a jump between 1.0 and 1.2 GiB of values that depends on the machine's caches and address
/// translation, so no fixed size could say where it stops paying (on the AMD machine of
/// session 22 it was a tie at 2^26 already). So every [`INDEX_TRIAL_EVERY`] heaps a serial run
/// times [`INDEX_TRIAL_CHUNKS`] of its chunks, one with the index and one without in turn, and
/// keeps whichever took less time per heap in its *median* chunk. Both are exact: only the time
/// changes, never a value. (Pipelined chunks are not timed: there the lead runs only a few per
/// cent of the searches.)
///
/// Why the median and not the total: one chunk can carry a cost that is not the index's — the
/// first chunk after a resume or a rebuild of the engine's state, a checkpoint written by the
/// machine's disk, another process on the core. Session 23 saw a single chunk of one heap take
/// 1.3 s (the state rebuilt after loading 6.4·10^8 values) against about 45 ms for each of the
/// others; summed, it decided the trial by itself.
#[derive(Debug, Clone, Default)]
struct IndexTrial {
    /// The index is left out (the last trial found it slower).
    off: bool,
    /// The next trial starts at the first serial chunk from this heap on.
    next_at: usize,
    /// Chunks of the running trial still to time (0: none running).
    left: u32,
    /// Nanoseconds per heap of the running trial's chunks with the index (`[0]`) and without
    /// (`[1]`), in the order timed.
    per_heap: [Vec<u64>; 2],
}

impl IndexTrial {
    /// A serial chunk starts at heap `n`: whether it uses the index (`indexed`: whether there
    /// is one to use).
    fn begin(&mut self, n: usize, indexed: bool) -> bool {
        if self.left == 0 && indexed && n >= self.next_at {
            self.left = INDEX_TRIAL_CHUNKS;
            self.per_heap = Default::default();
        }
        if self.left > 0 {
            self.left % 2 == 0
        } else {
            !self.off
        }
    }

    /// The chunk begun at `n` computed `heaps` values in `nanos` (`with`: using the index).
    fn end(&mut self, n: usize, heaps: usize, nanos: u64, with: bool) {
        if self.left == 0 {
            return;
        }
        if heaps > 0 {
            self.per_heap[usize::from(!with)].push(nanos / heaps as u64);
        }
        self.left -= 1;
        if self.left == 0 {
            let [with_ns, without_ns] = self.per_heap.each_mut().map(|t| median(t));
            self.off = matches!((with_ns, without_ns), (Some(a), Some(b)) if a > b);
            self.next_at = n + heaps + INDEX_TRIAL_EVERY;
        }
    }
}

/// The median of `t` (the mean of the middle two when their number is even); `None` if empty.
fn median(t: &mut [u64]) -> Option<u64> {
    t.sort_unstable();
    let k = t.len();
    (k > 0).then(|| (t[(k - 1) / 2] + t[k / 2]) / 2)
}

impl std::fmt::Debug for RareCommon {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RareCommon")
            .field("code", &self.code.to_string())
            .field("policy", &self.policy)
            .field("mode", &self.mode)
            .field("seen", &self.seen)
            .field("rare_positions", &self.rare_count)
            .finish()
    }
}

impl RareCommon {
    /// The engine for an octal `code` with the default (frequency-driven) split.
    pub fn new(code: &Code) -> Result<Self, Error> {
        Self::with_policy(code, SplitPolicy::Frequency, Tuning::default())
    }

    /// The engine with a chosen split policy and tuning.
    pub fn with_policy(code: &Code, policy: SplitPolicy, tuning: Tuning) -> Result<Self, Error> {
        let moves = OctalMoves::new(code)?;
        let parities = SplitParities::new(&moves.split);
        let mut engine = RareCommon {
            code: code.clone(),
            moves,
            policy,
            tuning,
            parities,
            split: Split::empty(parities, true),
            mode: Mode::Sparse,
            rare: RarePositions::default(),
            rare_count: 0,
            rare_epoch: 0,
            counts: Vec::new(),
            span: 1,
            seen: 0,
            next_review: 0,
            rare_trigger: 0,
            word: word::WordState::default(),
            wide: wide::WideState::default(),
            index: wide::BitIndex::default(),
            stats: SparseStats::default(),
            threads: 1,
            backoff: pipeline::Backoff::default(),
            use_index: true,
            index_trial: IndexTrial::default(),
            tallies: Vec::new(),
            head: Vec::new(),
            narrow_from: NARROW_FROM,
            resize_limit: usize::MAX,
        };
        engine.reset();
        Ok(engine)
    }

    fn initial_split(&self) -> Split {
        match &self.policy {
            SplitPolicy::Frequency => Split::empty(self.parities, true),
            SplitPolicy::Mask(mask) => Split::by_mask(self.parities, *mask),
            SplitPolicy::Values(values) => Split::by_values(self.parities, values),
        }
    }

    fn reset(&mut self) {
        self.split = self.initial_split();
        self.mode = self.tuning.force_mode.unwrap_or(Mode::Sparse);
        self.rare.clear();
        self.rare_count = 0;
        self.rare_epoch += 1;
        self.counts = vec![0; 2];
        self.span = 1;
        self.seen = 0;
        self.next_review = self.tuning.first_review.max(1);
        self.rare_trigger = self.tuning.min_rare_budget as u64;
        self.word = word::WordState::default();
        self.wide = wide::WideState::default();
        self.index = wide::BitIndex::default();
    }

    /// The engine for `rules`, which must be an octal code.
    pub fn for_rules(rules: &Rules) -> Result<Self, Error> {
        match rules.code() {
            Some(code) => Self::new(code),
            None => Err(Error::Invalid(format!(
                "the rare/common engine handles octal codes only; {rules} is not a code: \
                 use the naive engine"
            ))),
        }
    }

    /// Let the engine use `threads` threads (0: one per core). With two or more, the sparse
    /// mode's values (on either path) are computed by a pipeline: the candidates on the
    /// caller's thread, their witness searches on the `threads - 1` others (see
    /// [`pipeline`]). The values are the same whatever the number.
    /// Only [`SequenceEngine::next_values`] (which the driver calls) uses the threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
    }

    /// The threads the engine may use (see [`Self::set_threads`]).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The code this engine computes.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// Work counters so far.
    pub fn stats(&self) -> &SparseStats {
        &self.stats
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Positions `i >= 1` (among those seen) that are rare under the current split.
    pub fn rare_positions(&self) -> u64 {
        self.rare_count
    }

    /// The witness search's bit index: the bit it lists the positions of (none: no index) and
    /// how many positions it lists.
    pub fn bit_index(&self) -> (Option<u32>, usize) {
        self.index.summary()
    }

    /// Distinct values that occur at some rare position under the current split.
    pub fn rare_values(&self) -> usize {
        self.counts
            .chunks(2)
            .enumerate()
            .filter(|(v, c)| {
                (c[0] > 0 && !self.split.is_common(*v as u16, 0))
                    || (c[1] > 0 && !self.split.is_common(*v as u16, 1))
            })
            .count()
    }

    /// The values that are common at some parity (ascending).
    pub fn common_values(&self) -> Vec<u16> {
        (0..self.counts.len() / 2)
            .filter(|&v| self.split.is_common(v as u16, 0) || self.split.is_common(v as u16, 1))
            .map(|v| v as u16)
            .collect()
    }

    /// Bring the state in step with `g = G(0..n)` before `next_value(g)` (that call would do
    /// it anyway; this lets a caller time the two apart, see [`crate::takebreak::auto`]).
    pub fn catch_up<V: Value>(&mut self, g: &[V]) {
        self.head.clear();
        self.sync(g);
    }

    /// [`Self::catch_up`] with a store of low bytes whose values below `head.len()` are in
    /// `head` (see [`Self::next_values_odd8`]).
    pub fn catch_up_odd8(&mut self, head: &[u16], bytes: &[crate::takebreak::values::Odd8]) {
        if self.head != head {
            self.head = head.to_vec();
            self.index.set_bit(None, &[] as &[u16]);
        }
        self.sync(bytes);
    }

    /// Bring the state in step with `g` (values the engine has not seen yet are absorbed; a
    /// sequence that is not a continuation starts the state over).
    fn sync<V: Value>(&mut self, g: &[V]) {
        if g.len() < self.seen {
            self.reset();
        }
        if V::ODD_MASK != 0 && self.seen < self.head.len().min(g.len()) {
            // the head's values from the head itself (its bytes need not decode to them)
            let head = self.head.clone();
            self.sync(&head[..head.len().min(g.len())]);
        }
        if g.len() - self.seen >= STRETCH_MIN {
            // a resumed run, or values handed over: see `sync_stretches`
            return self.sync_stretches(g);
        }
        while self.seen < g.len() {
            self.absorb(g, self.seen);
            self.seen += 1;
            self.after_absorb(g);
        }
    }

    /// The reviews due once `G(0..seen)` is absorbed.
    #[inline]
    fn after_absorb<V: Value>(&mut self, g: &[V]) {
        if self.seen >= self.next_review || self.rare_count > self.rare_trigger {
            self.review(&g[..self.seen]);
        } else if self.seen % INDEX_REVIEW == 0 {
            // a bit's share falls between the reviews (0.206's bit 4: 3.5% of the
            // positions to 2^19, 2.0% to 2^20)
            self.review_index(&g[..self.seen]);
        }
    }

    /// [`Self::sync`] for many values: the stretches up to the next points where a review
    /// may come are absorbed together ([`Self::absorb_stretch`]) while the values are below
    /// [`STRETCH_SPAN`], else one by one. Apart from `sync` so that its loop of one value
    /// (after each value a run computes) stays small enough to be inlined where it is called
    /// (with this loop inside it, 0.16 to 2^24 on one thread took about 4% longer).
    #[inline(never)]
    fn sync_stretches<V: Value>(&mut self, g: &[V]) {
        while self.seen < g.len() {
            let stop = if self.span <= STRETCH_SPAN
                && self.next_review > self.seen
                && self.rare_count <= self.rare_trigger
            {
                let next_index = (self.seen / INDEX_REVIEW + 1) * INDEX_REVIEW;
                g.len().min(next_index).min(self.next_review)
            } else {
                self.seen + 1
            };
            if stop - self.seen >= STRETCH_MIN {
                self.seen = self.absorb_stretch(g, self.seen, stop);
            } else {
                self.absorb(g, self.seen);
                self.seen += 1;
            }
            self.after_absorb(g);
        }
    }

    /// Choose the witness search's bit index (see `wide::BitIndex`) for `g` (all absorbed).
    fn review_index<V: Value>(&mut self, g: &[V]) {
        let bit = if self.mode == Mode::Sparse
            && (self.span > 64 || self.tuning.force_wide)
            && self.tuning.bit_index
            && self.head.is_empty()
        {
            wide::BitIndex::choose(&self.counts, g.len())
        } else {
            None
        };
        self.index.set_bit(bit, g);
    }

    /// Absorb `g[from..to]` as [`Self::absorb`] value by value would (a stretch with no review
    /// point inside: see `sync`), stopping after a value that takes the rare count past its
    /// trigger; returns where it stopped (the next value to absorb).
    ///
    /// Why: a resumed run absorbs every value it was handed, one by one in 2.6 to 3.3 s of a
    /// resume of 0.16 at 2^30 (`perf`: each value's fields of `self` stored and reloaded
    /// around the count's increment). Here a plain stretch goes through [`absorb_plain`], its
    /// counts into [`STRETCH_LANES`] interleaved tallies merged at the end: 1.7 s (about one
    /// pass over the values at this machine's memory speed; 8 lanes measured the same). A
    /// value past the span or a key seen for the first time goes through `absorb` itself (it
    /// may change the split).
    #[inline(never)] // rare (a resume, a hand-over): kept out of the per-value `sync`
    fn absorb_stretch<V: Value>(&mut self, g: &[V], from: usize, to: usize) -> usize {
        let mut tallies = std::mem::take(&mut self.tallies);
        let sparse = self.mode == Mode::Sparse;
        let mut i = from.max(1);
        while i < to {
            let keys = 2 * self.span;
            tallies.clear();
            tallies.resize(STRETCH_LANES * keys, 0);
            let (end, tripped) = absorb_plain(
                &g[..to],
                i,
                keys,
                &self.counts,
                &self.split,
                &mut tallies,
                &mut self.index,
                sparse.then_some(&mut self.rare),
                &mut self.rare_count,
                self.rare_trigger,
            );
            for lane in tallies.chunks_exact(keys) {
                for (c, &t) in self.counts.iter_mut().zip(lane) {
                    *c += u64::from(t);
                }
            }
            i = end;
            if tripped {
                break;
            }
            if i < to {
                // a value past the span or a key seen for the first time
                self.absorb(g, i);
                i += 1;
                if self.rare_count > self.rare_trigger {
                    break;
                }
            }
        }
        self.tallies = tallies;
        i
    }

    /// Record `G(i) = g[i]`.
    fn absorb<V: Value>(&mut self, g: &[V], i: usize) {
        if i == 0 {
            return; // position 0 never takes part in a split (both heaps are non-empty)
        }
        let v = g[i].get();
        let q = i & 1;
        if v as usize >= self.span {
            self.span = (v as usize + 1).next_power_of_two();
            self.counts.resize(2 * self.span, 0);
        }
        let key = 2 * v as usize + q;
        if self.counts[key] == 0 && self.split.is_adaptive() {
            // a key seen for the first time: make it common if that keeps the split provable
            self.split.try_add(&[key as u32]);
        }
        self.counts[key] += 1;
        self.index.absorb(i, v);
        if !self.split.is_common(v, q) {
            self.rare_count += 1;
            if self.mode == Mode::Sparse {
                self.rare.push(i);
            }
        }
    }

    /// Re-choose the split (if adaptive) and the mode; rebuild the rare positions if needed.
    fn review<V: Value>(&mut self, g: &[V]) {
        let len = g.len();
        let mut changed = false;
        if self.split.is_adaptive() {
            let (best, _) = Split::chosen(self.parities, &self.counts);
            let best_rare = best.rare_count(&self.counts);
            // adopt only a clear improvement: rebuilding costs a pass over the sequence
            if best_rare + best_rare / 8 < self.rare_count {
                self.split = best;
                self.rare_count = best_rare;
                changed = true;
            }
        }
        let memory_budget =
            (len / self.tuning.memory_ratio.max(1) + self.tuning.min_rare_budget) as u64;
        let vectorised_budget = (len / self.tuning.dense_ratio.max(1)) as u64;
        // Dense when the rare positions would not fit the memory bound, or when scanning
        // every split costs less than the rare ones: vectorised scans (values below 64) beat
        // one-by-one rare options once more than 1/dense_ratio of the positions are rare;
        // plain scans (wider values) once a quarter are.
        let word_path = self.span <= 64 && !self.tuning.force_wide;
        let dense = self.rare_count > memory_budget
            || (word_path && self.rare_count > vectorised_budget)
            || (!word_path && self.rare_count > (len / 4) as u64);
        let mode = self
            .tuning
            .force_mode
            .unwrap_or(if dense { Mode::Dense } else { Mode::Sparse });
        if mode == Mode::Sparse && (changed || self.mode != Mode::Sparse) {
            self.rare.clear();
            for i in 1..len {
                if !self.split.is_common(kernels::at(g, &self.head, i), i & 1) {
                    self.rare.push(i);
                }
            }
            debug_assert!(
                self.rare.unlisted().is_some() || self.rare.len() as u64 == self.rare_count
            );
            self.stats.rebuilds += 1;
            self.rare_epoch += 1;
        } else if mode == Mode::Dense && self.mode == Mode::Sparse {
            self.rare = RarePositions::default();
            self.rare_epoch += 1;
        }
        self.mode = mode;
        self.review_index(g);
        self.next_review = len.saturating_mul(2).max(self.tuning.first_review);
        self.rare_trigger = (2 * self.rare_count).max(memory_budget.min(vectorised_budget));
    }

    /// Compute `G(n)` for `n = g.len()`, given `g = G(0..n)` (in bytes or `u16`, see
    /// [`crate::takebreak::values`]).
    pub fn next_value<V: Value>(&mut self, g: &[V]) -> Result<u16, Error> {
        let n = g.len();
        self.sync(g);
        if let Some(r) = self.rare.unlisted() {
            return Err(Error::TooLarge(format!(
                "heap {r} is a rare position (its value is rare under the engine's split) past \
                 heap 2^32 - 1, and the rare/common engine keeps its rare positions in 32 bits: \
                 it stops before G({n})"
            )));
        }
        // (a store of low bytes: the wide path, whose reads below the head's end go to the head)
        let v = if self.span <= 64 && !self.tuning.force_wide && (V::ODD_MASK == 0) {
            self.next_word(g)
        } else {
            self.next_wide(g)
        };
        u16::try_from(v).map_err(|_| crate::takebreak::engine::value_too_large(n))
    }
}

impl SequenceEngine for RareCommon {
    fn name(&self) -> &'static str {
        ENGINE_NAME
    }

    fn next_value(&mut self, g: &[u16]) -> Result<u16, Error> {
        RareCommon::next_value(self, g)
    }

    fn next_values(&mut self, values: &mut Values, count: usize) -> Result<(), Error> {
        let end = values.len() + count;
        if let Values::Odd8(store) = values {
            match self.next_values_odd8(&store.head, &mut store.bytes, count)? {
                None => return Ok(()),
                // (both copies at once would pass the budget: short of the chunk)
                Some(_) if values.len() > self.resize_limit => return Ok(()),
                Some(v) => {
                    // a value no byte keeps: back to u16 (one pass), and narrow again only
                    // once the sequence has doubled
                    self.narrow_from = 2 * values.len();
                    values.try_widen()?.push(v);
                }
            }
        }
        if values.len() < end {
            next_values_of(self, values, end - values.len())?;
        }
        self.narrow_store(values);
        Ok(())
    }

    fn compact(&self) -> bool {
        true
    }

    fn set_resize_limit(&mut self, values: usize) {
        self.resize_limit = values;
    }

    /// On any number of threads: the pipeline needs long chunks, and on one thread a call per
    /// value (the driver's way with engines that do not batch) cost 0.16 to 2^24 17% of its time
    /// (2.06 s against 1.72 s) and made the witness index's trial time single values. A run that
    /// stops at a certified period computes at most one chunk past it (dropped by the driver).
    fn batches(&self) -> bool {
        true
    }
}

impl CompactEngine for RareCommon {
    fn resize_limit(&self) -> usize {
        self.resize_limit
    }

    fn next_values_in<V: Value>(
        &mut self,
        values: &mut crate::takebreak::values::Buf<V>,
        count: usize,
    ) -> Result<Option<u16>, Error> {
        if V::ODD_MASK == 0 {
            self.head.clear();
        }
        self.next_values_any(values, count)
    }
}

/// The shortest sequence [`RareCommon::narrow_store`] moves to bytes (before it, two bytes per value
/// cost little).
const NARROW_FROM: usize = 1 << 16;

impl RareCommon {
    /// Whether [`SequenceEngine::next_values`] may keep the values in one byte each with a
    /// head (see [`Self::narrow_store`]; off by default: about 1.3 times the time of two bytes
    /// a value on Officers, for about half the memory).
    pub fn set_compact_values(&mut self, on: bool) {
        self.tuning.odd8 = on;
    }

    /// Whether [`Self::set_compact_values`] is on.
    pub fn compact_values(&self) -> bool {
        self.tuning.odd8
    }

    /// Move a `u16` store in memory to one byte per value with a head ([`Values::narrow_odd8`])
    /// when its length has reached `narrow_from`, the head that needs is at most a quarter of
    /// the values and the engine is on the wide path in sparse mode (the only one that reads
    /// such a store); else try again once the sequence has doubled. Never past the resize
    /// limit ([`SequenceEngine::set_resize_limit`]: the move holds both copies).
    pub fn narrow_store(&mut self, values: &mut Values) {
        let len = values.len();
        if !self.tuning.odd8
            || len < self.narrow_from
            || len > self.resize_limit
            || !matches!(values, Values::U16(_))
        {
            return;
        }
        self.narrow_from = len.saturating_mul(2);
        if self.mode == Mode::Sparse && self.span > 64 && values.narrow_odd8(len / 4) {
            self.stats.narrowed += 1;
        }
    }

    /// [`CompactEngine::next_values_in`] on a store of low bytes ([`Odd8`]): `head` holds the
    /// values of the heaps below its end (every heap from there on decodes from its byte). Stops,
    /// returning `Some(v)`, at the first value `v` that is not kept exactly by a byte (it is not
    /// appended; the caller moves the store to `u16` and goes on).
    ///
    /// [`Odd8`]: crate::takebreak::values::Odd8
    pub fn next_values_odd8(
        &mut self,
        head: &[u16],
        bytes: &mut crate::takebreak::values::Buf<crate::takebreak::values::Odd8>,
        count: usize,
    ) -> Result<Option<u16>, Error> {
        if self.head != head {
            self.head = head.to_vec();
            // the bit index's listed partners may lie below the head's end: none in this mode
            self.index.set_bit(None, &[] as &[u16]);
        }
        self.next_values_any(bytes, count)
    }

    /// [`CompactEngine::next_values_in`]'s body, for every store.
    fn next_values_any<V: Value>(
        &mut self,
        values: &mut crate::takebreak::values::Buf<V>,
        count: usize,
    ) -> Result<Option<u16>, Error> {
        let end = values.len() + count;
        let two_threads =
            self.threads > 1 && (!self.tuning.pipeline_backoff || self.backoff.ready());
        // a serial chunk: timed only while a trial of the bit index runs (see `IndexTrial`;
        // the driver may hand one value at a time, and reading the clock costs some 25 ns)
        let from = values.len();
        self.use_index = two_threads || {
            let indexed = self.index.summary().0.is_some();
            self.index_trial.begin(from, indexed)
        };
        let timed = (!two_threads && self.index_trial.left > 0).then(std::time::Instant::now);
        let result = self.next_values_from(values, end, two_threads);
        let with = self.use_index;
        if let Some(start) = timed {
            let nanos = start.elapsed().as_nanos() as u64;
            self.index_trial.end(from, values.len() - from, nanos, with);
        }
        if !with {
            self.stats.unindexed_values += (values.len() - from) as u64;
        }
        result
    }
}

impl RareCommon {
    /// [`CompactEngine::next_values_in`]'s loop: `G(values.len()..end)`.
    fn next_values_from<V: Value>(
        &mut self,
        values: &mut crate::takebreak::values::Buf<V>,
        end: usize,
        two_threads: bool,
    ) -> Result<Option<u16>, Error> {
        while values.len() < end {
            if two_threads {
                self.sync(values);
                if self.pipelines(values.len()) {
                    let before = values.len();
                    if let Some(v) = self.pipeline(values, end)? {
                        return Ok(Some(v));
                    }
                    if values.len() > before {
                        continue;
                    }
                }
            }
            let v = RareCommon::next_value(self, values)?;
            match V::fit(v as usize) {
                Some(x) => values.push(x),
                None => return Ok(Some(v)),
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod compact_tests;
#[cfg(test)]
mod odd8_tests;
#[cfg(test)]
mod replay_tests;
#[cfg(test)]
mod tests;
