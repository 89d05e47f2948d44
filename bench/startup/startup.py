#!/usr/bin/env python3
"""Start-up cost: wall time from exec to exit of a trivial search, OLD and NEW binaries alternated.

    bench/startup/startup.py --old OLD_NQUEENS [--new build/apps/nqueens/nqueens] [--runs 20]
        [--ranks 1 2] [--out bench/results/startup.md] [--note TEXT] [-- APP_ARGS...]

APP_ARGS default to `-n 4` (nqueens: 2 solutions, a search of microseconds); on one rank
`--skeleton seq` is added, on more `--skeleton budget --threads 1` (seq runs on one rank only);
with --default-skeleton neither is (the app's default, `auto`, with a worker per CPU). For each rank count,
the runs alternate OLD, NEW, OLD, NEW, ... (RUNS of each); one rank is a plain exec, more are
`mpirun -n R`. Reported per binary: the median wall seconds and the range [min, max]. Then one
NEW run with --stats, whose "startup" section splits the time before the search (exec to main,
MPI_Init, the command line, the input).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def launch(ranks):
    if ranks == 1:
        return []
    return [shutil.which("mpirun") or "mpirun", "--oversubscribe", "--allow-run-as-root", "-n", str(ranks)]


def rank_args(ranks, default_skeleton=False):
    if default_skeleton:
        return []
    return ["--skeleton", "seq"] if ranks == 1 else ["--skeleton", "budget", "--threads", "1"]


def timed(cmd):
    """(wall seconds, CPU seconds user + system of the process and its children) of one run."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    t = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed with exit {p.returncode}:\n{p.stderr.read().decode()}")
    return t, usage.ru_utime + usage.ru_stime


def wall(cmd):
    return timed(cmd)[0]


def fmt(xs):
    return f"{statistics.median(xs) * 1000:.1f} [{min(xs) * 1000:.1f}, {max(xs) * 1000:.1f}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", default=os.path.join(ROOT, "build/apps/nqueens/nqueens"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--out")
    ap.add_argument("--note", default="")
    ap.add_argument("--default-skeleton", action="store_true",
                    help="add no --skeleton/--threads: the app's default (auto, a worker per CPU)")
    ap.add_argument("app_args", nargs="*")
    a = ap.parse_args()
    if a.runs < 1 or any(r < 1 for r in a.ranks):
        sys.exit("startup.py: --runs and --ranks must be positive")
    args = a.app_args or ["-n", "4"]
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    lines = ["# Start-up: a trivial search from exec to exit", ""]
    lines.append(f"- command: `bench/startup/startup.py --old {a.old} --new {benchlib.shown(a.new)} --runs {a.runs} "
                 f"--ranks {' '.join(map(str, a.ranks))}{' --default-skeleton' if a.default_skeleton else ''} -- {' '.join(args)}`")
    lines.append(f"- machine: {benchlib.machine()}")
    lines.append(f"- date: {benchlib.utc_now()}")
    lines.append(f"- runs: {a.runs} of each binary per rank count, alternated (old, new, old, new, ...)")
    if a.note:
        lines.append(f"- note: {a.note}")
    lines += ["", "Wall ms from exec to exit, and CPU ms (user + system, the launcher and its children included):", "",
              "| ranks | old wall, median [min, max] | new wall, median [min, max] | old/new | old CPU | new CPU |",
              "|---:|---|---|---:|---|---|"]
    for r in a.ranks:
        old, new = [], []
        for _ in range(a.runs):
            old.append(timed(launch(r) + [a.old] + args + rank_args(r, a.default_skeleton)))
            new.append(timed(launch(r) + [a.new] + args + rank_args(r, a.default_skeleton)))
        ow, nw = [w for w, _ in old], [w for w, _ in new]
        lines.append(f"| {r} | {fmt(ow)} | {fmt(nw)} | {statistics.median(ow) / statistics.median(nw):.2f} | "
                     f"{fmt([c for _, c in old])} | {fmt([c for _, c in new])} |")
    # Where NEW's time before the search goes (one run per rank count, rank 0's --stats).
    lines += ["", "NEW's start-up phases (one run, rank 0's `--stats` \"startup\", ms; exec_to_main in clock ticks of 10 ms):", ""]
    for r in a.ranks:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
            stats = f.name
        t = wall(launch(r) + [a.new] + args + rank_args(r, a.default_skeleton) + ["--stats", stats])
        with open(stats) as f:
            s = json.load(f).get("startup", {})
        os.unlink(stats)
        parts = ", ".join(f"{k[:-2]} {v * 1000:.1f}" for k, v in s.items())
        lines.append(f"- {r} rank(s): {parts}; whole run {t * 1000:.1f}")
    benchlib.emit("\n".join(lines) + "\n", a.out)


if __name__ == "__main__":
    main()
