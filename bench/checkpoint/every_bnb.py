#!/usr/bin/env python3
"""What --checkpoint-every does to a branch-and-bound search: MaxClique on brock400_4 (budget
skeleton, 2 workers), without (A) and with --checkpoint-every S (B), alternated A B A B ...;
nodes and seconds from each run's --stats, as median [min, max] per variant, and B's median over
A's. The goal: B's nodes within 10 % of A's. Branch and bound visits a different number of nodes
in every run (it depends on when the optimum is found), so the spread matters as much as the
median.

  bench/checkpoint/every_bnb.py BUILD_DIR [--pairs 5] [--every 2] [--out bench/results/checkpoint_every.md]
                                [--note TEXT]
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GRAPH = "instances/dimacs/brock400_4.clq"
OMEGA = 33  # instances/dimacs/ANSWERS.tsv


def lscpu_head():
    try:
        return subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()[:10]
    except OSError:
        return [benchlib.machine()]


def spread(xs, fmt):
    return f"{fmt(statistics.median(xs))} [{fmt(min(xs))}, {fmt(max(xs))}]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--every", default="2")
    ap.add_argument("--threads", default="2")
    ap.add_argument("--out", default=None)
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    app = os.path.join(os.path.abspath(a.build), "apps", "maxclique", "maxclique")
    base = [app, GRAPH, "--skeleton", "budget", "--threads", a.threads]
    work = tempfile.mkdtemp(prefix="every_bnb_")
    ck = os.path.join(work, "ck")
    variants = {"A": base, "B": base + ["--checkpoint", ck, "--checkpoint-every", a.every]}
    runs = {"A": [], "B": []}
    try:
        for i in range(a.pairs):
            for v in ("A", "B"):
                shutil.rmtree(ck, ignore_errors=True)
                doc = benchlib.run_stats(variants[v], cwd=ROOT)
                if doc["result"]["omega"] != OMEGA or doc["status"] != "complete":
                    sys.exit(f"run {v}{i}: omega {doc['result']['omega']}, status {doc['status']}; expected {OMEGA}, complete")
                legs = doc.get("checkpoint", {}).get("written", {}).get("sequence", 0)
                runs[v].append((doc["stats"]["nodes"], doc["seconds"], legs))
                print(f"pair {i + 1} {v}: {doc['stats']['nodes']} nodes, {doc['seconds']:.2f} s, {legs} checkpoints", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    mn = lambda x: f"{x / 1e6:.2f} M"
    sec = lambda x: f"{x:.1f}"
    na, nb = [r[0] for r in runs["A"]], [r[0] for r in runs["B"]]
    sa, sb = [r[1] for r in runs["A"]], [r[1] for r in runs["B"]]
    ratio = statistics.median(nb) / statistics.median(na)
    lines = [
        f"- **Command**: `python3 bench/checkpoint/every_bnb.py {shlex.join(sys.argv[1:])}`",
        f"- **Runs**: A = `maxclique {GRAPH} --skeleton budget --threads {a.threads}`, B = A + "
        f"`--checkpoint DIR --checkpoint-every {a.every}`; alternated A B, {a.pairs} pairs; nodes and seconds from `--stats`",
        f"- **Date**: {benchlib.utc_now()}",
        "- **Machine** (`lscpu | head`):",
        "",
        "```",
        *lscpu_head(),
        "```",
        "",
        "| variant | nodes, median [min, max] | seconds, median [min, max] | checkpoints written |",
        "|---|---|---|---|",
        f"| A: without | {spread(na, mn)} | {spread(sa, sec)} | – |",
        f"| B: --checkpoint-every {a.every} | {spread(nb, mn)} | {spread(sb, sec)} | "
        f"{min(r[2] for r in runs['B'])}–{max(r[2] for r in runs['B'])} |",
        "",
        f"Nodes, B's median over A's: **{ratio:.3f}** (goal: within 10 %). Each run, in order: "
        + ", ".join(f"{v}{i + 1} {runs[v][i][0] / 1e6:.2f} M / {runs[v][i][1]:.1f} s"
                    for i in range(a.pairs) for v in ("A", "B")) + ".",
    ]
    if a.note:
        lines += ["", a.note]
    benchlib.emit("\n".join(lines) + "\n", a.out)


if __name__ == "__main__":
    main()
