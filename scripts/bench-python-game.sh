#!/usr/bin/env bash
# Benchmark: a game written in Python through grundy.Game against the plain memoised recursion a
# user would write with functools.lru_cache, run side by side and alternating, printing user
# CPU seconds, peak memory, the exit status and the ratio grundy.Game / lru_cache per round.
#
#   subtraction  S = {1,3,4}, the value of a heap of N_SUB (default 10^5). The recursion needs
#                sys.setrecursionlimit; at this depth CPython's C stack may overflow (the exit
#                status shows it: 139 is a segmentation fault). "lru_cache, bottom-up" is what a
#                user falls back to (calling g(0), g(1), ... in order, so the recursion stays
#                shallow); the ratio is taken against it, and against the recursion when it
#                finishes.
#   grundys-game Grundy's game, G(0..N_GG) (default 2000): grundy.Game with a heap as an int and
#                a move leaving a pair of heaps that `components=grundy.tuple_components` splits
#                (read in Rust), against the lru_cache recursion mex{g(a) xor g(n-a)}. A second
#                row gives the same game with `components` a Python lambda (a call per option).
#
# A last table runs both sides of both games in one interpreter (best of 5, user CPU from
# getrusage), free of the start-up and import costs and of time(1)'s 10 ms resolution.
#
# Run scripts/test-python.sh first (it builds the package into .venv-ci).
# ROUNDS=5 N_SUB=100000 N_GG=2000 scripts/bench-python-game.sh
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-3}
n_sub=${N_SUB:-100000}
n_gg=${N_GG:-2000}
py=.venv-ci/bin/python
[ -x "$py" ] || { echo "missing $py: run scripts/test-python.sh first" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/mex.py" <<'EOF'
def mex(values):
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m
EOF

cat >"$tmp/sub_game.py" <<'EOF'
import sys, grundy
n = int(sys.argv[1])
game = grundy.Game(options=lambda h: [h - s for s in (1, 3, 4) if s <= h])
print(game.grundy_value(n))
EOF

cat >"$tmp/sub_lru.py" <<'EOF'
import sys
from functools import lru_cache
from mex import mex
sys.setrecursionlimit(10**6)
n, order = int(sys.argv[1]), sys.argv[2]

@lru_cache(maxsize=None)
def g(h):
    return mex(g(h - s) for s in (1, 3, 4) if s <= h)

if order == "bottom-up":
    for k in range(n):
        g(k)
print(g(n))
EOF

cat >"$tmp/gg_game.py" <<'EOF'
import sys, grundy
n, how = int(sys.argv[1]), sys.argv[2]
game = grundy.Game(
    options=lambda h: [(a, h - a) for a in range(1, (h + 1) // 2)],
    components=grundy.tuple_components if how == "tuple_components"
    else lambda p: list(p) if isinstance(p, tuple) else None,
)
print(game.sequence(n).values[-1])
EOF

cat >"$tmp/gg_lru.py" <<'EOF'
import sys
from functools import lru_cache
from mex import mex
sys.setrecursionlimit(10**6)
n = int(sys.argv[1])

@lru_cache(maxsize=None)
def g(h):
    return mex(g(a) ^ g(h - a) for a in range(1, (h + 1) // 2))

print([g(k) for k in range(n + 1)][-1])
EOF

measure() { # prints "user_seconds peak_kib exit_status answer" of the command
  local status=0
  /usr/bin/time -f '%U %M' -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" || status=$?
  local answer
  answer=$(tail -n 1 "$tmp/out" 2>/dev/null)
  echo "$(tail -n 1 "$tmp/time") $status ${answer:--}"
}

row() { # name, then "user kib status answer" of ours and of theirs
  awk -v name="$1" -v a="$2" -v b="$3" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    ratio = (x[3] == 0 && y[3] == 0 && y[1] > 0) ? sprintf("%.2f", x[1] / y[1]) : "-"
    printf "  %-26s %8.2f s %7.1f MiB exit %-3s G=%-5s | %8.2f s %7.1f MiB exit %-3s G=%-5s | %s\n",
      name, x[1], x[2] / 1024, x[3], x[4], y[1], y[2] / 1024, y[3], y[4], ratio }'
}

cat >"$tmp/in_process.py" <<'EOF'
# Both sides in one interpreter, without start-up and import: user CPU of the best of 5 runs.
import resource, sys
from functools import lru_cache
import grundy
from mex import mex
n_sub, n_gg = int(sys.argv[1]), int(sys.argv[2])

def best(f):
    times = []
    for _ in range(5):
        t = resource.getrusage(resource.RUSAGE_SELF).ru_utime
        f()
        times.append(resource.getrusage(resource.RUSAGE_SELF).ru_utime - t)
    return min(times)

def sub_game():
    return grundy.Game(options=lambda h: [h - s for s in (1, 3, 4) if s <= h]).grundy_value(n_sub)

def sub_lru():
    @lru_cache(maxsize=None)
    def g(h):
        return mex(g(h - s) for s in (1, 3, 4) if s <= h)
    for k in range(n_sub):
        g(k)
    return g(n_sub)

def gg_game():
    game = grundy.Game(options=lambda h: [(a, h - a) for a in range(1, (h + 1) // 2)],
                       components=grundy.tuple_components)
    return game.sequence(n_gg).values[-1]

def gg_lru():
    @lru_cache(maxsize=None)
    def g(h):
        return mex(g(a) ^ g(h - a) for a in range(1, (h + 1) // 2))
    return [g(k) for k in range(n_gg + 1)][-1]

assert sub_game() == sub_lru() and gg_game() == gg_lru()
for name, ours, theirs in (("subtraction (lru bottom-up)", sub_game, sub_lru),
                           ("grundys-game", gg_game, gg_lru)):
    a, b = best(ours), best(theirs)
    print(f"  {name:26} {a:8.3f} s | {b:8.3f} s | {a / b:.2f}")
EOF

export PYTHONPATH="$tmp"
echo "user CPU seconds and peak RSS, $rounds alternating rounds; ratio = grundy.Game / lru_cache"
echo "(each cell: grundy.Game | lru_cache | ratio)"
for r in $(seq 1 "$rounds"); do
  echo "round $r"
  ours=$(measure "$py" "$tmp/sub_game.py" "$n_sub")
  theirs=$(measure "$py" "$tmp/sub_lru.py" "$n_sub" recursive)
  row "subtraction n=$n_sub, recursion" "$ours" "$theirs"
  theirs=$(measure "$py" "$tmp/sub_lru.py" "$n_sub" bottom-up)
  row "subtraction n=$n_sub, bottom-up" "$ours" "$theirs"
  ours=$(measure "$py" "$tmp/gg_game.py" "$n_gg" tuple_components)
  theirs=$(measure "$py" "$tmp/gg_lru.py" "$n_gg")
  row "grundys-game G(0..$n_gg)" "$ours" "$theirs"
  ours=$(measure "$py" "$tmp/gg_game.py" "$n_gg" lambda)
  row "  (components a lambda)" "$ours" "$theirs"
done
echo "in one process (no start-up or import), user CPU, best of 5: grundy.Game | lru_cache | ratio"
"$py" "$tmp/in_process.py" "$n_sub" "$n_gg"
