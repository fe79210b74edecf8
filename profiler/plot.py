#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Charts from cktile-profiler's JSON (profile mode).

    cktile-profiler gemm --m=1024:8192:1024 --n=4096 --k=4096 --json=run.json
    python3 profiler/plot.py run.json --out plots/

Writes, into --out (default: next to the JSON):
  instances.png  TFLOP/s of every instance (and the vendor row) for each problem
  shapes.png     TFLOP/s per problem: cktile's best, the heuristic's pick, the vendor
  ratio.png      cktile's best as a fraction of the vendor's speed, per problem
Needs python3 and matplotlib (Debian: python3-matplotlib).
"""
import argparse
import json
import os
import sys


def load(path):
    with open(path) as f:
        doc = json.load(f)
    if doc.get("tool") != "cktile-profiler" or doc.get("mode") != "profile":
        sys.exit(f"{path}: not the JSON of cktile-profiler's profile mode")
    rows = [r for r in doc["results"] if r.get("status") == "ok" and r.get("tflops")]
    if not rows:
        sys.exit(f"{path}: no successful runs to plot")
    return doc, rows


def problem_label(r):
    return f"{r['shape']}\n{r['types']} {r['layouts']}"


def short_instance(name):
    # gemm_simt_f16f16_f16_accf32_rc_64x64x16_t4x4_v8_i32_fused -> simt_rc_64x64x16_t4x4_v8_i32
    parts = name.split("_")
    if len(parts) > 6 and parts[0] == "gemm":
        return "_".join([parts[1]] + parts[5:-1])
    return name


def plot_instances(plt, rows, out):
    problems = sorted({r["problem"] for r in rows})
    names = sorted({r["instance"] for r in rows})
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(problems) * max(1, len(names)) / 3), 4.5))
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        xs, ys = [], []
        for j, p in enumerate(problems):
            hit = [r for r in rows if r["problem"] == p and r["instance"] == name]
            if hit:
                xs.append(j + i * width)
                ys.append(hit[0]["tflops"])
        vendor = any(r["provider"] != "cktile" for r in rows if r["instance"] == name)
        ax.bar(xs, ys, width, label=name if vendor else short_instance(name),
               hatch="//" if vendor else None)
    labels = {r["problem"]: problem_label(r) for r in rows}
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(problems))])
    ax.set_xticklabels([labels[p] for p in problems], fontsize=7)
    ax.set_ylabel("TFLOP/s")
    ax.set_title("throughput per instance")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "instances.png"), dpi=120)


def plot_shapes(plt, doc, out):
    summary = doc.get("summary", [])
    if not summary:
        return
    xs = range(len(summary))
    labels = [problem_label(s) for s in summary]
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(summary)), 4.5))
    series = [("best_tflops", "cktile best", "o-"), ("vendor_tflops", "vendor", "s--")]
    for key, label, style in series:
        ys = [s.get(key) for s in summary]
        if any(y is not None for y in ys):
            ax.plot(xs, [y if y is not None else float("nan") for y in ys], style, label=label)
    heur = [s["heuristic_time_ms"] for s in summary if s.get("heuristic_time_ms")]
    if len(heur) == len(summary):
        # TFLOP/s of the heuristic's pick, from its time and the best's throughput.
        ys = [s["best_tflops"] * s["best_time_ms"] / s["heuristic_time_ms"] for s in summary]
        ax.plot(xs, ys, "^:", label="cktile heuristic pick")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
    ax.set_ylabel("TFLOP/s")
    vendor = doc["context"].get("vendor", "no vendor in this run")
    ax.set_title(f"throughput per problem ({doc['context'].get('device_name', '')}; {vendor})")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "shapes.png"), dpi=120)

    ratios = [s.get("speed_vs_vendor") for s in summary]
    if any(r is not None for r in ratios):
        fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(summary)), 4))
        ax.bar(list(xs), [r if r is not None else 0 for r in ratios])
        ax.axhline(1.0, color="grey", linestyle="--", linewidth=1)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, fontsize=7, rotation=30, ha="right")
        ax.set_ylabel("cktile best / vendor speed")
        ax.set_title("cktile vs vendor (above 1: cktile faster)")
        fig.tight_layout()
        fig.savefig(os.path.join(out, "ratio.png"), dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="cktile-profiler profile output (--json=path)")
    ap.add_argument("--out", help="folder for the PNG files (default: the JSON's folder)")
    args = ap.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot.py needs matplotlib: apt-get install python3-matplotlib")
    doc, rows = load(args.json)
    out = args.out or os.path.dirname(os.path.abspath(args.json))
    os.makedirs(out, exist_ok=True)
    plot_instances(plt, rows, out)
    plot_shapes(plt, doc, out)
    print(f"plot.py: wrote charts to {out}")


if __name__ == "__main__":
    main()
