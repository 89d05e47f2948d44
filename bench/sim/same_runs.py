#!/usr/bin/env python3
"""Two jackdaw-sim builds on the same traces and configurations: the makespan and steal counts of
each run side by side, and whether they are identical (the simulator is deterministic for a seed).
For a change that should not move the simulator (a refactor), or to measure one that should.

  same_runs.py OLD_SIM NEW_SIM TRACE... [--out FILE.md]

Configurations (as in bench/results/steal_protocol.md): --platform local with 4 ranks x 2 workers
on 4 hosts; --platform study with random, performance, twochoice with --seed-tree 2, proportional
on the sampled board, --split hunger; --platform modern --hosts 50 with performance.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CONFIGS = [
    ("local 4x2", ["--platform", "local", "--hosts", "4", "--ranks", "4", "--workers", "2"]),
    ("study random", ["--platform", "study", "--policy", "random"]),
    ("study performance", ["--platform", "study", "--policy", "performance"]),
    ("study twochoice seed-tree 2", ["--platform", "study", "--policy", "twochoice", "--seed-tree", "2"]),
    ("study proportional sample", ["--platform", "study", "--policy", "proportional", "--board", "sample"]),
    ("study split hunger", ["--platform", "study", "--split", "hunger"]),
    ("modern 50 performance", ["--platform", "modern", "--hosts", "50", "--policy", "performance"]),
]


def run(sim, trace, flags, out):
    subprocess.run([sim, trace, *flags, "--out", out], check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        j = json.load(f)
    t = j["distributed"]["totals"]
    return j["seconds"], t["steal_requests"], t["steals_granted"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--out")
    a = ap.parse_args()
    rows, same = [], 0
    with tempfile.TemporaryDirectory() as d:
        for trace in a.traces:
            for name, flags in CONFIGS:
                o = run(a.old, trace, flags, os.path.join(d, "old.json"))
                n = run(a.new, trace, flags, os.path.join(d, "new.json"))
                ident = o == n
                same += ident
                diff = 100 * (n[0] - o[0]) / o[0] if o[0] else 0.0
                rows.append(f"| {os.path.basename(trace)} | {name} | {o[0]*1e3:.6f} | {n[0]*1e3:.6f} | {diff:+.3f} % | "
                            f"{o[1]} / {o[2]} | {n[1]} / {n[2]} | {'yes' if ident else 'no'} |")
                print(rows[-1], flush=True)
    text = ("| trace | configuration | old makespan (ms) | new makespan (ms) | change | old requests / granted | "
            "new requests / granted | identical |\n|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) +
            f"\n\n{same} of {len(rows)} runs identical.\n")
    print(f"{same} of {len(rows)} runs identical")
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
