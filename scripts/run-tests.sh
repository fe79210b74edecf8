#!/usr/bin/env bash
# Builds cktile and runs every test: cpu tests run; gpu tests run on a machine with a GPU and
# are reported as skipped, with their reason, where there is none.
#   scripts/run-tests.sh [preset]      preset defaults to ci (see CMakePresets.json)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-ci}"
scripts/install-deps.sh
cmake --preset "$preset"
# ptxas reports, as "Potential Performance Loss" notes, the Hopper kernels whose wgmma pipeline it
# had to serialize (each MMA waiting for the previous one): a build that ships such a kernel
# fails here, since no test without a GPU would notice.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
cmake --build --preset "$preset" -j "$(nproc)" 2>&1 | tee "$log"
if grep -q "Potential Performance Loss" "$log"; then
    echo "error: ptxas serialized the wgmma pipeline of these kernels:" >&2
    grep -o "Potential Performance Loss: .*" "$log" | sort -u >&2
    exit 1
fi
ctest --test-dir "build/$preset" --output-on-failure -j "$(nproc)"
