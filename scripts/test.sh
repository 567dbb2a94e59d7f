#!/usr/bin/env bash
# The whole test suite: the Rust workspace (library, CLI, docs examples), then the Python
# package (built with maturin into .venv-ci/ and tested with pytest). This is the README's test
# command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --release
bash scripts/test-python.sh
bash scripts/test-web.sh
