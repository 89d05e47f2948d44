#!/usr/bin/env python3
"""Fine-grained work (issue 38): speed-ups on deep, narrow trees under the default grain, and the
workloads that must not get slower, alternated in one session against an older build.

  bench/fine_grain/run.py [--build build] [--baseline-build OLD_BUILD] [--reps 3]
                          [--cases t3l,t1l,ns40,brock400_4,t1xl] [--variants REGEX] [--out FILE]

Every case runs each variant once per repetition, in an order rotated by one each repetition
(benchlib.alternated). Time is the search time the app reports in --stats (MPI start-up excluded).
Every run of a case must report the same node count (and answer) as the first.
"""
import argparse
import os
import re
import shlex
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MPI2 = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-n", "2"]

# case -> (app, instance args, [(variant label, launcher, skeleton args, which build)])
def cases():
    uts_variants = [
        ("seq", [], ["--skeleton", "seq"], "new"),
        ("1 worker", [], ["--skeleton", "budget", "--threads", "1"], "new"),
        ("1 worker, old build", [], ["--skeleton", "budget", "--threads", "1"], "old"),
        ("2 workers", [], ["--skeleton", "budget", "--threads", "2"], "new"),
        ("2 workers, --hunger-split false", [], ["--skeleton", "budget", "--threads", "2", "--hunger-split", "false"], "new"),
        ("2 workers, old build", [], ["--skeleton", "budget", "--threads", "2"], "old"),
        ("2 ranks x 1", MPI2, ["--skeleton", "budget", "--threads", "1"], "new"),
        ("2 ranks x 1, old build", MPI2, ["--skeleton", "budget", "--threads", "1"], "old"),
        ("2 ranks x 1, --steal-hold-us 0", MPI2, ["--skeleton", "budget", "--threads", "1", "--steal-hold-us", "0"], "new"),
    ]
    same = lambda skel: [  # noqa: E731
        ("2 workers", [], skel + ["--threads", "2"], "new"),
        ("2 workers, old build", [], skel + ["--threads", "2"], "old"),
        ("2 ranks x 1", MPI2, skel + ["--threads", "1"], "new"),
        ("2 ranks x 1, old build", MPI2, skel + ["--threads", "1"], "old"),
        ("2 ranks x 1, --steal-hold-us 0", MPI2, skel + ["--threads", "1", "--steal-hold-us", "0"], "new"),
    ]
    return {
        "t3l": ("uts", ["--tree", "T3L"], uts_variants),
        "t1l": ("uts", ["--tree", "T1L"], uts_variants),
        "ns40": ("ns", ["-g", "40"], same(["--skeleton", "budget"])),
        "brock400_4": ("maxclique", [os.path.join(ROOT, "instances/dimacs/brock400_4.clq")], same(["--skeleton", "depth_bounded"])),
        "t1xl": ("uts", ["--tree", "T1XL"], same(["--skeleton", "budget"])),
    }


def seconds_and_nodes(doc):
    nodes = doc.get("stats", {}).get("nodes") or doc.get("distributed", {}).get("totals", {}).get("nodes")
    return float(doc["seconds"]), nodes, json_answer(doc)


def json_answer(doc):
    r = doc.get("result", {})
    return {k: v for k, v in r.items() if k not in ("clique",)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--baseline-build", help="the build before the change (variants marked 'old build')")
    ap.add_argument("--baseline-label", default="OLD_BUILD", help="how the results name the baseline build")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cases", default="t3l,t1l,ns40,brock400_4")
    ap.add_argument("--out")
    ap.add_argument("--note", default="")
    ap.add_argument("--variants", help="only the variants whose label matches this regular expression")
    a = ap.parse_args()
    chosen = a.cases.split(",")
    all_cases = cases()
    out = [f"# Fine-grained work: hunger splitting and per-worker queues (issue 38)\n",
           f"- machine: {benchlib.machine()}", f"- date: {benchlib.utc_now()}",
           f"- command: `bench/fine_grain/run.py {shlex.join(sys.argv[1:])}`".replace(ROOT + "/", "").replace(
               a.baseline_build or "\0", a.baseline_label),
           f"- time: the search time each run reports in --stats; median [min, max] of {a.reps} alternated repetitions"]
    if a.note:
        out.append(f"- note: {a.note}")
    for name in chosen:
        app, inst, variants = all_cases[name]
        if not a.baseline_build:
            variants = [v for v in variants if v[3] == "new"]
        if a.variants:
            variants = [v for v in variants if re.search(a.variants, v[0])]
        times = {v[0]: [] for v in variants}
        counts = {v[0]: [] for v in variants}
        ref = None
        for rep, i, _, _ in benchlib.alternated(a.reps, variants, [("x", None)]):
            label, launcher, skel, which = variants[i]
            build = a.build if which == "new" else a.baseline_build
            binary = os.path.join(build, "apps", app, app)
            doc = benchlib.run_stats(launcher + [binary] + inst + skel, cwd=ROOT)
            t, nodes, answer = seconds_and_nodes(doc)
            if ref is None:
                ref = (nodes, answer)
            elif (nodes, answer) != ref and app != "maxclique":
                sys.exit(f"{name} {label}: nodes/answer {(nodes, answer)} differ from {ref}")
            elif answer != ref[1]:
                sys.exit(f"{name} {label}: answer {answer} differs from {ref[1]}")
            times[label].append(t)
            counts[label].append(nodes)
            print(f"{name} rep {rep} {label}: {t:.3f} s, {nodes} nodes", file=sys.stderr)
        base = statistics.median(times[variants[0][0]])
        out.append(f"\n## {name}: `{app} {' '.join(os.path.relpath(x, ROOT) if x.startswith(ROOT) else x for x in inst)}`"
                   f" ({ref[0]} nodes{', answer ' + str(ref[1]) if ref[1] else ''})\n")
        out.append(f"| variant | command | seconds | {variants[0][0]} / variant | nodes (median) |")
        out.append("|---|---|---|---|---|")
        for label, launcher, skel, which in variants:
            cmd = " ".join(launcher[:1] + (["-n", "2"] if launcher else []) + [app] + skel)
            med = statistics.median(times[label])
            out.append(f"| {label} | `{cmd}` | {benchlib.spread(times[label])} | {base / med:.3f} | "
                       f"{int(statistics.median(counts[label])):,} |")
    benchlib.emit("\n".join(out) + "\n", a.out)


if __name__ == "__main__":
    main()
