#!/usr/bin/env python3
"""A/B of two ns binaries (e.g. before and after an engine change), alternating A B A B ...

  bench/engine/ab.py OLD_NS NEW_NS [--genus 35] [--reps 7] [--out FILE]

Configurations (the ones the architecture issue names): seq; budget -b 100000 with 1 and with
2 workers; budget on 2 MPI ranks x 1 worker. Each repetition runs A then B, the next B then A,
so drift in the machine's load hits both alike. Time is the search time ns prints ("time: X s",
rank 0; MPI start-up excluded). Reports median, min-max and the ratio of medians B/A, the median
of the per-pair ratios, and checks that both binaries count the same nodes and semigroups.
"""
import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)

CONFIGS = [
    ("seq", [], ["--skeleton", "seq"]),
    ("budget, 1 worker", [], ["--skeleton", "budget", "-b", "100000", "--threads", "1"]),
    ("budget, 2 workers", [], ["--skeleton", "budget", "-b", "100000", "--threads", "2"]),
    ("budget, 2 ranks x 1 worker", ["mpirun", "--oversubscribe", "--allow-run-as-root", "-n", "2"],
     ["--skeleton", "budget", "-b", "100000", "--threads", "1"]),
]


def run(prefix, binary, genus, args):
    cmd = prefix + [binary, "-g", str(genus)] + args
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stdout}{out.stderr}")
    t = float(re.search(r"^time: ([0-9.e+-]+) s", out.stdout, re.M).group(1))
    nodes = int(re.search(r"^nodes: (\d+)", out.stdout, re.M).group(1))
    total = int(re.search(r"^total: (\d+)", out.stdout, re.M).group(1))
    return t, nodes, total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--genus", type=int, default=35)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--out")
    a = ap.parse_args()
    lines = []
    say = lambda s="": (print(s, flush=True), lines.append(s))
    cpu = benchlib.cpu_model()
    say(f"- command: `bench/engine/ab.py A B --genus {a.genus} --reps {a.reps}` "
        f"(A = {os.path.basename(a.old)}, B = {os.path.basename(a.new)})")
    say(f"- machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    say(f"- date: {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC; load average at start {os.getloadavg()[0]:.2f}")
    say()
    say("| configuration | A median s (min-max) | B median s (min-max) | B/A medians | B/A per pair, median (min-max) | nodes |")
    say("|---|---|---|---|---|---|")
    for name, prefix, args in CONFIGS:
        ta, tb, check = [], [], set()
        for rep in range(a.reps):
            order = [("A", a.old), ("B", a.new)] if rep % 2 == 0 else [("B", a.new), ("A", a.old)]
            for label, binary in order:
                t, nodes, total = run(prefix, binary, a.genus, args)
                (ta if label == "A" else tb).append(t)
                check.add((nodes, total))
        if len(check) != 1:
            sys.exit(f"{name}: A and B disagree on nodes / total: {check}")
        pairs = [b / x for x, b in zip(ta, tb)]
        ma, mb = statistics.median(ta), statistics.median(tb)
        say(f"| {name} | {ma:.3f} ({min(ta):.3f}-{max(ta):.3f}) | {mb:.3f} ({min(tb):.3f}-{max(tb):.3f}) | "
            f"{mb / ma:.3f} | {statistics.median(pairs):.3f} ({min(pairs):.3f}-{max(pairs):.3f}) | {check.pop()[0]} |")
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
