#!/usr/bin/env python3
"""Tables from a results folder of run.sh (beside this file): per run, the search time each
program reports (Jackdaw's `time:`, the UTS reference's `Wallclock time =`), the clock time of the
whole command (start-up and mpirun's launch included) and the node count; per search, the speed-up
over its `seq` run; where stats/NAME.json exists, the share of worker time spent busy, the nodes
per busy worker-second and the largest task's share of the nodes.

    bench/machine16/report.py RESULTS_DIR [--known NAME=NODES ...]

Prints markdown. A run whose exit status is not 0, or whose node count differs from its search's
`seq` run, the reference or a --known count, is flagged (and the script exits 1).
"""
import argparse
import json
import os
import re
import statistics
import sys

J_TIME = re.compile(r"^time: ([0-9.eE+-]+) s$", re.M)
J_NODES = re.compile(r"^nodes: (\d+)$", re.M)
R_TIME = re.compile(r"Wallclock time = ([0-9.eE+-]+) sec")
R_NODES = re.compile(r"Tree size = (\d+)")


def parse(folder):
    runs = []
    with open(os.path.join(folder, "runs.tsv")) as f:
        for line in f:
            name, clock, rc = line.rstrip("\n").split("\t")
            try:
                text = open(os.path.join(folder, "logs", name + ".txt"), errors="replace").read()
            except OSError:  # NAME.allcore16: its sixteen logs are NAME.allcore.cN
                text = ""
            t = J_TIME.search(text) or R_TIME.search(text)
            n = J_NODES.search(text) or R_NODES.search(text)
            runs.append({"name": name, "clock": float(clock), "rc": int(rc),
                         "time": float(t.group(1)) if t else None, "nodes": int(n.group(1)) if n else None})
    return runs


def load(folder, name):
    """(busy share, M nodes per busy worker-second, largest task share) from a --stats file."""
    try:
        d = json.load(open(os.path.join(folder, "stats", name + ".json")))
    except (OSError, ValueError):
        return None
    tot = d.get("distributed", {}).get("totals")
    if tot:
        busy, idle = tot["busy_us"], tot["idle_us"]
    else:
        busy = sum(w["busy_us"] for w in d["workers"])
        idle = sum(w["idle_us"] for w in d["workers"])
    nodes = d["stats"]["nodes"]
    return busy / (busy + idle), nodes / busy, d.get("grain", {}).get("largest_task_share")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--known", action="append", default=[], help="SEARCH=NODES, e.g. T1L=102181082")
    a = ap.parse_args()
    known = {k: int(v) for k, v in (x.split("=", 1) for x in a.known)}
    runs = parse(a.folder)
    bad = []
    by_search = {}
    for r in runs:
        search = r["name"].split(".")[0]
        by_search.setdefault(search, []).append(r)
    print("| run | search time s (reported) | clock s | speed-up over seq (reported) | nodes | busy % | M nodes / busy worker-s | largest task |")
    print("|---|---|---|---|---|---|---|---|")
    for search, rs in by_search.items():
        seq = next((r for r in rs if r["name"] == search + ".seq"), None)
        want = known.get(search, seq["nodes"] if seq else None)
        for r in rs:
            flag = ""
            if r["rc"] != 0:
                flag = f" **exit {r['rc']}**"
            elif want is not None and r["nodes"] is not None and r["nodes"] != want:
                flag = f" **nodes differ from {want}**"
            if flag:
                bad.append(r["name"])
            sp = f"{seq['time'] / r['time']:.2f}" if seq and seq["time"] and r["time"] else ""
            t = f"{r['time']:.3f}" if r["time"] is not None else "-"
            n = f"{r['nodes']:,}" if r["nodes"] is not None else "-"
            st = load(a.folder, r["name"])
            extra = " | |"
            if st:
                share = f"{100 * st[2]:.1f} %" if st[2] is not None else ""
                extra = f" {100 * st[0]:.1f} | {st[1]:.2f} | {share}"
            print(f"| {r['name']} | {t} | {r['clock']:.3f} | {sp} | {n}{flag} |{extra} |")
    groups = {}
    for r in runs:
        key = re.sub(r"\.r\d+$", "", r["name"])
        if key != r["name"] and r["time"] is not None:
            groups.setdefault(key, []).append(r["time"])
    if groups:
        print("\n| repeated run | n | median s | min–max s |")
        print("|---|---|---|---|")
        for k, ts in groups.items():
            print(f"| {k} | {len(ts)} | {statistics.median(ts):.3f} | {min(ts):.3f}–{max(ts):.3f} |")
    allcore = {}
    for f in sorted(os.listdir(os.path.join(a.folder, "logs"))):
        m = re.match(r"(.+)\.allcore\.c\d+\.txt$", f)
        if m:
            t = J_TIME.search(open(os.path.join(a.folder, "logs", f), errors="replace").read())
            allcore.setdefault(m.group(1), []).append(float(t.group(1)) if t else None)
    if allcore:
        print("\n| seq, 16 at once (one per core) | runs with a time | median s | min–max s | alone s | alone / median |")
        print("|---|---|---|---|---|---|")
        for k, ts in allcore.items():
            ok = [t for t in ts if t is not None]
            alone = next((r["time"] for r in runs if r["name"] == k + ".alone"), None)
            if len(ok) != len(ts):
                bad.append(k + ".allcore")
            if ok:
                med = statistics.median(ok)
                ratio = f"{alone / med:.3f}" if alone else ""
                print(f"| {k} | {len(ok)} of {len(ts)} | {med:.3f} | {min(ok):.3f}–{max(ok):.3f} | {alone or ''} | {ratio} |")
    if bad:
        print("\nflagged: " + ", ".join(bad), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
