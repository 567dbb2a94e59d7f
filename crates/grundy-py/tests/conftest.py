"""Shared helpers: run the CLI (GRUNDY_BIN, default target/release/grundy) with --json."""

from __future__ import annotations

import atexit
import json
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
from typing import Any, List

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
BIN = os.environ.get("GRUNDY_BIN", str(ROOT / "target" / "release" / "grundy"))

# The CLI runs and the package's default catalogue and checkpoints use a scratch user data
# directory of this test session, never the user's own (nor another session's).
_DATA_HOME = tempfile.mkdtemp(prefix="grundy-pytest-data-")
atexit.register(shutil.rmtree, _DATA_HOME, True)
os.environ["XDG_DATA_HOME"] = _DATA_HOME
os.environ.pop("GRUNDY_DB", None)

# The Ctrl-C tests send SIGINT and expect KeyboardInterrupt. A shell starts a background
# command without job control (`cmd &` in a script, nohup) with SIGINT ignored, and Python then
# installs no handler of its own, in this process or in the children it starts: those tests
# would fail although the code is right. Put Python's handler back, as an interactive start
# would have it; children then start with the default action (exec resets a caught signal) and
# install theirs.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def plain(value: Any) -> Any:
    """The CLI's JSON with big numbers written as decimal strings (team convention: above
    2^53 - 1) turned back into ints, so that it compares with the package's Python ints."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return value


def run_cli(*args: str, status: int = 0) -> Any:
    """`grundy ARGS --json`, parsed; the exit status must be `status`."""
    done = subprocess.run(
        [BIN, *args, "--json"], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == status, (args, done.returncode, done.stderr)
    return plain(json.loads(done.stdout)) if status != 2 else None


def cli_error(*args: str) -> str:
    """The one-line message of a CLI run that fails with status 2 (without 'grundy: ')."""
    done = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2, (args, done.returncode, done.stdout)
    line = done.stderr.strip()
    assert "\n" not in line
    assert line.startswith("grundy: ")
    return line[len("grundy: ") :]


def mex(values: Any) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def ints(xs: List[int]) -> str:
    return " ".join(str(x) for x in xs)


@pytest.fixture(scope="session", autouse=True)
def cli_built() -> None:
    if not os.path.exists(BIN):
        pytest.fail(f"the CLI binary {BIN} is missing: cargo build --release -p grundy-cli")
