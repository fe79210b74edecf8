#!/usr/bin/env bash
# Builds cktile and runs every test: cpu tests run; gpu tests run on a machine with a GPU and
# are reported as skipped, with their reason, where there is none.
#   scripts/run-tests.sh [preset]      preset defaults to ci (see CMakePresets.json)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-ci}"
scripts/install-deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
ctest --test-dir "build/$preset" --output-on-failure -j "$(nproc)"
