#!/usr/bin/env bash
# Our generic engine (`grundy cram`, `grundy chomp`) against Beling's igsolve, side by side:
# each workload runs alternately ours / igsolve, RUNS times each (default 3), and the script
# prints the median user CPU of both, their ratio (ours / igsolve; below 1.0 we are faster) and
# the larger peak memory (/usr/bin/time %M, KB). Both compute the Grundy value of the start and
# nothing else: ours runs with --no-moves (igsolve does not list winning moves).
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

# One timed run: prints "user_seconds max_kb" and checks the command succeeded.
timed() {
  local out
  out="$(mktemp)"
  /usr/bin/time -f '%U %M' -o "$out" "$@" > "$out.stdout" 2> /dev/null
  cat "$out"
  rm -f "$out" "$out.stdout"
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
  agree="ours $ours_value, igsolve $igs_value"
  [ "$ours_value" = "$igs_value" ] || agree="$agree  DISAGREE"
  printf '%-12s %10s %10s %7s %12s %12s  %s\n' "$w" "$ou" "$iu" "$ratio" "$om" "$im" "$agree"
  rm -f /tmp/bench-generic-ours.$$ /tmp/bench-generic-igs.$$
done
echo "(user CPU in seconds, median of $runs alternating runs; /usr/bin/time has 0.01 s resolution)"
