#!/usr/bin/python3
"""Policy-comparison campaign: run, then report.

  campaign.py run --out DIR [--ranks 1,2,4] [--policies random,performance] [--reps 10]
                  [--modes isolated,slow,simultaneous] [--threads 1] [--launcher auto|mpirun|srun|direct]
                  -- APP APP-ARGS...
      Runs every configuration, alternating the policies run by run (A B A B ...). Modes:
        isolated      one search at a time
        slow          one search at a time, with --slow-ranks/--slowdown passed to the app (uneven ranks)
        simultaneous  one search per policy started at the same time on the same cores (contention),
                      as in the 2023 dissertation
      Writes DIR/runs.tsv (one line per run) and per run DIR/runs/<id>/{stdout,stderr,stats.json,command}.

  campaign.py simulate --out DIR --sim PATH --trace FILE [--ranks 5,10,15,20] [--policies ...] [--reps 10]
                  [--modes isolated,slow,simultaneous] [--jobs N] [-- SIM-ARGS...]
      The same grid on a simulated cluster: jackdaw-sim replays FILE (an app's --trace) with one rank per
      simulated host (SIM-ARGS: --platform, --workers, ...), seed = --seed + rep. slow = --slow-hosts;
      simultaneous = a second job (--corun) of the next policy in the list on the same hosts. Writes the
      same DIR/runs.tsv and stats.json files as run, so report reads both alike.

  campaign.py report DIR
      Reads DIR/runs.tsv and the stats files; writes DIR/table.md, DIR/table.csv, PNG plots in DIR/plots/
      (runtime_vs_ranks, runtime_spread, per_rank, speedup) and DIR/report.html: one self-contained page
      (header, summary table, every plot embedded) to open offline.

The same commands work on a laptop (mpirun) and inside a Slurm allocation (srun --mpi=pmix).
Every argument is checked before the first run starts (policies against the program's --list-policies,
SIM-ARGS by the simulator's --info): a bad one is one message and exit 2.
"""
import argparse
import csv
import json
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict

MANIFEST_FIELDS = ["id", "mode", "ranks", "threads", "policy", "rep", "exit", "wall_seconds", "dir", "command"]
MODES = ("isolated", "slow", "simultaneous")
BAD_INPUT = 2


# ----------------------------------------------------------------------------------------- arguments
class Parser(argparse.ArgumentParser):
    """argparse with a bad argument as one line on stderr (no usage block) and exit 2."""

    def error(self, message):
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(BAD_INPUT)


def bad(message):
    """Bad input found after parsing: one line, exit 2, before anything has run."""
    sys.stderr.write(f"campaign {' '.join(sys.argv[1:2])}: error: {message}\n")
    sys.exit(BAD_INPUT)


def whole(lo, hi):
    """An argparse type: a plain decimal whole number in [lo, hi]."""
    def parse(text):
        if not re.fullmatch(r"-?[0-9]+", text) or not lo <= int(text) <= hi:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number in [{lo}, {hi}]")
        return int(text)
    return parse


def real(lo, hi, above=False):
    """An argparse type: a finite plain decimal number in [lo, hi] (in (lo, hi] with above)."""
    def parse(text):
        ok = re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", text)
        v = float(text) if ok else math.nan
        if not (math.isfinite(v) and lo <= v <= hi and (v > lo or not above)):
            raise argparse.ArgumentTypeError(f"'{text}' is not a number in {'(' if above else '['}{lo:g}, {hi:g}]")
        return v
    return parse


def listed(item, what):
    """An argparse type: a comma-separated list of `item`s, none twice."""
    def parse(text):
        values = [item(part) for part in text.split(",")]
        twice = sorted({str(v) for v in values if values.count(v) > 1})
        if twice:
            raise argparse.ArgumentTypeError(f"{', '.join(twice)} given twice")
        return values
    parse.__name__ = what
    return parse


def name(text):
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a name")
    return text


def mode(text):
    if text not in MODES:
        raise argparse.ArgumentTypeError(f"'{text}' is not a mode ({', '.join(MODES)})")
    return text


def policies_of(program):
    """The policies `program` offers, by name, from its --list-policies (every Jackdaw app and
    jackdaw-sim take it); None if it does not say. The program runs outside any Slurm job step (an
    app started alone runs as one rank without MPI)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "PMIX_", "PMI_"))}
    try:
        p = subprocess.run([program, "--list-policies"], capture_output=True, text=True, timeout=60, env=env,
                           stdin=subprocess.DEVNULL)
        return [pol["name"] for pol in json.loads(p.stdout)] if p.returncode == 0 else None
    except (OSError, subprocess.SubprocessError, ValueError, TypeError, KeyError):
        return None


def check_common(args, program):
    """What run and simulate share: the policies are the program's, the seeds fit, --out can be
    made. Called before anything runs; makes --out."""
    offered = policies_of(program)
    if offered is None:
        bad(f"{os.path.basename(program)} does not list its policies (--list-policies): not a Jackdaw program?")
    unknown = [p for p in args.policies if p not in offered]
    if unknown:
        bad(f"--policies: {', '.join(unknown)}: not a policy of {os.path.basename(program)} "
            f"(its policies: {', '.join(offered)})")
    if args.seed + args.reps - 1 > 2**64 - 1:
        bad(f"--seed {args.seed} with --reps {args.reps}: the last seed passes 2^64 - 1")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        bad(f"--out {args.out}: exists and is not a folder")
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        bad(f"--out {args.out}: cannot make this folder ({e.strerror})")
    if not os.access(args.out, os.W_OK | os.X_OK):
        bad(f"--out {args.out}: cannot write in this folder")


# ----------------------------------------------------------------------------------------------- run
def launcher_prefix(kind, ranks, threads):
    if kind == "auto":
        kind = "srun" if os.environ.get("SLURM_JOB_ID") else "mpirun"
    if kind == "srun":
        # --overlap: simultaneous runs share the allocation's CPUs (that is the point of the mode)
        return ["srun", "--mpi=pmix", "--overlap", "--overcommit", "-n", str(ranks), f"--cpus-per-task={threads}"]
    if kind == "mpirun":
        cmd = ["mpirun", "--oversubscribe", "-n", str(ranks)]
        if os.geteuid() == 0:
            cmd.insert(1, "--allow-run-as-root")
        return cmd
    if kind == "direct":
        if ranks != 1:
            sys.exit("campaign: --launcher direct runs one rank only")
        return []
    sys.exit(f"campaign: unknown launcher {kind}")


def start_run(args, out, run_id, mode, ranks, policy, rep):
    rdir = os.path.join(out, "runs", run_id)
    os.makedirs(rdir, exist_ok=True)
    app_args = list(args.app)
    cmd = launcher_prefix(args.launcher, ranks, args.threads) + app_args + [
        "--policy", policy, "--threads", str(args.threads),
        "--seed", str(args.seed + rep), "--stats", os.path.join(rdir, "stats.json")]
    if mode == "slow":
        slow = ",".join(str(r) for r in args.slow_ranks if r < ranks)
        cmd += ["--slow-ranks", slow, "--slowdown", str(args.slowdown)]
    with open(os.path.join(rdir, "command"), "w") as f:
        f.write(shlex.join(cmd) + "\n")
    stdout = open(os.path.join(rdir, "stdout"), "w")
    stderr = open(os.path.join(rdir, "stderr"), "w")
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=stderr)
    return {"proc": proc, "t0": time.monotonic(), "files": (stdout, stderr), "cmd": cmd, "dir": rdir,
            "row": {"id": run_id, "mode": mode, "ranks": ranks, "threads": args.threads, "policy": policy,
                    "rep": rep}}


def finish_run(run, timeout, writer, manifest):
    try:
        rc = run["proc"].wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        run["proc"].kill()
        run["proc"].wait()
        rc = "timeout"
    for f in run["files"]:
        f.close()
    row = dict(run["row"], exit=rc, wall_seconds=f"{time.monotonic() - run['t0']:.3f}",
               dir=os.path.relpath(run["dir"], os.path.dirname(manifest.name)), command=shlex.join(run["cmd"]))
    writer.writerow(row)
    manifest.flush()
    status = "ok" if rc == 0 else f"exit {rc}"
    print(f"[campaign] {row['id']}: {row['mode']} ranks={row['ranks']} {row['policy']} rep={row['rep']} "
          f"{row['wall_seconds']} s ({status})", flush=True)
    return rc


def cmd_run(args):
    if args.app[:1] == ["--"]:
        args.app = args.app[1:]
    if not args.app:
        bad("give the app and its arguments after --")
    program = shutil.which(args.app[0])
    if program is None:
        bad(f"app '{args.app[0]}' not found (or not executable)")
    if args.launcher == "direct" and args.ranks != [1]:
        bad(f"--launcher direct runs one rank: --ranks {','.join(map(str, args.ranks))}")
    check_common(args, program)
    out = args.out
    path = os.path.join(out, "runs.tsv")
    fresh = not os.path.exists(path)
    failures = 0
    with open(path, "a", newline="") as manifest:
        writer = csv.DictWriter(manifest, MANIFEST_FIELDS, delimiter="\t")
        if fresh:
            writer.writeheader()
        policies = args.policies
        n = 0
        for mode in args.modes:
            for ranks in args.ranks:
                if mode == "slow" and not [r for r in args.slow_ranks if r < ranks]:
                    print(f"[campaign] skip: slow mode needs one of ranks {args.slow_ranks} in a {ranks}-rank job")
                    continue
                for rep in range(args.reps):
                    if mode == "simultaneous":
                        runs = []
                        for p in policies:
                            n += 1
                            runs.append(start_run(args, out, f"{n:04d}", mode, ranks, p, rep))
                        for r in runs:
                            failures += finish_run(r, args.timeout, writer, manifest) != 0
                    else:
                        # One run at a time, every policy once per repetition. With --order rotate
                        # repetition k starts at policy k (A B C, B C A, C A B, ...), so no policy
                        # always holds the same place in the sequence: a fixed order once gave one
                        # policy a +16 % "win" that vanished when the order changed.
                        order = policies
                        if args.order == "rotate":
                            k = rep % len(policies)
                            order = policies[k:] + policies[:k]
                        for p in order:
                            n += 1
                            r = start_run(args, out, f"{n:04d}", mode, ranks, p, rep)
                            failures += finish_run(r, args.timeout, writer, manifest) != 0
    print(f"[campaign] done: {n} runs, {failures} failed; manifest {path}")
    return 1 if failures else 0


# ------------------------------------------------------------------------------------------ simulate
def cmd_simulate(args):
    if not (os.path.isfile(args.sim) and os.access(args.sim, os.X_OK)):
        bad(f"simulator '{args.sim}' not found (or not executable)")
    if not os.path.isfile(args.trace):
        bad(f"trace '{args.trace}' not found")
    extra = args.sim_args[1:] if args.sim_args[:1] == ["--"] else args.sim_args
    # The simulator parses SIM-ARGS (and reads the trace) for --info and stops there: a typo is
    # one message now, not a failed run per configuration.
    try:
        p = subprocess.run([args.sim, args.trace, "--info"] + extra, capture_output=True, text=True, timeout=600,
                           stdin=subprocess.DEVNULL)
        why = (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[0] if p.returncode != 0 else None
    except (OSError, subprocess.SubprocessError) as e:
        why = str(e)
    if why:
        bad(f"{os.path.basename(args.sim)} refuses the trace or the arguments after --: {why}")
    check_common(args, args.sim)
    out = args.out
    path = os.path.join(out, "runs.tsv")
    fresh = not os.path.exists(path)
    policies = args.policies
    todo, n = [], 0
    for mode in args.modes:
        for ranks in args.ranks:
            slow = [str(r) for r in args.slow_ranks if r < ranks]
            if mode == "slow" and not slow:
                continue
            for rep in range(args.reps):
                for i, p in enumerate(policies):
                    n += 1
                    run_id = f"{n:04d}"
                    rdir = os.path.join(out, "runs", run_id)
                    cmd = [args.sim, args.trace, "--hosts", str(ranks), "--policy", p, "--seed", str(args.seed + rep),
                           "--out", os.path.join(rdir, "stats.json")] + extra
                    if mode == "slow":
                        cmd += ["--slow-hosts", ",".join(slow), "--slowdown", str(args.slowdown)]
                    if mode == "simultaneous":
                        cmd += ["--corun", args.trace, "--corun-policy", policies[(i + 1) % len(policies)]]
                    todo.append((rdir, cmd, {"id": run_id, "mode": mode, "ranks": ranks, "threads": "sim",
                                             "policy": p, "rep": rep}))
    failures = 0
    with open(path, "a", newline="") as manifest:
        writer = csv.DictWriter(manifest, MANIFEST_FIELDS, delimiter="\t")
        if fresh:
            writer.writeheader()
        running = []
        for rdir, cmd, row in todo:
            os.makedirs(rdir, exist_ok=True)
            with open(os.path.join(rdir, "command"), "w") as f:
                f.write(shlex.join(cmd) + "\n")
            while len(running) >= args.jobs:
                done = [r for r in running if r["proc"].poll() is not None]
                for r in done:
                    failures += finish_run(r, args.timeout, writer, manifest) != 0
                    running.remove(r)
                if not done:
                    time.sleep(0.05)
            stdout = open(os.path.join(rdir, "stdout"), "w")
            stderr = open(os.path.join(rdir, "stderr"), "w")
            running.append({"proc": subprocess.Popen(cmd, stdout=stdout, stderr=stderr), "t0": time.monotonic(),
                            "files": (stdout, stderr), "cmd": cmd, "dir": rdir, "row": row})
        for r in running:
            failures += finish_run(r, args.timeout, writer, manifest) != 0
    print(f"[campaign] done: {n} simulated runs, {failures} failed; manifest {path}")
    return 1 if failures else 0


# -------------------------------------------------------------------------------------------- report
def load_runs(out):
    path = os.path.join(out, "runs.tsv")
    if not os.path.isfile(path):
        bad(f"{path} not found (run the campaign first)")
    runs = []
    with open(path) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            row["ranks"] = int(row["ranks"])
            stats_path = os.path.join(out, row["dir"], "stats.json")
            row["ok"] = False
            if row["exit"] == "0" and os.path.exists(stats_path):
                with open(stats_path) as sf:
                    doc = json.load(sf)
                row.update(extract(doc))
                row["ok"] = bool(doc.get("complete", False))
            runs.append(row)
    return runs


def extract(doc):
    """The numbers a comparison needs, from one run's stats JSON."""
    dist = doc.get("distributed", {})
    tot = dist.get("totals", {})
    per_rank = dist.get("per_rank", [])
    busy = sum(r.get("busy_us", 0) for r in per_rank) or tot.get("busy_us", 0)
    idle = sum(r.get("idle_us", 0) for r in per_rank) or tot.get("idle_us", 0)
    # Steal round trip: the ranks' own means, weighted by the requests each answered for itself.
    rtt_w = [(r.get("comm", {}).get("steal_round_trip_us_mean", 0.0),
              r.get("comm", {}).get("steals_granted", 0) + r.get("comm", {}).get("steals_refused", 0)) for r in per_rank]
    answered = sum(w for _, w in rtt_w)
    herd = dist.get("herding", {})
    return {
        "app": doc.get("app", ""),
        "round_trip_us": sum(m * w for m, w in rtt_w) / answered if answered else float("nan"),
        "herding": herd.get("share_to_most_chosen", float("nan")),
        "seconds": float(doc["seconds"]),
        "nodes": doc.get("stats", {}).get("nodes", 0),
        # simulated branch and bound with levels: tasks started in each tree, strongest bound first
        "tasks_per_tree": doc.get("simulation", {}).get("incumbent", {}).get("tasks_started_per_tree", []),
        "steals": tot.get("steal_requests", 0),
        "failed_steals": tot.get("steals_failed", 0),
        "idle_pct": 100.0 * idle / (busy + idle) if busy + idle > 0 else 0.0,
        "per_rank": [{"rank": r.get("rank", i), "idle_us": r.get("idle_us", 0),
                      "steal_requests": r.get("steal_requests", 0), "steals_failed": r.get("steals_failed", 0)}
                     for i, r in enumerate(per_rank)],
    }


def median_of(values):
    v = [x for x in values if not (isinstance(x, float) and math.isnan(x))]
    return statistics.median(v) if v else float("nan")


def summarise(runs):
    groups = defaultdict(list)
    for r in runs:
        if r["ok"]:
            groups[(r["mode"], r["ranks"], r["policy"])].append(r)
    rows = []
    for (mode, ranks, policy), rs in sorted(groups.items()):
        t = [r["seconds"] for r in rs]
        steals = sum(r["steals"] for r in rs)
        failed = sum(r["failed_steals"] for r in rs)
        rows.append({
            "mode": mode, "ranks": ranks, "policy": policy, "runs": len(rs),
            "mean_s": statistics.mean(t), "median_s": statistics.median(t), "min_s": min(t), "max_s": max(t),
            # (4.2): variability over the runs of one configuration
            "variability_pct": (max(t) - min(t)) / min(t) * 100 if min(t) > 0 else 0.0,
            "steals_per_run": steals / len(rs),
            "failed_steal_pct": 100.0 * failed / steals if steals else 0.0,
            "idle_pct": statistics.mean(r["idle_pct"] for r in rs),
            # medians over runs; NaN when the runs carry no such numbers (one rank, or older stats)
            "round_trip_us": median_of(r.get("round_trip_us", float("nan")) for r in rs),
            "herding": median_of(r.get("herding", float("nan")) for r in rs),
            "nodes_median": statistics.median(r["nodes"] for r in rs),
        })
    # (4.1): speedup of each policy over random, on means (and medians) of the same configuration
    base = {(r["mode"], r["ranks"]): r for r in rows if r["policy"] == "random"}
    for r in rows:
        b = base.get((r["mode"], r["ranks"]))
        r["speedup_mean_pct"] = (b["mean_s"] - r["mean_s"]) / r["mean_s"] * 100 if b else float("nan")
        r["speedup_median_pct"] = (b["median_s"] - r["median_s"]) / r["median_s"] * 100 if b else float("nan")
    paired_speedups(rows, runs)
    return rows


def paired_speedups(rows, runs):
    """Runs alternate policy by policy, so rep k of random and rep k of a policy ran back to back
    (or, simultaneous, at the same time): per pair (4.1) on the two times, then the median over
    pairs with a 95 % bootstrap interval (numpy, fixed seed) and how many pairs the policy won.
    A interval that straddles 0 means this campaign cannot tell the policies apart."""
    import numpy as np
    times = {(r["mode"], r["ranks"], r["policy"], r["rep"]): r["seconds"] for r in runs if r["ok"]}
    rng = np.random.default_rng(1)
    for row in rows:
        row.update(paired_median_pct=float("nan"), paired_lo_pct=float("nan"), paired_hi_pct=float("nan"),
                   pairs_won="—")
        if row["policy"] == "random":
            continue
        sp = []
        for (mode, ranks, policy, rep), t in times.items():
            base = times.get((mode, ranks, "random", rep))
            if (mode, ranks, policy) == (row["mode"], row["ranks"], row["policy"]) and base and t > 0:
                sp.append((base - t) / t * 100)
        if not sp:
            continue
        a = np.array(sp)
        boot = np.median(rng.choice(a, size=(10000, len(a)), replace=True), axis=1)
        row["paired_median_pct"] = float(np.median(a))
        row["paired_lo_pct"], row["paired_hi_pct"] = (float(x) for x in np.percentile(boot, [2.5, 97.5]))
        row["pairs_won"] = f"{int((a > 0).sum())}/{len(a)}"


COLUMNS = [("mode", "mode", "{}"), ("ranks", "ranks", "{}"), ("policy", "policy", "{}"), ("runs", "runs", "{}"),
           ("mean_s", "mean s", "{:.3f}"), ("median_s", "median s", "{:.3f}"), ("min_s", "min s", "{:.3f}"),
           ("max_s", "max s", "{:.3f}"), ("speedup_mean_pct", "speedup % (mean, 4.1)", "{:+.1f}"),
           ("speedup_median_pct", "speedup % (median)", "{:+.1f}"),
           ("paired_median_pct", "paired speedup % (median)", "{:+.1f}"),
           ("paired_lo_pct", "95 % CI low", "{:+.1f}"), ("paired_hi_pct", "95 % CI high", "{:+.1f}"),
           ("pairs_won", "pairs won", "{}"),
           ("variability_pct", "variability % (4.2)", "{:.1f}"), ("steals_per_run", "steals/run", "{:.0f}"),
           ("failed_steal_pct", "failed steals %", "{:.1f}"), ("idle_pct", "idle %", "{:.1f}"),
           ("round_trip_us", "steal round trip µs (median)", "{:.0f}"),
           ("herding", "herding share (median)", "{:.2f}"),
           ("nodes_median", "nodes (median)", "{:.0f}")]


def cell(fmt, v):
    return "—" if isinstance(v, float) and math.isnan(v) else fmt.format(v)


def write_tables(out, rows, runs):
    with open(os.path.join(out, "table.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([c[0] for c in COLUMNS])
        for r in rows:
            w.writerow([r[c[0]] for c in COLUMNS])
    failed = [r for r in runs if not r["ok"]]
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("| " + " | ".join(c[1] for c in COLUMNS) + " |\n")
        f.write("|" + "---|" * len(COLUMNS) + "\n")
        for r in rows:
            f.write("| " + " | ".join(cell(c[2], r[c[0]]) for c in COLUMNS) + " |\n")
        f.write(f"\n{len(runs)} runs, {len(failed)} failed or incomplete (excluded).\n")
        for r in failed:
            f.write(f"- run {r['id']} ({r['mode']}, {r['ranks']} ranks, {r['policy']}): exit {r['exit']}\n")


# One colour per policy, the same in every plot and every campaign (Okabe–Ito, readable by colour-blind
# readers); random, the baseline, is grey. Policies not listed take the spare colours in name order.
POLICY_COLOURS = {"random": "#8c8c8c", "performance": "#0072B2", "proportional": "#E69F00"}
SPARE_COLOURS = ["#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"]
MODE_ORDER = ["isolated", "slow", "simultaneous"]


def policy_order(policies):
    """random (the baseline) first, then the others by name."""
    return sorted(set(policies), key=lambda p: (p != "random", p))


def mode_order(modes):
    return sorted(set(modes), key=lambda m: (MODE_ORDER.index(m) if m in MODE_ORDER else len(MODE_ORDER), m))


def policy_colours(policies):
    colours = {p: POLICY_COLOURS[p] for p in policies if p in POLICY_COLOURS}
    spare = iter(SPARE_COLOURS * (1 + len(policies) // len(SPARE_COLOURS)))
    for p in sorted(p for p in policies if p not in colours):
        colours[p] = next(spare)
    return colours


def mode_title(mode, runs):
    """A panel title: the mode, and for slow mode which ranks ran slower (from the manifest's command)."""
    if mode != "slow":
        return mode
    for r in runs:
        if r["mode"] != mode:
            continue
        try:
            words = shlex.split(r.get("command", ""))
            ranks = words[words.index("--slow-ranks") + 1]
            factor = words[words.index("--slowdown") + 1]
        except (ValueError, IndexError):
            continue
        return f"slow (rank{'s' if ',' in ranks else ''} {ranks} slowed ×{factor})"
    return mode


def app_name(runs):
    """The app the campaign ran, as its --stats say ("" if none says)."""
    return next((r["app"] for r in runs if r.get("app")), "")


def plot(out, rows, runs):
    """Writes plots/runtime_vs_ranks.png, runtime_spread.png, per_rank.png and (when the campaign ran the
    random policy) speedup.png. Every figure has one panel per mode and the policies as its only
    colours, with the legend below the panels. Returns the file names written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)
    modes = mode_order(r["mode"] for r in rows)
    policies = policy_order(r["policy"] for r in rows)
    colour = policy_colours(policies)
    rank_counts = sorted({r["ranks"] for r in rows})
    app = app_name(runs)
    prefix = f"{app}: " if app else ""
    ok = [r for r in runs if r["ok"]]
    written = []

    def panels(nrows=1, sharey=False, height=3.6):
        fig, axes = plt.subplots(nrows, len(modes), figsize=(max(6.8, 0.6 + 4.2 * len(modes)), 0.6 + height * nrows),
                                 sharey=sharey, squeeze=False)
        return fig, axes

    def dodge(i, n, width=0.8):
        """Offset of the i-th of n policies inside one x group."""
        return (i - (n - 1) / 2) * width / n

    def rank_axis(ax, label="ranks"):
        # ranks are integers: categorical positions labelled with the rank count
        ax.set_xticks(range(len(rank_counts)))
        ax.set_xticklabels([str(k) for k in rank_counts])
        ax.set_xlim(-0.6, len(rank_counts) - 0.4)
        ax.set_xlabel(label)

    def finish(fig, name, title, handles):
        fig.suptitle(prefix + title, fontsize=11)
        h = fig.get_figheight()
        fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncol=min(len(handles), 6),
                   frameon=False)
        fig.tight_layout(rect=(0, 0.45 / h, 1, 1))
        fig.savefig(os.path.join(pdir, name), dpi=110, bbox_inches="tight", pad_inches=0.15)
        plt.close(fig)
        written.append(name)

    def no_data(ax, text="no runs"):
        ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", color="0.5")

    policy_handles = [Patch(facecolor=colour[p], label=p) for p in policies]

    # 1. run time against rank count: median with min–max bars. Modes run at very different
    #    speeds (simultaneous runs share the cores), so each panel has its own y axis.
    fig, axes = panels()
    for ax, mode in zip(axes[0], modes):
        for i, p in enumerate(policies):
            rs = {r["ranks"]: r for r in rows if r["mode"] == mode and r["policy"] == p}
            xs = [j + dodge(i, len(policies), 0.5) for j, k in enumerate(rank_counts) if k in rs]
            rs = [rs[k] for k in rank_counts if k in rs]
            if not rs:
                continue
            y = [r["median_s"] for r in rs]
            err = [[r["median_s"] - r["min_s"] for r in rs], [r["max_s"] - r["median_s"] for r in rs]]
            ax.errorbar(xs, y, yerr=err, marker="o", capsize=4, color=colour[p], lw=1.5)
        ax.set_title(mode_title(mode, runs))
        rank_axis(ax)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("run time (s): median, min–max")
    finish(fig, "runtime_vs_ranks.png", "run time against rank count", policy_handles)

    # 2. spread of run times per configuration: a box per policy and rank count, every run a dot
    fig, axes = panels()
    for ax, mode in zip(axes[0], modes):
        n = len(policies)
        for i, p in enumerate(policies):
            for j, k in enumerate(rank_counts):
                t = [r["seconds"] for r in ok if (r["mode"], r["ranks"], r["policy"]) == (mode, k, p)]
                if not t:
                    continue
                x = j + dodge(i, n)
                ax.boxplot([t], positions=[x], widths=0.7 / n, whis=(0, 100), patch_artist=True,
                           boxprops=dict(facecolor=colour[p], alpha=0.45, edgecolor=colour[p]),
                           medianprops=dict(color="black"), whiskerprops=dict(color=colour[p]),
                           capprops=dict(color=colour[p]))
                jitter = [x + 0.25 / n * ((m * 0.618) % 1 - 0.5) for m in range(len(t))]
                ax.scatter(jitter, t, s=9, color=colour[p], edgecolor="black", linewidth=0.3, zorder=3)
        ax.set_title(mode_title(mode, runs))
        rank_axis(ax)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("run time (s), one dot per run")
    finish(fig, "runtime_spread.png", "spread of run times (box: quartiles and median; whiskers: fastest and slowest run)",
           policy_handles)

    # 3. per-rank idle time and steal requests at the largest rank count: mean over runs, min–max bars
    if ok:
        kmax = max(r["ranks"] for r in ok)
        fig, axes = panels(nrows=2, sharey="row", height=3.0)
        metrics = (("idle_us", 1e-6, "idle time (s)"), ("steal_requests", 1, "steal requests"))
        n = len(policies)
        for c, mode in enumerate(modes):
            drawn = False
            for i, p in enumerate(policies):
                rs = [r for r in ok if r["ranks"] == kmax and r["policy"] == p and r["mode"] == mode
                      and r.get("per_rank")]
                if not rs:
                    continue
                drawn = True
                for row_i, (key, scale, _) in enumerate(metrics):
                    xs, mean, lo, hi = [], [], [], []
                    for k in range(kmax):
                        v = [e[key] * scale for r in rs for e in r["per_rank"] if e["rank"] == k]
                        if not v:
                            continue
                        xs.append(k + dodge(i, n))
                        mean.append(statistics.mean(v))
                        lo.append(mean[-1] - min(v))
                        hi.append(max(v) - mean[-1])
                    axes[row_i][c].bar(xs, mean, 0.8 / n, color=colour[p], yerr=[lo, hi],
                                       error_kw=dict(ecolor="0.25", elinewidth=0.8, capsize=2))
            for row_i, (_, _, label) in enumerate(metrics):
                ax = axes[row_i][c]
                ax.set_xticks(range(kmax))
                ax.set_xticklabels([str(k) for k in range(kmax)])
                ax.set_xlim(-0.6, kmax - 0.4)
                ax.grid(axis="y", alpha=0.3)
                if not drawn:
                    no_data(ax, f"no {kmax}-rank runs")
                if c == 0:
                    ax.set_ylabel(f"{label}\nmean over runs, min–max")
            axes[0][c].set_title(mode_title(mode, runs))
            axes[1][c].set_xlabel("rank")
        finish(fig, "per_rank.png", f"per rank, {kmax}-rank runs", policy_handles)

    # 4. paired speedup over random (median over pairs, 95 % bootstrap interval); the same
    #    percentage scale in every panel, so the y axis is shared. Labels: pairs won.
    others = [p for p in policies if p != "random"]
    if "random" in policies and others:
        fig, axes = panels(sharey=True)
        extent = [0.0]
        for ax, mode in zip(axes[0], modes):
            ax.axhline(0, color=colour["random"], lw=1.5, ls="--", zorder=1)
            for i, p in enumerate(others):
                for j, k in enumerate(rank_counts):
                    r = next((r for r in rows if (r["mode"], r["ranks"], r["policy"]) == (mode, k, p)), None)
                    if r is None or math.isnan(r["paired_median_pct"]):
                        continue
                    x = j + dodge(i, len(others), 0.5)
                    m, lo, hi = r["paired_median_pct"], r["paired_lo_pct"], r["paired_hi_pct"]
                    extent += [lo, hi]
                    ax.errorbar([x], [m], yerr=[[m - lo], [hi - m]], marker="o", capsize=4, color=colour[p],
                                lw=1.5, zorder=3)
                    ax.annotate(r["pairs_won"], (x, hi), xytext=(0, 3), textcoords="offset points",
                                ha="center", va="bottom", fontsize=7, color="0.3")
            ax.set_title(mode_title(mode, runs))
            rank_axis(ax)
            ax.grid(axis="y", alpha=0.3)
        # room above the highest interval for its pairs-won label (the y axis is shared)
        low, high = min(extent), max(extent)
        pad = max(high - low, 1.0) * 0.08
        axes[0][0].set_ylim(low - pad, high + 2 * pad)
        axes[0][0].set_ylabel("speedup over random (%)\npaired median, 95 % CI")
        handles = [Patch(facecolor=colour[p], label=p) for p in others]
        handles.append(Line2D([], [], color=colour["random"], ls="--", label="random (0 %)"))
        finish(fig, "speedup.png", "paired speedup over random (> 0: faster; labels: pairs won)", handles)
    return written


PLOT_CAPTIONS = {
    "speedup.png": "Paired speedup of each policy over random: per repetition, (random − policy) / policy "
                   "on the two run times, then the median over the pairs with its 95 % bootstrap interval. "
                   "An interval that crosses the dashed 0 % line means this campaign cannot tell the two "
                   "policies apart. The label above each interval is the number of pairs the policy won.",
    "runtime_spread.png": "Run times per configuration: one dot per run; boxes show quartiles and median, "
                          "whiskers the fastest and the slowest run.",
    "runtime_vs_ranks.png": "Run time against rank count: median, bars from the fastest to the slowest run.",
    "per_rank.png": "Per rank at the largest rank count: idle time and steal requests, mean over runs, "
                    "bars from the smallest to the largest run.",
}

HTML_STYLE = """
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1500px; padding: 0 1em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; }
th { background: #f0f0f0; vertical-align: bottom; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #fafafa; }
table.meta th { text-align: left; background: none; border: none; padding-right: 1em; }
table.meta td { border: none; }
code { background: #f4f4f4; padding: 0 0.2em; }
figure { margin: 1.2em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #444; max-width: 60em; }
"""


# The options run and simulate give each run (each takes one value); the rest is the campaign's.
PER_RUN_OPTIONS = {"--policy", "--threads", "--seed", "--stats", "--slow-ranks", "--slowdown",
                   "--hosts", "--out", "--slow-hosts", "--corun", "--corun-policy"}


def app_command(runs):
    """The program and its arguments as the manifest records them, without the per-run options
    (and, under mpirun or srun, without the launcher)."""
    for r in runs:
        try:
            words = shlex.split(r.get("command", ""))
        except ValueError:
            continue
        if not words:
            continue
        if not simulated(runs):
            return shlex.join(words[:words.index("--policy")] if "--policy" in words else words)
        kept, skip = [], False
        for w in words:
            if skip:
                skip = False
            elif w in PER_RUN_OPTIONS:
                skip = True
            else:
                kept.append(w)
        return shlex.join(kept)
    return ""


def simulated(runs):
    """Runs made by `simulate` (jackdaw-sim), whose manifest says "sim" for threads."""
    return any(str(r.get("threads", "")) == "sim" for r in runs)


def write_html(out, rows, runs):
    """OUTDIR/report.html: header, the summary table and every plot as a data: URI — one file,
    no network references, readable offline."""
    import base64
    import datetime
    import glob
    import html
    esc = html.escape
    failed = [r for r in runs if not r["ok"]]
    app = app_name(runs) or "campaign"
    ended = datetime.datetime.fromtimestamp(os.path.getmtime(os.path.join(out, "runs.tsv")), datetime.timezone.utc)
    meta = [
        ("app command", f"<code>{esc(app_command(runs))}</code> (each run adds --policy, --threads, --seed, "
                        "--stats; slow runs add --slow-ranks, --slowdown)") if not simulated(runs) else
        ("simulator command", f"<code>{esc(app_command(runs))}</code> (each run adds --hosts, --policy, --seed, "
                              "--out; slow runs add --slow-hosts, --slowdown; simultaneous runs add --corun, "
                              "--corun-policy)"),
        ("runs", esc(f"{len(runs)} ({len(failed)} failed or incomplete, excluded)")),
        ("modes", esc(", ".join(mode_order(r["mode"] for r in runs)))),
        ("policies", esc(", ".join(policy_order(r["policy"] for r in runs)))),
        ("ranks", esc(", ".join(str(k) for k in sorted({r["ranks"] for r in runs})))),
        ("threads per rank", esc(", ".join(sorted({str(r.get("threads", "")) for r in runs})))),
        ("repetitions", esc(", ".join(str(n) for n in sorted({r["runs"] for r in rows})) + " successful per configuration")),
        ("last run ended", esc(ended.strftime("%Y-%m-%d %H:%M UTC")) + " (time runs.tsv was last written)"),
        ("folder", f"<code>{esc(os.path.normpath(out))}</code>"),
    ]
    for path in (os.path.join(out, "binary.txt"), os.path.join(out, os.pardir, "binary.txt")):
        if os.path.isfile(path):
            with open(path) as f:
                meta.append(("binary", esc(f.read().strip()) + f" (<code>{esc(os.path.relpath(path, out))}</code>)"))
            break

    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>{esc(app)}: policy campaign report</title>", f"<style>{HTML_STYLE}</style>", "</head>",
             "<body>", f"<h1>{esc(app)}: policy campaign report</h1>", '<table class="meta">']
    parts += [f"<tr><th>{esc(k)}</th><td>{v}</td></tr>" for k, v in meta]
    parts += ["</table>", "<h2>Summary</h2>",
              "<p>One row per mode, rank count and policy. Speedups are over random in the same mode and rank "
              "count; positive means faster than random. Bold: a paired 95 % interval that excludes 0.</p>",
              '<table class="summary">', "<thead><tr>" + "".join(f"<th>{esc(c[1])}</th>" for c in COLUMNS)
              + "</tr></thead>", "<tbody>"]
    text_columns = {"mode", "policy", "pairs_won"}
    for r in rows:
        clear = not math.isnan(r["paired_lo_pct"]) and (r["paired_lo_pct"] > 0 or r["paired_hi_pct"] < 0)
        cells = []
        for key, _, fmt in COLUMNS:
            text = esc(cell(fmt, r[key]))
            if clear and key.startswith("paired_"):
                text = f"<strong>{text}</strong>"
            cells.append(f"<td>{text}</td>" if key in text_columns else f'<td class="num">{text}</td>')
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts += ["</tbody>", "</table>", f"<p>{esc(f'{len(runs)} runs, {len(failed)} failed or incomplete (excluded).')}</p>"]
    if failed:
        parts.append("<ul>")
        parts += [f"<li>run {esc(r['id'])} ({esc(r['mode'])}, {r['ranks']} ranks, {esc(r['policy'])}): "
                  f"exit {esc(str(r['exit']))}</li>" for r in failed]
        parts.append("</ul>")
    parts.append("<h2>Plots</h2>")
    pdir = os.path.join(out, "plots")
    names = [n for n in PLOT_CAPTIONS if os.path.isfile(os.path.join(pdir, n))]
    names += sorted(os.path.basename(p) for p in glob.glob(os.path.join(pdir, "*.png"))
                    if os.path.basename(p) not in PLOT_CAPTIONS)
    for name in names:
        with open(os.path.join(pdir, name), "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        parts += ["<figure>", f'<img alt="{esc(name)}" src="data:image/png;base64,{data}">',
                  f"<figcaption><code>plots/{esc(name)}</code>: {esc(PLOT_CAPTIONS.get(name, ''))}</figcaption>",
                  "</figure>"]
    parts += ["</body>", "</html>", ""]
    path = os.path.join(out, "report.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    return path


def cmd_report(args):
    runs = load_runs(args.dir)
    rows = summarise(runs)
    if not rows:
        sys.exit("campaign report: no successful runs to report")
    write_tables(args.dir, rows, runs)
    plot(args.dir, rows, runs)
    write_html(args.dir, rows, runs)
    print(open(os.path.join(args.dir, "table.md")).read())
    print(f"[campaign] wrote {args.dir}/table.md, table.csv, plots/*.png, report.html")
    return 0


def main():
    ap = Parser(prog="campaign", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ranks = listed(whole(1, 1_000_000), "ranks")
    policies = listed(name, "policies")
    modes = listed(mode, "modes")
    slow_ranks = listed(whole(0, 1_000_000), "ranks")

    def common(p, ranks_default, ranks_help):
        p.add_argument("--out", required=True, help="the campaign folder (made if absent)")
        p.add_argument("--ranks", type=ranks, default=ranks(ranks_default), help=ranks_help)
        p.add_argument("--policies", type=policies, default=policies("random,performance"),
                       help="comma-separated; the program's own (its --list-policies lists them)")
        p.add_argument("--reps", type=whole(1, 1_000_000), default=10, help="seeds per configuration")
        p.add_argument("--modes", type=modes, default=list(MODES), help="comma-separated: " + ", ".join(MODES))
        p.add_argument("--slow-ranks", type=slow_ranks, default=[1])
        p.add_argument("--slowdown", type=real(1, 1000), default=3.0)
        p.add_argument("--seed", type=whole(0, 2**64 - 1), default=1)
        p.add_argument("--timeout", type=real(0, 1e9, above=True), default=3600, help="seconds per run")

    r = sub.add_parser("run", help="run a campaign")
    common(r, "1,2,4", "comma-separated rank counts")
    r.add_argument("--threads", type=whole(1, 4096), default=1, help="workers per rank")
    r.add_argument("--launcher", default="auto", choices=["auto", "mpirun", "srun", "direct"])
    r.add_argument("--order", choices=["rotate", "fixed"], default="rotate",
                   help="rotate: repetition k starts with the k-th policy; fixed: the same order every time")
    r.add_argument("app", nargs=argparse.REMAINDER)
    s = sub.add_parser("simulate", help="the same grid on a simulated cluster (jackdaw-sim)")
    common(s, "5,10,15,20", "simulated hosts, one rank each")
    s.add_argument("--sim", required=True, help="the jackdaw-sim program")
    s.add_argument("--trace", required=True, help="a trace recorded with an app's --trace")
    s.add_argument("--jobs", type=whole(1, 1024), default=os.cpu_count() or 1, help="simulations at once")
    s.add_argument("sim_args", nargs=argparse.REMAINDER)
    p = sub.add_parser("report", help="tables and plots from a campaign folder")
    p.add_argument("dir")
    args = ap.parse_args()
    return {"run": cmd_run, "simulate": cmd_simulate, "report": cmd_report}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
