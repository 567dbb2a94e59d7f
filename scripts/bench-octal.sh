#!/usr/bin/env bash
# Time grundy's octal engine against ogsolve (the `ogs` crate's solver) side by side.
#
#   scripts/bench-octal.sh            # every benchmark, 3 alternating rounds each
#   ROUNDS=1 scripts/bench-octal.sh   # one round
#   QUICK=1 scripts/bench-octal.sh    # small sizes (a smoke test of the script, ~1 minute)
#   ONLY=0.6 scripts/bench-octal.sh   # one benchmark (0.16, 0.6, 0.07, 0.346, 0.414, 0.437,
#                                     # 0.766, 0.142, 0.162, 0.172, 0.764, 0.146, 0.143, 0.206,
#                                     # values, 0.137, extend, 0.1777)
#   OPEN_N=1048576 ONLY=0.146 scripts/bench-octal.sh   # the open games to 2^20 (default 2^22)
#
# Every side-by-side run passes --no-extend: ogsolve computes every value, so we do too (by
# default grundy stops at a certified period and reads the rest from it; the "extend"
# benchmark times that, and "0.1777" certifies the record period from scratch, ours only).
#
# Builds grundy in release mode, installs ogsolve into .tools/ if it is not there, then for
# each benchmark runs ours and theirs alternately (ours, theirs, ours, theirs, ...) so that both
# see the same machine load, and prints the median wall time of each, the ratio, and the peak
# memory (maximum resident set size from /usr/bin/time -v) in bytes per heap size.
set -euo pipefail

cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
QUICK=${QUICK:-}
ONLY=${ONLY:-}
TOOLS=.tools
OGSOLVE=$TOOLS/bin/ogsolve
GRUNDY=target/release/grundy
TIME=/usr/bin/time

if [ ! -x "$TIME" ]; then
    echo "bench-octal: needs GNU time at /usr/bin/time (for peak memory)" >&2
    exit 2
fi

echo "== building grundy (release)" >&2
cargo build --release -p grundy-cli >&2
if [ ! -x "$OGSOLVE" ]; then
    echo "== installing ogsolve into $TOOLS" >&2
    cargo install ogsolve --root "$TOOLS" >&2
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export GRUNDY_DB="$WORK/catalogue.sqlite3"

# run LABEL CMD... : prints "wall user peak_kb" for one run
run() {
    local out="$WORK/time.txt"
    "$TIME" -v -o "$out" "$@" > "$WORK/stdout.txt" 2> "$WORK/stderr.txt" || {
        echo "bench-octal: command failed: $*" >&2
        cat "$WORK/stderr.txt" >&2
        exit 1
    }
    local wall user peak
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out" |
        awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
    user=$(awk -F': ' '/User time/ {print $2}' "$out")
    peak=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out")
    echo "$wall $user $peak"
}

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# bench NAME N "OUR ARGS" "OGSOLVE METHODS"
bench() {
    local name=$1 n=$2 ours=$3 methods=$4
    if [ -n "$ONLY" ] && [ "$ONLY" != "$name" ]; then return; fi
    echo "== $name, n = $n ($ROUNDS rounds, alternating)" >&2
    local our_w="" our_u="" our_m=0
    declare -A their_w their_u their_m
    for m in $methods; do their_w[$m]=""; their_u[$m]=""; their_m[$m]=0; done
    for r in $(seq "$ROUNDS"); do
        read -r w u p < <(run $GRUNDY takebreak "$name" -n "$n" $ours --no-checkpoint --no-record)
        echo "   round $r  grundy        wall ${w}s user ${u}s peak ${p} KB" >&2
        our_w+="$w"$'\n'; our_u+="$u"$'\n'; [ "$p" -gt "$our_m" ] && our_m=$p
        for m in $methods; do
            read -r w u p < <(run $OGSOLVE -m "$m" -n "$n" "$name")
            echo "   round $r  ogsolve -m $m  wall ${w}s user ${u}s peak ${p} KB" >&2
            their_w[$m]+="$w"$'\n'; their_u[$m]+="$u"$'\n'; [ "$p" -gt "${their_m[$m]}" ] && their_m[$m]=$p
        done
    done
    local ow ou best="" best_w=""
    ow=$(printf '%s' "$our_w" | median)
    ou=$(printf '%s' "$our_u" | median)
    for m in $methods; do
        local tw
        tw=$(printf '%s' "${their_w[$m]}" | median)
        if [ -z "$best_w" ] || awk -v a="$tw" -v b="$best_w" 'BEGIN {exit !(a < b)}'; then
            best=$m; best_w=$tw
        fi
    done
    local bu
    bu=$(printf '%s' "${their_u[$best]}" | median)
    # peak bytes per heap size (values below 256 take one byte each, others two)
    local per_value
    per_value=$(awk -v m="$our_m" -v n="$n" 'BEGIN {printf "%.2f", 1024 * m / (n + 1)}')
    printf '%-6s n=%-10s grundy %8.2fs (user %7.2fs)   ogsolve -m %-5s %8.2fs (user %7.2fs)   ratio %.3f (user %.3f)   peak %s KB = %s bytes per heap size (ogsolve %s KB)\n' \
        "$name" "$n" "$ow" "$ou" "$best" "$best_w" "$bu" \
        "$(awk -v a="$ow" -v b="$best_w" 'BEGIN {print a / b}')" \
        "$(awk -v a="$ou" -v b="$bu" 'BEGIN {print (b > 0) ? a / b : 0}')" \
        "$our_m" "$per_value" "${their_m[$best]}"
}

if [ -n "$QUICK" ]; then
    bench 0.16 1000000 "--no-extend" "rc"
    bench 0.6 131072 "--no-extend" "rc rc2"
    bench 0.07 20000 "--no-extend" "naive"
    for code in 0.346 0.414; do bench $code 20000 "--no-extend" "naive"; done
    bench 0.437 20000 "--no-extend" "rc rc2"
    bench 0.766 20000 "--no-extend" "naive rc rc2"
    for code in 0.142 0.162 0.172 0.764; do bench $code 20000 "--no-extend" "naive rc rc2"; done
    for code in 0.146 0.143 0.206; do bench $code 65536 "--no-extend" "rc rc2"; done
else
    bench 0.16 100000000 "--no-extend" "rc"
    bench 0.6 2097152 "--no-extend" "rc rc2"
    bench 0.07 200000 "--no-extend" "naive"
    # large values / many rare positions: ogsolve's naive method is its best on 0.346, 0.414
    for code in 0.346 0.414; do bench $code 100000 "--no-extend" "naive"; done
    bench 0.437 100000 "--no-extend" "rc rc2"
    bench 0.766 100000 "--no-extend" "naive rc rc2"
    # four more with large values (0.142 to 386, 0.162 to 470, 0.172 to 306 and 0.764 to 4165
    # by n = 50000) or many rare positions; ogsolve's best is measured, not assumed
    for code in 0.142 0.162 0.172 0.764; do bench $code 100000 "--no-extend" "naive rc rc2"; done
    # Officers to 2^24 (issue 14's target: at most 0.25x ogsolve's best, rc2 there)
    bench 0.6 16777216 "--no-extend" "rc2"
    # the open games of issue 25 (many rare positions, values past 1,500 for 0.146), to 2^22 by
    # default (the issue's target: at most 0.25x ogsolve's best, 300,000 values/s)
    for code in 0.146 0.143 0.206; do bench $code "${OPEN_N:-4194304}" "--no-extend" "rc rc2"; done
fi

# same_values CODE N METHOD : whether grundy and ogsolve print the same G(0..=n) (the values one
# per line, from `grundy --print` and `ogsolve -p`, compared whole; n + 1 lines each)
same_values() {
    local code=$1 n=$2 method=$3
    if [ -n "$ONLY" ] && [ "$ONLY" != "values" ]; then return; fi
    $GRUNDY takebreak "$code" -n "$n" --print --no-extend --no-checkpoint --no-record |
        awk 'f { sub(/^ *[0-9]+:/, ""); print } /^values:/ { f = 1 }' | tr -s ' ' '\n' |
        grep -v '^$' > "$WORK/ours.txt"
    $OGSOLVE -m "$method" -n "$n" -p "$code" | sed -n 's/^ nimbers: //p' | tr ' ' '\n' |
        grep -v '^$' > "$WORK/theirs.txt"
    local lines sum
    lines=$(wc -l < "$WORK/ours.txt")
    sum=$(sha256sum < "$WORK/ours.txt" | cut -c1-16)
    if [ "$lines" -eq $((n + 1)) ] && cmp -s "$WORK/ours.txt" "$WORK/theirs.txt"; then
        printf 'values %-6s n=%-10s grundy and ogsolve -m %s print the same %s values (sha256 %s)\n' \
            "$code" "$n" "$method" "$lines" "$sum"
    else
        printf 'values %-6s n=%-10s DIFFER: grundy %s lines, ogsolve -m %s %s lines\n' \
            "$code" "$n" "$lines" "$method" "$(wc -l < "$WORK/theirs.txt")"
    fi
}

if [ -n "$QUICK" ]; then
    same_values 0.6 131072 rc2
    same_values 0.162 20000 naive
else
    same_values 0.6 16777216 rc2
    for code in 0.142 0.162 0.172 0.764; do same_values $code 100000 rc2; done
fi

# ours_only NAME ARGS... : wall, user and peak memory of one grundy run (no peer to compare)
ours_only() {
    local name=$1
    shift
    if [ -n "$ONLY" ] && [ "$ONLY" != "$name" ]; then return; fi
    for r in $(seq "$ROUNDS"); do
        read -r w u p < <(run $GRUNDY takebreak "$@" --no-checkpoint --no-record)
        printf '%-6s %s: wall %ss user %ss peak %s KB\n' "$name" "$*" "$w" "$u" "$p"
    done
}

# extension by the certified period (target: 0.07 to 10^7 in under 2 s)
ours_only extend 0.07 -n 10000000
ours_only extend 0.16 -n 1000000000
if [ -z "$QUICK" ]; then
    # the record period (target: certified from scratch in under 5 minutes)
    ours_only 0.1777 0.1777 --until-period -n 600000000
fi

if [ -z "$ONLY" ] || [ "$ONLY" = "0.137" ]; then
    # Dawson's chess until its period is certified: compute time as recorded in the catalogue
    for r in $(seq "$ROUNDS"); do
        $GRUNDY takebreak 0.137 --until-period --no-checkpoint > /dev/null
    done
    $GRUNDY catalogue 0.137 --json > "$WORK/cat.json"
    n=$(grep -o '"n":[0-9]*' "$WORK/cat.json" | tail -1 | cut -d: -f2)
    grep -o '"seconds":[0-9.e+-]*' "$WORK/cat.json" | cut -d: -f2 | sort -g |
        awk -v n="$n" '{a[NR] = $1} END {printf "0.137  --until-period: certified at n = %s, compute %.3f ms (median of %d runs, %.3f .. %.3f ms)\n", n, 1000 * a[int((NR + 1) / 2)], NR, 1000 * a[1], 1000 * a[NR]}'
fi
