#!/usr/bin/env bash
# Our generic engine (`grundy cram`, `grundy chomp`) against Beling's igsolve, side by side:
# each workload runs alternately ours / igsolve, RUNS times each (default 3), and the script
# prints the median user CPU of both, their ratio (ours / igsolve; below 1.0 we are faster) and
# the larger peak memory (KB). Both compute the Grundy value of the start and nothing else: ours
# runs with --no-moves (igsolve does not list winning moves).
#
# How it measures: a few lines of python3 start each run under /usr/bin/time and collect it with
# os.wait4, which returns the user CPU of that run (ru_utime, which counts the reaped command
# under /usr/bin/time; reported to 1 ms — /usr/bin/time's own 0.01 s is too coarse for boards
# that take 0.02 s). Peak memory is /usr/bin/time's %M (KB): the python process's own resident
# memory would leak into the ru_maxrss of a child it forks.
#
# Usage: scripts/bench-generic.sh [RUNS] [WORKLOAD...]   workloads like cram:3x11 chomp:12x12
# igsolve is installed into .bench/ (gitignored) by `cargo install igsolve` when absent.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
shift || true
workloads=("$@")
if [ ${#workloads[@]} -eq 0 ]; then
  workloads=(cram:3x11 cram:4x7 cram:5x6 cram:5x8 chomp:11x11 chomp:12x12)
fi
igsolve=.bench/bin/igsolve
if [ ! -x "$igsolve" ]; then
  echo "installing igsolve into .bench/ ..." >&2
  cargo install -q igsolve --root .bench
fi
cargo build --release -q -p grundy-cli
ours=target/release/grundy

# One timed run of "$@" (output discarded): prints "user_seconds max_kb", fails if the command
# does.
timed() {
  python3 - "$@" <<'PY'
import os, subprocess, sys, tempfile
with tempfile.NamedTemporaryFile("r") as mem:
    child = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", mem.name] + sys.argv[1:],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # collected above
    if status != 0:
        sys.exit(f"failed: {' '.join(sys.argv[1:])}")
    print(f"{usage.ru_utime:.4f} {mem.read().split()[-1]}")
PY
}

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '%-12s %10s %10s %7s %12s %12s  %s\n' workload ours_s igsolve_s ratio ours_max_kb igs_max_kb values
for w in "${workloads[@]}"; do
  game="${w%%:*}"
  size="${w#*:}"
  rows="${size%x*}"
  cols="${size#*x}"
  ours_value="$("$ours" "$game" "$size" --json --no-moves | sed -E 's/.*"grundy_value":([0-9]+).*/\1/')"
  igs_value="$("$igsolve" "$game" -r "$rows" -c "$cols" 2>&1 | sed -nE 's/^Nimber of initial position: ([0-9]+).*/\1/p')"
  : > /tmp/bench-generic-ours.$$
  : > /tmp/bench-generic-igs.$$
  for _ in $(seq "$runs"); do
    timed "$ours" "$game" "$size" --json --no-moves >> /tmp/bench-generic-ours.$$
    timed "$igsolve" "$game" -r "$rows" -c "$cols" >> /tmp/bench-generic-igs.$$
  done
  ou="$(cut -d' ' -f1 /tmp/bench-generic-ours.$$ | median)"
  iu="$(cut -d' ' -f1 /tmp/bench-generic-igs.$$ | median)"
  om="$(cut -d' ' -f2 /tmp/bench-generic-ours.$$ | sort -n | tail -1)"
  im="$(cut -d' ' -f2 /tmp/bench-generic-igs.$$ | sort -n | tail -1)"
  ratio="$(awk -v a="$ou" -v b="$iu" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }')"
  ou="$(awk -v a="$ou" 'BEGIN { printf "%.3f", a }')"
  iu="$(awk -v a="$iu" 'BEGIN { printf "%.3f", a }')"
  agree="ours $ours_value, igsolve $igs_value"
  [ "$ours_value" = "$igs_value" ] || agree="$agree  DISAGREE"
  printf '%-12s %10s %10s %7s %12s %12s  %s\n' "$w" "$ou" "$iu" "$ratio" "$om" "$im" "$agree"
  rm -f /tmp/bench-generic-ours.$$ /tmp/bench-generic-igs.$$
done
echo "(user CPU in seconds, median of $runs alternating runs, measured by os.wait4 to 1 ms; peak memory %M in KB)"
