"""What the comparison scripts share: code names, running grundy, reading a census's catalogue.

Used by scripts/compare-oeis.py and scripts/compare-tables.py (not a public module).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GRUNDY = os.path.join(HERE, "..", "target", "release", "grundy")


def canonical(code: str) -> str:
    """A code as the catalogue writes it: `.56` -> `0.56`, `4` -> `4.0`, trailing zeros dropped."""
    code = "0" + code if code.startswith(".") else code
    d0, _, rest = code.partition(".")
    rest = rest.rstrip("0")
    return f"{d0}.{rest}" if rest else f"{d0}.0"


def run_json(grundy: str, *args: str):
    """`grundy ARGS --json`, parsed; when grundy is missing or refuses, its message and exit 2."""
    try:
        out = subprocess.run([grundy, *args, "--json"], capture_output=True, text=True)
    except OSError as e:
        print(
            f"cannot run {grundy}: {e.strerror} (build it: cargo build --release -p grundy-cli, "
            f"or give --grundy)",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
    if out.returncode != 0:
        message = out.stderr.strip().splitlines()[-1:] or [f"exit status {out.returncode}"]
        print(f"{' '.join(['grundy', *args])}: {message[0]}", file=sys.stderr)
        raise SystemExit(2)
    return json.loads(out.stdout)


def values(grundy: str, code: str, n: int) -> list[int]:
    """G(0..=n) of a code, computed to n (no period read-off, nothing recorded)."""
    return run_json(
        grundy,
        "takebreak",
        code,
        "-n",
        str(n),
        "--print",
        "--no-extend",
        "--no-record",
        "--no-checkpoint",
    )["values"]


def catalogue_table(grundy: str, db: str) -> dict:
    """`grundy catalogue --table --json --db DB`: the rows by code, and the groups."""
    table = run_json(grundy, "catalogue", "--table", "--db", db)
    return table


def finish(summary: str, disagreements: list[str]) -> int:
    """Print a comparison's summary and its disagreements; the exit status (1 if any)."""
    print(summary)
    for d in disagreements:
        print("DISAGREEMENT:", d)
    return 1 if disagreements else 0
