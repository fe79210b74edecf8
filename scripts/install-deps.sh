#!/usr/bin/env bash
# Installs what cktile needs to build and test on Debian 12 / Ubuntu 22.04+, from apt only.
# Idempotent: packages already present are left alone, and nothing is downloaded at build time.
#   scripts/install-deps.sh          compilers, CMake, GoogleTest, spdlog, nlohmann/json, tools,
#                                    matplotlib (profiler/plot.py)
#   scripts/install-deps.sh --amd    also hipcc and the HIP runtime (libamdhip64-dev) for AMD builds
# The CUDA toolkit (nvcc 12.4+ for sm_90a) is not an apt package of the right version; install it
# from NVIDIA and put nvcc on PATH (or at /usr/local/cuda/bin) to build the NVIDIA kernels.
set -euo pipefail

want_amd=0
for arg in "$@"; do
  case "$arg" in
    --amd) want_amd=1 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "install-deps.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

packages=(build-essential cmake ninja-build g++ python3 pkg-config
          libgtest-dev libgmock-dev libspdlog-dev nlohmann-json3-dev
          clang clang-format python3-matplotlib)
if [ "$want_amd" = 1 ]; then
  packages+=(hipcc libamdhip64-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps.sh: all ${#packages[@]} packages already installed"
else
  echo "install-deps.sh: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" != 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps.sh: nvcc found: NVIDIA kernels will be built"
elif [ "$want_amd" = 1 ]; then
  echo "install-deps.sh: no nvcc; hipcc present: AMD kernels will be built"
else
  echo "install-deps.sh: no nvcc or hipcc: the build will be host-only (CKTILE_GPU_PLATFORM=none)"
fi
