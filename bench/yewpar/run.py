#!/usr/bin/env python3
"""Jackdaw against YewPar on the rows YewPar was measured on (this machine kind, 1 search worker).

    bench/yewpar/run.py [--reps 3] [--rows maxclique,ns,uts] [--out bench/results/vs-yewpar.md]
                        [--build build] [--note TEXT]

YewPar's figures (YEWPAR_MS below) are milliseconds of search as YewPar prints them, median of 3
runs on an idle 2-vCPU Xeon at 2.0 GHz (YewPar master, HPX 1.9.1, Release, MPI parcelport, g++ 12),
with one search worker: on 2 cores HPX keeps one thread for its runtime. Jackdaw is measured the
same way: the search time the app reports (start-up and parsing excluded), one worker
(`--threads 1` for the parallel skeletons), median of REPS runs. Every repetition runs every
(row, skeleton) once, in an order rotated from one repetition to the next, so drift in the
machine's load reaches all variants alike. Each run's answer and node count are checked against
the known ones (a wrong answer stops the script).
"""
import argparse
import os
import shlex
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

SKELETONS = [
    ("seq", ["--skeleton", "seq"]),
    ("depth_bounded", ["--skeleton", "depth_bounded", "-d", "2", "--threads", "1"]),
    ("stack_stealing", ["--skeleton", "stack_stealing", "--threads", "1"]),
    ("budget -b 100000", ["--skeleton", "budget", "-b", "100000", "--threads", "1"]),
]

# (row, app, arguments, known answer (key in the stats' "result", value), known nodes or None,
#  YewPar's ms per skeleton (None: not measured)).
ROWS = [
    ("maxclique brock200_1", "maxclique", ["instances/dimacs/brock200_1.clq"], ("omega", 21), None,
     [446, 456, 518, 1377]),
    ("maxclique san200_0.9_3", "maxclique", ["instances/dimacs/san200_0.9_3.clq"], ("omega", 44), None,
     [8919, 7917, 9811, None]),
    ("maxclique brock400_4", "maxclique", ["instances/dimacs/brock400_4.clq"], ("omega", 33), None,
     [68672, 70640, 68810, None]),
    # YewPar's -g 36 counts genus 0..35; Jackdaw's -g 35 does.
    ("ns genus 0..35", "ns", ["-g", "35"], ("total", None), 171202690, [3946, 3787, 6008, 9439]),
    ("uts T1L", "uts", ["--tree", "T1L"], ("nodes", 102181082), 102181082, [15249, 16595, 15739, 18533]),
]
GROUPS = {"maxclique": "maxclique", "ns": "ns", "uts": "uts"}


def binary(build, app):
    return os.path.join(build, "apps", app, app)


def run_once(build, row, skel_args):
    label, app, args, (key, want), nodes_want, _ = row
    doc = benchlib.run_stats([binary(build, app)] + skel_args + args, cwd=ROOT)
    nodes = doc["stats"]["nodes"]
    got = doc["result"].get(key, nodes) if key != "nodes" else nodes
    if want is not None and got != want:
        sys.exit(f"{label} {shlex.join(skel_args)}: {key} {got}, expected {want}")
    if nodes_want is not None and nodes != nodes_want:
        sys.exit(f"{label} {shlex.join(skel_args)}: {nodes} nodes, expected {nodes_want}")
    return doc["seconds"], nodes



def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rows", default="maxclique,ns,uts", help="comma-separated: maxclique, ns, uts")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    wanted = set(a.rows.split(","))
    rows = [r for r in ROWS if r[1] in wanted]
    variants = [(r, i) for r in rows for i in range(len(SKELETONS))]

    times = {(r[0], i): [] for r, i in variants}
    nodes = {}
    for rep in range(a.reps):
        shift = rep % len(variants)
        for r, i in variants[shift:] + variants[:shift]:
            t, n = run_once(a.build, r, SKELETONS[i][1])
            times[(r[0], i)].append(t)
            nodes[(r[0], i)] = n
            print(f"rep {rep + 1}: {r[0]:24s} {SKELETONS[i][0]:18s} {t:8.3f} s  {n} nodes", flush=True)

    out = []
    say = out.append
    say("# Jackdaw vs YewPar, one search worker")
    say("")
    cmd = "bench/yewpar/run.py " + " ".join(shlex.quote(x) for x in sys.argv[1:])
    say(f"- command: `{cmd.strip()}` (from the repository root)")
    say(f"- machine: {benchlib.machine()}")
    say(f"- date: {benchlib.utc_now()}; "
        f"load average at the end {os.getloadavg()[0]:.2f}")
    say(f"- Jackdaw: median [min, max] of {a.reps} runs, seconds of search as the app reports them; "
        "variants alternated (order rotated each repetition)")
    say("- YewPar: master with HPX 1.9.1 (Release, MPI parcelport), median of 3 runs on an idle 2-vCPU Xeon at "
        "2.0 GHz, milliseconds of search as YewPar prints them; on 2 cores YewPar has one search worker (HPX "
        "keeps one thread for its runtime). If the machine above is not that Xeon, the ratios mix two machines.")
    if a.note:
        say(f"- note: {a.note}")
    say("")
    say("| problem | skeleton | nodes | Jackdaw s | YewPar s | YewPar / Jackdaw |")
    say("|---|---|---|---|---|---|")
    for r, i in variants:
        ts = times[(r[0], i)]
        med = statistics.median(ts)
        y = r[5][i]
        ys = f"{y / 1000:.3f}" if y is not None else "—"
        ratio = f"{y / 1000 / med:.2f}×" if y is not None else "—"
        say(f"| {r[0]} | {SKELETONS[i][0]} | {nodes[(r[0], i)]} | {med:.3f} [{min(ts):.3f}, {max(ts):.3f}] | {ys} | {ratio} |")
    text = "\n".join(out) + "\n"
    benchlib.emit(text, a.out)


if __name__ == "__main__":
    main()
