#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a cktile GEMM on PyTorch tensors through ctypes and compares with torch.matmul.

    CKTILE_LIBRARY=/path/to/libcktile.so.0 python3 gemm_torch.py
Says so and exits 0 when PyTorch, CUDA or a GPU is missing.
"""
import ctypes
import os
import sys

STATUS_SUCCESS, STATUS_NO_DEVICE = 0, 5
FP16, FP32 = 1, 3
ROW, COL = 1, 2


# Mirrors of cktile.h's structs. ctypes cannot use the header's cktile_gemm_problem_init macro,
# so this calls cktile_gemm_problem_init_sized with ctypes.sizeof(Problem): the library then
# writes that many bytes and no more, whatever its own version of the struct.
class Problem(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t)] + \
        [(n, ctypes.c_int) for n in ("a_type", "b_type", "c_type", "d_type", "compute_type",
                                     "a_layout", "b_layout", "c_layout", "d_layout")] + \
        [(n, ctypes.c_int64) for n in ("m", "n", "k", "lda", "ldb", "ldc", "ldd", "batch_count",
                                       "stride_a", "stride_b", "stride_c", "stride_d",
                                       "stride_bias")] + \
        [("alpha", ctypes.c_double), ("beta", ctypes.c_double), ("bias", ctypes.c_int),
         ("activation", ctypes.c_int)] + \
        [(n, ctypes.c_int) for n in ("multi_d_op", "multi_d_point", "d0_type", "d1_type",
                                     "d0_layout", "d1_layout")] + \
        [(n, ctypes.c_int64) for n in ("ldd0", "ldd1", "stride_d0", "stride_d1")]


class Args(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("a", ctypes.c_void_p), ("b", ctypes.c_void_p),
                ("c", ctypes.c_void_p), ("bias", ctypes.c_void_p), ("d", ctypes.c_void_p)] + \
        [(n, ctypes.c_void_p) for n in ("scale_a", "scale_b", "scale_d", "d0", "d1")]


def main():
    lib = ctypes.CDLL(os.environ.get("CKTILE_LIBRARY", "libcktile.so.0"))
    lib.cktile_get_last_error_message.restype = ctypes.c_char_p
    lib.cktile_get_version_string.restype = ctypes.c_char_p
    lib.cktile_gemm_problem_init_sized.argtypes = [ctypes.POINTER(Problem), ctypes.c_size_t]
    lib.cktile_gemm_run.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.POINTER(Problem),
                                    ctypes.POINTER(Args), ctypes.c_void_p, ctypes.c_size_t,
                                    ctypes.c_void_p]
    print("cktile", lib.cktile_get_version_string().decode())
    try:
        import torch
    except ImportError:
        print("PyTorch is not installed: nothing to compare with")
        return 0
    if not torch.cuda.is_available():
        print("no GPU device present (torch.cuda.is_available() is False)")
        return 0

    handle = ctypes.c_void_p()
    status = lib.cktile_create(ctypes.byref(handle), torch.cuda.current_device())
    if status == STATUS_NO_DEVICE:
        print("no GPU device present:", lib.cktile_get_last_error_message().decode())
        return 0
    if status != STATUS_SUCCESS:
        print("cktile_create failed:", lib.cktile_get_last_error_message().decode())
        return 1

    m, n, k = 257, 129, 96
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(n, k, device="cuda", dtype=torch.float16).t()  # column-major K x N view
    d = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)

    p = Problem()
    status = lib.cktile_gemm_problem_init_sized(ctypes.byref(p), ctypes.sizeof(Problem))
    if status != STATUS_SUCCESS:
        print("cktile_gemm_problem_init_sized failed:",
              lib.cktile_get_last_error_message().decode())
        return 1
    p.a_type, p.b_type, p.c_type, p.d_type = FP16, FP16, FP32, FP32
    p.a_layout, p.b_layout = ROW, COL
    p.m, p.n, p.k = m, n, k
    p.lda, p.ldb, p.ldc, p.ldd = a.stride(0), b.stride(1), d.stride(0), d.stride(0)
    args = Args(ctypes.sizeof(Args), a.data_ptr(), b.data_ptr(), None, None, d.data_ptr())
    stream = torch.cuda.current_stream().cuda_stream
    status = lib.cktile_gemm_run(handle, 0, ctypes.byref(p), ctypes.byref(args), None, 0, stream)
    if status != STATUS_SUCCESS:
        print("cktile_gemm_run failed:", lib.cktile_get_last_error_message().decode())
        return 1
    ref = torch.matmul(a.float(), b.float())
    err = (d - ref).abs().max().item()
    print(f"python client: {m}x{n}x{k} fp16 -> fp32 GEMM, max abs error vs torch.matmul {err:.3g}")
    lib.cktile_destroy(handle)
    return 0 if err < 1e-2 else 1


if __name__ == "__main__":
    sys.exit(main())
