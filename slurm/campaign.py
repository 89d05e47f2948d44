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

  campaign.py report DIR
      Reads DIR/runs.tsv and the stats files; writes DIR/table.md, DIR/table.csv and PNG plots in DIR/plots/.

The same commands work on a laptop (mpirun) and inside a Slurm allocation (srun --mpi=pmix).
"""
import argparse
import csv
import json
import math
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict

MANIFEST_FIELDS = ["id", "mode", "ranks", "threads", "policy", "rep", "exit", "wall_seconds", "dir", "command"]


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
        slow = ",".join(r for r in args.slow_ranks.split(",") if int(r) < ranks)
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
    if not args.app:
        sys.exit("campaign run: give the app and its arguments after --")
    if args.app[0] == "--":
        args.app = args.app[1:]
    if shutil.which(args.app[0]) is None and not os.path.exists(args.app[0]):
        sys.exit(f"campaign run: app '{args.app[0]}' not found")
    out = args.out
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "runs.tsv")
    fresh = not os.path.exists(path)
    failures = 0
    with open(path, "a", newline="") as manifest:
        writer = csv.DictWriter(manifest, MANIFEST_FIELDS, delimiter="\t")
        if fresh:
            writer.writeheader()
        policies = args.policies.split(",")
        n = 0
        for mode in args.modes.split(","):
            for ranks in [int(r) for r in args.ranks.split(",")]:
                if mode == "slow" and not [r for r in args.slow_ranks.split(",") if int(r) < ranks]:
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


# -------------------------------------------------------------------------------------------- report
def load_runs(out):
    path = os.path.join(out, "runs.tsv")
    if not os.path.exists(path):
        sys.exit(f"campaign report: {path} not found (run the campaign first)")
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
        "round_trip_us": sum(m * w for m, w in rtt_w) / answered if answered else float("nan"),
        "herding": herd.get("share_to_most_chosen", float("nan")),
        "seconds": float(doc["seconds"]),
        "nodes": doc.get("stats", {}).get("nodes", 0),
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


def plot(out, rows, runs):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pdir = os.path.join(out, "plots")
    os.makedirs(pdir, exist_ok=True)
    modes = sorted({r["mode"] for r in rows})
    policies = sorted({r["policy"] for r in rows})

    # 1. run time against rank count, one panel per mode: median with min–max bars
    fig, axes = plt.subplots(1, max(1, len(modes)), figsize=(5 * max(1, len(modes)), 4), squeeze=False)
    for ax, mode in zip(axes[0], modes):
        for p in policies:
            rs = sorted((r for r in rows if r["mode"] == mode and r["policy"] == p), key=lambda r: r["ranks"])
            if not rs:
                continue
            x = [r["ranks"] for r in rs]
            y = [r["median_s"] for r in rs]
            err = [[r["median_s"] - r["min_s"] for r in rs], [r["max_s"] - r["median_s"] for r in rs]]
            ax.errorbar(x, y, yerr=err, marker="o", capsize=4, label=p)
        ax.set_title(f"{mode}")
        ax.set_xlabel("ranks")
        ax.set_ylabel("run time (s), median and min–max")
        ax.set_xticks(sorted({r["ranks"] for r in rows}))
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(pdir, "runtime_vs_ranks.png"), dpi=110)
    plt.close(fig)

    # 2. spread of run times per configuration
    ok = [r for r in runs if r["ok"]]
    configs = sorted({(r["mode"], r["ranks"], r["policy"]) for r in ok})
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(configs)), 4))
    data = [[r["seconds"] for r in ok if (r["mode"], r["ranks"], r["policy"]) == c] for c in configs]
    if data:
        ax.boxplot(data, showmeans=True)
        ax.set_xticks(range(1, len(configs) + 1))
        ax.set_xticklabels([f"{m}\n{k} ranks\n{p}" for m, k, p in configs], fontsize=8)
    ax.set_ylabel("run time (s)")
    ax.set_title("spread of run times per configuration")
    fig.tight_layout()
    fig.savefig(os.path.join(pdir, "runtime_spread.png"), dpi=110)
    plt.close(fig)

    # 3. per-rank idle time and steal requests per policy (largest rank count, mean over runs)
    if ok:
        kmax = max(r["ranks"] for r in ok)
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
        width = 0.8 / max(1, len(policies) * len(modes))
        i = 0
        for mode in modes:
            for p in policies:
                rs = [r for r in ok if r["ranks"] == kmax and r["policy"] == p and r["mode"] == mode]
                if not rs or not rs[0]["per_rank"]:
                    continue
                idle = [statistics.mean(r["per_rank"][k]["idle_us"] for r in rs if k < len(r["per_rank"])) / 1e6
                        for k in range(kmax)]
                steals = [statistics.mean(r["per_rank"][k]["steal_requests"] for r in rs if k < len(r["per_rank"]))
                          for k in range(kmax)]
                xs = [k + i * width for k in range(kmax)]
                a1.bar(xs, idle, width, label=f"{p} ({mode})")
                a2.bar(xs, steals, width, label=f"{p} ({mode})")
                i += 1
        for a, t in ((a1, "idle time per rank (s, mean)"), (a2, "steal requests per rank (mean)")):
            a.set_xlabel("rank")
            a.set_title(f"{t}, {kmax} ranks")
            a.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(pdir, "per_rank.png"), dpi=110)
        plt.close(fig)


def cmd_report(args):
    runs = load_runs(args.dir)
    rows = summarise(runs)
    if not rows:
        sys.exit("campaign report: no successful runs to report")
    write_tables(args.dir, rows, runs)
    plot(args.dir, rows, runs)
    print(open(os.path.join(args.dir, "table.md")).read())
    print(f"[campaign] wrote {args.dir}/table.md, table.csv, plots/*.png")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a campaign")
    r.add_argument("--out", required=True)
    r.add_argument("--ranks", default="1,2,4")
    r.add_argument("--threads", type=int, default=1, help="workers per rank")
    r.add_argument("--policies", default="random,performance")
    r.add_argument("--reps", type=int, default=10)
    r.add_argument("--modes", default="isolated,slow,simultaneous")
    r.add_argument("--slow-ranks", default="1")
    r.add_argument("--slowdown", type=float, default=3.0)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--launcher", default="auto", choices=["auto", "mpirun", "srun", "direct"])
    r.add_argument("--timeout", type=float, default=3600)
    r.add_argument("--order", choices=["rotate", "fixed"], default="rotate",
                   help="rotate: repetition k starts with the k-th policy; fixed: the same order every time")
    r.add_argument("app", nargs=argparse.REMAINDER)
    p = sub.add_parser("report", help="tables and plots from a campaign folder")
    p.add_argument("dir")
    args = ap.parse_args()
    return cmd_run(args) if args.cmd == "run" else cmd_report(args)


if __name__ == "__main__":
    sys.exit(main())
