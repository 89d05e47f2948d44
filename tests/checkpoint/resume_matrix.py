#!/usr/bin/env python3
"""Checkpoint and resume, end to end: a search is interrupted with SIGUSR1 (Slurm's time-limit
signal) at random moments under --checkpoint, then resumed -- on another number of ranks and
workers and with another skeleton, sometimes interrupted again -- until it ends; its answer must
be the known, externally sourced one. Every mismatch, hang or unexpected exit fails.

  resume_matrix.py CASE SOURCE_DIR BUILD_DIR WORK_DIR [--trials N] [--seed S]

A trial is a chain of legs. Leg k runs on LAYOUTS[(i + k) % len] with SKELETONS[(i + k) % len];
legs 0 and 1 get a signal after a random delay, later legs run to the end. A trial counts only if
at least one leg was really cut short (exit 3 with a checkpoint); the case needs --trials such.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

LAYOUTS = [(1, 2), (2, 1), (4, 1), (1, 1), (2, 2)]  # (ranks, workers per rank)
SKELETONS = ["budget", "stack_stealing", "depth_bounded", "ordered"]


def genus_counts(src, top):
    counts = {}
    with open(os.path.join(src, "instances/ns/genus_counts.tsv")) as f:
        for line in f:
            p = line.split("\t")
            if p and p[0].isdigit() and int(p[0]) <= top:
                counts[int(p[0])] = int(p[1])
    return counts


def uts_tree(src, name):
    with open(os.path.join(src, "instances/uts/trees.tsv")) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p[0] == name:
                return {"tree nodes": int(p[10]), "leaves": int(p[12])}
    raise SystemExit(f"tree {name} not in trees.tsv")


def dimacs_omega(src, graph):
    with open(os.path.join(src, "instances/dimacs/ANSWERS.tsv")) as f:
        for line in f:
            p = line.split("\t")
            if p[0] == graph:
                return int(p[3])
    raise SystemExit(f"{graph} not in ANSWERS.tsv")


def cases(src):
    """Each case: app, its own arguments, the expected answer lines, a rough full-run time (s), and
    lines to take from an uninterrupted run as well (where no published answer exists)."""
    g = 37
    ns = genus_counts(src, g)
    t = uts_tree(src, "T1L")
    omega = dimacs_omega(src, "brock400_4")
    b1 = dimacs_omega(src, "brock400_1")
    clq = lambda name: os.path.join(src, "instances/dimacs", name + ".clq")
    return {
        # genus 0..35 from OEIS A007323 (instances/ns); 36 and 37 as an uninterrupted run counts them
        "ns": ("ns", ["-g", str(g)], [f"{k}: {v}" for k, v in sorted(ns.items())], 3, r"^3[67]: \d+$"),
        "uts": ("uts", ["--tree", "T1L"], [f"tree nodes: {t['tree nodes']}", f"leaves: {t['leaves']}"], 5),
        # 16 queens: 14,772,512 solutions (OEIS A000170)
        "nqueens": ("nqueens", ["-n", "16"], ["solutions: 14772512"], 5),
        # about 9 s on one worker since the degeneracy order and recolouring (bench/results/maxclique_bound.md)
        "maxclique": ("maxclique", [clq("brock400_4")], [f"omega = {omega}"], 6),
        # decision: is there a clique of omega + 1 vertices in brock400_4 (no), of omega - 2 in brock400_1 (yes)
        "decision": ("maxclique", [clq("brock400_4"), "--decision", str(omega + 1)],
                     [f"clique of size >= {omega + 1}: none"], 4),
        # (--no-heuristic: the initial clique would answer it before any search could be interrupted)
        "decision_yes": ("maxclique", [clq("brock400_1"), "--decision", str(b1 - 2), "--no-heuristic"],
                         [f"clique of size >= {b1 - 2}: found"], 8),
    }


def command(build, app, args, ranks, workers, skeleton, extra):
    binary = os.path.join(build, "apps", app, app)
    cmd = [binary] + args + ["--skeleton", skeleton, "--threads", str(workers)] + extra
    if ranks > 1:
        cmd = ["mpirun", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none", "-n", str(ranks)] + cmd
    return cmd


def run_leg(cmd, delay, timeout):
    """Runs one leg; sends SIGUSR1 after `delay` seconds (None: never). Returns (rc, out, err)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    if delay is not None:
        try:
            p.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGUSR1)  # mpirun forwards USR1 to every rank
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return None, out, err
    return p.returncode, out, err


def killed_early(rc, err):
    """The signal arrived before the app could catch it (during MPI start-up): the default action
    killed it. Nothing was written, the previous checkpoint (if any) stands."""
    return rc in (-signal.SIGUSR1, 128 + signal.SIGUSR1) or "signal 10" in err or "User defined signal 1" in err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("src")
    ap.add_argument("build")
    ap.add_argument("work")
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--seed", type=int, default=13)
    a = ap.parse_args()
    app, args, expected, full, *reference = cases(a.src)[a.case]
    rng = random.Random(f"{a.case}-{a.seed}")
    work = os.path.join(a.work, a.case)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    timeout = 120 + 8 * full
    if reference:
        cmd = command(a.build, app, args, 1, 2, "budget", [])
        rc, out, err = run_leg(cmd, None, timeout)
        extra = re.findall(reference[0], out, re.M)
        if rc != 0 or not extra:
            print(f"FAIL: the uninterrupted reference run exited {rc}\n{out}\n{err}")
            return 1
        expected = expected + extra
        print(f"reference (uninterrupted) run: {', '.join(extra)}")
    interrupted, attempts, failures = 0, 0, 0
    while interrupted < a.trials:
        attempts += 1
        if attempts > 4 * a.trials:
            print(f"FAIL: only {interrupted} of {attempts - 1} trials were cut short; is the instance too small?")
            return 1
        i = attempts - 1
        ck = os.path.join(work, f"trial{i}")
        legs, cut, k, early = [], False, 0, 0
        while True:
            ranks, workers = LAYOUTS[(i + k) % len(LAYOUTS)]
            skeleton = SKELETONS[(i + k) % len(SKELETONS)]
            extra = ["--checkpoint", ck] + (["--resume", ck] if cut else [])
            delay = round(rng.uniform(0.5, 0.5 + 0.6 * full), 2) if k < 2 else None
            cmd = command(a.build, app, args, ranks, workers, skeleton, extra)
            rc, out, err = run_leg(cmd, delay, timeout)
            legs.append(f"{ranks}x{workers} {skeleton} signal@{delay} -> {rc}")
            if rc is None:
                print(f"FAIL trial {i}: leg {k} hung ({' '.join(cmd)})")
                return 1
            if rc == 3 and "before the search started" in err:
                early += 1  # stopped during set-up: nothing searched, the saved set (if any) stands
                if early > 6:
                    print(f"FAIL trial {i}: stopped before the search started {early} times")
                    return 1
                continue
            if rc == 3:
                manifest = json.load(open(os.path.join(ck, "current", "manifest.json")))
                if "CHECKPOINT:" not in out or manifest["ranks"] != ranks:
                    print(f"FAIL trial {i}: leg {k} exited 3 without a checkpoint of {ranks} ranks\n{out}\n{err[-2000:]}")
                    return 1
                cut = True
                k += 1
                continue
            if delay is not None and killed_early(rc, err):
                early += 1  # the same leg again (the saved set, if any, must still be whole)
                if early > 6:
                    print(f"FAIL trial {i}: killed before start-up ended {early} times")
                    return 1
                continue
            if rc != 0:
                print(f"FAIL trial {i}: leg {k} exited {rc}: {' '.join(cmd)}\n{out}\n{err[-3000:]}")
                return 1
            missing = [e for e in expected if not re.search("^" + re.escape(e) + "$", out, re.M)]
            status = "ok  " if not missing else "FAIL"
            print(f"{status} trial {i}: {' | '.join(legs)}")
            if missing:
                print(f"     expected {missing}\n     got:\n{out}")
                failures += 1
            break
        if cut:
            interrupted += 1
    print(f"{a.case}: {interrupted} interrupted-and-resumed trials, {failures} wrong answers")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
