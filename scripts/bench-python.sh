#!/usr/bin/env bash
# Benchmark: the Grundy sequence of 0.16 up to n = 10^7 through the Python package against the
# CLI, run side by side and alternating, printing user CPU seconds, peak memory and the ratio
# Python / CLI for each round. Run scripts/test-python.sh first (it builds both into
# target/release and .venv-ci). ROUNDS=5 N=10000000 CODE=0.16 scripts/bench-python.sh
# Both sides compute the same thing: no checkpoint and no catalogue record for the CLI (the
# package keeps neither), no printing of the values. The Python process pays for starting the
# interpreter and importing grundy; call_s is the user CPU time of the call alone (getrusage
# around it, in the same process), and call_ratio compares it with the CLI's whole run.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${ROUNDS:-3}
n=${N:-10000000}
code=${CODE:-0.16}
py=.venv-ci/bin/python
cli=target/release/grundy
for f in "$py" "$cli"; do
  [ -x "$f" ] || { echo "missing $f: run scripts/test-python.sh first" >&2; exit 2; }
done

measure() { # prints "user_seconds peak_kib" of the command (its stdout: grundy-bench-out)
  /usr/bin/time -f '%U %M' -o /tmp/grundy-bench-time.$$ "$@" >/tmp/grundy-bench-out.$$
  cat /tmp/grundy-bench-time.$$
}

echo "takebreak $code, n = $n: user CPU seconds and peak RSS, $rounds alternating rounds"
printf '%-6s %10s %10s %10s %10s %8s %8s %10s\n' round cli_s cli_mib python_s python_mib ratio \
  call_s call_ratio
call="import grundy, resource
user = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_utime
t = user(); grundy.takebreak('$code', n=$n); print(user() - t)"
for r in $(seq 1 "$rounds"); do
  read -r cu cm < <(measure "$cli" takebreak "$code" -n "$n" --json --no-checkpoint --no-record)
  read -r pu pm < <(measure "$py" -c "$call")
  pc=$(cat /tmp/grundy-bench-out.$$)
  awk -v r="$r" -v cu="$cu" -v cm="$cm" -v pu="$pu" -v pm="$pm" -v pc="$pc" 'BEGIN {
    printf "%-6s %10.2f %10.1f %10.2f %10.1f %8.3f %8.3f %10.3f\n", r, cu, cm / 1024, pu,
      pm / 1024, pu / cu, pc, pc / cu }'
done

# What the Python process pays before the call: the interpreter, then the import (user CPU
# of 10 runs, divided by 10: one run is below the 10 ms resolution of time(1)).
echo "python start-up, user CPU seconds per run (mean of 10):"
for what in "pass" "import grundy"; do
  read -r su _ < <(measure bash -c "for i in 1 2 3 4 5 6 7 8 9 10; do '$py' -c '$what'; done")
  awk -v w="$what" -v u="$su" 'BEGIN { printf "  python -c %-16s %6.3f s\n", "\x27" w "\x27", u / 10 }'
done
rm -f /tmp/grundy-bench-time.$$ /tmp/grundy-bench-out.$$

echo "import time (python -X importtime, cumulative microseconds of the grundy package):"
"$py" -X importtime -c 'import grundy' 2>&1 | awk -F'|' '$3 ~ / grundy$/ { gsub(/ /, "", $2); print "  import grundy: " $2 " us" }'
