#!/usr/bin/env python3
"""Sequential MaxClique benchmark: nodes and nodes/s of the seq skeleton on DIMACS graphs.

    bench/maxclique/run_seq.py [--binary PATH] [--repeats N] [--out FILE] [INSTANCE ...]

Runs `maxclique --skeleton seq --stats JSON FILE` REPEATS times per instance, takes the median
of the search time the app reports (parsing excluded), and writes a Markdown table. A "node"
is one jackdaw SearchStats.nodes: every node the skeleton visits, i.e. the root plus every
child that passed the bound test (children cut by the bound are counted as prunes, not nodes).
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)


def run_once(binary, path):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        stats = f.name
    try:
        cmd = [binary, "--skeleton", "seq", "--stats", stats, path]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"{shlex.join(cmd)} failed with exit {p.returncode}:\n{p.stderr}")
        with open(stats) as f:
            doc = json.load(f)
        return doc["stats"]["nodes"], doc["seconds"], doc["result"].get("omega")
    finally:
        os.unlink(stats)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "apps", "maxclique", "maxclique"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "maxclique-seq.md"))
    ap.add_argument("--note", default="", help="free text for the header, e.g. 'machine loaded'")
    ap.add_argument("instances", nargs="*", default=["brock200_1", "brock400_1", "brock400_4"])
    a = ap.parse_args()
    if not os.access(a.binary, os.X_OK):
        sys.exit(f"{a.binary}: not an executable (build the maxclique target or pass --binary)")

    rows = []
    for name in a.instances:
        path = name if os.path.exists(name) else os.path.join(ROOT, "instances", "dimacs", name + ".clq")
        runs = []
        for i in range(a.repeats):
            nodes, secs, omega = run_once(a.binary, path)
            print(f"{name} run {i + 1}/{a.repeats}: omega {omega}, {nodes} nodes, {secs:.3f} s", flush=True)
            runs.append((nodes, secs, omega))
        nodes = runs[0][0]
        if any(r[0] != nodes for r in runs):
            sys.exit(f"{name}: node counts differ between runs of the sequential search: {[r[0] for r in runs]}")
        secs = [r[1] for r in runs]
        med = statistics.median(secs)
        rows.append((name, runs[0][2], nodes, med, min(secs), max(secs), nodes / med if med > 0 else 0.0))

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = shlex.join([os.path.relpath(sys.argv[0], ROOT) if os.path.isabs(sys.argv[0]) else sys.argv[0]] + sys.argv[1:])
    lines = [
        "# MaxClique, sequential skeleton",
        "",
        f"- command: `{cmd}` (from the repository root)",
        f"- binary: `{a.binary}`",
        f"- machine: {benchlib.cpu_model()}, nproc {os.cpu_count()}, {platform.system()} {platform.release()}",
        f"- date: {now}",
    ]
    if a.note:
        lines.append(f"- note: {a.note}")
    lines += [
        f"- repeats: {a.repeats} per instance; time = median of the search time the app reports (parsing excluded)",
        "- node: one jackdaw `SearchStats.nodes` — every node the skeleton visits: the root plus every child",
        "  that passed the bound test (children cut by the bound count as prunes, not nodes).",
        "",
        "| instance | omega | nodes | median s | min s | max s | nodes/s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, omega, nodes, med, lo, hi, rate in rows:
        lines.append(f"| {name} | {omega} | {nodes} | {med:.3f} | {lo:.3f} | {hi:.3f} | {rate:,.0f} |")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
