#!/usr/bin/env bash
# Misère quotients side by side: our `grundy misere-quotient` against A. N. Siegel's MisereSolver
# (Java, inside CGSuite's sources), on the same machine, alternating runs, printing CPU seconds
# and the ratio ours/theirs. CGSuite's sources are never committed: the script copies
# MisereSolver's sources out of a CGSuite checkout into .bench/misere-solver/ (ignored by git),
# patches them (the method that reads heap options through CGSuite's Scala rules becomes a call
# to a plain octal-code reader; the .msv file loader and the Scala imports are removed), and
# compiles them with javac. What is committed is ours alone, in this script: the patch, the
# HeapRuleset interface and the Bench driver (Octal reader, timing of the main thread).
#
# Usage: scripts/bench-misere.sh [CODE MAX_HEAP]...     (default: 0.07 30 0.07 33)
#   CGSUITE_GIT   a CGSuite git directory (bare or not) [default: /work/.mirror/aaron-siegel+cgsuite/repo]
#   RUNS          alternating runs per side [default: 3]
#   TIMEOUT       seconds allowed per run [default: 300]
# Needs javac (Debian: apt-get install -y openjdk-17-jdk-headless) and a release build of grundy.
set -euo pipefail
cd "$(dirname "$0")/.."

CGSUITE_GIT=${CGSUITE_GIT:-/work/.mirror/aaron-siegel+cgsuite/repo}
RUNS=${RUNS:-3}
TIMEOUT=${TIMEOUT:-300}
if [ $# -eq 0 ]; then set -- 0.07 30 0.07 33; fi

command -v javac >/dev/null || { echo "javac missing: apt-get install -y openjdk-17-jdk-headless" >&2; exit 2; }
[ -d "$CGSUITE_GIT" ] || { echo "no CGSuite checkout at $CGSUITE_GIT (set CGSUITE_GIT)" >&2; exit 2; }

dir=.bench/misere-solver
pkg=org/cgsuite/core/misere/solver
src_path=lib/core/src/main/scala/$pkg
rm -rf "$dir" && mkdir -p "$dir/src/$pkg" "$dir/classes"
for f in BipartiteMonoid CommutativeMonoid DirectSumMonoid ExplicitFiniteMonoid MisereSolver Pretension Relation Word; do
  git --git-dir="$CGSUITE_GIT/.git" show "HEAD:$src_path/$f.java" > "$dir/src/$pkg/$f.java" 2>/dev/null \
    || git --git-dir="$CGSUITE_GIT" show "HEAD:$src_path/$f.java" > "$dir/src/$pkg/$f.java"
done

# Patch: CGSuite's Scala rule classes out, a plain interface in; the .msv loader constructor
# (XML files) out. Everything else of MisereSolver is compiled as it is.
python3 - "$dir/src/$pkg/MisereSolver.java" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = re.sub(r"import org\.cgsuite\.core\.impartial\.[A-Za-z]+;\n", "", s)
s = re.sub(r"import scala\.[A-Za-z.]+;\n", "", s)
start = s.index("    public MisereSolver(InputStream msvInputStream)")
end = s.index("    public HeapRuleset getRules()")
s = s[:start] + s[end:]
start = s.index("    public List<int[]> heapOptions(int heapSize) {")
end = s.index("    public void next()")
s = s[:start] + "    public List<int[]> heapOptions(int heapSize) {\n        return rules.options(heapSize);\n    }\n\n" + s[end:]
open(p, "w").write(s)
PY

cat > "$dir/src/$pkg/HeapRuleset.java" <<'JAVA'
package org.cgsuite.core.misere.solver;

import java.util.List;

/** The options of one heap, each a list of heaps (bench driver; replaces CGSuite's rules). */
interface HeapRuleset {
    List<int[]> options(int heap);
}
JAVA
cat > "$dir/src/$pkg/TimeoutException.java" <<'JAVA'
package org.cgsuite.core.misere.solver;

class TimeoutException extends RuntimeException {}
JAVA
cat > "$dir/src/$pkg/Bench.java" <<'JAVA'
package org.cgsuite.core.misere.solver;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/** Bench driver: Q_N of an octal code 0.d1d2... with MisereSolver; prints order, |P|, CPU s. */
public class Bench {
    static final class Octal implements HeapRuleset {
        final int[] digits; // digits[k] for k >= 1
        Octal(String code) {
            String d = code.substring(code.indexOf('.') + 1);
            digits = new int[d.length() + 1];
            for (int k = 0; k < d.length(); k++) digits[k + 1] = Character.digit(d.charAt(k), 16);
        }
        public List<int[]> options(int n) {
            List<int[]> out = new ArrayList<>();
            for (int k = 1; k < digits.length && k <= n; k++) {
                int d = digits[k], r = n - k;
                if ((d & 1) != 0 && r == 0) out.add(new int[0]);
                if ((d & 2) != 0 && r > 0) out.add(new int[] {r});
                if ((d & 4) != 0) for (int a = 1; 2 * a <= r; a++) out.add(new int[] {a, r - a});
            }
            return out;
        }
        public String toString() { return "bench"; }
    }

    public static void main(String[] args) {
        String code = args[0];
        int max = Integer.parseInt(args[1]);
        MisereSolver solver = new MisereSolver(new Octal(code));
        long t0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        while (solver.p.prefn.size() <= max) solver.next();
        long t1 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        System.out.println(solver.p.quotient.size() + " " + solver.p.quotient.pPortionSize() + " " + (t1 - t0) / 1e9);
    }
}
JAVA
# MisereSolver's constructor takes CGSuite's HeapRuleset; ours has the same simple name in the
# solver's own package, so the patched file compiles against it unchanged.
javac -nowarn -d "$dir/classes" "$dir/src/$pkg"/*.java 2> "$dir/javac.log" || { cat "$dir/javac.log" >&2; exit 1; }

cargo build --release --quiet -p grundy-cli
ours=target/release/grundy

cpu_ours() { # CPU seconds (user + sys) of one run, and its order / |P|
  local out
  out=$( { /usr/bin/time -f "%U %S" timeout "$TIMEOUT" "$ours" misere-quotient "$1" --max-heap "$2" --no-stop --quiet --json > "$dir/ours.json"; } 2>&1 | tail -1)
  python3 -c "import json,sys; r=json.load(open('$dir/ours.json')); u,s='$out'.split(); print(r['order'], r['p_portion_size'], round(float(u)+float(s),3))"
}
cpu_theirs() {
  timeout "$TIMEOUT" java -cp "$dir/classes" org.cgsuite.core.misere.solver.Bench "$1" "$2"
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) (shared: ratios, not absolute times)"
while [ $# -ge 2 ]; do
  code=$1 n=$2; shift 2
  ours_t=() theirs_t=()
  for ((i = 1; i <= RUNS; i++)); do
    read -r oq op ot < <(cpu_ours "$code" "$n")
    read -r tq tp tt < <(cpu_theirs "$code" "$n")
    echo "  $code Q_$n run $i: ours |Q|=$oq |P|=$op ${ot}s   MisereSolver |Q|=$tq |P|=$tp ${tt}s"
    [ "$oq $op" = "$tq $tp" ] || echo "  DISAGREE: ours $oq/$op, MisereSolver $tq/$tp"
    ours_t+=("$ot") theirs_t+=("$tt")
  done
  python3 - "$code" "$n" "${ours_t[*]}" "${theirs_t[*]}" <<'PY'
import statistics, sys
code, n, a, b = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
ma, mb = statistics.median(map(float, a)), statistics.median(map(float, b))
print(f"{code} Q_{n}: median CPU ours {ma:.3f} s, MisereSolver {mb:.3f} s, ratio {ma / mb:.3f}x")
PY
done
