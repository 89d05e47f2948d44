#!/usr/bin/python3
"""One trace on one simulated platform under every combination of victim policy, start-up seeding
(--seed-tree K) and board scheme: what grows with P (docs/simulation.md, "Past the cluster").

    bench/sim/scale.py TRACE --out DIR [--platform modern] [--policies random,performance,proportional]
                       [--seed-trees 0,2,8] [--boards all] [--seeds 1] [-- extra jackdaw-sim flags]

Writes DIR/<policy>_k<K>_<board>_s<seed>.json (jackdaw-sim --out) and DIR/table.md; runs that
already have their JSON are not run again, so an interrupted grid resumes. --no-run only tabulates
the runs DIR already holds (several grids run into one DIR, one table).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402


def main():
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sim", default=os.path.join(root, "build", "sim", "jackdaw-sim"))
    ap.add_argument("--platform", default="modern")
    ap.add_argument("--policies", default="random,performance,proportional")
    ap.add_argument("--seed-trees", default="0,2,8")
    ap.add_argument("--boards", default="all")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--no-run", action="store_true", help="tabulate the runs DIR holds; run nothing")
    ap.add_argument("extra", nargs="*", help="more jackdaw-sim flags (after --)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)

    info = subprocess.run([a.sim, a.trace, "--info"], capture_output=True, text=True, check=True).stdout
    totals = dict(line.split(": ", 1) for line in info.splitlines()[-5:])
    cpu, cp = float(totals["cpu seconds"]), float(totals["critical path seconds"])

    rows = []
    for board in a.boards.split(","):
        for k in a.seed_trees.split(","):
            for policy in a.policies.split(","):
                for seed in a.seeds.split(","):
                    path = os.path.join(a.out, f"{policy}_k{k}_{board}_s{seed}.json")
                    cmd = [a.sim, a.trace, "--platform", a.platform, "--policy", policy, "--board", board,
                           "--seed-tree", k, "--seed", seed, "--out", path] + a.extra
                    if not os.path.exists(path):
                        if a.no_run:
                            continue
                        print("+", " ".join(benchlib.shown(c) if os.path.exists(c) else c for c in cmd), flush=True)
                        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                    rows.append((policy, k, board, seed, json.load(open(path))))

    first = rows[0][4]
    workers = first["ranks"] * first["simulation"]["workers_per_rank"]
    lines = [f"Trace: {totals['tasks']} tasks, {cpu:.1f} CPU s, critical path {cp * 1e3:.2f} ms "
             f"(parallelism {cpu / cp:,.0f}); platform {a.platform}: {first['ranks']} ranks, {workers:,} workers; "
             f"a perfect split would take {cpu / workers * 1e3:.2f} ms.", "",
             "| policy | seed tree | board | seed | makespan ms | / critical path | idle % | ramp-up median / last ms "
             "| steal requests | granted | seeds granted | herding | board messages | simulator s | peak MB |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for policy, k, board, seed, j in rows:
        t, s = j["distributed"]["totals"], j["simulation"]
        busy, idle = t["busy_us"], t["idle_us"]
        lines.append(
            f"| {policy} | {k} | {board} | {seed} | {j['seconds'] * 1e3:.2f} | {j['seconds'] / cp:.2f} | "
            f"{100 * idle / (busy + idle):.1f} | {s['ramp_up_s']['median'] * 1e3:.2f} / {s['ramp_up_s']['last'] * 1e3:.2f} | "
            f"{t['steal_requests']:,} | {t['steals_granted']:,} | {t['comm'].get('seeds_granted', 0):,.0f} | "
            f"{j['distributed']['herding']['share_to_most_chosen']:.3f} | {t['board_messages']:,} | "
            f"{s['simulator_wall_seconds']:.0f} | {s['simulator_max_rss_mb']:,.0f} |")
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
