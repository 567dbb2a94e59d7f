#!/usr/bin/env python3
"""How far the witness search for Officers (0.6) must scan, heap by heap.

For each heap n in a sample, the candidate mex c is the smallest common value that no option
with a rare part (nor the take move) produces; every rare value below c that those options do
not produce needs a common-common split (a, n - 1 - a) producing it. This prints how many such
values there are and after how many splits the last one turns up, for several scan orders.
Common values: an odd number of bits in v & 0b1_1110_1110 (the 1584 rare positions of Grossman,
"Searching for periodicity in Officers", Games of No Chance 5, 2019, all up to n = 20627).

    scripts/officers-witnesses.py [N0 [COUNT]]      # default: heaps 280000 .. 280059
Needs target/release/grundy (cargo build --release -p grundy-cli).
"""

import os
import statistics
import subprocess
import sys

n0 = int(sys.argv[1]) if len(sys.argv) > 1 else 280000
count = int(sys.argv[2]) if len(sys.argv) > 2 else 60
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = subprocess.run(
    [
        os.path.join(root, "target/release/grundy"),
        "takebreak",
        "0.6",
        "-n",
        str(n0 + count),
        "--print",
        "--no-extend",
        "--no-checkpoint",
        "--no-record",
    ],
    check=True,
    capture_output=True,
    text=True,
).stdout
g = [
    int(x)
    for line in out.split("values:\n")[1].splitlines()
    if ":" in line
    for x in line.split(":")[1].split()
]
common = [bin(v & 0x1EE).count("1") % 2 == 1 for v in range(1 << 16)]
is_common = [common[v] for v in g]
rare = [i for i in range(1, len(g)) if not is_common[i]]
print(f"rare positions >= 1: {len(rare)}, the last at {rare[-1]}")


def search(n, order):
    """(candidate, rare values needing a witness, splits scanned until the last is found)"""
    m = n - 1
    produced = {g[m]} | {g[a] ^ g[m - a] for a in rare if a < m}
    c = 0
    while not common[c] or c in produced:
        c += 1
    wanted = {r for r in range(c) if not common[r] and r not in produced}
    targets, scanned = len(wanted), 0
    for a in order(m):
        if not wanted:
            break
        scanned += 1
        if is_common[a] and is_common[m - a]:
            wanted.discard(g[a] ^ g[m - a])
    assert not wanted and c == g[n], "the mex is a rare value: not this simulation's case"
    return c, targets, scanned


orders = {
    "bottom up": lambda m: range(1, m // 2 + 1),
    "middle out": lambda m: range(m // 2, 0, -1),
    "7 interleaved strides": lambda m: (a for s in range(7) for a in range(1 + s, m // 2 + 1, 7)),
}
heaps = range(n0, n0 + count)
for name, order in orders.items():
    runs = [search(n, order) for n in heaps]
    scans = [r[2] for r in runs]
    print(
        f"{name:>22}: heaps {n0}..{n0 + count - 1}: mean candidate "
        f"{statistics.mean(r[0] for r in runs):.1f}, mean rare values to witness "
        f"{statistics.mean(r[1] for r in runs):.1f}, splits scanned mean "
        f"{statistics.mean(scans):.0f} median {statistics.median(scans):.0f} max {max(scans)}"
    )
