#!/usr/bin/env python3
"""The cost of generality: a model run by the seq skeleton against a hand-written recursive search
with the same branching, bound and node type (chromatic.cpp, knapsack.cpp, nqueens.cpp here).

    bench/generality/run.py [--build build] [--before OLD_BUILD] [--reps 7] [--out FILE]

Each case runs `seq` and `hand` in separate processes, alternating (seq first in even
repetitions, hand first in odd ones); the time is the search alone, as each program measures it.
Every run must give the known answer and both the same node count. Reports the median [min, max]
of each and the ratio of the medians, seq / hand. With --before, a build of an earlier tree runs
its seq as a third variant (the three rotate in every repetition), and the table adds its median,
before / hand, and the median of the per-repetition ratios seq / before.
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

# name -> (program, arguments, answer line); answers: instances/*/ANSWERS.tsv, OEIS A000170
CASES = [
    ("chromatic myciel5", "generality_chromatic", ["instances/colouring/myciel5.col"], "chromatic number: 6"),
    ("chromatic queen7_7", "generality_chromatic", ["instances/colouring/queen7_7.col"], "chromatic number: 7"),
    ("chromatic queen8_8", "generality_chromatic", ["instances/colouring/queen8_8.col"], "chromatic number: 9"),
    ("knapsack f8_l-d_kp_23_10000", "generality_knapsack",
     ["instances/knapsack/instances_01_KP/low-dimensional/f8_l-d_kp_23_10000"], "profit: 9767"),
    ("nqueens 14", "generality_nqueens", ["14"], "solutions: 365596"),
]


def once(build, program, args, mode, answer):
    cmd = [os.path.join(build, "bench", "generality", program), mode] + args
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=3600)
    if p.returncode != 0 or answer not in p.stdout.splitlines():
        sys.exit(f"{shlex.join(cmd)}: exit {p.returncode}, expected '{answer}':\n{p.stdout}{p.stderr}")
    nodes = int(re.search(r"^nodes: (\d+)$", p.stdout, re.M).group(1))
    return float(re.search(r"^seconds: ([0-9.]+)$", p.stdout, re.M).group(1)), nodes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--cases", default="")
    ap.add_argument("--before", help="a build of an earlier tree: its seq runs as a third variant")
    ap.add_argument("--out")
    a = ap.parse_args()
    chosen = [c for c in CASES if not a.cases or any(k in c[0] for k in a.cases.split(","))]
    out = benchlib.preamble("The cost of generality: seq against a hand-written search", "bench/generality/run.py",
                            sys.argv[1:], f"{a.reps} repetitions of each, seq and hand alternating; seconds of the "
                            "search alone: median [min, max]")
    if a.before:
        out += ["", "| case | nodes (all) | seq s | before s | hand s | seq / hand | before / hand | seq / before |",
                "|---|---|---|---|---|---|---|---|"]
    else:
        out += ["", "| case | nodes (both) | seq s | hand s | seq / hand |", "|---|---|---|---|---|"]
    variants = [("seq", a.build, "seq"), ("hand", a.build, "hand")] + ([("before", a.before, "seq")] if a.before else [])
    for name, program, args, answer in chosen:
        t = {v[0]: [] for v in variants}
        nodes = set()
        for r in range(a.reps):
            k = r % len(variants)
            order = variants[k:] + variants[:k] if a.before else (variants if r % 2 == 0 else variants[::-1])
            for label, build, mode in order:
                secs, n = once(build, program, args, mode, answer)
                t[label].append(secs)
                nodes.add(n)
                print(f"{name} {label}: {secs:.4f} s, {n} nodes", flush=True)
        if len(nodes) != 1:
            sys.exit(f"{name}: the variants visit different node counts: {sorted(nodes)}")
        med = {m: statistics.median(v) for m, v in t.items()}
        span = {m: f"{med[m]:.4f} [{min(v):.4f}, {max(v):.4f}]" for m, v in t.items()}
        if a.before:
            per = statistics.median(x / y for x, y in zip(t["seq"], t["before"]))
            out.append(f"| {name} | {nodes.pop():,} | {span['seq']} | {span['before']} | {span['hand']} | "
                       f"{med['seq'] / med['hand']:.3f} | {med['before'] / med['hand']:.3f} | {per:.3f} |")
        else:
            out.append(f"| {name} | {nodes.pop():,} | {span['seq']} | {span['hand']} | {med['seq'] / med['hand']:.3f} |")
    benchlib.emit("\n".join(out) + "\n", a.out)


if __name__ == "__main__":
    main()
