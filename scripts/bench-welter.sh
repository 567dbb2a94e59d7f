#!/usr/bin/env bash
# Time `grundy welter` on a million coins read from a file: the value alone (--value-only), then
# value, outcome and every winning move. Usage: scripts/bench-welter.sh [COINS]
# The squares are (i · 2654435761) mod 4294967311 for i = 1..COINS: distinct (the multiplier is
# invertible modulo that prime), spread over 32 bits, reproducible without any tool but awk.
set -euo pipefail
cd "$(dirname "$0")/.."
coins="${1:-1000000}"
cargo build --release -q -p grundy-cli
file="$(mktemp)"
trap 'rm -f "$file"' EXIT
awk -v n="$coins" 'BEGIN { for (i = 1; i <= n; i++) printf "%.0f\n", (i * 2654435761) % 4294967311 }' > "$file"
echo "$coins coins in $(du -h "$file" | cut -f1) of text"
for what in "--value-only" ""; do
  echo "grundy welter --input FILE --json ${what:-(value, outcome and every winning move)}"
  for run in 1 2 3; do
    /usr/bin/env time -f "  run $run: %e s wall, %U s user, %S s system, %M KB max memory" \
      target/release/grundy welter --input "$file" --json $what > /dev/null
  done
done
target/release/grundy welter --input "$file" | head -4
