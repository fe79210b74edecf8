#!/usr/bin/env bash
# Builds cktile and runs its main job on the first GPU: cktile-profiler on a 4096^3 fp16 GEMM,
# every supporting instance timed and verified against the CPU reference, beside cuBLASLt where
# the build has it. On a machine without a GPU it says so plainly and exits with code 2.
#   scripts/run-main.sh [preset]       preset defaults to default (see CMakePresets.json)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-default}"
scripts/install-deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
exec "build/$preset/bin/cktile-profiler" gemm --m=4096 --n=4096 --k=4096 --verify
