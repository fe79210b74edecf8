#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: builds the nvidia-ci configuration, runs every gpu test, the
# profiler's main job and a short GEMM benchmark next to the vendor baseline (PyTorch: cuBLAS),
# so both are measured in the same run. Logs go to $OUT (default: build/gpu-check).
#   scripts/gpu-check.sh [preset]      preset defaults to nvidia-ci
set -uo pipefail
cd "$(dirname "$0")/.."
preset="${1:-nvidia-ci}"
out="${OUT:-build/gpu-check}"
mkdir -p "$out"
cmake --preset "$preset" > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build --preset "$preset" -j "$(nproc)" > "$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -30; exit 1; }
bin="build/$preset/bin"
ctest --test-dir "build/$preset" -L gpu -j 4 --output-on-failure > "$out/ctest_gpu.log" 2>&1
echo "gpu tests: $(grep -E 'tests passed|tests failed' "$out/ctest_gpu.log")"
grep -E "\*\*\*Failed|Not Run|Exception" "$out/ctest_gpu.log" | head -20
"$bin/cktile-profiler" gemm --m=4096 --n=4096 --k=4096 --verify --json="$out/main.json" > "$out/main.txt" 2>&1
echo "profiler main job rc=$?"; tail -8 "$out/main.txt"
