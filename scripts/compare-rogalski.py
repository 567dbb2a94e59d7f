#!/usr/bin/env python3
"""Compare grundy's value histograms at powers of two with Piotr Rogalski's published ones.

Rogalski's repository (github.com/rogalski-wmii-uni-lodz-pl/octal) publishes, for 0.014,
0.034, 0.161, 0.167 and 0.172, one file per power of two N in `results/CODE/N`: lines
`value count`, the histogram of G(1..=N) (checked by hand on 0.161 at N = 4: G(1..=4) = 1, 0,
2, 1 and the file says 0:1, 1:2, 2:1). `grundy takebreak CODE -n N --results DIR` writes the
same histogram, with more, into `DIR/CODE/N.txt` at each power of two from 1024. This script
reads both and compares them value by value; his files are read from a checkout or a bare git
directory of his repository (nothing of it is copied into grundy).

Usage:
  grundy takebreak 0.167 -n 16777216 --results res --no-record --no-checkpoint --no-extend
  scripts/compare-rogalski.py --ours res --theirs /path/to/rogalski/octal [CODE...]

Prints one line per (code, N) compared and a summary; exit status 1 if a histogram differs or
nothing could be compared, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys


def parse_histogram(text: str, where: str) -> dict[int, int]:
    counts: dict[int, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if parts[0].isalpha():
            continue  # grundy's other records ("rare HEAP VALUE"), not the histogram
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ValueError(f"{where}:{number}: expected 'value count', found {line!r}")
        value, count = int(parts[0]), int(parts[1])
        if value in counts:
            raise ValueError(f"{where}:{number}: value {value} listed twice")
        if count:
            counts[value] = count
    return counts


class Theirs:
    """Rogalski's results folder, from a work tree or a (bare) git directory."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.git: str | None = None
        if os.path.isdir(os.path.join(path, "results")):
            return
        for git_dir in (path, os.path.join(path, ".git")):
            if os.path.isfile(os.path.join(git_dir, "HEAD")):
                self.git = git_dir
                return
        raise ValueError(f"--theirs {path}: neither a checkout with results/ nor a git directory")

    def read(self, code: str, n: int) -> str | None:
        name = f"results/{code}/{n}"
        if self.git is None:
            try:
                with open(os.path.join(self.path, name), encoding="ascii") as f:
                    return f.read()
            except FileNotFoundError:
                return None
        done = subprocess.run(
            ["git", "--git-dir", self.git, "show", f"HEAD:{name}"],
            capture_output=True,
            text=True,
        )
        return done.stdout if done.returncode == 0 else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ours", required=True, help="the folder given to --results")
    parser.add_argument("--theirs", required=True, help="Rogalski's octal repository")
    parser.add_argument("codes", nargs="*", help="codes to compare (default: every code in --ours)")
    args = parser.parse_args()
    try:
        theirs = Theirs(args.theirs)
    except ValueError as e:
        print(f"compare-rogalski: {e}", file=sys.stderr)
        return 2
    if not os.path.isdir(args.ours):
        print(f"compare-rogalski: --ours {args.ours}: not a folder", file=sys.stderr)
        return 2
    codes = args.codes or sorted(os.listdir(args.ours))
    compared = differ = missing = 0
    for code in codes:
        folder = os.path.join(args.ours, code)
        if not os.path.isdir(folder):
            print(f"{code}: no results in {args.ours}")
            missing += 1
            continue
        sizes = sorted(
            int(f[:-4]) for f in os.listdir(folder) if f[:-4].isdigit() and f.endswith(".txt")
        )
        for n in sizes:
            where = os.path.join(folder, f"{n}.txt")
            with open(where, encoding="utf-8") as f:
                ours = parse_histogram(f.read(), where)
            text = theirs.read(code, n)
            if text is None:
                print(f"{code} N={n}: not published")
                missing += 1
                continue
            published = parse_histogram(text, f"{args.theirs}:results/{code}/{n}")
            compared += 1
            total = sum(ours.values())
            if ours == published:
                print(
                    f"{code} N={n}: equal ({len(ours)} values, {total} heaps, largest {max(ours)})"
                )
                continue
            differ += 1
            keys = sorted(set(ours) | set(published))
            diffs = [(v, ours.get(v, 0), published.get(v, 0)) for v in keys]
            diffs = [d for d in diffs if d[1] != d[2]]
            shown = ", ".join(f"{v}: ours {a} theirs {b}" for v, a, b in diffs[:5])
            print(f"{code} N={n}: DIFFERENT at {len(diffs)} values ({shown})")
    print(
        f"compared {compared} histograms: {compared - differ} equal, {differ} different"
        f" ({missing} not compared)"
    )
    return 1 if differ or not compared else 0


if __name__ == "__main__":
    sys.exit(main())
