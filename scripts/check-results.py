#!/usr/bin/env python3
"""Check a results file of `grundy takebreak --results` against a checkpoint, independently of
the program: plain Python reads the checkpoint's values and recomputes the summary.

    scripts/check-results.py CHECKPOINT RESULTS_FILE [RESULTS_FILE ...]
    scripts/check-results.py --saved-count CHECKPOINT

CHECKPOINT is a file written by `--checkpoint FILE` (its layout is in the module docs of
`grundy::takebreak::checkpoint`: magic, format, engine, code, then in format 2 two records
(generation, count, CRC-32 of the head and the values) and the values appended in place, in
format 1 a count, the values and a CRC-32 of everything before). As the program does, the
script trusts a format-2 file up to the newest intact record whose CRC the values match: when
the newest record's values fail their CRC (a file damaged after its last save) it says so and
falls back to the older record, and a summary past that record's count is reported as not in
the checkpoint. Each RESULTS_FILE is a summary at a power of two (`N.txt`): the
script checks the CRC of the checkpoint, then for each summary the SHA-256 of G(0..=N) as
little-endian u16, the count of every value over heaps 1..=N, the largest value and the heap
where it first occurs. It prints one line per summary and exits 1 on any difference, 2 on a
file it cannot read.
Memory: a few MB (the values are read in blocks). Time: about a minute per 10^9 values.

With --saved-count it prints only how many values the file's newest intact record (or its
format-1 count) says it holds, reading the head alone: a way to watch a run that saves
(`scripts/check-resume.sh`, the Python tests); nothing is checked beyond the head.
"""

import hashlib
import os
import struct
import sys
import zlib
from array import array
from collections import Counter

BLOCK = 1 << 24  # values per read


def record(raw):
    """A format-2 record (generation, count, crc), or None when torn or never written."""
    gen, count, crc, own = struct.unpack("<QQII", raw[:24])
    if zlib.crc32(raw[:20]) != own or gen == 0:
        return None
    return gen, count, crc


def header(f):
    """Format, engine version and name, code, the records (count of values and their CRC-32,
    newest first; one record whose CRC is None for format 1: it follows the values), where the
    head the CRC covers ends and where the values start. Exits on a file the program refuses
    outright (cut short, or of another length than its format 1 count announces)."""

    def take(k):
        raw = f.read(k)
        if len(raw) != k:
            sys.exit("the checkpoint is cut short inside its head")
        return raw

    magic = f.read(8)
    if magic != b"GRUNDYCK":
        # not a checkpoint at all: bad input (2), not a damaged checkpoint (1)
        print(f"not a checkpoint (magic {magic!r})", file=sys.stderr)
        sys.exit(2)
    fmt, version = struct.unpack("<II", take(8))
    (elen,) = struct.unpack("<H", take(2))
    engine = take(elen).decode()
    (clen,) = struct.unpack("<I", take(4))
    code = take(clen).decode()
    if fmt == 1:
        (count,) = struct.unpack("<Q", take(8))
        start = f.tell()
        if os.fstat(f.fileno()).st_size != start + 2 * count + 4:
            sys.exit(f"its length does not match the {count} values it announces")
        return fmt, version, engine, code, [(count, None)], start, start
    if fmt != 2:
        print(f"checkpoint format {fmt}: this script reads formats 1 and 2", file=sys.stderr)
        sys.exit(2)
    head = f.tell()
    slots = take(64)
    start = head + 64
    # measured after the records, as the program does: a run appending now writes its values
    # before the record that counts them
    size = os.fstat(f.fileno()).st_size
    records = [record(slots[i : i + 32]) for i in (0, 32)]
    records = [r for r in records if r and start + 2 * r[1] <= size]
    if not records:
        sys.exit("no intact record of the values in the checkpoint")
    # newest first; of two records with the same generation (a file no run writes) the first
    # slot's, as the program takes it
    records.sort(key=lambda r: r[0], reverse=True)
    return fmt, version, engine, code, [(c, crc) for _, c, crc in records], head, start


def saved_count(path):
    """How many values the checkpoint at `path` holds as its newest intact record (or its
    format-1 count) says, from its head alone (the values are not read)."""
    with open(path, "rb") as f:
        return header(f)[4][0][0]


def summary(path):
    """The header fields and the histogram of a results file."""
    head, counts = {}, {}
    for line in open(path):
        if line.startswith("# n "):
            head["n"] = int(line.split()[2])
        elif line.startswith("# largest value"):
            w = line.split()
            head["max"], head["first"] = int(w[3]), int(w[-1])
        elif line.startswith("# sha256"):
            head["sha"] = line.split()[-1]
        elif not line.startswith("#") and not line.startswith("rare"):
            v, c = line.split()
            counts[int(v)] = int(c)
    return head, counts


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--saved-count":
        print(saved_count(sys.argv[2]))
        return
    if len(sys.argv) < 3 or sys.argv[1].startswith("--"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    ckpt, files = sys.argv[1], sys.argv[2:]
    wanted = sorted((summary(p) + (p,) for p in files), key=lambda s: s[0]["n"])
    with open(ckpt, "rb") as f:
        fmt, version, engine, code, records, head, start = header(f)
        most = max(count for count, _ in records)
        f.seek(0)
        crc = zlib.crc32(f.read(head))
        f.seek(start)
        sha = hashlib.sha256()
        hist = Counter()
        done = 0  # values read so far
        largest, first = 0, 0
        # the CRC of the head and the first `count` values, at each record's count
        crc_at = {}
        # (n, path, problems, what was found) for the summaries within `most`
        results = []
        stops = sorted({count for count, _ in records} | {h["n"] + 1 for h, _, _ in wanted})
        summaries = iter(wanted)
        pending = next(summaries, None)
        for stop in stops:
            if stop > most:
                break
            while done < stop:
                take = min(BLOCK, stop - done)
                raw = f.read(2 * take)
                crc = zlib.crc32(raw, crc)
                sha.update(raw)
                vals = array("H")
                vals.frombytes(raw)
                if sys.byteorder == "big":
                    vals.byteswap()
                hist.update(vals)
                top = max(vals)
                if top > largest:
                    largest, first = top, done + vals.index(top)
                done += take
            crc_at[done] = crc
            while pending is not None and pending[0]["n"] + 1 == done:
                want, counts, path = pending
                got = dict(hist)
                got[0] -= 1  # heap 0 is not in the summary's counts (heaps 1..=N)
                got = {v: c for v, c in got.items() if c}
                problems = []
                if sha.copy().hexdigest() != want["sha"]:
                    problems.append("SHA-256 differs")
                if got != counts:
                    problems.append("the value counts differ")
                if (largest, first) != (want["max"], want["first"]):
                    problems.append(f"largest value {largest} first at {first}")
                found = (
                    f" (SHA-256 {sha.copy().hexdigest()[:16]}, {len(got)} values occur,"
                    f" largest {largest} first at {first})"
                )
                results.append((want["n"], path, problems, found))
                pending = next(summaries, None)
        # the newest record whose CRC the values match is what the file proves (as the program)
        count, ok = records[0][0], False
        for k, (held, want_crc) in enumerate(records):
            if want_crc is None:
                tail = f.read()
                kept = struct.unpack("<I", tail)[0] if len(tail) == 4 else None
                ok = kept is not None and kept == crc_at.get(held)
            else:
                ok = crc_at.get(held) == want_crc
            if ok:
                count = held
                if k > 0:
                    print(
                        f"{ckpt}: the newest record ({records[0][0]} values) fails its"
                        " CRC-32; the older record stands (the program resumes from it)"
                    )
                break
        if not ok:
            print(f"{ckpt}: no record's CRC-32 matches its values (the program refuses it)")
        values = f"G(0..={count - 1}) ({count} values)" if count else "no values"
        print(f"{ckpt}: {code}, engine {engine} v{version}, format {fmt}, {values}")
        bad = 0
        found_in = {path: (problems, found) for _, path, problems, found in results}
        for h, _, path in wanted:
            n = h["n"]
            if n + 1 > count:
                print(f"{path}: G(0..={n}) is not in the checkpoint (it holds {count} values)")
                bad += 1
                continue
            problems, found = found_in[path]
            verdict = "agrees" if not problems else "; ".join(problems)
            print(f"{path}: G(0..={n}) {verdict}{found}")
            bad += bool(problems)
        print(f"{ckpt}: CRC-32 " + ("agrees" if ok else "DIFFERS"))
        bad += not ok
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    try:
        main()
    except OSError as e:
        # a file that cannot be read: one line, exit status 2 (1 means a difference was found)
        print(f"check-results.py: {e}", file=sys.stderr)
        sys.exit(2)
    except (KeyError, ValueError, IndexError) as e:
        print(
            f"check-results.py: a results file is not a summary of --results ({e})", file=sys.stderr
        )
        sys.exit(2)
