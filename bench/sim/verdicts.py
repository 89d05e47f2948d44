#!/usr/bin/python3
"""Does the simulator give the real runs' policy verdicts? (issue 40, item 3; docs/simulation.md)

  verdicts.py --sim build/sim/jackdaw-sim --out DIR [--reps 10] [--configs 2x1,4x1]
              [--policies random,performance,proportional,twochoice] [--sim-args "ARGS"]
              [--boot 4000] [--calibrate] [--slow RANKS:FACTOR] TRACE...

For every trace (recorded by an app's --trace: the header holds its command) and every ranks x
workers: REPS real runs of each policy under mpirun, the policies rotated within each repetition
(benchlib.alternated: load drift reaches all alike), and REPS simulations of each policy on the
"local" platform, seeds 1..REPS (--sim-args is passed to every one, e.g. "--task-jitter 0.08").

Per policy pair (the first policy, the baseline, against each other): the paired speedup, baseline
makespan over the policy's (above 1: the policy is faster), pairing repetition k of the two in the
real runs (adjacent in time) and seed k of the two in the simulator; its geometric mean and a 95 %
percentile bootstrap interval (BOOT resamples of the pairs, a fixed random seed: the table is
reproducible from the JSON). The verdicts:

  real interval excludes 1: the real runs separate the two; the simulator agrees when its
                            geometric mean is on the same side of 1 ("agree"; "agree, separated"
                            when its interval excludes 1 too)
  real interval holds 1:    the real runs do not separate them; the simulator agrees when its
                            interval overlaps the real one

Writes DIR/verdicts.json (every run) and DIR/verdicts.md (per pair: the real and simulated speedup
and interval, whether they agree; per policy: median makespans and node counts, real and simulated).
"""
import argparse
import json
import math
import os
import random
import shlex
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402
import validate  # noqa: E402  (the real and simulated runs, as the makespan validation does them)


def geo(xs):
    return math.exp(statistics.fmean(math.log(x) for x in xs))


def paired(base, other, boot, seed):
    """Geometric mean of base/other over the pairs, and its 95 % percentile bootstrap interval."""
    ratios = [b / o for b, o in zip(base, other)]
    rng = random.Random(seed)
    means = sorted(geo([rng.choice(ratios) for _ in ratios]) for _ in range(boot))
    return geo(ratios), means[int(0.025 * boot)], means[min(boot - 1, int(0.975 * boot))]


def verdict(real, sim):
    (rm, rlo, rhi), (sm, slo, shi) = real, sim
    if rlo > 1 or rhi < 1:
        same = (sm > 1) == (rlo > 1)
        sep = slo > 1 or shi < 1
        if abs(math.log(sm)) < 1e-3:  # within 0.1 % of 1: the simulator sees no difference to sign
            return "DISAGREE (sim sees none)"
        return ("agree, separated" if same and sep else "agree") if same else "DISAGREE (opposite side)"
    return "agree (overlap)" if slo <= rhi and shi >= rlo else "DISAGREE (no overlap)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--configs", default="2x1,4x1")
    ap.add_argument("--policies", default="random,performance,proportional,twochoice")
    ap.add_argument("--sim-args", default="")
    ap.add_argument("--boot", type=int, default=4000)
    ap.add_argument("--slow", default=None, metavar="RANKS:FACTOR",
                    help="one slow rank set, in the real runs and the simulator alike: --slow-ranks RANKS --slowdown "
                         "FACTOR (the apps' busy work after each task, which jackdaw-sim's --slow-ranks replays)")
    ap.add_argument("--calibrate", action="store_true",
                    help="first time REPS real runs at 1 x 1 and simulate with --core-speed = the simulated 1 x 1 makespan / "
                         "their median (what a machine shared with other work gives this job's threads)")
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    pols = a.policies.split(",")
    extra = shlex.split(a.sim_args)
    slow = []
    if a.slow:
        ranks_, factor = a.slow.split(":")
        slow = ["--slow-ranks", ranks_, "--slowdown", factor]
        extra += slow
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for trace in a.traces:
            h = validate.trace_header(a.sim, trace)
            cmd = validate.app_command(h)
            sim1_extra = [x for x in extra if x not in slow] if slow else extra
            name = os.path.basename(trace)
            speed, one = [], []
            if a.calibrate:
                one = [validate.real_run(cmd, 1, 1, pols[0], rep + 1, tmp) for rep in range(a.reps)]
                # The simulated 1 x 1 makespan at speed 1 (for branch and bound the replay with its
                # levels, not the trace's main tree alone) over the real one.
                sim1 = validate.sim_run(a.sim, trace, 1, 1, pols[0], 1, sim1_extra, tmp)["seconds"]
                core = sim1 / statistics.median(r["seconds"] for r in one)
                speed = ["--core-speed", f"{core:.6f}"]
                print(f"{name}: simulated 1 x 1 {sim1:.3f} s, real 1 x 1 median "
                      f"{statistics.median(r['seconds'] for r in one):.3f} s: --core-speed {core:.4f}", flush=True)
            for ranks, workers in (tuple(int(v) for v in c.split("x")) for c in a.configs.split(",")):
                real = {p: [None] * a.reps for p in pols}
                for rep, i, _, _ in benchlib.alternated(a.reps, pols, [("new", None)]):
                    real[pols[i]][rep] = validate.real_run(cmd + slow, ranks, workers, pols[i], rep + 1, tmp)
                sim = {p: [validate.sim_run(a.sim, trace, ranks, workers, p, rep + 1, extra + speed, tmp)
                           for rep in range(a.reps)] for p in pols}
                rows.append({"trace": name, "app": h.get("app"), "ranks": ranks, "workers": workers, "real": real, "sim": sim,
                             "load": os.getloadavg()[0], "core_speed": speed[1] if speed else None, "real_1x1": one})
                print(f"{name} {ranks}x{workers}: done, load {os.getloadavg()[0]:.1f}", flush=True)
    json.dump({"sim_args": a.sim_args, "slow": a.slow, "reps": a.reps, "boot": a.boot, "rows": rows},
              open(os.path.join(a.out, "verdicts.json"), "w"), indent=1)
    out = ["| trace | ranks x workers | policy vs " + pols[0] + " | real speedup [95 % CI] | simulated speedup [95 % CI] | verdict |",
           "|---|---|---|---|---|---|"]
    agree = total = 0
    for row in rows:
        for k, p in enumerate(pols[1:], start=1):
            rs = paired([r["seconds"] for r in row["real"][pols[0]]], [r["seconds"] for r in row["real"][p]], a.boot, k)
            ss = paired([r["seconds"] for r in row["sim"][pols[0]]], [r["seconds"] for r in row["sim"][p]], a.boot, k)
            v = verdict(rs, ss)
            total += 1
            agree += v.startswith("agree")
            out.append(f"| {row['trace']} | {row['ranks']} x {row['workers']} | {p} | {rs[0]:.3f} [{rs[1]:.3f}, {rs[2]:.3f}] | "
                       f"{ss[0]:.3f} [{ss[1]:.3f}, {ss[2]:.3f}] | {v} |")
    out.append(f"\n{agree} of {total} pairs agree.\n")
    out.append("| trace | ranks x workers | load average (1 min) at the end | --core-speed |")
    out.append("|---|---|---|---|")
    for row in rows:
        out.append(f"| {row['trace']} | {row['ranks']} x {row['workers']} | {row['load']:.1f} | {row['core_speed'] or '-'} |")
    out.append("")
    out.append("| trace | ranks x workers | policy | real median s [min, max] | sim median s [min, max] | error % | "
               "real median nodes [min, max] | sim median nodes [min, max] | nodes error % |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        for p in pols:
            r, s = row["real"][p], row["sim"][p]
            rt, st = [x["seconds"] for x in r], [x["seconds"] for x in s]
            rn, sn = [x["nodes"] for x in r], [x["nodes"] for x in s]
            out.append(f"| {row['trace']} | {row['ranks']} x {row['workers']} | {p} | {statistics.median(rt):.3f} [{min(rt):.3f}, "
                       f"{max(rt):.3f}] | {statistics.median(st):.3f} [{min(st):.3f}, {max(st):.3f}] | "
                       f"{100 * (statistics.median(st) / statistics.median(rt) - 1):+.1f} | {statistics.median(rn):.0f} "
                       f"[{min(rn)}, {max(rn)}] | {statistics.median(sn):.0f} [{min(sn)}, {max(sn)}] | "
                       f"{100 * (statistics.median(sn) / statistics.median(rn) - 1):+.1f} |")
    text = "\n".join(out) + "\n"
    open(os.path.join(a.out, "verdicts.md"), "w").write(text)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
