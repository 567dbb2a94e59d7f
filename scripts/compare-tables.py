#!/usr/bin/env python3
"""Compare grundy with Tomek Czajka's octal-games tables (scripts/data/tczajka-octal.txt).

The tables cover every code 0.?, 0.??, 0.???, 4.?, 4.?? and 4.??? (1022 codes): a lookup of
each code's canonical game, the "trivial" games' values (periodic within 1000 heaps), the
"solved" games' periods with their largest value and rare values, and the unsolved games.
This checks, for every code:

- values: for a code whose game is trivial, G_code(n + k) equals the table's values (extended
  by their period) for n < 4096, for one shift k in 0..4 (the lookup says "the same game up to
  a shift" and does not say which);
- the census (`--db`, the catalogue of a census of these codes): a code certified periodic
  has the canonical game's period, and its last exception is the table's prefix - 1 shifted
  by k (when the prefix is not 0); a solved or unsolved game not certified here is reported
  "not yet periodic to n" (with what its certificate would need); a code the tables call
  unsolved but the census certifies is flagged;
- groups: codes the catalogue recognises as one game (`grundy catalogue --table`) are one game
  in the lookup, and the reverse where both were computed;
- with `--stats`: the solved games' largest value, where it first occurs, and their rare
  positions (count and last), recomputed from G(0..prefix + period); and the statistics of the
  unsolved 0.6, 0.04 and 0.06 to the table's n (2^21, 2^17, 2^17; minutes, not seconds).

Usage: scripts/compare-tables.py --db CATALOGUE [--stats] [--grundy target/release/grundy]
Prints one line per code that is not simply in agreement, and a summary; exit status 1 if
anything disagrees.
"""

from __future__ import annotations

import argparse
import os
import sys

from octal_facts import GRUNDY, HERE, catalogue_table, finish, values

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
COMPARED = 4096
MAX_SHIFT = 4


def read_tables(path: str):
    same, trivial, solved, unsolved = {}, {}, {}, {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        kind, code, *rest = line.rstrip("\n").split("|")
        if kind == "same":
            same[code] = rest[0]
        elif kind == "trivial":
            pre, per, vals = rest
            trivial[code] = (int(pre), int(per), [DIGITS.index(c) for c in vals])
        elif kind == "solved":
            pre, per, at, largest, mask, count, last = rest
            solved[code] = dict(
                prefix=int(pre),
                period=int(per),
                largest_at=int(at),
                largest=int(largest),
                mask=mask,
                count=count,
                last=last,
            )
        elif kind == "unsolved":
            n, at, largest, mask, count, last = rest
            unsolved[code] = dict(
                n=n, largest_at=at, largest=largest, mask=mask, count=count, last=last
            )
        else:
            raise SystemExit(f"{path}: unknown line kind {kind!r}")
    return same, trivial, solved, unsolved


def periodic(pre: int, per: int, head: list[int], n: int) -> list[int]:
    """The first n values of a sequence periodic from pre with period per."""
    return [head[i] if i < pre + per else head[pre + (i - pre) % per] for i in range(n)]


def find_shift(ours: list[int], theirs: list[int]):
    for k in range(MAX_SHIFT + 1):
        if ours[k : k + len(theirs)] == theirs[: len(ours) - k]:
            return k
    return None


def rare_stats(vals: list[int], mask: int):
    """The rare positions under a mask: count, last, and (largest value, where first)."""
    rare = [i for i, v in enumerate(vals) if bin(v & mask).count("1") % 2 == 0]
    big = max(vals)
    return len(rare), (rare[-1] if rare else None), big, vals.index(big)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True, help="the catalogue of a census of these codes")
    ap.add_argument("--grundy", default=GRUNDY)
    ap.add_argument("--data", default=os.path.join(HERE, "data", "tczajka-octal.txt"))
    ap.add_argument(
        "--stats",
        action="store_true",
        help="recompute the solved and unsolved games' statistics (minutes)",
    )
    args = ap.parse_args()
    same, trivial, solved, unsolved = read_tables(args.data)
    table = catalogue_table(args.grundy, args.db)
    rows = {r["code"]: r for r in table["rows"]}
    group_of = {m["code"]: g["base"] for g in table["groups"] for m in g["members"]}
    # G_code(n) = G_base(n + shift) for the members of our groups
    shift_in_group = {m["code"]: m["shift"] for g in table["groups"] for m in g["members"]}

    disagreements: list[str] = []
    notes: list[str] = []
    counts = dict(codes=0, in_census=0, values=0, periods=0, not_yet=0, unsolved_ok=0, groups=0)
    shifts: dict[str, int] = {}
    for code in sorted(same):
        canon = same[code]
        counts["codes"] += 1
        # values of trivial games, every code (the census need not have them)
        if canon in trivial:
            pre, per, head = trivial[canon]
            theirs = periodic(pre, per, head, COMPARED)
            ours = values(args.grundy, code, COMPARED + MAX_SHIFT - 1)
            k = find_shift(ours, theirs)
            if k is None:
                i = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
                disagreements.append(
                    f"{code} (as {canon}): G({i}) = {ours[i]} here, "
                    f"{theirs[i]} in the table, and no shift up to "
                    f"{MAX_SHIFT} makes them agree"
                )
            else:
                counts["values"] += 1
                shifts[code] = k
        row = rows.get(code)
        if row is None:
            continue
        counts["in_census"] += 1
        entry = trivial.get(canon) or solved.get(canon)
        if entry is not None:
            pre, per = (
                (entry[0], entry[1]) if canon in trivial else (entry["prefix"], entry["period"])
            )
            # k: G_code(n + k) = G_canon(n); from the values for trivial games, else from our
            # groups (the lookup does not say)
            k = shifts.get(code)
            if k is None:
                if code == canon:
                    k = 0
                elif group_of.get(code) is not None and group_of.get(code) == group_of.get(canon):
                    k = shift_in_group[canon] - shift_in_group[code]
                else:
                    notes.append(f"{code} (as {canon}): no shift known (not one group here)")
                    k = 0
            if row["status"] == "periodic":
                last = row["last_exception"]
                want = pre - 1 + k if pre > 0 else None
                ok_last = last == want or (pre == 0 and (last is None or last < k))
                if row["period"] == per and ok_last:
                    counts["periods"] += 1
                else:
                    disagreements.append(
                        f"{code} (as {canon}, shift {k}): period {row['period']}, last "
                        f"exception {last} here; the table: period {per}, prefix {pre}"
                    )
            else:
                counts["not_yet"] += 1
                need = 2 * (pre + k) + 2 * per
                verdict = (
                    f"{code} (as {canon}): not yet periodic to {row['n']}; the table's "
                    f"period {per} from {pre}"
                )
                if need <= row["n"]:
                    disagreements.append(verdict + f" would be certified by n = {need}")
                else:
                    notes.append(verdict + f" (its certificate needs n >= {need})")
        elif canon in unsolved:
            if row["status"] == "periodic":
                disagreements.append(
                    f"{code} (as {canon}): certified periodic here (period {row['period']}, "
                    f"last exception {row['last_exception']}), unsolved in the table"
                )
            else:
                counts["unsolved_ok"] += 1
        else:
            base = group_of.get(code)
            known = f"; here it is one game with {base}, as {same.get(base)}" if base else ""
            notes.append(f"{code} (as {canon}): the tables list no {canon}{known}")
        # groups: a group of ours must be one game of the lookup
        base = group_of.get(code)
        if (
            base is not None
            and base != code
            and base in same
            and canon in {**trivial, **solved, **unsolved}
        ):
            if same[base] == canon:
                counts["groups"] += 1
            else:
                disagreements.append(
                    f"{code} is grouped with {base} here, but the lookup "
                    f"has {code} as {canon} and {base} as {same[base]}"
                )

    # the reverse: codes of one game in the lookup, all in the census, are one group here
    classes: dict[str, set[str]] = {}
    for code, canon in same.items():
        if code in rows:
            classes.setdefault(canon, set()).add(group_of.get(code, code))
    for canon, bases in sorted(classes.items()):
        if len(bases) > 1:
            disagreements.append(
                f"the lookup's game {canon} is {len(bases)} groups here: "
                + ", ".join(sorted(bases))
            )

    if args.stats:
        for canon, e in sorted(solved.items()):
            if not e["mask"] or e["mask"] == "1+pos":
                notes.append(f"{canon}: rare mask {e['mask'] or 'not stated'}: not compared")
                mask = None
            else:
                mask = int(e["mask"], 16)
            vals = values(args.grundy, canon, e["prefix"] + e["period"] - 1)
            big = max(vals)
            at = vals.index(big)
            line = f"{canon}: largest {big} at {at}"
            bad = (big, at) != (e["largest"], e["largest_at"])
            if mask is not None:
                count, last, _, _ = rare_stats(vals, mask)
                line += f", {count} rare positions, the last at {last}"
                bad |= (str(count), str(last)) != (e["count"], e["last"])
            (disagreements if bad else notes).append(
                line + (" — the table: " + str(e) if bad else " (as the table)")
            )
        for canon, e in sorted(unsolved.items()):
            if not e["n"]:
                continue
            vals = values(args.grundy, canon, int(e["n"]) - 1)
            count, last, big, at = rare_stats(vals, int(e["mask"], 16))
            mine = (str(at), str(big), str(count), str(last))
            theirs = (e["largest_at"], e["largest"], e["count"], e["last"])
            line = (
                f"{canon} to n = {e['n']}: largest {big} at {at}, {count} rare positions "
                f"(mask {e['mask']}), the last at {last}"
            )
            (notes if mine == theirs else disagreements).append(
                line + (" (as the table)" if mine == theirs else f" — the table: {theirs}")
            )

    for n in notes:
        print(n)
    summary = (
        f"\n{counts['codes']} codes in the tables; trivial games' values agree for "
        f"{counts['values']} codes (G(0..{COMPARED - 1}), shifted); {counts['in_census']} in "
        f"the census: {counts['periods']} certified with the table's period and prefix, "
        f"{counts['not_yet']} solved games not yet periodic here, {counts['unsolved_ok']} "
        f"unsolved games not periodic here; {counts['groups']} of our groupings confirmed "
        f"by the lookup; {len(disagreements)} disagreements"
    )
    return finish(summary, disagreements)


if __name__ == "__main__":
    sys.exit(main())
