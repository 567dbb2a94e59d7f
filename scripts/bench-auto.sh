#!/usr/bin/env bash
# Does the default engine (`--engine auto`) keep up with the faster of `naive` and `sparse`?
#
#   scripts/bench-auto.sh                 # every game, 3 alternating rounds
#   ROUNDS=1 ONLY=0.346 scripts/bench-auto.sh
#
# For each game it runs auto, naive and sparse alternately (auto, naive, sparse, auto, ...) so
# that all three see the same machine load, every run with --no-extend (every value computed),
# and prints the median user CPU of each (GNU time %U), the ratios auto/naive and auto/sparse,
# the peak memory (%M, KB) and the engine auto reported.
set -euo pipefail

cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
ONLY=${ONLY:-}
GRUNDY=target/release/grundy
TIME=/usr/bin/time

if [ ! -x "$TIME" ]; then
    echo "bench-auto: needs GNU time at /usr/bin/time" >&2
    exit 2
fi
cargo build --release -p grundy-cli >&2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# bench CODE N
bench() {
    local code=$1 n=$2
    if [ -n "$ONLY" ] && [ "$ONLY" != "$code" ]; then return; fi
    declare -A user peak
    local note=""
    for e in auto naive sparse; do user[$e]=""; peak[$e]=0; done
    for r in $(seq "$ROUNDS"); do
        for e in auto naive sparse; do
            "$TIME" -f '%U %M' -o "$WORK/t" "$GRUNDY" takebreak "$code" -n "$n" --no-extend \
                --engine "$e" --no-checkpoint --no-record > /dev/null 2> "$WORK/err"
            read -r u m < "$WORK/t"
            user[$e]+="$u"$'\n'
            [ "$m" -gt "${peak[$e]}" ] && peak[$e]=$m
            if [ "$e" = auto ]; then
                note=$(grep -o 'engine auto: .*' "$WORK/err" || echo "engine auto: sparse throughout")
            fi
        done
    done
    local a nv sp
    a=$(printf '%s' "${user[auto]}" | median)
    nv=$(printf '%s' "${user[naive]}" | median)
    sp=$(printf '%s' "${user[sparse]}" | median)
    printf '%-6s n=%-8s user: auto %6.2fs naive %6.2fs sparse %6.2fs  auto/naive %.3f auto/sparse %.3f  peak KB %s/%s/%s  (last run: %s)\n' \
        "$code" "$n" "$a" "$nv" "$sp" \
        "$(awk -v a="$a" -v b="$nv" 'BEGIN {print (b > 0) ? a / b : 0}')" \
        "$(awk -v a="$a" -v b="$sp" 'BEGIN {print (b > 0) ? a / b : 0}')" \
        "${peak[auto]}" "${peak[naive]}" "${peak[sparse]}" "$note"
}

for code in 0.346 0.414 0.437 0.764; do bench $code 100000; done
bench 0.16 300000
bench 0.6 300000
bench 0.07 200000
