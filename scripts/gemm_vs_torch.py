#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Times cktile's GEMM and PyTorch's (cuBLAS) in one process with one timer.

vendor_baseline.py measures PyTorch with Triton's do_bench: L2 flushed before every call,
per-call events, the median. cktile-profiler times without the flush. This script runs both
libraries through that same do_bench, on the same tensors, rounds alternating, so the ratio
between them carries no difference of method.

    CKTILE_LIBRARY=build/nvidia-ci/lib/libcktile.so.0 python3 scripts/gemm_vs_torch.py \
        [--shapes 16x8192x8192,1024x1024x1024] [--layouts rc,rr] [--dtypes f16,bf16] \
        [--instance NAME] [--rounds 3] [--no-flush | --read-flush] [--json out.json]

Layouts name A's and B's storage: rc is A row-major times B column-major (torch.matmul(a,
w.t()) with w of N x K, as in a linear layer), rr is A and B row-major (vendor_baseline.py's
torch.matmul(A, B)). fp8 (e4m3 in, fp16 out) and fp8_bf16 (bf16 out, vendor_baseline.py's
row) run rc only, against torch._scaled_mm with unit scales; tf32 (fp32 in and out, compute
TF32) against torch.matmul with allow_tf32. D is row-major. Every result is checked against
torch.matmul in fp32 (fp64 for tf32) before it is timed. Exits 0 with a message when
PyTorch, Triton or a GPU is missing. --instance runs one instance where it supports the
problem and says why not elsewhere.
"""
import argparse
import ctypes
import json
import os
import statistics
import sys

# The C API's structs and enum values as ctypes declares them: the client example is their one
# Python copy; this script adds only what the example does not use.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "client_example",
                                "python"))
from gemm_torch import (COL, FP16, FP32, ROW, STATUS_NO_DEVICE, STATUS_SUCCESS,  # noqa: E402
                        Args, Problem)

STATUS_NOT_SUPPORTED = 3
BF16, FP8_E4M3, TF32 = 2, 4, 8
DEFAULT_SHAPES = "16x8192x8192,128x8192x8192,1024x1024x1024,2048x2048x2048,3000x3000x3000," \
               "4096x4096x4096,4097x4095x4096,8192x8192x8192"


class InstanceInfo(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("id", ctypes.c_uint64),
                ("name", ctypes.c_char * 160), ("target", ctypes.c_char * 32)] + \
        [(n, ctypes.c_int) for n in ("op_kind", "a_type", "b_type", "c_type", "d_type",
                                     "compute_type", "a_layout", "b_layout", "supports_bias",
                                     "supports_activation", "tile_m", "tile_n", "tile_k",
                                     "block_threads", "index_bits", "alignment_elements",
                                     "k_multiple")] + \
        [("shared_memory_bytes", ctypes.c_size_t), ("is_general", ctypes.c_int),
         ("supports_multi_d", ctypes.c_int), ("supports_beta", ctypes.c_int)]


class Cktile:
    def __init__(self, path, device):
        self.lib = ctypes.CDLL(path)
        lib = self.lib
        lib.cktile_get_last_error_message.restype = ctypes.c_char_p
        lib.cktile_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
        lib.cktile_gemm_problem_init_sized.argtypes = [ctypes.POINTER(Problem), ctypes.c_size_t]
        lib.cktile_find_instance.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                             ctypes.POINTER(ctypes.c_uint64)]
        lib.cktile_gemm_select.argtypes = [ctypes.c_void_p, ctypes.POINTER(Problem),
                                           ctypes.POINTER(Args), ctypes.c_int,
                                           ctypes.POINTER(ctypes.c_uint64)]
        lib.cktile_get_instance_info_by_id.argtypes = [ctypes.c_void_p, ctypes.c_uint64,
                                                       ctypes.POINTER(InstanceInfo)]
        lib.cktile_gemm_workspace_size.argtypes = [ctypes.c_void_p, ctypes.c_uint64,
                                                   ctypes.POINTER(Problem),
                                                   ctypes.POINTER(ctypes.c_size_t)]
        lib.cktile_gemm_run.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.POINTER(Problem),
                                        ctypes.POINTER(Args), ctypes.c_void_p, ctypes.c_size_t,
                                        ctypes.c_void_p]
        lib.cktile_gemm_supports.argtypes = [ctypes.c_void_p, ctypes.c_uint64,
                                             ctypes.POINTER(Problem), ctypes.POINTER(Args),
                                             ctypes.c_char_p, ctypes.c_size_t]
        self.handle = ctypes.c_void_p()
        self.status = lib.cktile_create(ctypes.byref(self.handle), device)
        if self.status != STATUS_NO_DEVICE:
            self.check(self.status, "cktile_create")

    def why_not(self, iid, problem, args):
        """None when instance `iid` runs the problem, else its reason."""
        reason = ctypes.create_string_buffer(512)
        status = self.lib.cktile_gemm_supports(self.handle, iid, ctypes.byref(problem),
                                               ctypes.byref(args), reason, len(reason))
        if status == STATUS_NOT_SUPPORTED:
            return reason.value.decode()
        self.check(status, "cktile_gemm_supports")
        return None

    def check(self, status, what):
        if status != STATUS_SUCCESS:
            raise RuntimeError(f"{what} failed ({status}): "
                               f"{self.lib.cktile_get_last_error_message().decode()}")

    def instance(self, name, problem, args):
        """The id of `name`, or the library's own choice for the problem; and its name."""
        iid = ctypes.c_uint64()
        if name:
            self.check(self.lib.cktile_find_instance(self.handle, name.encode(), ctypes.byref(iid)),
                       f"cktile_find_instance({name})")
        else:
            self.check(self.lib.cktile_gemm_select(self.handle, ctypes.byref(problem),
                                                   ctypes.byref(args), 0, ctypes.byref(iid)),
                       "cktile_gemm_select")
        info = InstanceInfo()
        info.struct_size = ctypes.sizeof(InstanceInfo)
        self.check(self.lib.cktile_get_instance_info_by_id(self.handle, iid.value,
                                                           ctypes.byref(info)),
                   "cktile_get_instance_info_by_id")
        return iid.value, info.name.decode()

    def workspace_size(self, iid, problem):
        size = ctypes.c_size_t()
        self.check(self.lib.cktile_gemm_workspace_size(self.handle, iid, ctypes.byref(problem),
                                                       ctypes.byref(size)),
                   "cktile_gemm_workspace_size")
        return size.value


def types(torch, name):
    """(input, output) torch dtypes and (input, output) cktile types of a --dtypes name."""
    return {"f16": (torch.float16, torch.float16, FP16, FP16),
            "bf16": (torch.bfloat16, torch.bfloat16, BF16, BF16),
            # vendor_baseline.py's fp8 row has a bf16 output.
            "fp8": (torch.float8_e4m3fn, torch.float16, FP8_E4M3, FP16),
            "fp8_bf16": (torch.float8_e4m3fn, torch.bfloat16, FP8_E4M3, BF16),
            # fp32 in and out, multiplied as TF32 (compute TF32; PyTorch's allow_tf32).
            "tf32": (torch.float32, torch.float32, FP32, FP32)}[name]


def operands(torch, m, n, k, layout, dtype):
    a = torch.randn(m, k, device="cuda").to(dtype)
    if layout == "rc":
        b = torch.randn(n, k, device="cuda").to(dtype).t()  # K x N, column-major
    else:
        b = torch.randn(k, n, device="cuda").to(dtype)
    return a, b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shapes", default=DEFAULT_SHAPES,
                    help="MxNxK,... (default: the shapes of the performance targets)")
    ap.add_argument("--layouts", default="rc,rr")
    ap.add_argument("--dtypes", default="f16")
    ap.add_argument("--instance", default="", help="an instance name (default: the library's pick)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="timings of each side, the side going first alternating by round")
    flush = ap.add_mutually_exclusive_group()
    flush.add_argument("--no-flush", action="store_true",
                       help="time without flushing L2 between calls (cktile-profiler's method): "
                            "per-call events around 200 calls after 30 warm-up calls, the median")
    flush.add_argument("--read-flush", action="store_true",
                       help="flush L2 by reading 256 MB before every call, as --no-flush times: "
                            "L2 starts cold but clean, where do_bench's zeroing leaves it full of "
                            "lines to write back")
    ap.add_argument("--json")
    opts = ap.parse_args()

    try:
        import torch
        from triton.testing import do_bench
    except ImportError as e:
        print(f"nothing to compare with: {e}")
        return 0
    if not torch.cuda.is_available():
        print("no GPU device present (torch.cuda.is_available() is False)")
        return 0
    # --dtypes tf32: PyTorch's fp32 matmul on the tensor cores, as TF32 (its default is fp32).
    torch.backends.cuda.matmul.allow_tf32 = "tf32" in opts.dtypes.split(",")
    ck = Cktile(os.environ.get("CKTILE_LIBRARY", "libcktile.so.0"), torch.cuda.current_device())
    if ck.status == STATUS_NO_DEVICE:
        print("no GPU device present for cktile:",
              ck.lib.cktile_get_last_error_message().decode())
        return 0
    print(torch.cuda.get_device_name(0), "torch", torch.__version__,
          "without L2 flush" if opts.no_flush else
          "L2 flushed by a read before every call" if opts.read_flush else
          "L2 flushed before every call", flush=True)
    cache = torch.empty(int(256e6 // 4), dtype=torch.int, device="cuda") if opts.read_flush \
        else None

    def bench(fn):
        if not opts.no_flush and not opts.read_flush:
            return do_bench(fn, warmup=25, rep=200, return_mode="median")  # vendor_baseline.py's
        for _ in range(30):
            fn()
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
                  for _ in range(200)]
        for start, end in events:
            # A spin of about 50 us (or the read, about 80) ahead of each call keeps the GPU busy
            # while Python enqueues the call, so the events time the GPU and not the host (the
            # flush does that above).
            if cache is not None:
                cache.sum()
            else:
                torch.cuda._sleep(100_000)
            start.record()
            fn()
            end.record()
        torch.cuda.synchronize()
        return statistics.median(start.elapsed_time(end) for start, end in events)

    rows = []
    header = (f"{'problem':28s} {'instance':58s} {'cktile us':>15s} {'torch us':>15s} "
              f"{'torch/cktile':>12s}")
    print(header, flush=True)
    for dname in opts.dtypes.split(","):
        dtype, out_dtype, in_type, out_type = types(torch, dname)
        unit = torch.tensor(1.0, device="cuda")
        for layout in opts.layouts.split(","):
            if dname.startswith("fp8") and layout != "rc":
                continue  # torch._scaled_mm takes B column-major only
            for shape in opts.shapes.split(","):
                m, n, k = (int(x) for x in shape.split("x"))
                if dname.startswith("fp8") and (m % 16 or n % 16 or k % 16):
                    print(f"{dname} {layout} {shape}: torch._scaled_mm needs multiples of 16",
                          flush=True)
                    continue
                a, b = operands(torch, m, n, k, layout, dtype)
                d = torch.full((m, n), float("nan"), device="cuda", dtype=out_dtype)
                p = Problem()
                ck.check(ck.lib.cktile_gemm_problem_init_sized(ctypes.byref(p),
                                                               ctypes.sizeof(Problem)),
                         "cktile_gemm_problem_init_sized")
                p.a_type = p.b_type = in_type
                p.c_type = p.d_type = out_type
                p.compute_type = TF32 if dname == "tf32" else FP32
                p.a_layout = p.c_layout = p.d_layout = ROW
                p.b_layout = COL if layout == "rc" else ROW
                p.m, p.n, p.k = m, n, k
                p.lda = a.stride(0)
                p.ldb = b.stride(1) if layout == "rc" else b.stride(0)
                p.ldc = p.ldd = d.stride(0)
                args = Args(ctypes.sizeof(Args), a.data_ptr(), b.data_ptr(), None, None,
                            d.data_ptr())
                iid, name = ck.instance(opts.instance, p, args)
                why = ck.why_not(iid, p, args) if opts.instance else None
                if why:
                    print(f"{dname} {layout} {shape}: {name} does not run it: {why}", flush=True)
                    continue
                ws_bytes = ck.workspace_size(iid, p)
                ws = torch.empty(max(ws_bytes, 1), device="cuda", dtype=torch.uint8)
                ws_ptr = ws.data_ptr() if ws_bytes else None

                def ours():
                    stream = torch.cuda.current_stream().cuda_stream
                    ck.check(ck.lib.cktile_gemm_run(ck.handle, iid, ctypes.byref(p),
                                                    ctypes.byref(args), ws_ptr, ws_bytes, stream),
                             "cktile_gemm_run")

                def theirs():
                    if dname.startswith("fp8"):
                        return torch._scaled_mm(a, b, scale_a=unit, scale_b=unit,
                                                out_dtype=out_dtype)
                    return torch.matmul(a, b)

                ours()
                # TF32 results against fp64: PyTorch's fp32 matmul is TF32 here.
                ref = torch.matmul(a.double(), b.double()) if dname == "tf32" else \
                    torch.matmul(a.float(), b.float())
                err = ((d.float() - ref).abs().max() / ref.abs().max().clamp_min(1e-30)).item()
                # A few ulps of the output type at most (fp16: 2^-11; bf16 2^-8); fp8 inputs
                # add the tensor cores' shorter accumulation (about 14 bits), within bf16's bound.
                if not err < (4e-3 if dname in ("f16", "tf32") else 2e-2):
                    raise RuntimeError(f"{shape} {layout} {dname}: cktile's result is off "
                                       f"(max error {err:.3g} of the largest |element|)")
                mine, vendor = [], []
                for r in range(opts.rounds):
                    for side in ((ours, mine), (theirs, vendor))[::1 if r % 2 == 0 else -1]:
                        side[1].append(bench(side[0]) * 1e3)
                mu, vu = statistics.median(mine), statistics.median(vendor)
                problem = f"{dname} {layout} {m}x{n}x{k}"
                print(f"{problem:28s} {name:58s} {min(mine):7.1f}-{max(mine):<7.1f} "
                      f"{min(vendor):7.1f}-{max(vendor):<7.1f} {vu / mu:12.3f}", flush=True)
                rows.append({"dtype": dname, "layout": layout, "m": m, "n": n, "k": k,
                             "instance": name, "cktile_us": mine, "torch_us": vendor,
                             "tflops_cktile": 2 * m * n * k / mu / 1e6, "ratio": vu / mu,
                             "max_rel_error": err})
                del a, b, d, ref, ws
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                       "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
