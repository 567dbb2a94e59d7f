#!/usr/bin/env bash
# The web page's tests: `grundy serve` driven by a real browser (Debian's chromium and
# chromium-driver, through Selenium from Python), plus its HTTP API. Part of the README's test
# command (scripts/test.sh). Saves screenshots into docs/img/web-*.png.
# Needs: the Rust toolchain, python3 with venv (PyPI reachable the first time), and chromium +
# chromedriver (.ci/run installs them on Debian-like machines). Without a browser the browser
# tests are skipped with the reason printed; the API tests still run.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
venv=.venv-ci
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "selenium>=4.10,<5" pytest

cargo build --release --quiet -p grundy-cli
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  echo "test-web: no chromium installed: the browser tests will be skipped (apt-get install chromium chromium-driver)" >&2
fi
# Selenium must not try to download a driver: we name the system's.
SE_OFFLINE=true GRUNDY_BIN="$PWD/target/release/grundy" \
  "$venv/bin/python" -m pytest -q -rs crates/grundy-web/tests/browser "$@"
