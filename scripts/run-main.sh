#!/usr/bin/env bash
# Builds cktile and runs its main job on the first GPU. On a machine without a GPU it says so
# plainly and exits with code 2.
#   scripts/run-main.sh [preset]       preset defaults to default (see CMakePresets.json)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
scripts/install-deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
exec "build/$preset/bin/cktile-smoke"
