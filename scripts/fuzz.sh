#!/usr/bin/env bash
# Run every fuzz target of fuzz/ (cargo-fuzz, libFuzzer) for SECONDS each, one after the other,
# niced, and print each target's executions and findings. Long runs are for people, never CI.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]      (default: 60 seconds, every target)
#
# Needs `cargo install cargo-fuzz`. With a nightly toolchain the targets are built with
# AddressSanitizer (`cargo +nightly fuzz run`); without one, stable is used with
# RUSTC_BOOTSTRAP=1 and `-s none` (no sanitizer: panics, aborts, hangs and memory blow-ups are
# still caught). Crashes land in fuzz/artifacts/TARGET/; each becomes a regression test in the
# ordinary suite (see docs/reliability.md). The corpus grows in fuzz/corpus-work/TARGET
# (not committed); the committed seeds are fuzz/corpus/TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2
    exit 2
fi
if rustup run nightly rustc --version >/dev/null 2>&1; then
    toolchain=(+nightly)
    sanitizer=(-s address)
    unset RUSTC_BOOTSTRAP
else
    toolchain=()
    sanitizer=(-s none)
    export RUSTC_BOOTSTRAP=1
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cd fuzz && cargo "${toolchain[@]}" fuzz list)
fi
cd fuzz
status=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "corpus-work/$t" "artifacts/$t"
    log="artifacts/$t/last-run.log"
    # -rss_limit_mb: a memory blow-up is a finding; -timeout: so is a hang.
    if nice -n 10 cargo "${toolchain[@]}" fuzz run "${sanitizer[@]}" --release "$t" "corpus-work/$t" "corpus/$t" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
        >"$log" 2>&1; then
        result="no crash"
    else
        result="FOUND SOMETHING (see $log and artifacts/$t/)"
        status=1
    fi
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    echo "$t: ${execs:-?} executions in ${seconds}s: $result"
done
exit $status
