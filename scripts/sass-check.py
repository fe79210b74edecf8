#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the SASS of every warpgroup-MMA GEMM kernel of an NVIDIA kernel library.

    scripts/sass-check.py build/nvidia-ci/lib/libcktile_kernels_sm_90a.so
    scripts/sass-check.py dump.sass          (the text `cuobjdump -sass` printed)

For each kernel whose name holds `gemm_wgmma` it prints its SASS instructions, its warpgroup
MMAs (HGMMA, QGMMA, IGMMA), its local-memory loads and stores (LDL/STL: spills or a stack
frame), and how many of those fall inside an MMA stretch: from a `WARPGROUP.ARRIVE` through the
`WARPGROUP.DEPBAR` after its MMAs, the code that issues a stage's MMAs and waits for them.
It fails (exit 1) when a kernel has no warpgroup MMA at all (the compiler fell back to other
instructions, or the instance lost its Hopper path), or when local memory is touched inside
an MMA stretch (a spill in the main loop). Local memory elsewhere (prologue, epilogue) is
reported, not failed. Exit 2 without cuobjdump: nothing was checked. Standard library only.
"""

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys

MMA = re.compile(r"\b[HQI]GMMA\.")
LOCAL = re.compile(r"\b(LDL|STL)(\.|\s)")
INSTRUCTION = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNCTION = re.compile(r"Function : (\S+)")


def functions(sass):
    """{mangled name: [instruction text, ...]} in program order."""
    out, current = {}, None
    for line in sass.splitlines():
        m = FUNCTION.search(line)
        if m:
            current = out.setdefault(m.group(1), [])
            continue
        m = INSTRUCTION.match(line)
        if m and current is not None:
            current.append(m.group(2))
    return out


def mma_stretches(code):
    """Index ranges [first, last] of the code that issues and waits for MMAs."""
    ranges = []
    for i, text in enumerate(code):
        if not MMA.search(text):
            continue
        start = next((j for j in range(i, -1, -1) if "WARPGROUP.ARRIVE" in code[j]), i)
        end = next((j for j in range(i, len(code)) if "WARPGROUP.DEPBAR" in code[j]), i)
        if ranges and start <= ranges[-1][1]:
            ranges[-1] = (ranges[-1][0], max(ranges[-1][1], end))
        else:
            ranges.append((start, end))
    return ranges


def check(name, code):
    """(report dict, list of problems) for one kernel."""
    mmas = sum(1 for t in code if MMA.search(t))
    local = [i for i, t in enumerate(code) if LOCAL.search(t)]
    stretches = mma_stretches(code)
    inside = [i for i in local if any(a <= i <= b for a, b in stretches)]
    problems = []
    if mmas == 0:
        problems.append("no warpgroup MMA instruction")
    if inside:
        problems.append(f"{len(inside)} local-memory accesses inside MMA stretches "
                        f"(first: {code[inside[0]]})")
    return {"name": name, "instructions": len(code), "mmas": mmas, "local": len(local),
            "inside": len(inside)}, problems


def find_cuobjdump():
    """cuobjdump on PATH, else next to nvcc, else in the default toolkit folder."""
    nvcc = shutil.which("nvcc")
    for candidate in [shutil.which("cuobjdump"),
                      nvcc and os.path.join(os.path.dirname(nvcc), "cuobjdump"),
                      "/usr/local/cuda/bin/cuobjdump"]:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def short_names(names):
    """Readable kernel names (kernel-resource-usage.py's shortening), else the mangled ones."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("resource_usage",
                                                  os.path.join(here, "kernel-resource-usage.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not shutil.which("c++filt"):
        return names
    # The entry's own wrapper says nothing the kernel's template arguments do not.
    return [re.sub(r"^void gemm_wgmma_(cluster_)?entry<gemm_wgmma_kernel<", "",
                   module.short(n)).split(" >(")[0] for n in module.demangle(names)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input", help="a kernel library (.so, .cubin) or a cuobjdump -sass text dump")
    args = ap.parse_args()
    if args.input.endswith((".so", ".cubin", ".fatbin")) or ".so." in args.input:
        tool = find_cuobjdump()
        if not tool:
            print("sass-check: no cuobjdump on PATH, nothing checked")
            return 2
        res = subprocess.run([tool, "-sass", args.input], capture_output=True, text=True)
        if res.returncode != 0:
            sys.exit(f"sass-check: cuobjdump failed on {args.input}:\n{res.stderr}")
        sass = res.stdout
    else:
        with open(args.input, encoding="utf-8") as f:
            sass = f.read()
    kernels = {n: c for n, c in functions(sass).items() if "gemm_wgmma" in n}
    if not kernels:
        print(f"sass-check: no gemm_wgmma kernel in {args.input}")
        return 1
    failed = 0
    names = short_names(list(kernels))
    for (name, code), readable in zip(kernels.items(), names):
        report, problems = check(name, code)
        print(f"instr {report['instructions']:5}  mma {report['mmas']:3}  local {report['local']:4}"
              f"  in mma stretches {report['inside']:3}  {readable[:160]}")
        for p in problems:
            print(f"  FAIL: {p}")
        failed += bool(problems)
    print(f"{len(kernels)} gemm_wgmma kernels, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
