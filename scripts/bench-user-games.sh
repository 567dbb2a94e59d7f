#!/usr/bin/env bash
# Games written by a user against the `Game` trait (crates/grundy/examples/), timed side by side
# with their peers, alternating runs (ours, peer, ours, peer, ...), RUNS times each (default 5):
#
#   bt          Code Jam 2019 1C "Bacterial Tactics", 100 random 15x15 cases (the example's
#               deterministic generator, seed 1), the Game with inline positions (SmallVec)
#               handing its options over as parts (Game::option_parts)
#   bt-vec      the same Game with Vec positions, as the guide's first example writes them
#   bt-options  the same Game (inline positions) without option_parts: options built whole
#               and split with components()
#               -- all three against the hand-written rectangle DP in the same example (--dp)
#   grundy      Grundy's game as a Game, one heap of 5000, against `igsolve grundy -p 5000`
#   grundy-seq  the same Game asked for G(0..=5000), one value at a time, against the same
#
# It prints the median user CPU of each side, the ratio (ours / peer; below 1.0 we are
# faster), the larger peak memory of each side (/usr/bin/time %M, KB), and checks the answers
# agree (the DP's output, igsolve's nimber).
# Usage: scripts/bench-user-games.sh [RUNS] [WORKLOAD...]
# igsolve is installed into .bench/ (gitignored) by `cargo install igsolve` when absent.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
shift || true
workloads=("$@")
if [ ${#workloads[@]} -eq 0 ]; then
  workloads=(bt bt-vec bt-options grundy grundy-seq)
fi
igsolve=.bench/bin/igsolve
if [ ! -x "$igsolve" ]; then
  echo "installing igsolve into .bench/ ..." >&2
  cargo install -q igsolve --root .bench
fi
cargo build --release -q -p grundy --example bacterial_tactics --example grundys_game
bt=target/release/examples/bacterial_tactics
gg=target/release/examples/grundys_game
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$bt" --generate 100 15 1 > "$tmp/cases.txt"

# One timed run of "$@" with stdin from $input: appends "user_seconds max_kb" to $log and
# leaves the command's stdout in $tmp/out. The user CPU comes from os.wait4 on /usr/bin/time
# (its rusage counts the command it reaped), to 1 ms: /usr/bin/time's own %U has 0.01 s steps,
# too coarse for the hand DP's 0.06 s. Peak memory is /usr/bin/time's %M (KB).
timed() {
  local log="$1"
  shift
  python3 - "$input" "$tmp/out" "$tmp/time" "$@" >> "$log" <<'PY'
import os, subprocess, sys
stdin, stdout, mem, *command = sys.argv[1:]
with open(stdin, "rb") as i, open(stdout, "wb") as o:
    child = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", mem] + command,
                             stdin=i, stdout=o, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped above
if status != 0:
    sys.exit(f"failed: {' '.join(command)}")
with open(mem) as m:
    print(f"{usage.ru_utime:.3f} {m.read().split()[-1]}")
PY
}

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '%-11s %9s %9s %7s %11s %11s  %s\n' workload ours_s peer_s ratio ours_max_kb peer_max_kb answers
for w in "${workloads[@]}"; do
  input=/dev/null
  case "$w" in
    bt) input="$tmp/cases.txt"; ours=("$bt"); peer=("$bt" --dp) ;;
    bt-vec) input="$tmp/cases.txt"; ours=("$bt" --vec); peer=("$bt" --dp) ;;
    bt-options) input="$tmp/cases.txt"; ours=("$bt" --options-only); peer=("$bt" --dp) ;;
    grundy) ours=("$gg" 5000); peer=("$igsolve" grundy -p 5000) ;;
    grundy-seq) ours=("$gg" --sequence 5000); peer=("$igsolve" grundy -p 5000) ;;
    *) echo "unknown workload $w (bt, bt-vec, bt-options, grundy, grundy-seq)" >&2; exit 2 ;;
  esac
  : > "$tmp/ours.log"
  : > "$tmp/peer.log"
  for _ in $(seq "$runs"); do
    timed "$tmp/ours.log" "${ours[@]}"
    mv "$tmp/out" "$tmp/ours.out"
    timed "$tmp/peer.log" "${peer[@]}"
    mv "$tmp/out" "$tmp/peer.out"
  done
  case "$w" in
    bt*)
      agree="$(grep -c '^Case' "$tmp/ours.out") cases"
      cmp -s "$tmp/ours.out" "$tmp/peer.out" && agree="$agree, same answers" || agree="$agree DISAGREE"
      ;;
    grundy*)
      ov="$(sed -nE 's/^G\(5000\) = ([0-9]+)$/\1/p' "$tmp/ours.out")"
      [ -n "$ov" ] || ov="$(tr ' ' '\n' < "$tmp/ours.out" | tail -1)"
      iv="$(sed -nE 's/^Nimber of initial position: ([0-9]+).*/\1/p' "$tmp/peer.out")"
      agree="G(5000): ours $ov, igsolve $iv"
      [ "$ov" = "$iv" ] || agree="$agree DISAGREE"
      ;;
  esac
  ou="$(cut -d' ' -f1 "$tmp/ours.log" | median)"
  pu="$(cut -d' ' -f1 "$tmp/peer.log" | median)"
  om="$(cut -d' ' -f2 "$tmp/ours.log" | sort -n | tail -1)"
  pm="$(cut -d' ' -f2 "$tmp/peer.log" | sort -n | tail -1)"
  ratio="$(awk -v a="$ou" -v b="$pu" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }')"
  printf '%-11s %9s %9s %7s %11s %11s  %s\n' "$w" "$ou" "$pu" "$ratio" "$om" "$pm" "$agree"
done
echo "(user CPU in seconds, median of $runs alternating runs, 1 ms resolution; peak memory by /usr/bin/time)"
