#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cktile-profiler as a user runs it: --help, the documented exit codes, and a replay line
from the JSON output run again as a shell command.

usage: check_cli.py <cktile-profiler> <offline target, or "" for a host-only build>
"""
import json
import os
import shlex
import subprocess
import sys


def run(args, env=None):
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)


def expect(cond, what, result=None):
    if not cond:
        detail = f"\nstdout: {result.stdout}\nstderr: {result.stderr}" if result else ""
        sys.exit(f"FAILED: {what}{detail}")


def main():
    exe, target = sys.argv[1], sys.argv[2]
    r = run([exe, "--help"])
    expect(r.returncode == 0 and "usage: cktile-profiler" in r.stdout, "--help", r)
    r = run([exe, "gemm", "--help"])
    expect(r.returncode == 0 and "exit codes" in r.stdout, "gemm --help", r)
    r = run([exe, "gemm", "--nope=1"])
    expect(r.returncode == 3 and "unknown option" in r.stderr, "usage error exits 3", r)

    # No device: profile says so and exits 2 (the device is hidden from the process).
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="-1", HIP_VISIBLE_DEVICES="-1")
    r = run([exe, "gemm", "profile", "--m=64"], env)
    expect(r.returncode == 2 and "no GPU device present" in r.stderr, "no device exits 2", r)

    if not target:
        print("no kernel library in this build: offline checks skipped")
        return
    r = run([exe, "gemm", "enumerate", f"--target={target}", "--m=96", "--k=40", "--json=-"])
    expect(r.returncode == 0, "enumerate offline", r)
    rows = json.loads(r.stdout)["results"]
    expect(len(rows) > 0, "enumerate lists instances", r)
    row = next(x for x in rows if x["supported"])
    again = run([exe] + shlex.split(row["replay"])[1:] + ["--json=-"])
    expect(again.returncode == 0, "replay runs", again)
    back = json.loads(again.stdout)["results"]
    expect(len(back) == 1 and back[0]["instance"] == row["instance"] and back[0]["supported"],
           "replay reruns its row", again)
    print("cktile-profiler command line: ok")


if __name__ == "__main__":
    main()
