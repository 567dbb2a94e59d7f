#!/usr/bin/env bash
# Time `grundy graph --loopy` on random graphs with millions of moves.
#
#   scripts/bench-loopy.sh            # 1M nodes x 3 moves and 1M nodes x 6 moves, 3 rounds
#   ROUNDS=1 NODES=200000 scripts/bench-loopy.sh
#
# No public tool computes the generalized Sprague-Grundy function of a whole graph, so the
# side-by-side baseline is our own acyclic evaluator (`grundy graph` without --loopy) on a random
# DAG of the same size: the runs alternate (DAG plain, DAG --loopy, cyclic --loopy, ...), and the
# script prints median user CPU seconds, the ratio --loopy / plain on the DAG, and peak memory
# (maximum resident set size). Times include reading and parsing the JSON file.
set -euo pipefail

cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
NODES=${NODES:-1000000}
TIME=/usr/bin/time
GRUNDY=target/release/grundy
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "== building grundy (release)" >&2
cargo build --release -p grundy-cli >&2

gen() { # gen NODES DEGREE acyclic|cyclic OUT
    python3 - "$@" <<'PY'
import json, random, sys
n, d, kind, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = random.Random(12345 + d)
with open(out, "w") as f:
    f.write('{"nodes": [')
    for u in range(n):
        if kind == "acyclic":
            opts = [rng.randrange(u) for _ in range(d)] if u > 0 else []
        else:
            opts = [rng.randrange(n) for _ in range(rng.randrange(2 * d + 1))]
        if u:
            f.write(",")
        f.write(json.dumps({"id": str(u), "options": [str(v) for v in opts]}))
    f.write("]}\n")
PY
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for DEG in 3 6; do
    echo "== $NODES nodes, about $((NODES * DEG)) moves" >&2
    gen "$NODES" "$DEG" acyclic "$WORK/dag.json"
    gen "$NODES" "$DEG" cyclic "$WORK/cyc.json"
    : > "$WORK/plain" ; : > "$WORK/loopy" ; : > "$WORK/cyc"
    for _ in $(seq "$ROUNDS"); do
        $TIME -f '%U %M' -o "$WORK/t" "$GRUNDY" graph "$WORK/dag.json" > /dev/null
        cat "$WORK/t" >> "$WORK/plain"
        $TIME -f '%U %M' -o "$WORK/t" "$GRUNDY" graph "$WORK/dag.json" --loopy > /dev/null
        cat "$WORK/t" >> "$WORK/loopy"
        $TIME -f '%U %M' -o "$WORK/t" "$GRUNDY" graph "$WORK/cyc.json" --loopy --json > "$WORK/out"
        cat "$WORK/t" >> "$WORK/cyc"
    done
    P=$(cut -d' ' -f1 "$WORK/plain" | median); PM=$(cut -d' ' -f2 "$WORK/plain" | sort -n | tail -1)
    L=$(cut -d' ' -f1 "$WORK/loopy" | median); LM=$(cut -d' ' -f2 "$WORK/loopy" | sort -n | tail -1)
    C=$(cut -d' ' -f1 "$WORK/cyc" | median); CM=$(cut -d' ' -f2 "$WORK/cyc" | sort -n | tail -1)
    MOVES=$(python3 -c "import json;d=json.load(open('$WORK/cyc.json'));print(sum(len(x['options']) for x in d['nodes']))")
    echo "random DAG, $NODES nodes x $DEG moves: plain ${P}s ${PM}KB | --loopy ${L}s ${LM}KB | ratio loopy/plain $(awk "BEGIN{printf \"%.2f\", $L/$P}")"
    echo "random cyclic graph, $NODES nodes, $MOVES moves: --loopy ${C}s ${CM}KB; root: $(cut -c1-120 "$WORK/out")"
done
