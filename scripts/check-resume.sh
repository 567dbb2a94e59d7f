#!/usr/bin/env bash
# Does a checkpointed run across the old 10^8 ceiling resume bit-identically?
#
#   scripts/check-resume.sh                  # 0.16 to 1.5*10^8, killed past 10^8 (~2 minutes)
#   CODE=0.6 N=6000000 KILL_AT=2000000 scripts/check-resume.sh   # any code and sizes
#
# 1. an uninterrupted run prints G(0..=N);
# 2. a checkpointed run (a checkpoint every 2 s) is killed with SIGKILL as soon as its
#    checkpoint holds more than KILL_AT values (so nothing gets the chance to save on exit);
# 3. the same command, resumed from that checkpoint, prints G(0..=N).
# The values printed by 1 and 3 must be the same, all N + 1 of them (compared by SHA-256).
# Every run passes --no-extend (every value computed) and --no-record.
set -euo pipefail

cd "$(dirname "$0")/.."
CODE=${CODE:-0.16}
N=${N:-150000000}
KILL_AT=${KILL_AT:-100000000}
GRUNDY=target/release/grundy

cargo build --release -p grundy-cli >&2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export GRUNDY_DB="$WORK/catalogue.sqlite3"
CK="$WORK/run.ck"

# values VALUES-OUTPUT : the values one per line, then their count and SHA-256
values() {
    awk -v out="$WORK/count" '
        f { sub(/^ *[0-9]+:/, ""); for (i = 1; i <= NF; i++) { print $i; c++ } }
        /^values:/ { f = 1 }
        END { print c + 0 > out }' | sha256sum | cut -c1-16
}

echo "== 1. $CODE to $N uninterrupted" >&2
whole=$($GRUNDY takebreak "$CODE" -n "$N" --engine sparse --no-extend --print --no-checkpoint \
    --no-record | values)
whole_count=$(cat "$WORK/count")

echo "== 2. $CODE to $N with checkpoints, killed once a checkpoint holds > $KILL_AT values" >&2
$GRUNDY takebreak "$CODE" -n "$N" --engine sparse --no-extend --checkpoint "$CK" \
    --checkpoint-every 2 --no-record > /dev/null 2> "$WORK/run2.err" &
pid=$!
# How many values the checkpoint holds, as its head says (a run killed while appending leaves
# bytes past them, so the length is not the count); 0 while there is no intact record yet
saved_count() {
    python3 scripts/check-results.py --saved-count "$1" 2> /dev/null || echo 0
}
saved=0
while kill -0 "$pid" 2> /dev/null; do
    if [ -f "$CK" ]; then
        saved=$(saved_count "$CK")
        if [ "$saved" -gt "$KILL_AT" ]; then
            if ! kill -KILL "$pid" 2> /dev/null; then
                # (it finished, and removed its checkpoint, between the look and the kill)
                echo "check-resume: the run ended before it could be killed: give a larger N" >&2
                exit 1
            fi
            break
        fi
    fi
    sleep 0.5
done
wait "$pid" 2> /dev/null || true
if [ "$saved" -le "$KILL_AT" ]; then
    echo "check-resume: the run ended before a checkpoint held more than $KILL_AT values" >&2
    exit 1
fi
echo "   killed (SIGKILL) with G(0..$((saved - 1))) in the checkpoint" >&2

echo "== 3. the same run, resumed" >&2
resumed=$($GRUNDY takebreak "$CODE" -n "$N" --engine sparse --no-extend --checkpoint "$CK" \
    --print --no-record 2> "$WORK/run3.err" | values)
resumed_count=$(cat "$WORK/count")
grep -o 'resuming from checkpoint.*' "$WORK/run3.err" | sed 's/^/   /' >&2 || {
    echo "check-resume: the third run did not resume from the checkpoint" >&2
    exit 1
}

echo "uninterrupted: $whole_count values, sha256 $whole"
echo "resumed:       $resumed_count values, sha256 $resumed (checkpoint had $saved values)"
if [ "$whole" = "$resumed" ] && [ "$whole_count" -eq $((N + 1)) ] &&
    [ "$resumed_count" -eq $((N + 1)) ]; then
    echo "same values: the resumed run is bit-identical"
else
    echo "DIFFERENT values"
    exit 1
fi
