#!/usr/bin/env bash
# Run the fuzz targets of fuzz/ (cargo-fuzz, libFuzzer) one after the other on one core, niced,
# each until it has run RUNS inputs or SECONDS have passed, whichever comes first, and print
# one line per target: executions, seconds (wall, and CPU when GNU time is present), rate,
# peak resident memory and findings.
# Long runs are for people, never CI.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]   (default: 60 seconds, every target)
#   FUZZ_RUNS=-1 bash scripts/fuzz.sh 600        (no execution limit: time only)
#   FUZZ_NO_BUILD=1 bash scripts/fuzz.sh 60 T    (run the binaries as last built)
#
# The issue's target is `bash scripts/fuzz.sh 1800`: 10^7 executions (the default RUNS) or 30
# minutes per target. Without a TARGET list the targets run fast parsers first, so that the
# ones that can reach 10^7 executions do so before the slow differential ones start.
#
# Needs `cargo install cargo-fuzz`. With a nightly toolchain the targets are built with
# AddressSanitizer (`cargo +nightly fuzz build -s address`); without one, stable is used with
# RUSTC_BOOTSTRAP=1 and `-s none` (no sanitizer: panics, aborts, hangs and memory blow-ups are
# still caught). Debug assertions and overflow checks are on (`-O -a`): an overflow is a
# finding. FUZZ_SANITIZER=none builds without a sanitizer (on nightly when present): several
# times more executions per second, for targets that run no `unsafe` code of ours (only the
# rare/common engine's pipeline has some: diff_sparse_naive and checkpoint_file exercise it).
# Every target is built once, up front (without a sanitizer into fuzz/target/sanitizer-none),
# then its binary is run directly: editing the sources during a long run changes nothing.
#
# Findings land in fuzz/artifacts/TARGET/ (crash-*, timeout-*, oom-*, leak-*); each becomes a
# regression test in the ordinary suite (see docs/reliability.md). The corpus grows in
# fuzz/corpus-work/TARGET (not committed); the committed seeds are fuzz/corpus/TARGET. The
# summary lines are appended to fuzz/artifacts/summary.tsv as well.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
runs="${FUZZ_RUNS:-10000000}"
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2
    exit 2
fi
if [ "${FUZZ_SANITIZER:-}" != none ] && rustup run nightly rustc --version >/dev/null 2>&1; then
    toolchain=(+nightly)
    sanitizer=(-s address)
    sanitizer_name=address
    unset RUSTC_BOOTSTRAP
elif rustup run nightly rustc --version >/dev/null 2>&1; then
    toolchain=(+nightly)
    sanitizer=(-s none)
    sanitizer_name=none
    unset RUSTC_BOOTSTRAP
else
    toolchain=()
    sanitizer=(-s none)
    sanitizer_name=none
    export RUSTC_BOOTSTRAP=1
fi
# Builds without a sanitizer go to their own directory, so that switching rebuilds neither.
target_dir=target
[ "$sanitizer_name" = none ] && target_dir=target/sanitizer-none
# Fast parsers first, then file formats, then the differential targets (slowest per input).
order=(parse_sizes parse_chomp_shape parse_cram_board parse_takebreak parse_graph_json
    http_server play_moves catalogue_rows checkpoint_file saved_table diff_sparse_naive
    diff_loopy_retrograde diff_pruned_plain)
cd fuzz
mapfile -t known < <(cargo "${toolchain[@]}" fuzz list)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for t in "${order[@]}"; do
        if printf '%s\n' "${known[@]}" | grep -qx "$t"; then targets+=("$t"); fi
    done
    # A target added to fuzz/ but not to the order above still runs, last.
    for t in "${known[@]}"; do
        if ! printf '%s\n' "${order[@]}" | grep -qx "$t"; then targets+=("$t"); fi
    done
fi
for t in "${targets[@]}"; do
    if ! printf '%s\n' "${known[@]}" | grep -qx "$t"; then
        echo "unknown fuzz target '$t'; the targets are: ${known[*]}" >&2
        exit 2
    fi
done
if [ -n "${FUZZ_NO_BUILD:-}" ]; then
    echo "running the targets as last built (FUZZ_NO_BUILD; sanitizer: $sanitizer_name)" >&2
else
    echo "building the targets (sanitizer: $sanitizer_name) ..." >&2
    nice -n 10 cargo "${toolchain[@]}" fuzz build "${sanitizer[@]}" -O -a --target-dir "$target_dir" >&2
fi
host=$(rustc "${toolchain[@]}" -vV | sed -n 's/^host: //p')
status=0
for t in "${targets[@]}"; do
    bin="$target_dir/$host/release/$t"
    mkdir -p "corpus/$t" "corpus-work/$t" "artifacts/$t"
    log="artifacts/$t/last-run.log"
    before=$(find "artifacts/$t" -maxdepth 1 -type f ! -name 'last-run.*' | wc -l)
    start=$(date +%s)
    # -rss_limit_mb: a memory blow-up is a finding; -timeout: so is a hang (20 s on one input).
    timer=()
    [ -x /usr/bin/time ] && timer=(/usr/bin/time -o "artifacts/$t/last-run.time" -f '%U %S')
    rm -f "artifacts/$t/last-run.time"
    if "${timer[@]}" nice -n 10 "$bin" "corpus-work/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" \
        -runs="$runs" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
        -print_final_stats=1 >"$log" 2>&1; then
        result="no crash"
    else
        result="FOUND SOMETHING (see fuzz/$log and fuzz/artifacts/$t/)"
        status=1
    fi
    elapsed=$(($(date +%s) - start))
    after=$(find "artifacts/$t" -maxdepth 1 -type f ! -name 'last-run.*' | wc -l)
    stat() { grep -o "stat::$1: *[0-9]*" "$log" | grep -o '[0-9]*$' | tail -1; }
    execs=$(stat number_of_executed_units)
    rss=$(stat peak_rss_mb)
    rate=$(( ${execs:-0} / (elapsed > 0 ? elapsed : 1) ))
    # CPU seconds as well as wall seconds: on a shared machine the two differ.
    cpu=$(awk 'END { printf "%d", $1 + $2 }' "artifacts/$t/last-run.time" 2>/dev/null || echo '?')
    line="$t: ${execs:-?} executions in ${elapsed}s (${cpu}s of CPU; ${rate}/s), peak RSS ${rss:-?} MB, $((after - before)) new findings: $result"
    echo "$line"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$sanitizer_name" \
        "${execs:-?}" "$elapsed" "$rate" "${rss:-?}" "$result" "$cpu" >>artifacts/summary.tsv
done
exit $status
