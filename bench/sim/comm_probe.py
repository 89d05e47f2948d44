#!/usr/bin/env python3
"""What the comm threads pay on this machine, per rank count: real runs only, no simulator.

    bench/sim/comm_probe.py [--reps 5] [--ranks 2,4] [--yield auto,0] [--build build]

Runs the three validation workloads (MaxClique DSJC500_5 depth_bounded -d 2, NS genus 34 budget
-b 100000, UTS T1 budget -b 10000; one worker per rank) under mpirun, alternating the rank counts
(2 4 2 4 ...), and prints per workload and rank count the medians over REPS runs of: the search
time, the board publications and the mean time one took (the comm thread's wall time inside it),
the mean steal round trip, the share of the workers' time spent idle, and the comm threads' CPU.
These are the numbers a simulated platform must reproduce; jackdaw-sim's own JSON reports the same
fields. --yield also alternates Open MPI's mpi_yield_when_idle (auto: its default, on once a node
has more ranks than cores; 0 or 1 forced), to show what its yields cost the comm threads.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

WORKLOADS = {
    "maxclique": ["apps/maxclique/maxclique", os.path.join(ROOT, "instances", "dimacs", "DSJC500_5.clq"),
                  "--skeleton", "depth_bounded", "-d", "2"],
    "ns": ["apps/ns/ns", "-g", "34", "--skeleton", "budget", "-b", "100000"],
    "uts": ["apps/uts/uts", "--tree", "T1", "--skeleton", "budget", "-b", "10000"],
}


def run(build, app, ranks, yld="auto"):
    cmd = WORKLOADS[app]
    mpi = ["mpirun", "--oversubscribe", "--bind-to", "none", "-n", str(ranks)]
    if yld != "auto":
        mpi += ["--mca", "mpi_yield_when_idle", yld]
    if os.geteuid() == 0:
        mpi.insert(1, "--allow-run-as-root")
    doc = benchlib.run_stats(mpi + [os.path.join(build, cmd[0])] + cmd[1:] + ["--threads", "1"], timeout=600)
    dist = doc["distributed"]
    return {
        "seconds": doc["seconds"],
        "publishes": dist["board"]["publishes"],
        "publish_us": dist["board"]["publish_us_mean"],
        "steal_rtt_us": benchlib.steal_rtt_us(doc),
        "idle_pct": benchlib.idle_pct(doc),
        "comm_cpu_ms": 1e3 * sum(r["comm"]["comm_cpu_seconds"] for r in dist["per_rank"]),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--ranks", default="2,4")
    ap.add_argument("--yield", dest="yld", default="auto", help="mpi_yield_when_idle values to alternate: auto, 0, 1")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    a = ap.parse_args()
    counts = [int(x) for x in a.ranks.split(",")]
    if min(counts) < 2:
        sys.exit("comm_probe: --ranks: 2 or more each (one rank has no comm thread to measure)")
    ylds = a.yld.split(",")
    if any(y not in ("auto", "0", "1") for y in ylds):
        sys.exit("comm_probe: --yield: auto, 0 or 1 each")
    rows = {(app, n, y): [] for app in WORKLOADS for n in counts for y in ylds}
    for _ in range(a.reps):
        for app in WORKLOADS:
            for n in counts:
                for y in ylds:
                    rows[(app, n, y)].append(run(a.build, app, n, y))
    print("| workload | ranks x 1 | mpi_yield_when_idle | search s (spread %) | publications | µs per publication | "
          "steal round trip µs | idle % | comm threads' CPU ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (app, n, y), rs in rows.items():
        m = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
        secs = [r["seconds"] for r in rs]
        print(f"| {app} | {n} | {y} | {m['seconds']:.3f} ({100 * (max(secs) - min(secs)) / m['seconds']:.0f}) "
              f"| {m['publishes']:.0f} | {m['publish_us']:.0f} | {m['steal_rtt_us']:.0f} | {m['idle_pct']:.1f} "
              f"| {m['comm_cpu_ms']:.1f} |")


if __name__ == "__main__":
    main()
