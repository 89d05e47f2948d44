#!/usr/bin/env python3
"""Tune the performance policy's constants in simulation (issue 18, item 7).

Two steps, each its own subcommand, sharing one run cache (OUT/runs.csv: a run is never made twice):

  tune.py search --sim SIM --trace TRACE --out OUT [--budget RUNS] [--seeds 1-3] [--hosts 5,10,15,20]
                 [--modes isolated,slow] [--random N] [--rng 1] [--min-gain 0.2]
      Scores constant sets on the study grid (--platform study --workers 15, HOSTS x 16 cores) by
      their mean makespan relative to the defaults, paired by (hosts, mode, seed). First --random
      sets drawn uniformly (log-uniformly for the scale constants) from SPACE below, then a
      coordinate refinement of the best: each constant in turn is multiplied/divided by a factor
      (alpha: +/- a step); a move is kept when it lowers the score by more than --min-gain (0.2 %
      points); the factor's log halves after a pass without a move. Stops when --budget
      simulator runs are spent (or the factor falls below 1.2).
      Writes OUT/search.md (every set, best first) and OUT/search.json.

  tune.py check --sim SIM --trace TRACE --out OUT [--candidate OUT/search.json | --set k=v,...]
                [--seeds 11-20] [--modes isolated,slow,simultaneous]
      The held-out check: defaults, the candidate and random on fresh seeds (and another trace),
      per (mode, hosts): mean makespans, paired differences with 95 % intervals, steal requests
      and refusals. Writes OUT/check.md and OUT/check.json.

"slow" = --slow-hosts 1 --slowdown 3; "simultaneous" = --corun TRACE --corun-policy random (the
same trace co-run on the same hosts, as slurm/campaign.py simulate does). One simulator process at
a time. Every command is printed before it runs.
"""
import argparse
import csv
import json
import math
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time

# name -> (flag, default, low, high, scale). "log": searched on a log scale; "lin": linear.
SPACE = {
    "alpha": ("--perf-alpha", 0.65, 0.05, 1.0, "lin"),
    "log_offset": ("--perf-log-offset", 2.72, 1.0, 1e5, "log"),
    "min_rate": ("--perf-min-rate", 1e-4, 1e-6, 100.0, "log"),
    "wait_initial_ms": ("--perf-wait-initial-ms", 1.0, 0.1, 100.0, "log"),
    "wait_step_up_ms": ("--perf-wait-step-up-ms", 60.0, 1.0, 500.0, "log"),
    "wait_max_ms": ("--perf-wait-max-ms", 240.0, 5.0, 2000.0, "log"),
    "wait_step_down_ms": ("--perf-wait-step-down-ms", 120.0, 1.0, 1000.0, "log"),
    "wait_min_ms": ("--perf-wait-min-ms", 5.0, 0.1, 100.0, "log"),
    "backoff_ms": ("--perf-backoff-ms", 1.0, 0.05, 20.0, "log"),
}
DEFAULTS = {k: v[1] for k, v in SPACE.items()}
FIELDS = ["trace", "hosts", "mode", "seed", "policy", "constants", "seconds", "steal_requests",
          "steals_failed", "steals_granted", "idle_s", "wall_s"]

# Two-sided 95 % Student t quantiles by degrees of freedom (normal beyond 120).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
       11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
       20: 2.086, 25: 2.060, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


def t95(df):
    if df <= 0:
        return float("nan")
    keys = [k for k in sorted(T95) if k >= df]
    return T95[keys[0]] if keys else 1.960


def mean_ci(xs):
    """Mean and 95 % half-width (Student t) of a list."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, t95(n - 1) * sd / math.sqrt(n)


def canon(c):
    """A constant set as a short, stable string (only what differs from the defaults)."""
    return ",".join(f"{k}={c[k]:.6g}" for k in SPACE if abs(c[k] - DEFAULTS[k]) > 1e-12 * max(1, abs(DEFAULTS[k]))) or "defaults"


def parse_set(text):
    c = dict(DEFAULTS)
    if text and text != "defaults":
        for kv in text.split(","):
            k, v = kv.split("=")
            if k not in SPACE:
                sys.exit(f"tune: unknown constant {k} (one of {', '.join(SPACE)})")
            c[k] = float(v)
    return c


def seeds_arg(text):
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(",")]


class Runner:
    """Runs jackdaw-sim one process at a time, through a cache in OUT/runs.csv."""

    def __init__(self, sim, out, budget=None):
        # made: new simulator runs; used: distinct runs asked for, cached or not (the budget counts
        # these, so a rerun over the same cache repeats the same search without running anything)
        self.sim, self.out, self.budget, self.made, self.used = sim, out, budget, 0, set()
        os.makedirs(out, exist_ok=True)
        self.path = os.path.join(out, "runs.csv")
        self.cache = {}
        if os.path.exists(self.path):
            with open(self.path) as f:
                for r in csv.DictReader(f):
                    self.cache[self.key(r["trace"], int(r["hosts"]), r["mode"], int(r["seed"]), r["policy"], r["constants"])] = r

    @staticmethod
    def key(trace, hosts, mode, seed, policy, constants):
        return (os.path.basename(trace), hosts, mode, seed, policy, constants)

    def left(self):
        return float("inf") if self.budget is None else self.budget - len(self.used)

    def run(self, trace, hosts, mode, seed, policy, c):
        cs = canon(c) if policy == "performance" else "-"
        k = self.key(trace, hosts, mode, seed, policy, cs)
        self.used.add(k)
        if k in self.cache:
            return self.cache[k]
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            out_json = tmp.name
        cmd = [self.sim, trace, "--platform", "study", "--workers", "15", "--hosts", str(hosts),
               "--policy", policy, "--seed", str(seed), "--out", out_json]
        if policy == "performance":
            for name, (flag, default, *_rest) in SPACE.items():
                if c[name] != default:
                    cmd += [flag, f"{c[name]:.6g}"]
        if mode == "slow":
            cmd += ["--slow-hosts", "1", "--slowdown", "3"]
        elif mode == "simultaneous":
            cmd += ["--corun", trace, "--corun-policy", "random"]
        print("+", shlex.join(cmd), flush=True)
        t0 = time.monotonic()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        wall = time.monotonic() - t0
        with open(out_json) as f:
            j = json.load(f)
        os.unlink(out_json)
        t = j["distributed"]["totals"]
        row = {"trace": os.path.basename(trace), "hosts": hosts, "mode": mode, "seed": seed, "policy": policy,
               "constants": cs, "seconds": j["seconds"], "steal_requests": t["steal_requests"],
               "steals_failed": t["steals_failed"], "steals_granted": t["steals_granted"],
               "idle_s": t["idle_us"] / 1e6, "wall_s": round(wall, 3)}
        fresh = not os.path.exists(self.path)
        with open(self.path, "a", newline="") as f:
            w = csv.DictWriter(f, FIELDS)
            if fresh:
                w.writeheader()
            w.writerow(row)
        row = {k: str(v) for k, v in row.items()}
        self.cache[k] = row
        self.made += 1
        return row


def cells_of(hosts, modes, seeds):
    return [(h, m, s) for m in modes for h in hosts for s in seeds]


def evaluate(runner, trace, cells, c, policy="performance"):
    return {cell: runner.run(trace, *cell, policy, c) for cell in cells}


def paired(base, other):
    """Per-cell relative differences other/base - 1 (negative = other is faster)."""
    return [float(other[k]["seconds"]) / float(base[k]["seconds"]) - 1 for k in base]


def summary(runs):
    rs = list(runs.values())
    n = len(rs)
    return {"mean_s": sum(float(r["seconds"]) for r in rs) / n,
            "steal_requests": sum(int(r["steal_requests"]) for r in rs) / n,
            "refused_pct": 100 * sum(int(r["steals_failed"]) for r in rs) / max(1, sum(int(r["steal_requests"]) for r in rs))}


# ------------------------------------------------------------------------------------------------ search
def draw(rng):
    c = {}
    for k, (_flag, _d, lo, hi, scale) in SPACE.items():
        c[k] = rng.uniform(lo, hi) if scale == "lin" else math.exp(rng.uniform(math.log(lo), math.log(hi)))
    c["wait_min_ms"] = min(c["wait_min_ms"], c["wait_max_ms"])
    c["wait_initial_ms"] = min(c["wait_initial_ms"], c["wait_max_ms"])
    return {k: float(f"{v:.3g}") for k, v in c.items()}


def neighbours(c, factor):
    """Each constant moved one step each way (alpha by +/- 0.15*log2(factor)), clipped to SPACE."""
    for k, (_flag, _d, lo, hi, scale) in SPACE.items():
        for up in (True, False):
            n = dict(c)
            if scale == "lin":
                step = 0.15 * math.log2(factor)
                n[k] = min(hi, max(lo, c[k] + (step if up else -step)))
            else:
                n[k] = min(hi, max(lo, c[k] * factor if up else c[k] / factor))
            n[k] = float(f"{n[k]:.3g}")
            if n[k] != c[k] and n["wait_min_ms"] <= n["wait_max_ms"]:
                yield k, n


def cmd_search(args):
    runner = Runner(args.sim, args.out, args.budget)
    cells = cells_of([int(h) for h in args.hosts.split(",")], args.modes.split(","), seeds_arg(args.seeds))
    base = evaluate(runner, args.trace, cells, DEFAULTS)
    scored = {}  # canon -> entry

    def score(c, how):
        cs = canon(c)
        if cs in scored:
            return scored[cs]["score_pct"]
        if runner.left() < len(cells):
            return None
        runs = evaluate(runner, args.trace, cells, c)
        m, hw = mean_ci(paired(base, runs))
        scored[cs] = {"set": cs, "constants": c, "how": how, "score_pct": 100 * m, "ci_pct": 100 * hw, **summary(runs)}
        print(f"  {how}: {cs}: {100 * m:+.2f} % +/- {100 * hw:.2f}", flush=True)
        return 100 * m

    score(DEFAULTS, "defaults")
    rng = random.Random(args.rng)
    for i in range(args.random):
        if score(draw(rng), f"random {i + 1}") is None:
            break
    best = min(scored.values(), key=lambda e: e["score_pct"])
    cur, cur_score, factor, spent = dict(best["constants"]), best["score_pct"], 4.0, False
    while factor > 1.2 and not spent:
        moved = False
        for k, n in neighbours(cur, factor):
            s = score(n, f"refine {k} x{factor:.2g}")
            if s is None:
                spent = True
                break
            if s < cur_score - args.min_gain:
                cur, cur_score, moved = n, s, True
                break  # start the next pass from the new point
        if not moved:
            factor = math.sqrt(factor)
    entries = sorted(scored.values(), key=lambda e: e["score_pct"])
    best = entries[0]
    result = {"trace": os.path.basename(args.trace), "cells": len(cells), "hosts": args.hosts, "modes": args.modes,
              "seeds": args.seeds, "runs_used": len(runner.used), "space": {k: v[1:] for k, v in SPACE.items()},
              "best": best, "sets": entries, "defaults": scored["defaults"]}
    with open(os.path.join(args.out, "search.json"), "w") as f:
        json.dump(result, f, indent=1)
    lines = [f"Search on {result['trace']}: {len(cells)} paired cells per set (hosts {args.hosts}; modes "
             f"{args.modes}; seeds {args.seeds}); {len(entries)} sets; {len(runner.used)} simulator runs.", "",
             "Score = mean over cells of T_set / T_defaults - 1 (negative = faster than the defaults), 95 % t interval.", "",
             "| # | how | set (differences from the defaults) | score % | 95 % CI +/- | mean makespan s | steal requests | refused % |",
             "|---|---|---|---|---|---|---|---|"]
    for i, e in enumerate(entries, 1):
        lines.append(f"| {i} | {e['how']} | `{e['set']}` | {e['score_pct']:+.2f} | {e['ci_pct']:.2f} | {e['mean_s']:.4f} | "
                     f"{e['steal_requests']:,.0f} | {e['refused_pct']:.1f} |")
    with open(os.path.join(args.out, "search.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines[:12]))
    print(f"best: {best['set']} ({best['score_pct']:+.2f} % +/- {best['ci_pct']:.2f})")


# ------------------------------------------------------------------------------------------------- check
def cmd_check(args):
    if args.set:
        cand = parse_set(args.set)
    else:
        with open(args.candidate) as f:
            cand = json.load(f)["best"]["constants"]
    runner = Runner(args.sim, args.out)
    hosts = [int(h) for h in args.hosts.split(",")]
    modes, seeds = args.modes.split(","), seeds_arg(args.seeds)
    rows, all_def, all_cand, all_rand = [], {}, {}, {}
    for mode in modes:
        for h in hosts:
            cells = cells_of([h], [mode], seeds)
            d = evaluate(runner, args.trace, cells, DEFAULTS)
            c = evaluate(runner, args.trace, cells, cand)
            r = evaluate(runner, args.trace, cells, DEFAULTS, policy="random")
            all_def.update(d), all_cand.update(c), all_rand.update(r)
            row = {"mode": mode, "hosts": h, "n": len(cells)}
            for name, runs in (("defaults", d), ("tuned", c), ("random", r)):
                row[name] = summary(runs)
            for name, (a, b) in {"tuned_vs_defaults": (d, c), "tuned_vs_random": (r, c), "defaults_vs_random": (r, d)}.items():
                m, hw = mean_ci(paired(a, b))
                row[name] = {"mean_pct": 100 * m, "ci_pct": 100 * hw}
            rows.append(row)
    overall = {}
    for name, (a, b) in {"tuned_vs_defaults": (all_def, all_cand), "tuned_vs_random": (all_rand, all_cand),
                         "defaults_vs_random": (all_rand, all_def)}.items():
        m, hw = mean_ci(paired(a, b))
        overall[name] = {"mean_pct": 100 * m, "ci_pct": 100 * hw, "n": len(a)}
    result = {"trace": os.path.basename(args.trace), "seeds": args.seeds, "modes": args.modes, "hosts": args.hosts,
              "candidate": canon(cand), "constants": cand, "rows": rows, "overall": overall, "runs_used": len(runner.used)}
    with open(os.path.join(args.out, "check.json"), "w") as f:
        json.dump(result, f, indent=1)
    lines = [f"Held-out check on {result['trace']}, seeds {args.seeds}: tuned = `{canon(cand)}`.", "",
             "Differences are paired by seed: mean of T_a / T_b - 1 with its 95 % t interval; negative = a faster.", "",
             "| mode | nodes | defaults s | tuned s | random s | tuned vs defaults % | tuned vs random % | defaults vs random % "
             "| steal requests d / t / r | refused % d / t / r |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        pct = lambda k: f"{r[k]['mean_pct']:+.2f} ± {r[k]['ci_pct']:.2f}"
        lines.append(f"| {r['mode']} | {r['hosts']} | {r['defaults']['mean_s']:.4f} | {r['tuned']['mean_s']:.4f} | "
                     f"{r['random']['mean_s']:.4f} | {pct('tuned_vs_defaults')} | {pct('tuned_vs_random')} | "
                     f"{pct('defaults_vs_random')} | {r['defaults']['steal_requests']:,.0f} / {r['tuned']['steal_requests']:,.0f} / "
                     f"{r['random']['steal_requests']:,.0f} | {r['defaults']['refused_pct']:.0f} / {r['tuned']['refused_pct']:.0f} / "
                     f"{r['random']['refused_pct']:.0f} |")
    o = overall
    lines += ["", f"All {o['tuned_vs_defaults']['n']} cells: tuned vs defaults {o['tuned_vs_defaults']['mean_pct']:+.2f} ± "
              f"{o['tuned_vs_defaults']['ci_pct']:.2f} %, tuned vs random {o['tuned_vs_random']['mean_pct']:+.2f} ± "
              f"{o['tuned_vs_random']['ci_pct']:.2f} %, defaults vs random {o['defaults_vs_random']['mean_pct']:+.2f} ± "
              f"{o['defaults_vs_random']['ci_pct']:.2f} %."]
    with open(os.path.join(args.out, "check.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("search", "check"):
        p = sub.add_parser(name)
        p.add_argument("--sim", required=True)
        p.add_argument("--trace", required=True)
        p.add_argument("--out", required=True, help="folder: runs.csv (the cache) and the step's .md/.json")
        p.add_argument("--hosts", default="5,10,15,20")
    s = sub.choices["search"]
    s.add_argument("--budget", type=int, default=600, help="simulator runs at most (cached ones count)")
    s.add_argument("--seeds", default="1-3")
    s.add_argument("--modes", default="isolated,slow")
    s.add_argument("--random", type=int, default=16, help="random sets before the refinement")
    s.add_argument("--rng", type=int, default=1, help="seed of the random draws")
    s.add_argument("--min-gain", type=float, default=0.2, help="refinement: a move must lower the score by this many %% points")
    c = sub.choices["check"]
    c.add_argument("--candidate", help="a search.json: take its best set")
    c.add_argument("--set", help="or the set itself: name=value,... (names as in SPACE; 'defaults')")
    c.add_argument("--seeds", default="11-20")
    c.add_argument("--modes", default="isolated,slow,simultaneous")
    args = ap.parse_args()
    if args.cmd == "check" and not (args.candidate or args.set):
        ap.error("check: --candidate or --set")
    {"search": cmd_search, "check": cmd_check}[args.cmd](args)


if __name__ == "__main__":
    main()
