#!/usr/bin/python3
"""One trace on one simulated platform under every combination of victim policy, start-up seeding
(--seed-tree K) and board scheme: what grows with P (docs/simulation.md, "Past the cluster").

    bench/sim/scale.py TRACE --out DIR [--platform modern] [--policies random,performance,proportional]
                       [--seed-trees 0,2,8] [--boards all] [--seeds 1] [--seed-redirects on]
                       [--retry-caps 100] [--jobs 1] [-- extra jackdaw-sim flags]

Writes DIR/<policy>_k<K>_<board>_s<seed>.json (jackdaw-sim --out; before ".json", "_roff" for
--seed-redirect off and "_cap<C>" for a thieves' back-off cap --steal-retry-max-us C other than
1000 µs, the runtime's former default; 100 µs now, bench/results/defaults.md), DIR/table.md and DIR/utilisation.png (the
share of all workers busy over time, one panel per policy, seed tree, board and cap, one line per
run). Runs that already have their JSON are not run again, so an interrupted grid resumes.
--no-run only tabulates the runs DIR already holds (several grids run into one DIR, one table).
With both redirect settings, the table ends with the paired ratio on / off of the makespans (same
policy, seed tree, board and seed); with several --retry-caps, with the paired ratio of each cap's
makespan over 1000 µs.
"""
import argparse
import concurrent.futures
import json
import statistics
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402


# µs: the thieves' former back-off cap (comm::CommOptions::stealRetryMax is 100 now,
# bench/results/defaults.md). Runs at it carry no "_cap" suffix, so grids run at it stay readable, and the
# paired table compares every other cap with it.
OLD_RETRY_CAP = 1000
RUNTIME_RETRY_CAP = 100


def half_busy(sim):
    """When half the workers were first busy, and until when (the end game follows); older runs
    did not record it."""
    u = sim.get("utilisation")
    if not u:
        return "-"
    if u["half_busy_first_s"] is None:
        return "never"
    return f"{u['half_busy_first_s'] * 1e3:.2f} / {u['half_busy_until_s'] * 1e3:.2f}"


def plot_utilisation(rows, path):
    """Busy share over simulated time, one panel per (policy, seed tree, board, cap): redirects on
    solid, off dashed, one line per seed. Runs without utilisation (older simulator) are left out."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    panels = {}
    for policy, k, board, seed, redirect, cap, j in rows:
        u = j["simulation"].get("utilisation")
        if u:
            panels.setdefault((policy, k, board, cap), []).append((seed, redirect, u))
    if not panels:
        return False
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 2.6 * len(panels)), squeeze=False)
    for ax, ((policy, k, board, cap), runs) in zip(axes[:, 0], panels.items()):
        for seed, redirect, u in sorted(runs):
            t = [(b + 0.5) * u["bin_s"] * 1e3 for b in range(len(u["busy_share"]))]
            ax.plot(t, u["busy_share"], linestyle="-" if redirect == "on" else "--", color=f"C{int(seed) % 10}",
                    label=f"seed {seed}, redirect {redirect}" if k != "0" else f"seed {seed}", linewidth=1)
        ax.set_title(f"{policy}, seed tree {k}, board {board}, back-off cap {cap} µs", fontsize=9)
        ax.set_ylabel("workers busy")
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize=6, ncol=2)
    axes[-1, 0].set_xlabel("simulated ms")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


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
    ap.add_argument("--seed-redirects", default="on", help="on, off or on,off (jackdaw-sim --seed-redirect)")
    ap.add_argument("--retry-caps", default=str(RUNTIME_RETRY_CAP),
                    help="thieves' back-off caps after refusals, µs (jackdaw-sim --steal-retry-max-us), e.g. 1000,100")
    ap.add_argument("--jobs", type=int, default=1, help="simulations at once")
    ap.add_argument("--no-run", action="store_true", help="tabulate the runs DIR holds; run nothing")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    a.extra = argv[cut + 1:]  # more jackdaw-sim flags, after --
    os.makedirs(a.out, exist_ok=True)

    info = subprocess.run([a.sim, a.trace, "--info"], capture_output=True, text=True, check=True).stdout
    totals = dict(line.split(": ", 1) for line in info.splitlines()[-5:])
    cpu, cp = float(totals["cpu seconds"]), float(totals["critical path seconds"])

    runs = []
    for board in a.boards.split(","):
        for k in a.seed_trees.split(","):
            for policy in a.policies.split(","):
                for redirect in a.seed_redirects.split(","):
                    if redirect == "off" and k == "0":
                        continue  # no tree, nothing to redirect
                    for cap in [int(c) for c in a.retry_caps.split(",")]:
                        for seed in a.seeds.split(","):
                            tail = ("_roff" if redirect == "off" else "") + (f"_cap{cap}" if cap != OLD_RETRY_CAP else "")
                            path = os.path.join(a.out, f"{policy}_k{k}_{board}_s{seed}{tail}.json")
                            cmd = [a.sim, a.trace, "--platform", a.platform, "--policy", policy, "--board", board,
                                   "--seed-tree", k, "--seed", seed, "--seed-redirect", redirect,
                                   "--steal-retry-max-us", str(cap), "--out", path] + a.extra
                            runs.append(((policy, k, board, seed, redirect, cap), path, cmd))

    def simulate(cmd):
        print("+", " ".join(benchlib.shown(c) if os.path.exists(c) else c for c in cmd), flush=True)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)

    todo = [cmd for _, path, cmd in runs if not os.path.exists(path)]
    if todo and not a.no_run:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            list(pool.map(simulate, todo))
    rows = [(*key, json.load(open(path))) for key, path, _ in runs if os.path.exists(path)]

    first = rows[0][-1]
    workers = first["ranks"] * first["simulation"]["workers_per_rank"]
    lines = [f"Trace: {totals['tasks']} tasks, {cpu:.1f} CPU s, critical path {cp * 1e3:.2f} ms "
             f"(parallelism {cpu / cp:,.0f}); platform {a.platform}: {first['ranks']} ranks, {workers:,} workers; "
             f"a perfect split would take {cpu / workers * 1e3:.2f} ms.", "",
             "| policy | seed tree | redirect | board | back-off cap µs | seed | makespan ms | / critical path | idle % "
             "| ramp-up median / last ms | half busy from / until ms | steal requests | granted | seeds granted | herding "
             "| board messages | simulator s | peak MB |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for policy, k, board, seed, redirect, cap, j in rows:
        t, s = j["distributed"]["totals"], j["simulation"]
        busy, idle = t["busy_us"], t["idle_us"]
        lines.append(
            f"| {policy} | {k} | {redirect if k != '0' else '-'} | {board} | {cap} | {seed} | {j['seconds'] * 1e3:.2f} | "
            f"{j['seconds'] / cp:.2f} | "
            f"{100 * idle / (busy + idle):.1f} | {s['ramp_up_s']['median'] * 1e3:.2f} / {s['ramp_up_s']['last'] * 1e3:.2f} | "
            f"{half_busy(s)} | "
            f"{t['steal_requests']:,} | {t['steals_granted']:,} | {t['comm'].get('seeds_granted', 0):,.0f} | "
            f"{j['distributed']['herding']['share_to_most_chosen']:.3f} | {t['board_messages']:,} | "
            f"{s['simulator_wall_seconds']:.0f} | {s['simulator_max_rss_mb']:,.0f} |")
    by = {(p, k, b, sd, r, c): j["seconds"] for p, k, b, sd, r, c, j in rows}
    pairs, capped = {}, {}
    for (p, k, b, sd, r, c), t in by.items():
        if r == "on" and (p, k, b, sd, "off", c) in by:
            pairs.setdefault((p, k, b, c), []).append(t / by[(p, k, b, sd, "off", c)])
        if c != OLD_RETRY_CAP and (p, k, b, sd, r, OLD_RETRY_CAP) in by:
            capped.setdefault((p, k, b, r, c), []).append(t / by[(p, k, b, sd, r, OLD_RETRY_CAP)])
    if pairs:
        lines += ["", "Redirects on / off, paired by seed (makespan ratio; below 1: redirects faster):", "",
                  "| policy | seed tree | board | back-off cap µs | seeds | median | min | max |", "|---|---|---|---|---|---|---|---|"]
        for (p, k, b, c), rs in pairs.items():
            lines.append(f"| {p} | {k} | {b} | {c} | {len(rs)} | {statistics.median(rs):.3f} | {min(rs):.3f} | {max(rs):.3f} |")
    if capped:
        lines += ["", f"Back-off cap C / {OLD_RETRY_CAP} µs, paired by seed (makespan ratio; below 1: the cap C faster):", "",
                  "| policy | seed tree | board | redirect | C µs | seeds | median | min | max |", "|---|---|---|---|---|---|---|---|---|"]
        for (p, k, b, r, c), rs in capped.items():
            lines.append(f"| {p} | {k} | {b} | {r if k != '0' else '-'} | {c} | {len(rs)} | {statistics.median(rs):.3f} "
                         f"| {min(rs):.3f} | {max(rs):.3f} |")
    if plot_utilisation(rows, os.path.join(a.out, "utilisation.png")):
        lines += ["", "Busy share over time: [utilisation.png](utilisation.png)."]
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
