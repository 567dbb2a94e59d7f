#!/usr/bin/env bash
# Peak resident memory against what the docs promise (docs/reliability.md):
#
# 1. `cram|chomp --memory SIZE`: the peak RSS must stay within 10% of the budget plus a fixed
#    overhead (OVERHEAD_MB, default 16 MB: the program, the search's stack and buffers). Each
#    search is a position far too large to finish, stopped after RUN_SECONDS (default 60) — by
#    then its table has reached the budget (the search's own report says how full it got).
# 2. `graph FILE --loopy --all` on a graph at the documented node limit (2^24 nodes, a file
#    just under the 256 MiB limit), with and without --json, under `ulimit -v` (LIMIT_MB,
#    default 4096: this may not take the machine's memory from others).
# 3. `takebreak --max-memory SIZE` where the values fit only in one byte each: Officers to 2^26
#    (kept in bytes with compact values, which the budget turns on) and 0.167 (values below 64)
#    must finish within SIZE; 0.206 (values in two bytes) must stop with exit status 2 within
#    SIZE, its values saved. Each line also gives the peak in bytes per value.
#
#   scripts/bench-memory.sh              # all three
#   PART=budgets scripts/bench-memory.sh # only 1;  PART=loopy: only 2;  PART=values: only 3
#
# Prints one line per run: peak RSS (GNU time's maximum resident set size), the limit it is
# held to, and PASS or FAIL; exits 1 if any run fails. Times are not the point here (and are
# upper bounds on a shared machine).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${RUN_SECONDS:-60}
OVERHEAD_MB=${OVERHEAD_MB:-16}
LIMIT_MB=${LIMIT_MB:-4096}
PART=${PART:-all}
GRUNDY=${GRUNDY:-target/release/grundy}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
[ -x "$GRUNDY" ] || cargo build --release -p grundy-cli >&2
status=0

# run LABEL LIMIT_KB COMMAND...: peak RSS of COMMAND (stopped after SECONDS_EACH, which is
# expected of the searches), its exit status, PASS when the peak is at most LIMIT_KB and the
# command neither failed nor was killed (or exited with EXPECT_EXIT, when set); returns 1 on
# FAIL.
run() {
    local label=$1 limit=$2
    shift 2
    local code=0
    /usr/bin/time -f '%M' -o "$WORK/rss" timeout "$SECONDS_EACH" "$@" >/dev/null 2>"$WORK/err" \
        || code=$?
    local rss verdict=PASS
    rss=$(tail -1 "$WORK/rss" | grep -o '^[0-9]*$' || echo 0)
    if [ -n "${EXPECT_EXIT:-}" ]; then
        if [ "$rss" -gt "$limit" ] || [ "$code" -ne "$EXPECT_EXIT" ]; then
            verdict=FAIL
        fi
    elif [ "$rss" -gt "$limit" ] || { [ "$code" -ne 0 ] && [ "$code" -ne 124 ]; }; then
        verdict=FAIL
    fi
    local how="finished"
    [ "$code" -eq 124 ] && how="stopped after ${SECONDS_EACH}s"
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] && how="exit $code: $(grep -v '^$' "$WORK/err" | tail -1)"
    printf '%-44s peak %8d KB, limit %8d KB, %s: %s\n' "$label" "$rss" "$limit" "$how" "$verdict"
    [ "$verdict" = PASS ]
}

if [ "$PART" = all ] || [ "$PART" = budgets ]; then
    for budget in 16 64 256; do
        limit=$(( (budget * 1048576 * 11 / 10) / 1024 + OVERHEAD_MB * 1024 ))
        run "chomp 10x30 --memory ${budget}M --no-moves" "$limit" \
            "$GRUNDY" chomp 10x30 --memory "${budget}M" --no-moves || status=1
        run "cram 7x9 --memory ${budget}M --outcome-only" "$limit" \
            "$GRUNDY" cram 7x9 --memory "${budget}M" --outcome-only --no-moves || status=1
    done
fi

if [ "$PART" = all ] || [ "$PART" = values ]; then
    # 150 MB: G(0..=2^26) needs about 200 MB in two bytes a value, 136 MB in one
    n=67108864
    budget_kb=$((150 * 1024))
    for code in 0.6 0.167; do
        SECONDS_EACH=900 run "takebreak $code -n 2^26 --max-memory 150M" "$budget_kb" \
            "$GRUNDY" takebreak "$code" -n "$n" --no-extend --max-memory 150M --threads 2 \
            --no-record --checkpoint "$WORK/$code.ckpt" || status=1
        awk -v kb="$(tail -1 "$WORK/rss")" -v n="$n" \
            'BEGIN { printf "    %.3f bytes a value at the peak\n", kb * 1024 / (n + 1) }'
    done
    # 0.206's values need two bytes from heap 9,813: admitted (2^24 needs about 98 MB in two
    # bytes a value, 82 MB in one), it must stop, saved, where two bytes reach the budget
    EXPECT_EXIT=2 SECONDS_EACH=900 run "takebreak 0.206 -n 2^24 --max-memory 90M" \
        $((90 * 1024)) "$GRUNDY" takebreak 0.206 -n 16777216 --no-extend --max-memory 90M \
        --threads 2 --no-record --checkpoint "$WORK/0.206.ckpt" || status=1
    grep -o 'stopped after G(0..[0-9]*)' "$WORK/err" | sed 's/^/    /' || status=1
fi

if [ "$PART" = all ] || [ "$PART" = loopy ]; then
    # 2^24 nodes with ids of four printable characters; the first 2^20 form one cycle of
    # moves (drawn positions), the rest have no moves (P-positions). About 255 MB.
    python3 - "$WORK/limit.json" <<'PY'
import sys
alphabet = [chr(c) for c in range(0x21, 0x7F) if chr(c) not in '"\\']
base = len(alphabet)
def name(i):
    s = []
    for _ in range(4):
        i, r = divmod(i, base)
        s.append(alphabet[r])
    return "".join(s)
n, cycle = 1 << 24, 1 << 20
with open(sys.argv[1], "w") as f:
    f.write('{"nodes":[')
    for i in range(n):
        if i:
            f.write(",")
        if i < cycle:
            f.write('{"id":"%s","options":["%s"]}' % (name(i), name((i + 1) % cycle)))
        else:
            f.write('{"id":"%s"}' % name(i))
    f.write("]}")
PY
    size=$(stat -c %s "$WORK/limit.json")
    echo "loopy graph at the limit: 16777216 nodes, 1048576 moves, $size bytes" >&2
    SECONDS_EACH=600
    limit_kb=$((LIMIT_MB * 1024))
    (ulimit -v "$limit_kb"; run "graph (2^24 nodes) --loopy --all" "$limit_kb" \
        "$GRUNDY" graph "$WORK/limit.json" --loopy --all) || status=1
    (ulimit -v "$limit_kb"; run "graph (2^24 nodes) --loopy --all --json" "$limit_kb" \
        "$GRUNDY" graph "$WORK/limit.json" --loopy --all --json) || status=1
fi
exit $status
