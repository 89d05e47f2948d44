#!/usr/bin/python3
"""Real runs of a few distributed variants on this machine, alternated run by run: do twochoice and
--seed-tree lose against what they would replace? (The simulator says where they win:
bench/results/sim_study_grid.md.)

    bench/policies/variants_ab.py [--reps 8] [--ranks 4] [--variants policies|retry] [--out FILE]

--variants retry compares the thieves' back-off cap after refused steals (--steal-retry-max-us):
1,000 µs (the runtime's former default, bench/results/defaults.md) against 100 µs (its default),
under random and twochoice.

Each workload runs every variant once per repetition, in an order rotated by one each repetition
(A B C, B C A, ...). Time is the search time the app reports (rank 0, `seconds` in --stats); the
answer must be the same in every run, or the script stops: the node count and the result for the
enumerations, omega for MaxClique (branch and bound: its node count depends on timing).
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
def enumeration(j):
    return j["stats"]["nodes"], str(j.get("result"))


WORKLOADS = [  # name, command, what must not change
    ("ns -g 38, budget -b 1000000", ["build/apps/ns/ns", "-g", "38", "--skeleton", "budget", "-b", "1000000"],
     enumeration),
    ("maxclique brock400_4, depth_bounded -d 2",
     ["build/apps/maxclique/maxclique", "instances/dimacs/brock400_4.clq", "--skeleton", "depth_bounded", "-d", "2"],
     lambda j: j["result"]["omega"]),
    ("uts T1L, budget", ["build/apps/uts/uts", "--tree", "T1L", "--skeleton", "budget", "-b", "100000"], enumeration),
]
VARIANT_SETS = {  # name: (what it compares, [(variant, flags)]); the first variant is the baseline
    "policies": ("twochoice and --seed-tree against random and proportional", [
        ("random", ["--policy", "random"]),
        ("proportional", ["--policy", "proportional"]),
        ("twochoice", ["--policy", "twochoice"]),
        ("random --seed-tree 2", ["--policy", "random", "--seed-tree", "2"]),
    ]),
    "retry": ("a thief's back-off cap after refusals, 1,000 µs against 100 µs", [
        ("random", ["--policy", "random", "--steal-retry-max-us", "1000"]),
        ("random --steal-retry-max-us 100", ["--policy", "random", "--steal-retry-max-us", "100"]),
        ("twochoice", ["--policy", "twochoice", "--steal-retry-max-us", "1000"]),
        ("twochoice --steal-retry-max-us 100", ["--policy", "twochoice", "--steal-retry-max-us", "100"]),
    ]),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=8)
    ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--variants", choices=sorted(VARIANT_SETS), default="policies")
    ap.add_argument("--out")
    a = ap.parse_args()
    title, variants = VARIANT_SETS[a.variants]
    mpi = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-n", str(a.ranks)]
    lines = [f"# Distributed variants on real runs: {title}", "",
             f"- command: `bench/policies/variants_ab.py --reps {a.reps} --ranks {a.ranks} --variants {a.variants}`",
             f"- machine: {benchlib.machine()}", f"- date: {benchlib.utc_now()}",
             f"- layout: {a.ranks} ranks x 1 worker (oversubscribed on this machine's cores), variants rotated run by run;",
             "  seconds = the app's search time (rank 0); steals = requests sent over all ranks (granted)", ""]
    for name, app, answer_of in WORKLOADS:
        times = {v: [] for v, _ in variants}
        steals = {v: [] for v, _ in variants}
        answer = None
        for rep in range(a.reps):
            order = variants[rep % len(variants):] + variants[:rep % len(variants)]
            for v, flags in order:
                j = benchlib.run_stats(mpi + app + ["--threads", "1"] + flags, cwd=ROOT)
                got = answer_of(j)
                if answer is None:
                    answer = got
                elif got != answer:
                    sys.exit(f"{name}, {v}: answer {got} differs from {answer}")
                times[v].append(j["seconds"])
                t = j["distributed"]["totals"]
                steals[v].append((t["steal_requests"], t["steals_granted"]))
                print(f"{name} | {v} | rep {rep} | {j['seconds']:.3f} s", flush=True)
        base = statistics.median(times[variants[0][0]])
        lines += [f"## {name}", "", f"answer (the same in every run): {answer}", "",
                  f"| variant | median s | min – max s | median / {variants[0][0]} | steal requests (granted), median |",
                  "|---|---|---|---|---|"]
        for v, _ in variants:
            m = statistics.median(times[v])
            req = statistics.median(s[0] for s in steals[v])
            gr = statistics.median(s[1] for s in steals[v])
            lines.append(f"| {v} | {m:.3f} | {min(times[v]):.3f} – {max(times[v]):.3f} | {m / base:.3f} | {req:.0f} ({gr:.0f}) |")
        lines.append("")
    benchlib.emit("\n".join(lines), a.out)


if __name__ == "__main__":
    main()
