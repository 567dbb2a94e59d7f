#!/usr/bin/env bash
# Officers (0.6) and 0.16 on one and two threads (`grundy takebreak --threads`), side by side
# with ogsolve's best method for them (rc2), alternating runs so all see the same machine load.
#
#   scripts/bench-threads.sh                 # 2^22 and 2^24, 3 rounds each, 0.6 and 0.16
#   CODES=0.6 scripts/bench-threads.sh       # one game
#   ROUNDS=1 SIZES=4194304 scripts/bench-threads.sh
#   PEER=0 scripts/bench-threads.sh          # without ogsolve
#
# For each size it prints the median wall and user CPU time of each, the wall-time rate in
# million values/s, the ratios, the peak memory, and whether one and two threads print the same
# values (SHA-256 of `--print` output). On a machine shared with other jobs a second thread
# competes with them: read the wall times with the load average printed beside them. First it
# measures what the machine's two cores give at all (two one-thread runs at once, "machine:").
set -euo pipefail

cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
SIZES=${SIZES:-"4194304 16777216"}
CODES=${CODES:-"0.6 0.16"}
PEER=${PEER:-1}
OGSOLVE=.tools/bin/ogsolve
GRUNDY=target/release/grundy
TIME=/usr/bin/time

if [ ! -x "$TIME" ]; then
    echo "bench-threads: needs GNU time at /usr/bin/time" >&2
    exit 2
fi
echo "== building grundy (release)" >&2
cargo build --release -p grundy-cli >&2
if [ "$PEER" = 1 ] && [ ! -x "$OGSOLVE" ]; then
    echo "== installing ogsolve into .tools" >&2
    cargo install ogsolve --root .tools >&2
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# run CMD... : prints "wall user peak_kb"
run() {
    "$TIME" -f '%e %U %M' -o "$WORK/time.txt" "$@" > /dev/null 2> "$WORK/stderr.txt" || {
        echo "bench-threads: command failed: $*" >&2
        cat "$WORK/stderr.txt" >&2
        exit 1
    }
    cat "$WORK/time.txt"
}

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# What this machine's two cores can give at all: the first game at the first size on one thread,
# alone and as two copies at once. Two independent cores run each copy in about the time of one
# alone (1.00); cores that share their execution units or their memory (hyperthreads of one core,
# a host busy with other machines) take longer, and then no two-thread program can reach twice
# one thread's rate here: at most 2 / that ratio.
first_code=${CODES%% *}; first_n=${SIZES%% *}
one=($GRUNDY takebreak "$first_code" -n "$first_n" --no-extend --no-checkpoint --no-record --threads 1)
echo "== the machine: $first_code, n = $first_n, one thread alone and two copies at once ($ROUNDS rounds)" >&2
alone="" together=""
for r in $(seq "$ROUNDS"); do
    read -r w _ _ < <(run "${one[@]}")
    alone+="$w"$'\n'
    "$TIME" -f '%e' -o "$WORK/pair1.txt" "${one[@]}" > /dev/null 2> "$WORK/pair1.err" &
    first=$!
    if ! "$TIME" -f '%e' -o "$WORK/pair2.txt" "${one[@]}" > /dev/null 2> "$WORK/pair2.err" \
        || ! wait "$first"; then
        echo "bench-threads: command failed: ${one[*]}" >&2
        cat "$WORK/pair1.err" "$WORK/pair2.err" >&2
        exit 1
    fi
    together+="$(cat "$WORK/pair1.txt")"$'\n'"$(cat "$WORK/pair2.txt")"$'\n'
    echo "   round $r  alone ${w}s  together $(cat "$WORK/pair1.txt")s, $(cat "$WORK/pair2.txt")s" >&2
done
wa=$(printf '%s' "$alone" | median); wt=$(printf '%s' "$together" | median)
printf 'machine: two one-thread runs at once take %.2f of the time of one alone (%s at n=%s): two threads can reach at most %.2fx here\n' \
    "$(awk -v a="$wt" -v b="$wa" 'BEGIN {print a / b}')" "$first_code" "$first_n" "$(awk -v a="$wt" -v b="$wa" 'BEGIN {print 2 * b / a}')"
if awk -v a="$wt" -v b="$wa" 'BEGIN {exit !(a > 1.2 * b)}'; then
    echo "machine: the two copies slowed each other; is another job running? ($(uptime | sed 's/.*load/load/'))"
fi

for code in $CODES; do
for n in $SIZES; do
    echo "== $code, n = $n ($ROUNDS rounds, alternating; $(uptime | sed 's/.*load/load/'))" >&2
    declare -A wall=() user=() peak=()
    names="t1 t2"
    [ "$PEER" = 1 ] && names="t1 t2 rc2"
    for r in $(seq "$ROUNDS"); do
        for who in $names; do
            case $who in
                t1) cmd=($GRUNDY takebreak "$code" -n "$n" --no-extend --no-checkpoint --no-record --threads 1) ;;
                t2) cmd=($GRUNDY takebreak "$code" -n "$n" --no-extend --no-checkpoint --no-record --threads 2) ;;
                rc2) cmd=($OGSOLVE -m rc2 -n "$n" "$code") ;;
            esac
            read -r w u p < <(run "${cmd[@]}")
            echo "   round $r  $who  wall ${w}s user ${u}s peak ${p} KB  ($(uptime | sed 's/.*load/load/'))" >&2
            wall[$who]+="$w"$'\n'; user[$who]+="$u"$'\n'; peak[$who]=$p
        done
    done
    for who in $names; do
        w=$(printf '%s' "${wall[$who]}" | median)
        u=$(printf '%s' "${user[$who]}" | median)
        printf '%s n=%-9s %-3s wall %7.2fs  user %7.2fs  %6.3f M values/s (wall)  peak %s KB\n' \
            "$code" "$n" "$who" "$w" "$u" "$(awk -v n="$n" -v w="$w" 'BEGIN {print (n + 1) / w / 1e6}')" "${peak[$who]}"
    done
    w1=$(printf '%s' "${wall[t1]}" | median); w2=$(printf '%s' "${wall[t2]}" | median)
    u1=$(printf '%s' "${user[t1]}" | median); u2=$(printf '%s' "${user[t2]}" | median)
    printf '%s n=%-9s two threads / one: wall %.3f, user CPU %.3f\n' "$code" "$n" \
        "$(awk -v a="$w2" -v b="$w1" 'BEGIN {print a / b}')" "$(awk -v a="$u2" -v b="$u1" 'BEGIN {print a / b}')"
    if [ "$PEER" = 1 ]; then
        wr=$(printf '%s' "${wall[rc2]}" | median); ur=$(printf '%s' "${user[rc2]}" | median)
        printf '%s n=%-9s two threads / ogsolve -m rc2: wall %.3f, user CPU %.3f\n' "$code" "$n" \
            "$(awk -v a="$w2" -v b="$wr" 'BEGIN {print a / b}')" "$(awk -v a="$u2" -v b="$ur" 'BEGIN {print a / b}')"
    fi
    s1=$($GRUNDY takebreak "$code" -n "$n" --no-extend --no-checkpoint --no-record --print --threads 1 2>/dev/null | sha256sum | cut -c1-16)
    s2=$($GRUNDY takebreak "$code" -n "$n" --no-extend --no-checkpoint --no-record --print --threads 2 2>/dev/null | sha256sum | cut -c1-16)
    if [ "$s1" = "$s2" ]; then
        printf '%s n=%-9s one and two threads print the same values (sha256 %s...)\n' "$code" "$n" "$s1"
    else
        printf '%s n=%-9s VALUES DIFFER: one thread %s, two threads %s\n' "$code" "$n" "$s1" "$s2"
        exit 1
    fi
    unset wall user peak
done
done
