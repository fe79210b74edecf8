#!/usr/bin/env bash
# Memory-bound benchmarks on a machine with a GPU: cktile-profiler for reduce, softmax, norm and
# transpose on the shapes of docs/performance.md ("Memory-bound operations"), then the PyTorch
# baseline of the same shapes (scripts/vendor_baseline.py --only copy,mem), so both come from one run.
#   scripts/bench_memory_bound.sh [build dir] [output dir]
# Every profiler row is verified against the CPU reference before it is timed; JSON per problem
# goes to the output dir (default: the build dir's bench-memory-bound/).
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/nvidia-ci}"
out="${2:-$build/bench-memory-bound}"
mkdir -p "$out"
prof="$build/bin/cktile-profiler"
rc=0
bench() {
    local name="$1"
    shift
    echo "== cktile-profiler $*"
    "$prof" "$@" --verify --warmup=5 --iters=30 --json="$out/$name.json" || rc=1
}
bench rowsum_f16 reduce --rows=32768 --cols=4096 --op=sum
bench colsum_f16 reduce --rows=32768 --cols=4096 --op=sum --axis=first
bench rowmax_f16_f32 reduce --rows=32768 --cols=4096 --op=max --type-y=f32
bench softmax_f16 softmax --rows=32768 --cols=4096
bench layernorm_f16 norm --rows=32768 --cols=4096 --kind=layernorm --bias
bench rmsnorm_f16 norm --rows=32768 --cols=4096 --kind=rmsnorm
bench softmax_long_f16 softmax --rows=4096 --cols=262144
bench softmax_short_f16 softmax --rows=1048576 --cols=64
bench transpose_f16 permute --type=f16 --shape=32768x4096 --perm=1,0
echo "== PyTorch baseline (same run)"
python3 scripts/vendor_baseline.py --only copy,mem --json "$out/vendor.json" || rc=1
exit $rc
