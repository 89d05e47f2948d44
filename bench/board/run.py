#!/usr/bin/python3
"""The load board's schemes measured (issue 14): publish and fetch cost, staleness, and the steal
round trip with and without the doorbell. Writes bench/results/board_schemes.md; raw rows in OUT.

  bench/board/run.py [--build build] [--rounds 3] [--ranks 2,4,8,16] [--out results/board-<stamp>]
  bench/board/run.py --from results/board-<stamp>     no runs: the tables again from the saved rows

Three parts, each alternating its variants within every round (A B A B ...):
  costs      comm_bench at each rank count: publish per scheme, fetch of k records at the owners
  staleness  NS (genus --genus, budget) under performance and proportional, --board all vs sample,
             at each rank count: what the thief's board said when it asked (record age, share of
             promised requests refused), the board's own cost, run time
  doorbell   2 and 4 ranks, NS and MaxClique (DSJC500_5), random policy, --doorbell false vs
             true: the steal round-trip distribution
"""
import argparse, json, os, statistics, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)

MPI = ["mpirun", "--oversubscribe", "--allow-run-as-root"]


def sh(cmd, timeout=600):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr[-2000:]}")
    return r.stdout


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def rng(xs):
    return f"{min(xs):.3g}–{max(xs):.3g}" if xs else "—"


def costs(a, out):
    rows = []
    for rnd in range(a.rounds):
        for k in a.ranks:
            text = sh(MPI + ["-n", str(k), f"{a.build}/bench/comm/comm_bench"], timeout=300)
            for line in text.splitlines():
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if len(cells) >= 3 and "[board" in cells[0]:
                    rows.append({"round": rnd, "ranks": k, "what": cells[0], "us": float(cells[1])})
    json.dump(rows, open(f"{out}/costs.json", "w"), indent=1)
    return rows


def mean_round_trip(doc):
    """Every steal's round trip averaged over the run (each rank's mean weighted by its steals), µs."""
    n = total = 0
    for p in doc["distributed"]["per_rank"]:
        c = p["comm"]
        k = c["steals_granted"] + c["steals_refused"]
        n += k
        total += c["steal_round_trip_us_mean"] * k
    return total / n if n else float("nan")


def app_run(a, out, tag, ranks, args):
    stats = f"{out}/{tag}.json"
    t0 = time.time()
    sh(MPI + ["-n", str(ranks)] + args + ["--threads", "1", "--stats", stats], timeout=900)
    j = json.load(open(stats))
    d = j["distributed"]
    if not j.get("complete"):
        sys.exit(f"{tag}: the search did not complete")
    return {"tag": tag, "ranks": ranks, "wall": time.time() - t0, "seconds": j["seconds"],
            "nodes": d["totals"]["nodes"], "steals": d["totals"]["steal_requests"],
            "failed": d["totals"]["steals_failed"], "board": d["board"], "rtt_mean": mean_round_trip(j)}


def staleness(a, out):
    rows = []
    ns = [f"{a.build}/apps/ns/ns", "-g", str(a.genus), "--skeleton", "budget", "-b", "100000"]
    for rnd in range(a.rounds):
        for k in a.ranks:
            for policy in ["performance", "proportional"]:
                order = ["all", "sample"] if rnd % 2 == 0 else ["sample", "all"]
                for scheme in order:
                    r = app_run(a, out, f"stale-r{rnd}-k{k}-{policy}-{scheme}", k,
                                ns + ["--policy", policy, "--board", scheme, "--seed", str(rnd + 1)])
                    r.update(round=rnd, policy=policy, scheme=scheme)
                    rows.append(r)
    # An enumeration visits the same tree whatever the layout: one node count, or a run went wrong.
    if len({r["nodes"] for r in rows}) > 1:
        sys.exit(f"NS node counts differ between runs: {sorted({r['nodes'] for r in rows})}")
    json.dump(rows, open(f"{out}/staleness.json", "w"), indent=1)
    return rows


def doorbell(a, out):
    rows = []
    apps = {"ns": [f"{a.build}/apps/ns/ns", "-g", str(a.genus), "--skeleton", "budget", "-b", "100000"],
            "maxclique": [f"{a.build}/apps/maxclique/maxclique", "instances/dimacs/DSJC500_5.clq",
                          "--skeleton", "depth_bounded", "-d", "2"]}
    for rnd in range(a.bell_rounds):
        for k in [2, 4]:
            for app, args in apps.items():
                order = ["false", "true"] if rnd % 2 == 0 else ["true", "false"]
                for bell in order:
                    r = app_run(a, out, f"bell-r{rnd}-k{k}-{app}-{bell}", k,
                                args + ["--policy", "random", "--doorbell", bell, "--seed", str(rnd + 1)])
                    r.update(round=rnd, app=app, doorbell=bell)
                    rows.append(r)
    json.dump(rows, open(f"{out}/doorbell.json", "w"), indent=1)
    return rows


def log2_quantile(cells, q):
    total = sum(cells)
    if not total:
        return float("nan")
    seen = 0
    for b, c in enumerate(cells):
        seen += c
        if seen >= q * total:
            return 2.0 ** (b + 1)
    return 2.0 ** len(cells)


def report(a, out, cost_rows, stale_rows, bell_rows):
    L = []
    L.append("# Load board schemes: publish cost, staleness, and the doorbell")
    L.append("")
    L.append(f"- command: `bench/board/run.py --build {a.build} --rounds {a.rounds} --ranks "
             f"{','.join(map(str, a.ranks))} --genus {a.genus} --bell-rounds {a.bell_rounds}` (raw rows in `{out}`"
             f"{'; tables re-made from them with --from' if a.source else ''})")
    L.append(f"- machine: {benchlib.cpu_model()}, "
             f"{os.cpu_count()} cores; {sh(['mpirun', '--version']).splitlines()[0]}")
    L.append(f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(a.ended))} (last run ended); commit {a.commit}")
    L.append("- every rank count above 2 is oversubscribed (2 cores): figures include scheduling delays")
    L.append("")
    if cost_rows:
        L.append("## Cost per operation (comm_bench; median over rounds, range)")
        L.append("")
        whats = sorted({r["what"] for r in cost_rows}, key=lambda w: (("sample" in w), w))
        L.append("| operation | " + " | ".join(f"{k} ranks, µs" for k in a.ranks) + " |")
        L.append("|---|" + "---|" * len(a.ranks))
        for w in whats:
            cells = []
            for k in a.ranks:
                xs = [r["us"] for r in cost_rows if r["what"] == w and r["ranks"] == k]
                cells.append(f"{med(xs):.3g} ({rng(xs)})" if xs else "—")
            L.append(f"| {w.replace('|', '/')} | " + " | ".join(cells) + " |")
        L.append("")
    if stale_rows:
        L.append(f"## Staleness and cost in a search (NS genus {a.genus}, budget 100000, 1 worker per rank)")
        L.append("")
        L.append("Per rank count, policy and scheme: medians over rounds. *age* = how old the victim's record "
                 "was (its publish time → the request) in the thief's board when it asked, median of the "
                 "log2 cells; *promised refused* = of the requests sent on a record that showed stealable "
                 "work, the share refused; *board µs/s* = time in publish + fetch per rank per second of run.")
        L.append("")
        L.append("| ranks | policy | board | run s | steal requests | failed % | promised refused % | age median ≤ µs "
                 "| publishes | publish µs | fetches | fetch µs | board µs/s per rank |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for k in a.ranks:
            for policy in ["performance", "proportional"]:
                for scheme in ["all", "sample"]:
                    rs = [r for r in stale_rows if r["ranks"] == k and r["policy"] == policy and r["scheme"] == scheme]
                    if not rs:
                        continue
                    b = [r["board"] for r in rs]
                    secs = [r["seconds"] for r in rs]
                    cost = [(x["publishes"] * x["publish_us_mean"] + x["fetches"] * x["fetch_us_mean"]) / max(1e-9, s) / k
                            for x, s in zip(b, secs)]
                    L.append(f"| {k} | {policy} | {scheme} | {med(secs):.3f} | {med([r['steals'] for r in rs]):.0f} | "
                             f"{med([100 * r['failed'] / max(1, r['steals']) for r in rs]):.1f} | "
                             f"{med([100 * x['promised_refused_share'] for x in b]):.1f} | "
                             f"{med([x['record_age_us_median_below'] for x in b]):.0f} | "
                             f"{med([x['publishes'] for x in b]):.0f} | {med([x['publish_us_mean'] for x in b]):.3g} | "
                             f"{med([x['fetches'] for x in b]):.0f} | {med([x['fetch_us_mean'] for x in b]):.3g} | "
                             f"{med(cost):.0f} |")
        L.append("")
    if bell_rows:
        L.append("## Steal round trip without and with the doorbell (random policy, 1 worker per rank)")
        L.append("")
        L.append("Round trips pooled over the runs of each variant (log2 cells: the figure is the cell's upper "
                 "edge); each run's mean round trip, median and range over the runs; run time median and range.")
        L.append("")
        L.append("| app | ranks | doorbell | round trips | median ≤ µs | p90 ≤ µs | mean per run, µs: median | range "
                 "| run s (median) | range | steal requests |")
        L.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for app in ["ns", "maxclique"]:
          for k in [2, 4]:
            for bell in ["false", "true"]:
                rs = [r for r in bell_rows if r["app"] == app and r["doorbell"] == bell and r["ranks"] == k]
                if not rs:
                    continue
                cells = [sum(x) for x in zip(*[r["board"]["round_trip_us_log2"] for r in rs])]
                secs = [r["seconds"] for r in rs]
                means = [r["rtt_mean"] for r in rs]
                L.append(f"| {app} | {k} | {'on' if bell == 'true' else 'off'} | {sum(cells)} | {log2_quantile(cells, 0.5):.0f} | "
                         f"{log2_quantile(cells, 0.9):.0f} | {med(means):.0f} | {min(means):.0f}–{max(means):.0f} | "
                         f"{med(secs):.3f} | {rng(secs)} | "
                         f"{med([r['steals'] for r in rs]):.0f} |")
        L.append("")
    return "\n".join(L) + "\n"


def saved(folder, name):
    path = f"{folder}/{name}.json"
    return json.load(open(path)) if os.path.exists(path) else []


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--bell-rounds", type=int, default=6)
    p.add_argument("--ranks", default="2,4,8,16")
    p.add_argument("--genus", type=int, default=36)
    p.add_argument("--parts", default="costs,staleness,doorbell")
    p.add_argument("--out", default=f"results/board-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")
    p.add_argument("--results", default="bench/results/board_schemes.md")
    p.add_argument("--from", dest="source", help="a previous OUT folder: re-make the tables, run nothing")
    a = p.parse_args()
    a.ranks = [int(x) for x in a.ranks.split(",")]
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    if a.source:
        c, s, d = (saved(a.source, name) for name in ("costs", "staleness", "doorbell"))
        for r in d:  # rows saved before the per-run mean was recorded
            r.setdefault("rtt_mean", mean_round_trip(json.load(open(f"{a.source}/{r['tag']}.json"))))
        a.out = a.source
        a.commit = open(f"{a.source}/commit.txt").read().strip() if os.path.exists(f"{a.source}/commit.txt") else "unknown"
    else:
        a.commit = sh(["git", "rev-parse", "--short", "HEAD"]).strip()
        if subprocess.run(["git", "diff", "--quiet", "HEAD", "--", ".", ":!bench/results"]).returncode:
            a.commit += " plus uncommitted changes"
        os.makedirs(a.out, exist_ok=True)
        open(f"{a.out}/commit.txt", "w").write(a.commit + "\n")
        parts = a.parts.split(",")
        c = costs(a, a.out) if "costs" in parts else []
        s = staleness(a, a.out) if "staleness" in parts else []
        d = doorbell(a, a.out) if "doorbell" in parts else []
    a.ended = max((os.path.getmtime(f"{a.out}/{n}.json") for n in ("costs", "staleness", "doorbell")
                   if os.path.exists(f"{a.out}/{n}.json")), default=time.time())
    text = report(a, a.out, c, s, d)
    open(a.results, "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
