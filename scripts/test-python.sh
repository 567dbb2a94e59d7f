#!/usr/bin/env bash
# The Python package's tests: build the extension with maturin into a virtual environment
# (.venv-ci/, created on first use) and run pytest, which compares every family with the CLI's
# --json and with small brute forces, and checks the examples of docs/python.md.
# Needs the Rust toolchain and CPython 3 with pip and venv; PyPI must be reachable the first time.
# PYTHON=python3.12 scripts/test-python.sh picks another interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
venv=.venv-ci
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
# numpy, matplotlib, networkx and tqdm are optional for users; the tests cover those paths too.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "maturin>=1.5,<2" pytest \
  numpy matplotlib networkx tqdm
# hypothesis: the property tests of the public API against the CLI (tests/test_properties.py).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check hypothesis
# dask and distributed are optional for users (the extra "dask"); the census tests start a
# real distributed.LocalCluster.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check dask distributed
# The notebooks of docs/notebooks/ are executed by the tests (nbclient, a kernel; pandas for the
# catalogue table).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check nbformat nbclient ipykernel \
  pandas

# black and mypy check the Python code's style and types (pinned to a major version: a new
# major black may restyle code that was formatted).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "black>=26,<27" \
  "mypy>=2,<3"

# The tests run the CLI beside the package to compare their answers.
cargo build --release --quiet -p grundy-cli
# A module left by an earlier build (another Python version, or before the abi3 wheel) would be
# imported instead of the fresh one.
rm -f crates/grundy-py/python/grundy/_grundy.*so
VIRTUAL_ENV="$PWD/$venv" "$venv/bin/maturin" develop --release --quiet \
  --manifest-path crates/grundy-py/Cargo.toml

# Style and types (settings in crates/grundy-py/pyproject.toml): the package, its tests and the
# scripts are black-formatted; mypy checks the package against the extension's stub, and
# stubtest checks the stub against the extension just built.
"$venv/bin/black" --check --quiet --config crates/grundy-py/pyproject.toml \
  crates/grundy-py/python crates/grundy-py/tests scripts/*.py
(cd crates/grundy-py && "../../$venv/bin/mypy" \
  && "../../$venv/bin/python" -m mypy.stubtest grundy._grundy --allowlist stubtest-allowlist.txt)

GRUNDY_BIN="$PWD/target/release/grundy" "$venv/bin/python" -m pytest crates/grundy-py/tests "$@"
