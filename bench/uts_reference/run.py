#!/usr/bin/env python3
"""Jackdaw's uts against the UTS 2.1 reference, side by side, on the same trees and worker counts.

    bench/uts_reference/build.sh REF                  # the reference, built outside the repository
    bench/uts_reference/run.py --ref REF [--trees T3L,T1L,T3XXL,T1XL] [--workers 1,2]
                               [--ranks 2] [--reps 3] [--jackdaw build/apps/uts/uts]
                               [--jackdaw-args '--skeleton budget'] [--jackdaw-seq-args '--skeleton seq']
                               [--out bench/results/vs-uts-reference.md] [--title TEXT] [--note TEXT]

Cells, per tree:
  workers 1   Jackdaw `uts --tree T <seq args>`                 reference `uts-seq <flags>`
  workers W   Jackdaw `uts --tree T <args> --threads W`         reference `uts-pthread <flags> -T W`
  ranks R     Jackdaw `mpirun ... -n R uts --tree T <args> --threads 1`
                                                                reference `mpirun ... -n R uts-mpi-ws <flags>`
Workers 1 is always run: the speed-ups are over its times (the reference's own sequential time and
Jackdaw's seq). Within a cell the two run alternately, reference then Jackdaw, REPS times
(A/B/A/B...), so drift in the machine's load reaches both alike; cells run one after another.

Times are what each program reports of its search: the reference's "Wallclock time = X sec",
Jackdaw's "seconds" of its --stats JSON (the time it prints as `time: X s`); start-up (and MPI's
launch) is outside both. Beside them, each process's CPU time (user + system, start-up included;
for MPI cells that of mpirun and its ranks), the fairer measure of one-worker cells on a machine
shared with other jobs. Every run's node count is checked: the reference's "Tree size = N" must
equal Jackdaw's nodes, and the known size where presets.cpp's tree is one of KNOWN (a mismatch
stops the script).
"""
import argparse
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

# Jackdaw's --tree presets (apps/uts/src/presets.cpp) as the reference's flags. The reference's
# defaults for absent flags are those of TreeParams (apps/uts/include/jackdaw/uts/model.hpp):
# -t 1 -a 0 -d 6 -b 4 -r 0 -q 0.234375 -m 4 -f 0.5. -t: 0 binomial, 1 geometric, 2 hybrid;
# -a: 0 linear, 1 expdec, 2 cyclic, 3 fixed.
REF_FLAGS = {
    "default": "-t 1 -a 0 -d 6 -b 4 -r 0",
    "T1": "-t 1 -a 3 -d 10 -b 4 -r 19",
    "T5": "-t 1 -a 0 -d 20 -b 4 -r 34",
    "T2": "-t 1 -a 2 -d 16 -b 6 -r 502",
    "T3": "-t 0 -b 2000 -q 0.124875 -m 8 -r 42",
    "T4": "-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4",
    "T1L": "-t 1 -a 3 -d 13 -b 4 -r 29",
    "T2L": "-t 1 -a 2 -d 23 -b 7 -r 220",
    "T3L": "-t 0 -b 2000 -q 0.200014 -m 5 -r 7",
    "T1XL": "-t 1 -a 3 -d 15 -b 4 -r 29",
    "T1XXL": "-t 1 -a 3 -d 15 -b 4 -r 19",
    "T3XXL": "-t 0 -b 2000 -q 0.499995 -m 2 -r 316",
    "T2XXL": "-t 0 -b 2000 -q 0.499999995 -m 2 -r 0",
    "T1WL": "-t 1 -a 3 -d 18 -b 4 -r 19",
    "T2WL": "-t 0 -b 2000 -q 0.4999999995 -m 2 -r 559",
    "T3WL": "-t 0 -b 2000 -q 0.4999995 -m 2 -r 559",
}
# Sizes known independently of both programs (UTS's sample_trees.sh and instances/uts/trees.tsv).
KNOWN = {"T1": 4130071, "T3": 4112897, "T1L": 102181082}

REF_SIZE = re.compile(r"Tree size = (\d+)")
REF_TIME = re.compile(r"Wallclock time = ([0-9.eE+-]+) sec")


def mpirun(ranks):
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    return ["mpirun"] + root + ["--oversubscribe", "-n", str(ranks)]


def commands(a, tree, kind, n):
    """(reference command, Jackdaw command) of one cell: kind 'w' (workers) or 'r' (ranks)."""
    flags = REF_FLAGS[tree].split()
    jd = [a.jackdaw, "--tree", tree]
    par = shlex.split(a.jackdaw_args)
    if kind == "w" and n == 1:
        return [os.path.join(a.ref, "uts-seq")] + flags, jd + shlex.split(a.jackdaw_seq_args)
    if kind == "w":
        return ([os.path.join(a.ref, "uts-pthread")] + flags + ["-T", str(n)],
                jd + par + ["--threads", str(n)])
    return (mpirun(n) + [os.path.join(a.ref, "uts-mpi-ws")] + flags,
            mpirun(n) + jd + par + ["--threads", "1"])


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_ref(cmd, timeout):
    t0, c0 = time.monotonic(), children_cpu()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    wall, cpu = time.monotonic() - t0, children_cpu() - c0
    size, secs = REF_SIZE.search(p.stdout), REF_TIME.search(p.stdout)
    if p.returncode != 0 or not size or not secs:
        sys.exit(f"{shlex.join(cmd)} failed (exit {p.returncode}) or printed no tree size / time:\n"
                 f"{p.stdout}{p.stderr}")
    return int(size.group(1)), float(secs.group(1)), wall, cpu


def run_jackdaw(cmd, timeout):
    t0, c0 = time.monotonic(), children_cpu()
    doc = benchlib.run_stats(cmd, cwd=ROOT, timeout=timeout)
    wall, cpu = time.monotonic() - t0, children_cpu() - c0
    return int(doc["stats"]["nodes"]), float(doc["seconds"]), wall, cpu


def outside(path):
    return os.path.relpath(path, ROOT).startswith("..")


def shown(a, word):
    """A word of a command as a results file shows it: the reference's folder as REF, a Jackdaw
    binary outside the repository as JACKDAW, other paths relative to the repository when inside it."""
    if word == a.jackdaw and outside(a.jackdaw):
        return "JACKDAW"
    if os.path.isabs(word) and os.path.abspath(word).startswith(a.ref + os.sep):
        return "REF/" + os.path.relpath(word, a.ref)
    if os.path.isabs(word) and os.path.abspath(word) == a.ref:
        return "REF"
    return benchlib.shown(word) if os.path.isabs(word) else word


def shown_cmd(a, cmd):
    return shlex.join(shown(a, w) for w in cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trees", default="T3L,T1L", help="comma-separated presets: " + ",".join(REF_FLAGS))
    ap.add_argument("--workers", default="1,2", help="worker counts in one process (1 is always run)")
    ap.add_argument("--ranks", default="", help="MPI rank counts, one worker each (empty: none)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ref", required=True, help="the folder build.sh built the reference into")
    ap.add_argument("--jackdaw", default=os.path.join(ROOT, "build", "apps", "uts", "uts"))
    ap.add_argument("--jackdaw-args", default="--skeleton budget",
                    help="Jackdaw's options for workers > 1 and ranks (--threads is appended)")
    ap.add_argument("--jackdaw-seq-args", default="--skeleton seq", help="Jackdaw's options for workers 1")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds one run may take")
    ap.add_argument("--out", default=None, help="the results file (default: print only)")
    ap.add_argument("--title", default="Jackdaw uts against the UTS 2.1 reference")
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    a.ref = os.path.abspath(a.ref)
    a.jackdaw = os.path.abspath(a.jackdaw)

    trees = [t for t in a.trees.split(",") if t]
    for t in trees:
        if t not in REF_FLAGS:
            sys.exit(f"unknown tree {t}; known: {', '.join(REF_FLAGS)}")
    workers = sorted({1} | {int(w) for w in a.workers.split(",") if w})
    ranks = sorted({int(r) for r in a.ranks.split(",") if r})
    cells = [("w", w) for w in workers] + [("r", r) for r in ranks]
    for exe in [a.jackdaw] + [os.path.join(a.ref, b) for b in ("uts-seq", "uts-pthread", "uts-mpi-ws")]:
        if not os.access(exe, os.X_OK):
            sys.exit(f"{exe} is missing: build Jackdaw, and the reference with bench/uts_reference/build.sh")

    started = benchlib.utc_now()
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    res = {}  # (tree, cell, impl) -> [(secs, wall, cpu)]
    nodes = {}
    for tree in trees:
        for cell in cells:
            ref_cmd, jd_cmd = commands(a, tree, *cell)
            for rep in range(a.reps):
                for impl, cmd, runner in (("reference", ref_cmd, run_ref), ("Jackdaw", jd_cmd, run_jackdaw)):
                    n, secs, wall, cpu = runner(cmd, a.timeout)
                    want = nodes.setdefault(tree, KNOWN.get(tree, n))
                    if n != want:
                        sys.exit(f"{tree}: {shlex.join(cmd)} counted {n} nodes, expected {want}")
                    res.setdefault((tree, cell, impl), []).append((secs, wall, cpu))
                    print(f"# {tree} {'workers' if cell[0] == 'w' else 'ranks'} {cell[1]} rep {rep + 1} "
                          f"{impl}: {n} nodes, {secs:.3f} s (process {wall:.3f} s, CPU {cpu:.3f} s)",
                          file=sys.stderr, flush=True)

    def med(tree, cell, impl):
        return statistics.median(x[0] for x in res[(tree, cell, impl)])

    out = [f"# {a.title}", ""]
    load_end = " ".join(open("/proc/loadavg").read().split()[:3])
    out.append(f"- date: {started}; load average at start: {load}, at the end: {load_end}")
    out.append(f"- machine: {benchlib.machine()}")
    argv = [os.path.abspath(x) if os.path.exists(x) and x not in trees else x for x in sys.argv[1:]]
    out.append(f"- command: `{shlex.join(['bench/uts_reference/run.py'] + [shown(a, x) for x in argv])}`")
    out.append("- reference: UTS 2.1 (github.com/perarnau/uts e10c4fe), built into `REF` by "
               "`bench/uts_reference/build.sh REF`; Jackdaw: "
               + ("`JACKDAW`, a uts binary outside this checkout" if outside(a.jackdaw) else f"`{shown(a, a.jackdaw)}`"))
    out.append(f"- {a.reps} runs per implementation and cell, alternating reference / Jackdaw; times are the "
               "search time each program reports (reference: \"Wallclock time\", Jackdaw: --stats \"seconds\"), "
               "median [min, max] in seconds; process CPU = user + system seconds of the process, start-up "
               "included")
    if a.note:
        out.append(f"- note: {a.note}")
    out += ["",
            "Columns: `× ref seq` = the reference's sequential median / this median; `× Jackdaw seq` = Jackdaw's "
            "seq median / this median; `ref / Jackdaw` = the reference's median / Jackdaw's in the same cell "
            "(above 1: Jackdaw faster).", ""]
    out.append("| tree | nodes | workers | implementation | seconds | process wall (median) | process CPU "
               "| M nodes/s | × ref seq | × Jackdaw seq | ref / Jackdaw | ref / Jackdaw (CPU) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for tree in trees:
        ref_seq, jd_seq = med(tree, ("w", 1), "reference"), med(tree, ("w", 1), "Jackdaw")
        for cell in cells:
            label = f"{cell[1]}" if cell[0] == "w" else f"{cell[1]} ranks × 1"
            for impl in ("reference", "Jackdaw"):
                xs = [x[0] for x in res[(tree, cell, impl)]]
                walls = [x[1] for x in res[(tree, cell, impl)]]
                cpus = [x[2] for x in res[(tree, cell, impl)]]
                m = statistics.median(xs)
                ratio = f"{med(tree, cell, 'reference') / m:.2f}" if impl == "Jackdaw" else ""
                ref_cpu = statistics.median(x[2] for x in res[(tree, cell, "reference")])
                ratio_cpu = f"{ref_cpu / statistics.median(cpus):.2f}" if impl == "Jackdaw" else ""
                out.append(f"| {tree} | {nodes[tree]:,} | {label} | {impl} | {benchlib.spread(xs)} "
                           f"| {statistics.median(walls):.3f} | {benchlib.spread(cpus)} | {nodes[tree] / m / 1e6:.2f} "
                           f"| {ref_seq / m:.2f} | {jd_seq / m:.2f} | {ratio} | {ratio_cpu} |")
    out += ["", "Commands (per tree; `REF` is the folder the reference was built into):", ""]
    for tree in trees:
        for cell in cells:
            ref_cmd, jd_cmd = commands(a, tree, *cell)
            out.append(f"- `{shown_cmd(a, ref_cmd)}`")
            out.append(f"- `{shown_cmd(a, jd_cmd)} --stats FILE`")
    benchlib.emit("\n".join(out) + "\n", a.out)


if __name__ == "__main__":
    main()
