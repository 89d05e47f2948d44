#!/usr/bin/env python3
"""What a checkpoint costs: for each workload, alternate an uninterrupted run (A) with a run that
is interrupted halfway under --checkpoint and then resumed (B), A B A B ...; report the time from
the signal to the saved checkpoint (rank 0's log) and to the exit of mpirun, the collective
write's own time, the size per rank, and B's total time (both legs, process start to exit) over
A's, as medians with their spread. Node counts are reported beside the times: for an enumeration
B visits exactly A's tree; for branch and bound both vary from run to run with the order in which
incumbents are found, so their ratio is shown.

  bench/checkpoint/run.py BUILD_DIR [--reps 3] [--ranks 2]
"""
import argparse
import datetime
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import tempfile
import time

WORKLOADS = {  # name: (app, arguments, enumeration?)
    "ns genus 40, budget": ("ns", ["-g", "40", "--skeleton", "budget", "-b", "100000"], True),
    "maxclique brock400_4, depth_bounded": ("maxclique", ["instances/dimacs/brock400_4.clq", "--skeleton", "depth_bounded", "-d", "2"], False),
}


def log_time(err, pattern, rank=r"\d+"):
    """Seconds since midnight of the earliest log line matching pattern (of `rank`; ms resolution)."""
    times = [int(m[1]) * 3600 + int(m[2]) * 60 + float(m[3])
             for m in re.finditer(r"^\[(\d+):(\d+):(\d+\.\d+)\] \[\w+ rank " + rank + r"\] .*" + pattern, err, re.M)]
    if not times:
        raise SystemExit(f"no log line /{pattern}/ in:\n{err}")
    return min(times)


def cmd(build, app, args, ranks, extra):
    c = [os.path.join(build, "apps", app, app)] + args + ["--threads", "1"] + extra
    return ["mpirun", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none", "-n", str(ranks)] + c


def run(c, signal_after=None):
    t0 = time.monotonic()
    p = subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ts = None
    if signal_after is not None:
        try:
            p.wait(timeout=signal_after)
        except subprocess.TimeoutExpired:
            ts = time.monotonic()
            p.send_signal(signal.SIGUSR1)
    out, err = p.communicate()
    t1 = time.monotonic()
    return p.returncode, t1 - t0, (t1 - ts if ts else None), out, err


def med(xs):
    return f"{statistics.median(xs):.3f} ({min(xs):.3f}–{max(xs):.3f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ranks", type=int, default=2)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="jackdaw-ckbench-")
    print(f"{a.ranks} ranks x 1 worker, {a.reps} A/B pairs each, alternating A B A B ...\n")
    print("| workload | A: uninterrupted s | B: interrupted + resumed s | B/A | signal → saved s | signal → exit s | write s | bytes per rank | tasks saved | nodes B/A |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, (app, args, enumeration) in WORKLOADS.items():
        A, B, ratio, saved, stop, write, sizes, tasks, nodes = [], [], [], [], [], [], [], [], []
        for rep in range(a.reps):
            sa = os.path.join(work, "a.json")
            rc, ta, _, out, err = run(cmd(a.build, app, args, a.ranks, ["--stats", sa]))
            assert rc == 0, (rc, err)
            nodes_a = json.load(open(sa))["stats"]["nodes"]
            A.append(ta)
            ck = os.path.join(work, "ck")
            shutil.rmtree(ck, ignore_errors=True)
            s1, s2 = os.path.join(work, "b1.json"), os.path.join(work, "b2.json")
            rc, t1, t_stop, out, err = run(cmd(a.build, app, args, a.ranks, ["--checkpoint", ck, "--stats", s1, "--log-level", "info"]), ta / 2)
            assert rc == 3, (rc, out, err)
            w = json.load(open(s1))["checkpoint"]["written"]
            saved.append(log_time(err, r"checkpoint \d+ written", "0") - log_time(err, r"signal \d+ received"))
            rc, t2, _, out, err = run(cmd(a.build, app, args, a.ranks, ["--resume", ck, "--stats", s2]))
            assert rc == 0, (rc, out, err)
            nodes_b = json.load(open(s2))["stats"]["nodes"]
            nodes.append(nodes_b / nodes_a)
            if enumeration:
                assert nodes_a == nodes_b, (nodes_a, nodes_b)  # the same tree, every node once
            B.append(t1 + t2)
            ratio.append((t1 + t2) / ta)
            stop.append(t_stop)
            write.append(w["write_seconds"])
            sizes += w["bytes_per_rank"]
            tasks.append(w["tasks"])
        print(f"| {name} | {med(A)} | {med(B)} | {med(ratio)} | {med(saved)} | {med(stop)} | {med(write)} | "
              f"{min(sizes)}–{max(sizes)} | {min(tasks)}–{max(tasks)} | "
              f"{'1 (equal)' if enumeration else med(nodes)} |", flush=True)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
