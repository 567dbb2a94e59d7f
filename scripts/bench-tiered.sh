#!/usr/bin/env bash
# Tiered storage (issue 25) against the in-memory run: peak RSS and CPU, alternating the two,
# ROUNDS rounds (default 3), with the load average before each run.
#
#   scripts/bench-tiered.sh                       # 0.16 to 2^28 with --memory 64M
#   CODE=0.146 N=16777216 MEMORY=32M scripts/bench-tiered.sh
#
# Each line: mode, wall s, user s, sys s, peak RSS (KB, GNU time's %M), the load average, and
# for tiered runs the store's own report (releases of the middle, page faults during the run).
# Both runs compute every value (--no-extend) and the script checks that their value counts
# and largest values agree. The store is in a fresh directory under TMPDIR each time.
set -euo pipefail
cd "$(dirname "$0")/.."
CODE=${CODE:-0.16}
N=${N:-268435456}
MEMORY=${MEMORY:-64M}
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-1}
GRUNDY=${GRUNDY:-target/release/grundy}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
[ -x "$GRUNDY" ] || nice -n 10 cargo build --release -p grundy-cli >&2
common=(takebreak "$CODE" -n "$N" --no-extend --no-record --json --threads "$THREADS")
echo "# $CODE to $N, --memory $MEMORY, --threads $THREADS, $(nproc) cores, $(uname -r)"
for round in $(seq "$ROUNDS"); do
    for mode in memory tiered; do
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        if [ "$mode" = memory ]; then
            /usr/bin/time -f '%e %U %S %M' -o "$WORK/time" nice -n 10 \
                "$GRUNDY" "${common[@]}" --no-checkpoint >"$WORK/$mode.json"
        else
            rm -rf "$WORK/store" && mkdir "$WORK/store"
            /usr/bin/time -f '%e %U %S %M' -o "$WORK/time" nice -n 10 \
                "$GRUNDY" "${common[@]}" --tiered "$WORK/store" --memory "$MEMORY" \
                >"$WORK/$mode.json" 2>/dev/null
        fi
        read -r wall user sys rss < <(tail -1 "$WORK/time")
        extra=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1])).get("tiered"); print("" if t is None else "releases %d, minor faults %d, major faults %d, keep %d" % (t["releases"], t["minor_faults"], t["major_faults"], t["keep"]))' "$WORK/$mode.json")
        echo "round $round $mode: wall $wall s, user $user s, sys $sys s, peak $rss KB, load $load${extra:+; $extra}"
    done
    python3 - "$WORK/memory.json" "$WORK/tiered.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
keys = ("n", "max_value", "value_counts", "value_bytes")
same = all(a[k] == b[k] for k in keys)
print("  values agree (n, max_value, value_counts, value_bytes)" if same else "  MISMATCH")
sys.exit(0 if same else 1)
PY
done
