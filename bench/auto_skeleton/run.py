#!/usr/bin/env python3
"""Which parallel skeleton fits each search kind: the evidence for --skeleton auto's rule.

    bench/auto_skeleton/run.py [--reps 5] [--build build] [--cases a,b] [--out FILE] [--note TEXT]

Every parallel skeleton (depth_bounded, budget, stack_stealing, ordered) with the apps' default
grain (no -d, -b) runs each case of the shipped apps on 1 rank x 2 workers and on 2 ranks x 1
worker; the skeletons rotate from one repetition to the next. Time is the search time the app
reports (rank 0; MPI start-up excluded); every run must give the known answer. For each case and
layout: the median seconds of each skeleton, its spread (min-max), its median node count, and each
skeleton's median over the best one's. The summary ranks the skeletons by kind: the geometric mean,
over the cases of a kind and both layouts, of median / best.
"""
import argparse
import math
import os
import shlex
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none", "-n"]
SKELETONS = ["depth_bounded", "budget", "stack_stealing", "ordered"]
LAYOUTS = [("1 rank x 2", 1, 2), ("2 ranks x 1", 2, 1)]


def dimacs(name):
    return f"instances/dimacs/{name}.clq"


# name -> (kind, app, arguments, (result key, known answer)); answers from instances/*/ANSWERS.tsv
# and OEIS (comments).
CASES = {
    "nqueens-14": ("enumeration", "nqueens", ["-n", "14"], ("solutions", 365596)),  # OEIS A000170
    "ns-34": ("enumeration", "ns", ["-g", "34"], ("total", 104515489)),  # A007323 summed to 34 (instances/ns)
    "uts-T1": ("enumeration", "uts", ["--tree", "T1"], ("nodes", 4130071)),  # instances/uts/trees.tsv
    "maxclique-DSJC500_5": ("optimisation", "maxclique", [dimacs("DSJC500_5")], ("omega", 13)),
    "maxclique-brock200_1": ("optimisation", "maxclique", [dimacs("brock200_1")], ("omega", 21)),
    "tsp-eil51": ("optimisation", "tsp", ["instances/tsp/eil51.tsp"], ("length", 426)),
    "knapsack-f8": ("optimisation", "knapsack", ["instances/knapsack/instances_01_KP/low-dimensional/f8_l-d_kp_23_10000"],
                    ("profit", 9767)),
    "maxclique-brock400_4-dec-34": ("decision", "maxclique", [dimacs("brock400_4"), "--decision", "34"], ("found", False)),
    "maxclique-brock200_1-dec-22": ("decision", "maxclique", [dimacs("brock200_1"), "--decision", "22"], ("found", False)),
    "maxclique-p_hat300-3-dec-36": ("decision", "maxclique", [dimacs("p_hat300-3"), "--decision", "36", "--no-heuristic"],
                                    ("found", True)),
}


def run_once(build, app, args, skeleton, ranks, threads):
    cmd = (MPIRUN + [str(ranks)] if ranks > 1 else []) + [os.path.join(build, "apps", app, app)] + args + [
        "--skeleton", skeleton, "--threads", str(threads)]
    doc = benchlib.run_stats(cmd, cwd=ROOT, timeout=900)
    return doc["seconds"], doc["stats"]["nodes"], doc.get("result", {}), shlex.join(cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    benchlib.add_run_args(ap, 5, ROOT)
    ap.add_argument("--cases", default=",".join(CASES))
    a = ap.parse_args()

    out = benchlib.preamble(
        "--skeleton auto: which parallel skeleton fits each search kind", "bench/auto_skeleton/run.py", sys.argv[1:],
        f"{a.reps} repetitions, skeletons rotated; seconds of search (rank 0): median [min, max]; nodes: median; "
        "each skeleton with its default grain (depth_bounded -d auto, budget -b auto, stack_stealing, ordered -d 2); "
        "2 ranks under `mpirun --bind-to none`", a.note)
    say = out.append
    ratios = {}  # kind -> skeleton -> [median / best]
    for name in a.cases.split(","):
        kind, app, args, (key, known) = CASES[name]
        say("")
        say(f"## {name} ({kind}): `{app} {' '.join(args)}`")
        say("")
        say("| layout | " + " | ".join(SKELETONS) + " | best |")
        say("|---|" + "---|" * (len(SKELETONS) + 1))
        for label, ranks, threads in LAYOUTS:
            times = {s: [] for s in SKELETONS}
            nodes = {s: [] for s in SKELETONS}
            answers = set()
            for rep in range(a.reps):
                order = SKELETONS[rep % len(SKELETONS):] + SKELETONS[:rep % len(SKELETONS)]
                for s in order:
                    t, n, result, cmd = run_once(a.build, app, args, s, ranks, threads)
                    got = result.get(key)
                    if known is not None and got != known:
                        sys.exit(f"{cmd}: {key} {got}, expected {known}")
                    answers.add(str(got))
                    times[s].append(t)
                    nodes[s].append(n)
                    print(f"{name} {label} {s}: {t:.3f} s, {n} nodes", flush=True)
            if len(answers) != 1:
                sys.exit(f"{name} {label}: the runs disagree: {sorted(answers)}")
            med = {s: statistics.median(ts) for s, ts in times.items()}
            best = min(SKELETONS, key=lambda s: med[s])
            for s in SKELETONS:
                ratios.setdefault(kind, {}).setdefault(s, []).append(med[s] / med[best])
            say(f"| {label} | " + " | ".join(
                f"{med[s]:.3f} [{min(times[s]):.3f}, {max(times[s]):.3f}] {med[s] / med[best]:.2f}x, "
                f"{int(statistics.median(nodes[s])):,} nodes" for s in SKELETONS) + f" | {best} |")
    say("")
    say("## By kind: geometric mean of median / best over the cases and both layouts")
    say("")
    say("| kind | " + " | ".join(SKELETONS) + " | fits best |")
    say("|---|" + "---|" * (len(SKELETONS) + 1))
    for kind, by in ratios.items():
        gm = {s: math.exp(statistics.mean(math.log(r) for r in rs)) for s, rs in by.items()}
        say(f"| {kind} | " + " | ".join(f"{gm[s]:.3f} (worst {max(by[s]):.2f})" for s in SKELETONS) +
            f" | {min(gm, key=gm.get)} |")
    benchlib.emit("\n".join(out) + "\n", a.out)


if __name__ == "__main__":
    main()
