#!/usr/bin/env python3
"""Multi-threaded runtime benchmark: one command re-runs it and rewrites bench/results/parallel.md.

    python3 bench/parallel/run.py [--build BUILD_DIR] [--genus G] [--cost-genus G] [--graph NAME] [--reps N]

Measures, with the apps' own --stats JSON (search seconds, nodes) and the children's CPU time:
  1. speedup of 2 workers over 1: ns (budget skeleton) and maxclique (depth_bounded, -d 2);
  2. the 1-worker cost of every parallel skeleton relative to seq on the same problem (goal <= 3 %);
  3. CPU consumed by an idle worker: 2 workers but a single task (depth_bounded -d 0), process
     CPU time / wall time (goal: near 1.0, i.e. the idle worker sleeps).
Every configuration is run --reps times; the table keeps the fastest run (least disturbed by load).
"""
import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd):
    """Runs cmd with --stats; returns (search seconds, nodes, wall seconds, cpu seconds)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        stats = f.name
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd + ["--stats", stats], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
    with open(stats) as f:
        doc = json.load(f)
    os.unlink(stats)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return doc["seconds"], doc["stats"]["nodes"], wall, cpu


def best(cmd, reps):
    runs = [run(cmd) for _ in range(reps)]
    return min(runs, key=lambda r: r[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build-par"))
    ap.add_argument("--genus", type=int, default=30, help="ns genus for the speedup (<= 35)")
    ap.add_argument("--cost-genus", type=int, default=28, help="ns genus for the 1-worker cost")
    ap.add_argument("--graph", default="brock400_1", help="maxclique instance for the speedup")
    ap.add_argument("--cost-graph", default="brock200_1", help="maxclique instance for the 1-worker cost")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "parallel.md"))
    ap.add_argument("--note", default="", help="e.g. 'machine loaded by other jobs'")
    a = ap.parse_args()

    ns = [os.path.join(a.build, "apps", "ns", "ns")]
    mc = [os.path.join(a.build, "apps", "maxclique", "maxclique")]
    graph = lambda name: os.path.join(ROOT, "instances", "dimacs", name + ".clq")
    lines = []
    out = lines.append

    out("# Multi-threaded runtime: speedup, 1-worker cost, idle-worker CPU\n")
    out(f"- command: `python3 bench/parallel/run.py {' '.join(sys.argv[1:])}`")
    out(f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    out(f"- machine: {platform.node()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start")
    if a.note:
        out(f"- note: {a.note}")
    out(f"- fastest of {a.reps} run(s) per row; seconds = search time from --stats\n")

    out("## 1. Speedup of 2 workers over 1\n")
    out("| problem | skeleton | workers | nodes | seconds | speedup |")
    out("|---|---|---|---|---|---|")
    for name, base, skel in [
        (f"ns -g {a.genus}", ns + ["-g", str(a.genus)], ["--skeleton", "budget", "-b", "100000"]),
        (f"maxclique {a.graph}", mc + [graph(a.graph)], ["--skeleton", "depth_bounded", "-d", "2"]),
    ]:
        one = None
        for w in (1, 2):
            s, n, _, _ = best(base + skel + ["--threads", str(w)], a.reps)
            one = one or s
            out(f"| {name} | {skel[1]} | {w} | {n} | {s:.3f} | {one / s:.2f} |")
            print(lines[-1], flush=True)

    out("\n## 2. One worker: cost of each skeleton relative to seq (goal <= 3 %)\n")
    out("| problem | skeleton | nodes | seconds | vs seq |")
    out("|---|---|---|---|---|")
    variants = [["--skeleton", "depth_bounded", "-d", "2"], ["--skeleton", "budget", "-b", "100000"],
                ["--skeleton", "stack_stealing"], ["--skeleton", "ordered", "-d", "2"]]
    for name, base in [(f"ns -g {a.cost_genus}", ns + ["-g", str(a.cost_genus)]),
                       (f"maxclique {a.cost_graph}", mc + [graph(a.cost_graph)])]:
        s0, n0, _, _ = best(base + ["--skeleton", "seq"], a.reps)
        out(f"| {name} | seq | {n0} | {s0:.3f} | — |")
        for v in variants:
            s, n, _, _ = best(base + v + ["--threads", "1"], a.reps)
            out(f"| {name} | {' '.join(v[1:])} | {n} | {s:.3f} | {100 * (s / s0 - 1):+.1f} % |")
            print(lines[-1], flush=True)

    out("\n## 3. Idle worker CPU: 2 workers, one task (depth_bounded -d 0)\n")
    out("| problem | workers | wall s | CPU s | CPU / wall | CPU vs 1 worker |")
    out("|---|---|---|---|---|---|")
    cpu1 = None
    for w in (1, 2):
        _, _, wall, cpu = best(ns + ["-g", str(a.genus), "--skeleton", "depth_bounded", "-d", "0",
                                     "--threads", str(w)], a.reps)
        cpu1 = cpu1 or cpu
        out(f"| ns -g {a.genus} | {w} | {wall:.3f} | {cpu:.3f} | {cpu / wall:.2f} | {100 * (cpu / cpu1 - 1):+.1f} % |")
        print(lines[-1], flush=True)
    out("\nThe 2-worker run using no more CPU than the 1-worker run (and CPU / wall <= 1) means the "
        "worker without a task sleeps (oneTBB) and costs no core. On a loaded machine CPU / wall is "
        "below 1 for both, because the process waits for a core; compare the CPU columns.")

    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", a.out)


if __name__ == "__main__":
    main()
