#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a kernel's instructions and stalls are, from ncu's per-SASS-instruction source page.

    ncu --clock-control none -k regex:<kernel> --launch-skip 3 --launch-count 1 \\
        --section SourceCounters --section WarpStateStats -o rep <command>
    ncu -i rep.ncu-rep --page source --csv --print-source sass > src.csv
    scripts/ncu-source-summary.py src.csv [--top 25]

Prints the instructions grouped by how often each executed (a loop body's instructions share
one count, so the main loop shows up as one group: its size per iteration, its share of all
executed instructions and of the warp-stall samples), then the instructions with the most stall
samples, in program order, with their index, SASS, executions and samples. Standard library
only.
"""

import argparse
import collections
import csv
import sys


def number(text):
    return int(text.replace(",", "")) if text.strip() else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="ncu --page source --csv --print-source sass output")
    ap.add_argument("--top", type=int, default=25, help="instructions with the most samples")
    ap.add_argument("--groups", type=int, default=10, help="execution-count groups to print")
    args = ap.parse_args()

    rows = list(csv.reader(open(args.csv, newline="")))
    header = next((i for i, r in enumerate(rows) if "Source" in r and "Address" in r), None)
    if header is None:
        sys.exit(f"{args.csv}: no 'Address' / 'Source' header (was --page source used?)")
    cols = rows[header]
    src, execs = cols.index("Source"), cols.index("Instructions Executed")
    samples = cols.index("Warp Stall Sampling (All Samples)")
    body = [r for r in rows[header + 1:] if len(r) == len(cols)]

    total_inst = sum(number(r[execs]) for r in body) or 1
    total_samples = sum(number(r[samples]) for r in body) or 1
    groups = collections.defaultdict(lambda: [0, 0, 0, None, None])
    for i, r in enumerate(body):
        g = groups[number(r[execs])]
        g[0] += 1
        g[1] += number(r[execs])
        g[2] += number(r[samples])
        g[3] = i if g[3] is None else g[3]
        g[4] = i
    print(f"{len(body)} instructions, {total_inst} executed, {total_samples} stall samples")
    print("executions each | instructions | executed (share) | samples (share) | first-last")
    for count, g in sorted(groups.items(), key=lambda kv: -kv[1][1])[:args.groups]:
        print(f"{count:>15} | {g[0]:>12} | {g[1]:>10} ({100 * g[1] / total_inst:4.1f}%) | "
              f"{g[2]:>7} ({100 * g[2] / total_samples:4.1f}%) | {g[3]}-{g[4]}")
    print()
    top = sorted(range(len(body)), key=lambda i: -number(body[i][samples]))[:args.top]
    for i in sorted(top):
        r = body[i]
        print(f"{i:>6}  {r[src].strip()[:70]:<70} {number(r[execs]):>10} {number(r[samples]):>7}")


if __name__ == "__main__":
    main()
