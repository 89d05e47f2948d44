#!/usr/bin/env python3
"""Automatic grain against a sweep of fixed values: -b auto and -d auto vs every -b / -d given here.

    bench/grain/sweep.py [--apps ns,uts,maxclique] [--reps 3] [--build build] [--out FILE] [--note TEXT]

For each app and skeleton (budget: -b; depth_bounded: -d) and each configuration (1 rank x 1 worker,
1 x 2, 2 ranks x 1, 4 ranks x 1 - the last oversubscribed on 2 cores), every value and `auto` run
once per repetition, in an order rotated from one repetition to the next. Time is the search time
the app reports (rank 0; MPI start-up excluded); every run must give the same answer and, for
enumeration, the same node count. The table gives the median per value, the best fixed value, and
auto's (the default) and the former fixed default's time over the best's (bench/results/defaults.md) (the goal:
auto within 1.10 everywhere).
"""
import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-n"]

# app -> (arguments, result key that must agree, {skeleton: (flag, values, old fixed default)})
APPS = {
    "ns": (["-g", "33"], "total",
           {"budget": ("-b", ["1000", "10000", "100000", "1000000"], "100000"),
            "depth_bounded": ("-d", ["2", "8", "12", "16", "20", "24"], "2")}),
    "uts": (["--tree", "T1"], "nodes",
            {"budget": ("-b", ["1000", "10000", "100000", "1000000"], "100000"),
             "depth_bounded": ("-d", ["1", "2", "4", "6", "8"], "2")}),
    "maxclique": (["instances/dimacs/DSJC500_5.clq"], "omega",
                  {"budget": ("-b", ["100", "1000", "10000", "100000"], "100000"),
                   "depth_bounded": ("-d", ["1", "2", "3", "4"], "2")}),
}
CONFIGS = [("1 rank x 1", 1, 1), ("1 rank x 2", 1, 2), ("2 ranks x 1", 2, 1), ("4 ranks x 1", 4, 1)]


def run_once(build, app, args, key, skel, flag, value, ranks, threads):
    cmd = (MPIRUN + [str(ranks)] if ranks > 1 else []) + [os.path.join(build, "apps", app, app)] + args + [
        "--skeleton", skel, flag, value, "--threads", str(threads)]
    doc = benchlib.run_stats(cmd, cwd=ROOT, timeout=900)
    answer = doc["result"].get(key, doc["stats"]["nodes"]) if key != "nodes" else doc["stats"]["nodes"]
    nodes = doc["stats"]["nodes"] if key != "omega" else None  # branch and bound's count varies
    return doc["seconds"], answer, nodes, doc.get("grain", {}).get("automatic")



def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--apps", default="ns,uts,maxclique")
    benchlib.add_run_args(ap, 3, ROOT)
    a = ap.parse_args()

    out = benchlib.preamble(
        "Automatic grain vs a sweep of fixed values", "bench/grain/sweep.py", sys.argv[1:],
        f"{a.reps} repetitions, values rotated; seconds of search (rank 0), median; auto aims at the default "
        "--task-target-ms", a.note)
    say = out.append
    for app in a.apps.split(","):
        args, key, skels = APPS[app]
        for skel, (flag, values, default) in skels.items():
            say("")
            say(f"## {app} {' '.join(args)}, {skel} ({flag})")
            say("")
            cols = values + ["auto"]
            say("| configuration | " + " | ".join(f"{flag} {v}" for v in cols) +
                f" | best fixed | auto (default) / best | old default {flag} {default} / best | auto chose |")
            say("|---|" + "---|" * (len(cols) + 4))
            for label, ranks, threads in CONFIGS:
                times = {v: [] for v in cols}
                answers, chosen = set(), None
                for rep in range(a.reps):
                    order = cols[rep % len(cols):] + cols[:rep % len(cols)]
                    for v in order:
                        t, ans, nodes, auto = run_once(a.build, app, args, key, skel, flag, v, ranks, threads)
                        times[v].append(t)
                        answers.add((ans, nodes))
                        if v == "auto" and auto:
                            chosen = f"{auto['median']} ({auto['min']}..{auto['max']}), {auto['changes']} changes"
                        print(f"{app} {skel} {label} {flag} {v}: {t:.3f} s", flush=True)
                if len(answers) != 1:
                    sys.exit(f"{app} {skel} {label}: the runs disagree: {sorted(answers, key=str)}")
                med = {v: statistics.median(ts) for v, ts in times.items()}
                best = min(values, key=lambda v: med[v])
                say(f"| {label} | " + " | ".join(f"{med[v]:.3f}" for v in cols) +
                    f" | {flag} {best} | {med['auto'] / med[best]:.2f} | {med[default] / med[best]:.2f} | {chosen or '—'} |")
    text = "\n".join(out) + "\n"
    benchlib.emit(text, a.out)


if __name__ == "__main__":
    main()
