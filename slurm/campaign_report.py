"""campaign.py report: the runs read back, summarised (medians, paired speedups), written as
table.md, table.csv and one self-contained report.html with the plots."""
import csv
import json
import math
import os
import shlex
import statistics
import sys
from collections import defaultdict

from campaign_args import bad
from campaign_plots import app_name, mode_order, plot, policy_order


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
