#!/usr/bin/env python3
"""Where two workers of one process lose against one: time spent in tasks against time spent idle.

    bench/engine/two_workers.py [--ns build/apps/ns/ns] [--baseline OLD_NS] [--genus 35] [--reps 10]
                                [--out FILE] [--note TEXT]

For budget -b 100000 and budget -b auto, ns runs with 1 and with 2 workers (and -b auto with 2
workers pinned, --bind), in one alternating session (order rotated each repetition). Each run
writes --stats; from its per-worker accounts the script takes the busy time (inside tasks, summed
over workers) and the idle time (inside the search, outside tasks). Speedup = T(1 worker) /
T(2 workers) per repetition; it splits exactly into speedup = 2 x work ratio x busy share:
  work ratio   busy(1 worker) / busy(2 workers): below 1 when a node costs more with two threads
               (cache lines, the pool, the allocator), whatever the scheduling;
  busy share   busy(2 workers) / (2 x T(2 workers)) over busy(1) / T(1): the workers' time not spent
               in tasks (waiting for work at the start and the end, or to be woken).
With --baseline every variant also runs with that binary, alternated with the new one.
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

FIXED = ["--skeleton", "budget", "-b", "100000"]
AUTO = ["--skeleton", "budget", "-b", "auto"]
VARIANTS = [
    ("-b 100000, 1 worker", FIXED + ["--threads", "1"]),
    ("-b 100000, 2 workers", FIXED + ["--threads", "2"]),
    ("-b auto, 1 worker", AUTO + ["--threads", "1"]),
    ("-b auto, 2 workers", AUTO + ["--threads", "2"]),
    ("-b auto, 2 workers, --bind", AUTO + ["--threads", "2", "--bind"]),
]
PAIRS = [(0, 1), (2, 3), (2, 4)]  # (1 worker, 2 workers)


def run(ns, genus, args):
    d = benchlib.run_stats([ns, "-g", str(genus)] + args, timeout=900)
    w = d["workers"]
    return {
        "t": d["seconds"],
        "busy": sum(x["busy_us"] for x in w) / 1e6,
        "idle": sum(x["idle_us"] for x in w) / 1e6,
        "nodes": d["stats"]["nodes"],
        "total": d["result"]["total"],
        "tasks": sum(x["tasks"] for x in w),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    benchlib.add_session_args(ap, "ns", os.path.join(ROOT, "build", "apps", "ns", "ns"), reps=10)
    ap.add_argument("--genus", type=int, default=35)
    a = ap.parse_args()

    binaries = benchlib.session_binaries(a, "ns")
    runs = {b: [[] for _ in VARIANTS] for b, _ in binaries}
    seen = set()
    for rep, i, b, path in benchlib.alternated(a.reps, VARIANTS, binaries):
        name, args = VARIANTS[i]
        r = run(path, a.genus, args)
        runs[b][i].append(r)
        seen.add((r["nodes"], r["total"]))
        print(f"rep {rep + 1}: {b:8s} {name:28s} {r['t']:.3f} s busy {r['busy']:.3f} idle {r['idle']:.4f}", flush=True)
    if len(seen) != 1:
        sys.exit(f"the variants disagree on (nodes, semigroups): {sorted(seen)}")
    nodes, total = seen.pop()

    out = []
    say = out.append
    say(f"- command: `bench/engine/two_workers.py {' '.join(shlex.quote(x) for x in sys.argv[1:])}`")
    say(f"- machine: {benchlib.machine()}")
    say(f"- date: {benchlib.utc_now()}; load average at the end {os.getloadavg()[0]:.2f}")
    say(f"- ns -g {a.genus}: {nodes} nodes, {total} semigroups in every run; {a.reps} repetitions, order rotated")
    if a.note:
        say(f"- note: {a.note}")
    for b, path in binaries:
        say("")
        say(f"### {b}: `{benchlib.shown(path)}`")
        say("")
        say("| variant | seconds | busy s (all workers) | idle ms (all workers) | tasks |")
        say("|---|---|---|---|---|")
        for (name, _), rs in zip(VARIANTS, runs[b]):
            say(f"| {name} | {benchlib.spread([r['t'] for r in rs])} | {benchlib.spread([r['busy'] for r in rs])} | "
                f"{benchlib.spread([1e3 * r['idle'] for r in rs], '{:.1f}')} | {statistics.median(r['tasks'] for r in rs):.0f} |")
        say("")
        say("| 1 worker → 2 workers | speedup | work ratio busy(1)/busy(2) | busy share 2 workers / 1 worker |")
        say("|---|---|---|---|")
        for i, j in PAIRS:
            one, two = runs[b][i], runs[b][j]
            sp = [x["t"] / y["t"] for x, y in zip(one, two)]
            wr = [x["busy"] / y["busy"] for x, y in zip(one, two)]
            bs = [(y["busy"] / (2 * y["t"])) / (x["busy"] / x["t"]) for x, y in zip(one, two)]
            say(f"| {VARIANTS[i][0]} → {VARIANTS[j][0]} | {benchlib.spread(sp)} | {benchlib.spread(wr)} | {benchlib.spread(bs)} |")
    say("")
    say("Per repetition, speedup = 2 × work ratio × busy share (exactly). Medians [min, max] over repetitions.")
    benchlib.emit("\n".join(out) + "\n", a.out)


if __name__ == "__main__":
    main()
