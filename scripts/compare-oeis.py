#!/usr/bin/env python3
"""Compare a census with the OEIS entries A071426-A071518 (scripts/data/oeis-octal.txt).

For every code of the census families (0.??, 0.??? and 4.??) that an entry names — in its
title or as "octal game X has values a(n-k)" — this checks:

- the first 40 terms of the entry against G(n) computed here (`grundy takebreak CODE --print`),
  shifted by k;
- the period and the last exception the entry states against the catalogue's table
  (`grundy catalogue --table --json --db DB`): a code the census certified must have that period
  and last exception (shifted by k); a code not certified must be one whose certificate lies
  beyond the values the census computed, and is reported "not yet periodic to n".

Usage: scripts/compare-oeis.py --db CATALOGUE [--grundy target/release/grundy] [--markdown]
Prints one line per compared code and a summary; exit status 1 if anything disagrees.
"""

from __future__ import annotations

import argparse
import os
import sys

from octal_facts import GRUNDY, HERE, canonical, catalogue_table, finish, run_json


def census_code(code: str) -> bool:
    """Whether a code belongs to the census families 0.??, 0.??? and 4.??."""
    d0, _, rest = code.partition(".")
    return (d0 == "0" and 1 <= len(rest) <= 3) or (d0 == "4" and len(rest) <= 2)


def read_entries(path: str):
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        anum, names, also, offset, period, last, terms = line.rstrip("\n").split("|")
        codes = [(canonical(c), 0) for c in names.split()]
        for item in also.split():
            c, k = item.rsplit(":", 1)
            codes.append((canonical(c), int(k)))
        yield {
            "anum": anum,
            "codes": codes,
            "offset": int(offset),
            "period": int(period) if period else None,
            "last": int(last) if last else None,
            "terms": [int(t) for t in terms.split(",")],
        }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True, help="the census's catalogue")
    ap.add_argument("--grundy", default=GRUNDY)
    ap.add_argument("--data", default=os.path.join(HERE, "data", "oeis-octal.txt"))
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = ap.parse_args()
    table = catalogue_table(args.grundy, args.db)
    rows = {r["code"]: r for r in table["rows"]}
    compared = values_ok = periods_ok = not_yet = 0
    disagreements = []
    lines = []
    for e in read_entries(args.data):
        for code, k in e["codes"]:
            if not census_code(code):
                continue
            compared += 1
            first = e["offset"] + k
            n = first + len(e["terms"]) - 1
            ours = run_json(
                args.grundy,
                "takebreak",
                code,
                "-n",
                str(n),
                "--print",
                "--no-record",
                "--no-checkpoint",
            )["values"][first:]
            same = ours == e["terms"]
            if same:
                values_ok += 1
            else:
                i = next(i for i, (a, b) in enumerate(zip(ours, e["terms"])) if a != b)
                disagreements.append(
                    f"{code} ({e['anum']}, shift {k}): G({first + i}) = {ours[i]} here, "
                    f"{e['terms'][i]} in the entry"
                )
            row = rows.get(code)
            stated = (
                f"period {e['period']}, last exception {e['last'] + k}"
                if e["period"] is not None
                else "no period stated"
            )
            if row is None:
                verdict = "not in the catalogue"
                disagreements.append(f"{code} ({e['anum']}): not in the catalogue")
            elif row["status"] == "periodic":
                mine = (row["period"], row["last_exception"])
                if e["period"] is None:
                    verdict = (
                        f"periodic here: period {mine[0]}, last exception {mine[1]} "
                        f"(the entry states no period)"
                    )
                    periods_ok += 1
                elif mine[0] == e["period"] and (mine[1] or 0) == e["last"] + k:
                    verdict = f"agrees: {stated}"
                    periods_ok += 1
                else:
                    verdict = f"DISAGREES: here period {mine[0]}, last exception {mine[1]}"
                    disagreements.append(f"{code} ({e['anum']}): {verdict}; entry: {stated}")
            else:
                not_yet += 1
                verdict = f"not yet periodic to {row['n']}"
                if e["period"] is not None:
                    # the periodicity theorem needs 2(last + 1) + 2 period + t values at least
                    need = 2 * (e["last"] + k + 1) + 2 * e["period"]
                    if need <= row["n"]:
                        verdict += f" — but the entry's period would be certified by n = {need}"
                        disagreements.append(f"{code} ({e['anum']}): {verdict}")
                    else:
                        verdict += f" (entry: {stated}; its certificate needs n >= {need})"
            lines.append((code, e["anum"], k, same, verdict))
    if args.markdown:
        print("| code | OEIS | shift | first 40 values | period |")
        print("|---|---|--:|---|---|")
    for code, anum, k, same, verdict in sorted(lines):
        if args.markdown:
            print(f"| {code} | {anum} | {k} | {'agree' if same else 'DIFFER'} | {verdict} |")
        else:
            print(f"{code:7} {anum} shift {k}: values {'agree' if same else 'DIFFER'}; {verdict}")
    summary = (
        f"\n{compared} codes compared with {sum(1 for _ in read_entries(args.data))} entries: "
        f"first values agree for {values_ok}; {periods_ok} periodic here "
        f"(period and last exception agree where the entry states them); {not_yet} not yet "
        f"periodic to the census's n; {len(disagreements)} disagreements"
    )
    return finish(summary, disagreements)


if __name__ == "__main__":
    sys.exit(main())
