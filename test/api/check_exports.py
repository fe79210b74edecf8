#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks a shared library's exported (dynamic, defined) symbols against a pattern.

    check_exports.py <library> <regex> [--require name,name,...]
Fails listing every defined dynamic symbol that does not match, when none matches, or when a
required symbol is missing.
"""
import re
import subprocess
import sys


def main():
    lib, pattern = sys.argv[1], re.compile(sys.argv[2])
    required = []
    if len(sys.argv) > 4 and sys.argv[3] == "--require":
        required = [s for s in sys.argv[4].split(",") if s]
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True,
                         text=True).stdout
    symbols = [line.split()[-1] for line in out.splitlines() if line.strip()]
    bad = [s for s in symbols if not pattern.fullmatch(s)]
    good = [s for s in symbols if pattern.fullmatch(s)]
    if bad:
        print(f"{lib} exports symbols outside {pattern.pattern}:\n  " + "\n  ".join(bad))
        return 1
    if not good:
        print(f"{lib} exports nothing matching {pattern.pattern}")
        return 1
    missing = [s for s in required if s not in good]
    if missing:
        print(f"{lib} does not export:\n  " + "\n  ".join(missing))
        return 1
    print(f"{lib}: {len(good)} exported symbols, all matching {pattern.pattern}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
