#!/usr/bin/env bash
# Census benchmark (issue 24): which codes dominate a census, how the local pool and a Dask
# cluster share it, and the whole census of every 0.??, 0.??? and 4.?? code to 2^20 (or certified).
#
#   scripts/bench-census.sh sample    # default: per-code cost at two sizes, extrapolated to 2^20
#   scripts/bench-census.sh workers   # Dask 1 worker vs 2 workers vs the local pool, alternating
#   scripts/bench-census.sh schedule  # how well the census's order shares codes between 2 workers
#   scripts/bench-census.sh full      # the whole census through a Dask LocalCluster (hours here)
#
# sample: the census at n = 2^13 and 2^15 (not recorded, no checkpoints) on both cores; each code
#   not certified by 2^15 gets a growth exponent e from its two times (t ~ n^e; e near 1: a
#   sparse space, near 2: none — quadratic) and an estimate t(2^20) = t(2^15) * 32^e. Prints
#   the slowest codes and the sum, i.e. what the whole census would cost on one core.
# workers: one pattern (PATTERN, default 0.3??) at n = N (default 2^15) through
#   grundy.census(executor=Client) on a LocalCluster of 1 and of 2 worker processes, and through
#   grundy.census(jobs=2) (the Rust pool), ROUNDS times alternating (default 2); prints codes/s,
#   the 2-worker/1-worker ratio and the Dask/pool time ratio.
# schedule: the question of the 2-worker target without the noise of a loaded machine. Each code
#   of PATTERN (default 0.3??) is run alone to N (default 2^17, until certified) and its CPU time
#   (user + system) taken; then the two workers are simulated on those times, each free worker
#   taking the next code, once in pattern order and once in the order the census hands codes
#   out (the library's costliest-first estimate, grundy._grundy.CensusSession.pending()). Prints
#   the sum, each order's makespan and the 2-worker/1-worker throughput ratio (sum / makespan:
#   2.00 is perfect), and how long the estimate's pilot runs took.
# The machine this was written on is shared: alternate, repeat, and read ratios, not seconds.
# Needs target/release/grundy (cargo build --release -p grundy-cli) and, for workers/full, the
# venv of scripts/test-python.sh (.venv-ci with grundy, dask and distributed).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-sample}
grundy=${GRUNDY_BIN:-target/release/grundy}
py=${PYTHON:-.venv-ci/bin/python}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export GRUNDY_LOCK_DIR=${GRUNDY_LOCK_DIR:-$out/locks}
patterns=("0.??" "0.???" "4.??")

case $mode in
sample)
  # per-code times are wall-clock: on a loaded machine they are inflated by wall / (CPU / cores),
  # printed here so that the estimates can be scaled to a quiet machine
  for k in 13 15; do
    n=$((1 << k))
    /usr/bin/time -f "census of ${patterns[*]} to n = 2^$k: %e s wall, %U s user CPU" \
      "$grundy" census "${patterns[@]}" -n "$n" --jobs 0 --no-record --no-checkpoint --json \
      >"$out/census-$k.json"
  done
  python3 - "$out/census-13.json" "$out/census-15.json" <<'EOF'
import json, math, sys
a = {r["code"]: r for r in json.load(open(sys.argv[1]))["results"]}
b = {r["code"]: r for r in json.load(open(sys.argv[2]))["results"]}
print(f"{len(b)} codes; {sum(r['certified'] for r in b.values())} certified by 2^15")
est = []
for code, r in b.items():
    if r["certified"]:
        continue
    t13, t15 = max(a[code]["seconds"], 1e-4), max(r["seconds"], 1e-4)
    e = max(0.5, min(2.5, math.log(t15 / t13, 4)))
    est.append((t15 * 32 ** e, e, t15, code, r["engine"], r["max_value"], r["rare_values"]))
est.sort(reverse=True)
total = sum(x[0] for x in est)
print(f"{len(est)} codes not certified by 2^15; estimated wall time to 2^20 on one core "
      f"(each code's own growth): {total / 3600:.1f} h (on two: {total / 7200:.1f} h)")
quadratic = sum(x[2] * 1024 for x in est)
print(f"the same with every code quadratic from 2^15: {quadratic / 3600:.1f} h; "
      f"linear: {sum(x[2] * 32 for x in est) / 3600:.1f} h")
quad = [x for x in est if x[1] > 1.6]
print(f"{len(quad)} of them grow faster than n^1.6 (no sparse space) and cost "
      f"{sum(x[0] for x in quad) / total:.0%} of it")
print("slowest (estimate s at 2^20, exponent, s at 2^15, code, engine, max value, rare values):")
for x in est[:15]:
    print(f"  {x[0]:9.0f}  {x[1]:.2f}  {x[2]:6.2f}  {x[3]:6} {x[4]:6} {x[5]:5} {x[6]}")
EOF
  ;;
workers)
  # a file, not stdin: Dask's worker processes import the main module again
  cat >"$out/workers.py" <<'EOF'
import sys, time, grundy, distributed


def main():
    pattern, n, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    run(pattern, n, rounds)


def run(pattern, n, rounds):
    def timed(**kw):
        t = time.perf_counter()
        r = grundy.census(pattern, n, checkpoint_dir=False, progress=False, **kw)
        return time.perf_counter() - t, r
    clusters = {w: distributed.LocalCluster(n_workers=w, threads_per_worker=1, processes=True,
                                            dashboard_address=None) for w in (1, 2)}
    clients = {w: distributed.Client(c) for w, c in clusters.items()}
    times = {"dask 1": [], "dask 2": [], "pool 2": []}
    busy = {"dask 1": [], "dask 2": [], "pool 2": []}
    codes = None
    for i in range(rounds):
        for name in ("dask 1", "dask 2", "pool 2"):
            if name == "pool 2":
                s, r = timed(jobs=2)
            else:
                s, r = timed(executor=clients[int(name[-1])])
            codes = r["codes"]
            times[name].append(s)
            # how busy the workers were: the codes' own times over workers x the census's
            # time (1.0: no worker ever waited; idle workers at the end, or Dask's per-task
            # overhead, lower it). Unlike the throughput ratio it stays meaningful when the
            # machine is loaded, as long as the load is even over the run.
            work = sum(x["seconds"] for x in r["results"])
            busy[name].append(work / (int(name[-1]) * s))
            print(f"round {i + 1} {name}: {s:.2f} s ({codes / s:.1f} codes/s), workers busy "
                  f"{busy[name][-1]:.0%}", flush=True)
    for name, b in busy.items():
        print(f"{name}: workers busy {min(b):.0%}-{max(b):.0%} of the census's time")
    best = {k: min(v) for k, v in times.items()}
    print(f"{pattern} to n = {n}: {codes} codes; best of {rounds}: "
          + ", ".join(f"{k} {v:.2f} s" for k, v in best.items()))
    print(f"2 workers / 1 worker throughput: {best['dask 1'] / best['dask 2']:.2f}x")
    print(f"Dask (2 workers) / local pool (2 threads) time: {best['dask 2'] / best['pool 2']:.3f}")
    for c in clients.values():
        c.close()
    for c in clusters.values():
        c.close()


if __name__ == "__main__":
    main()
EOF
  "$py" "$out/workers.py" "${PATTERN:-0.3??}" "${N:-32768}" "${ROUNDS:-2}"
  ;;
schedule)
  pattern=${PATTERN:-0.3??}
  n=${N:-131072}
  cat >"$out/order.py" <<'EOF'
import sys, time
from grundy import _grundy

pattern, n, locks = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t = time.perf_counter()
s = _grundy.CensusSession([pattern], n, checkpoint="off", lock_dir=locks)
opened = time.perf_counter() - t
print(f"census opened (its pilot runs included) in {opened:.3f} s wall", file=sys.stderr)
for i in s.pending():
    print(s.code(i))
EOF
  "$py" "$out/order.py" "$pattern" "$n" "$GRUNDY_LOCK_DIR" >"$out/order.txt"
  : >"$out/cpu.txt"
  while read -r code; do
    /usr/bin/time -f "$code %U %S" -a -o "$out/cpu.txt" \
      "$grundy" takebreak "$code" -n "$n" --until-period --no-checkpoint >/dev/null 2>&1
  done <"$out/order.txt"
  python3 - "$out/order.txt" "$out/cpu.txt" "$pattern" "$n" <<'EOF'
import heapq, sys

census = [line.strip() for line in open(sys.argv[1]) if line.strip()]
cpu = {}
for line in open(sys.argv[2]):
    code, user, system = line.split()
    cpu[code] = float(user) + float(system)


def key(code):  # pattern order: digit by digit
    digits = code.replace(".", "")
    return [int(d, 8) for d in digits] + [-1] * (8 - len(digits))


pattern_order = sorted(census, key=key)
total = sum(cpu.values())


def makespan(order, workers=2):
    free = [0.0] * workers
    for code in order:
        heapq.heappush(free, heapq.heappop(free) + cpu[code])
    return max(free)


print(f"{sys.argv[3]} to n = {sys.argv[4]}: {len(census)} codes, {total:.2f} s of CPU in all, "
      f"the longest {max(cpu.values()):.2f} s ({max(cpu, key=cpu.get)})")
for name, order in (("pattern order", pattern_order), ("census order", census)):
    m = makespan(order)
    print(f"  {name:14} 2 workers: makespan {m:.2f} s, 2 workers / 1 worker {total / m:.2f}x")
print("  census order, first ten: " + " ".join(census[:10]))
EOF
  ;;
full)
  cat >"$out/full.py" <<'EOF'
import sys, time, grundy, distributed

if __name__ == "__main__":
    out, n = sys.argv[1], int(sys.argv[2])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        t = time.perf_counter()
        r = grundy.census(["0.??", "0.???", "4.??"], n, executor=c,
                          catalogue=f"{out}/full.sqlite3", checkpoint_dir=out, progress=True)
        print(f"{r['codes']} codes to n = {n}: {r['certified']} certified, "
              f"{time.perf_counter() - t:.0f} s; catalogue {out}/full.sqlite3")
EOF
  "$py" "$out/full.py" "$out" "${N:-1048576}"
  ;;
*)
  echo "usage: $0 [sample|workers|schedule|full]" >&2
  exit 2
  ;;
esac
echo "files in $out"
