#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Registers, stack, spills and code size of every kernel of an NVIDIA kernel library.

    scripts/kernel-resource-usage.py <build dir> [--target sm_90a] [--family rowwise]
                                     [--fail-on-stack] [-j jobs]

Recompiles the generated sources of libcktile_kernels_<target>.so with the flags of the build
plus `-Xptxas -v` into cubins (no GPU and no cuobjdump needed) and prints one line per kernel:
registers, stack frame, spill stores, spill loads, SASS instructions (the size of the kernel's
.text section in the cubin, 16 bytes an instruction: what a launch whose code is out of the
caches fetches from memory, where it runs it) and the kernel's template arguments.
--fail-on-stack exits 1 when any kernel has a stack frame (the tile kernels must keep their
accumulators and fragments in registers). Standard library only.
"""

import argparse
import concurrent.futures
import glob
import os
import re
import struct
import subprocess
import sys
import tempfile

SHORT_TYPES = [
    (r"ck_tile::", ""),
    (r"minifloat<fp_format<5, 10, \(fp_encoding\)0>, \(overflow_mode\)\d>", "f16"),
    (r"minifloat<fp_format<8, 7, \(fp_encoding\)0>, \(overflow_mode\)\d>", "bf16"),
    (r"minifloat<fp_format<4, 3, \(fp_encoding\)1>, \(overflow_mode\)\d>", "e4m3"),
    (r"minifloat<fp_format<5, 2, \(fp_encoding\)0>, \(overflow_mode\)\d>", "e5m2"),
    (r"gemm_layout::", ""), (r"\(gemm_schedule\)", "schedule"),
    (r"\(gemm_math\)", "math"),
]


def compile_flags(build, target):
    """nvcc, defines, include options file and flags of the kernel library target."""
    tdir = os.path.join(build, "library", "CMakeFiles", f"cktile_kernels_{target}.dir")
    with open(os.path.join(tdir, "flags.make"), encoding="utf-8") as f:
        text = f.read()
    get = lambda key: re.search(rf"^{key} = (.*)$", text, re.M).group(1)
    nvcc = re.search(r"# compile CUDA with (\S+)", text).group(1)
    includes = get("CUDA_INCLUDES").replace("CMakeFiles/", os.path.join(build, "library",
                                                                       "CMakeFiles") + "/")
    flags = get("CUDA_FLAGS").replace("-Werror=all-warnings", "")
    return nvcc, get("CUDA_DEFINES").split() + includes.split() + flags.split()


def text_sizes(cubin):
    """{mangled kernel name: bytes of its .text section} of an ELF64 cubin."""
    with open(cubin, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    names_at = sections[shstrndx][4]
    sizes = {}
    for name, _, _, _, _, size, *_ in sections:
        end = data.index(b"\0", names_at + name)
        section = data[names_at + name:end].decode()
        if section.startswith(".text."):
            sizes[section[len(".text."):]] = size
    return sizes


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    return out.stdout.splitlines()


def short(name):
    """The kernel functor type of a kentry<threads, blocks, Kernel, Args...> instance."""
    for pattern, repl in SHORT_TYPES:
        name = re.sub(pattern, repl, name)
    m = re.match(r"void kentry<\d+, \d+, ", name)
    if not m:
        return name
    depth, i = 0, m.end()
    for j in range(i, len(name)):
        depth += name[j] == "<"
        depth -= name[j] == ">"
        if depth == 0 and name[j] == ",":
            return name[i:j]
    return name[i:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--target", default="sm_90a")
    ap.add_argument("--fail-on-stack", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="compilations at once (default: one per CPU)")
    ap.add_argument("--family", default="*",
                    help="generated source family to compile (gemm, memops, rowwise; default all)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    nvcc, flags = compile_flags(build, args.target)
    sources = sorted(glob.glob(os.path.join(build, "generated", args.target, f"{args.family}_group_*.cpp")))
    cubins = tempfile.TemporaryDirectory()
    cubin_of = lambda src: os.path.join(cubins.name, os.path.basename(src) + ".cubin")
    compile_one = lambda src: subprocess.run(
        [nvcc, *flags, "-Xptxas", "-v", "-x", "cu", "--cubin", src, "-o", cubin_of(src)],
        capture_output=True, text=True, cwd=os.path.join(build, "library"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(compile_one, sources))
    rows, code = [], {}
    for src, res in zip(sources, results):
        if res.returncode != 0:
            sys.exit(f"kernel-resource-usage: {src} failed to compile:\n{res.stderr}")
        code.update(text_sizes(cubin_of(src)))
        current, frame = None, {}
        for line in res.stderr.splitlines():
            m = re.search(r"Function properties for (\S+)", line)
            if m:
                current = m.group(1)
                continue
            m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes "
                          r"spill loads", line)
            if m and current:
                frame[current] = tuple(int(x) for x in m.groups())
                continue
            m = re.search(r"Compiling entry function '(\S+)'", line)
            if m:
                current = m.group(1)
                continue
            m = re.search(r"Used (\d+) registers", line)
            if m and current and current.startswith("_Z"):
                rows.append((current, int(m.group(1)), frame.get(current, (0, 0, 0))))
    names = demangle([r[0] for r in rows])
    bad = 0
    for (mangled, regs, (stack, st, ld)), name in sorted(zip(rows, names), key=lambda x: x[1]):
        print(f"regs {regs:3}  stack {stack:5}  spill st {st:5}  ld {ld:5}  "
              f"sass {code.get(mangled, 0) // 16:6}  {short(name)}")
        bad += stack > 0
    print(f"{len(rows)} kernels, {bad} with a stack frame")
    return 1 if args.fail_on_stack and bad else 0


if __name__ == "__main__":
    sys.exit(main())
