#!/usr/bin/env python3
"""Reads a Jackdaw --timeline file (Chrome trace-event JSON).

  timeline.py plot TIMELINE [-o PNG] [--bins N] [--title T]
      The utilisation picture: one lane per rank, its workers' busy fractions stacked over time
      (a full lane: every worker busy), granted steals marked on the thief (triangles) and
      refused ones (small ticks), better solutions as stars.
  timeline.py summary TIMELINE
      Per rank: search time, busy share, when its first task started, steals granted/refused,
      tasks given away; the same numbers the picture shows, as a table.
  timeline.py idle TIMELINE [--edge-ms W]
      Per worker: where its idle time lies, in the search's first W ms (ramp-up), its last W ms
      (the tail) or between; says whether a lost speedup is start, end or steady state.
  timeline.py steals TIMELINE
      Per thief rank: the idle gaps of its workers that a granted steal ended, and where each gap
      went: the worker idle until its comm thread sent the request, the request until the victim
      sent its answer, the answer until the thief took it in, the reply until the worker began
      the stolen work. Says whether steals cost their network, the victim, or the wake-ups. The
      two middle parts compare two ranks' clocks (their error: otherData's clock_error_us).

Needs matplotlib (Debian: python3-matplotlib) for plot; the others need nothing beyond Python.
"""
import argparse
import bisect
import collections
import json
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        sys.exit(f"timeline.py: {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        sys.exit(f"timeline.py: {path}: not JSON ({e.msg} at line {e.lineno})")
    if not isinstance(doc, dict) or "traceEvents" not in doc:
        sys.exit(f"timeline.py: {path}: not a trace-event JSON object with traceEvents")
    return doc


class Run:
    """The per-rank facts the commands need, from one timeline."""

    def __init__(self, doc):
        ev = doc["traceEvents"]
        self.other = doc.get("otherData", {})
        self.lanes = collections.defaultdict(dict)  # pid -> tid -> name
        for e in ev:
            if e.get("ph") == "M" and e.get("name") == "thread_name":
                self.lanes[e["pid"]][e["tid"]] = e["args"]["name"]
        self.ranks = sorted(self.lanes)
        self.workers = {p: sorted(t for t, n in self.lanes[p].items() if n.startswith("worker ")) for p in self.ranks}
        self.busy = collections.defaultdict(list)      # (pid, tid) -> [(start, end)] in us
        self.searches = collections.defaultdict(list)  # pid -> [(start, end)]
        self.steals = collections.defaultdict(list)    # thief pid -> [(end, granted, victim)]
        self.given = collections.Counter()             # victim pid -> tasks given
        self.granted = collections.defaultdict(list)   # thief pid -> [(start, end, id)] granted steals
        self.answered = {}                              # (thief pid, id) -> the victim's answer sent (ts)
        self.better = collections.defaultdict(list)    # pid -> [ts]
        for e in ev:
            ph, name, pid = e.get("ph"), e.get("name"), e.get("pid")
            if ph == "X" and name == "task":
                self.busy[(pid, e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
            elif ph == "X" and name == "search":
                self.searches[pid].append((e["ts"], e["ts"] + e["dur"]))
            elif ph == "X" and name.startswith("steal ("):
                self.steals[pid].append((e["ts"] + e["dur"], e["args"]["tasks"] > 0, e["args"]["victim"]))
                if e["args"]["tasks"] > 0:
                    self.granted[pid].append((e["ts"], e["ts"] + e["dur"], e["args"].get("id")))
            elif ph == "X" and name.startswith("answer (") and e["args"]["tasks"] > 0:
                self.given[pid] += e["args"]["tasks"]
                self.answered[(e["args"].get("thief"), e["args"].get("id"))] = e["ts"] + e["dur"]
            elif ph == "i" and name == "better solution":
                self.better[pid].append(e["ts"])
        ends = [b for s in self.searches.values() for _, b in s]
        self.end = max(ends) if ends else max((b for v in self.busy.values() for _, b in v), default=1.0)

    def busy_share(self, pid):
        wall = sum(b - a for a, b in self.searches[pid]) or self.end
        busy = sum(b - a for t in self.workers[pid] for a, b in self.busy[(pid, t)])
        return busy / (wall * max(1, len(self.workers[pid])))

    def first_task(self, pid):
        starts = [a for t in self.workers[pid] for a, _ in self.busy[(pid, t)]]
        return min(starts) if starts else None


def binned(spans, edges):
    """Busy fraction of each bin [edges[i], edges[i+1]) covered by the (disjoint) spans."""
    out = [0.0] * (len(edges) - 1)
    width = edges[1] - edges[0]
    for a, b in spans:
        i = max(0, int((a - edges[0]) / width))
        while i < len(out) and edges[i] < b:
            lo, hi = max(a, edges[i]), min(b, edges[i + 1])
            if hi > lo:
                out[i] += (hi - lo) / width
            i += 1
    return [min(1.0, x) for x in out]


def plot(args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run = Run(load(args.timeline))
    if not run.ranks:
        sys.exit(f"{args.timeline}: no ranks in this timeline")
    scale, unit = (1e6, "s") if run.end > 2e6 else (1e3, "ms")
    edges = [run.end * i / args.bins for i in range(args.bins + 1)]
    mids = [(edges[i] + edges[i + 1]) / 2 / scale for i in range(args.bins)]
    n = len(run.ranks)
    height = 1.1 + 1.0 * n  # inches: a lane per rank, a title band above, the time axis below
    fig, axes = plt.subplots(n, 1, figsize=(10, height), sharex=True, squeeze=False)
    fig.subplots_adjust(left=0.11, right=0.98, top=1 - 0.45 / height, bottom=0.6 / height, hspace=0.35)
    cmap = plt.get_cmap("Blues")
    for row, pid in enumerate(run.ranks):
        ax = axes[row][0]
        workers = run.workers[pid]
        w = max(1, len(workers))
        layers = [[x / w for x in binned(sorted(run.busy[(pid, t)]), edges)] for t in workers]
        if layers:
            ax.stackplot(mids, layers, colors=[cmap(0.45 + 0.4 * k / max(1, w - 1)) for k in range(w)],
                         step="mid", linewidth=0)
        for a, b in run.searches[pid]:
            ax.axvspan(a / scale, b / scale, color="0.93", zorder=-1, linewidth=0)
        granted = [t / scale for t, ok, _ in run.steals[pid] if ok]
        refused = [t / scale for t, ok, _ in run.steals[pid] if not ok]
        ax.plot(granted, [1.06] * len(granted), "v", color="tab:green", markersize=5, clip_on=False,
                label="steal granted" if row == 0 else None)
        ax.plot(refused, [1.06] * len(refused), "|", color="tab:red", markersize=5, alpha=0.5, clip_on=False,
                label="steal refused" if row == 0 else None)
        better = [t / scale for t in run.better[pid]]
        ax.plot(better, [0.5] * len(better), "*", color="tab:orange", markersize=7,
                label="better solution" if row == 0 and better else None)
        ax.set_ylim(0, 1.12)
        ax.set_yticks([0, 1])
        ax.set_yticklabels(["0", "1"])
        ax.set_ylabel(f"rank {pid}\n{100 * run.busy_share(pid):.0f}% busy", rotation=0, ha="right", va="center",
                      fontsize=8)
        ax.spines[["top", "right"]].set_visible(False)
    axes[-1][0].set_xlabel(f"time ({unit}) since rank 0 started")
    axes[-1][0].set_xlim(0, run.end / scale)
    handles, labels = axes[0][0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="upper right", bbox_to_anchor=(0.99, 1.0), ncol=3, fontsize=8, frameon=False)
    workers = max((len(v) for v in run.workers.values()), default=1)
    title = args.title or (f"{run.other.get('app', 'jackdaw')}: {n} rank(s) x {workers} worker(s), "
                           "busy fraction of each rank's workers (stacked)")
    fig.suptitle(title, fontsize=10, x=0.02, ha="left")
    out = args.output or args.timeline.rsplit(".", 1)[0] + ".png"
    fig.savefig(out, dpi=120)
    print(out)


def summary(args):
    run = Run(load(args.timeline))
    print("| rank | search time (ms) | busy | first task at (ms) | steals granted | refused | tasks given |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for pid in run.ranks:
        wall = sum(b - a for a, b in run.searches[pid])
        first = run.first_task(pid)
        granted = sum(1 for _, ok, _ in run.steals[pid] if ok)
        print(f"| {pid} | {wall / 1e3:.1f} | {100 * run.busy_share(pid):.1f}% | "
              f"{'-' if first is None else f'{first / 1e3:.2f}'} | {granted} | {len(run.steals[pid]) - granted} | "
              f"{run.given[pid]} |")
    dropped = sum(r.get("dropped", 0) for r in run.other.get("per_rank", []))
    if dropped:
        print(f"\nNote: {dropped} events were dropped at --timeline-cap; the numbers cover each rank's complete part only.")


def idle_spans(busy, lo, hi):
    """The parts of [lo, hi) that the sorted, disjoint busy spans leave uncovered."""
    out, at = [], lo
    for a, b in busy:
        if b <= at or a >= hi:
            continue
        if a > at:
            out.append((at, a))
        at = max(at, b)
    if at < hi:
        out.append((at, hi))
    return out


def overlap(spans, lo, hi):
    return sum(max(0.0, min(b, hi) - max(a, lo)) for a, b in spans)


def idle(args):
    run = Run(load(args.timeline))
    w = args.edge_ms * 1e3
    print(f"| rank | worker | idle (ms) | idle share | first {args.edge_ms:g} ms | last {args.edge_ms:g} ms | between |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for pid in run.ranks:
        for tid in run.workers[pid]:
            busy = sorted(run.busy[(pid, tid)])
            total = first = last = wall = 0.0
            for lo, hi in run.searches[pid]:
                gaps = idle_spans(busy, lo, hi)
                wall += hi - lo
                total += overlap(gaps, lo, hi)
                first += overlap(gaps, lo, min(hi, lo + w))
                last += overlap(gaps, max(lo + w, hi - w), hi)  # a search shorter than 2W: no double count
            share = total / wall if wall else 0.0
            print(f"| {pid} | {run.lanes[pid][tid].split()[-1]} | {total / 1e3:.2f} | {100 * share:.1f}% | "
                  f"{first / 1e3:.2f} | {last / 1e3:.2f} | {(total - first - last) / 1e3:.2f} |")


def steals(args):
    run = Run(load(args.timeline))
    print("Each part: median µs (total ms).\n")
    print("| thief rank | gaps a steal ended | their idle (ms) | of the rank's idle | idle → request sent |"
          " request → answer sent | answer → reply taken | reply → work begins |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for pid in run.ranks:
        gaps = []  # (start, end): a worker's idle between two tasks, or before the first, inside a search
        for tid in run.workers[pid]:
            busy = sorted(run.busy[(pid, tid)])
            for lo, hi in run.searches[pid]:
                gaps += idle_spans(busy, lo, hi)
        idle_total = sum(b - a for a, b in gaps)
        grants = sorted(run.granted[pid])
        starts = [g[0] for g in grants]
        used = set()
        parts = [[], [], [], []]
        ended = 0.0
        for a, b in sorted(gaps):
            # The first granted steal sent in the gap whose reply came before the gap ended (the
            # worker's next task began): that steal ended it. One steal ends at most one gap.
            for i in range(bisect.bisect_left(starts, a), len(grants)):
                s0, s1, sid = grants[i]
                if s0 >= b:
                    break
                if i in used or s1 > b:
                    continue
                used.add(i)
                ans = run.answered.get((pid, sid))
                ans = min(max(ans, s0), s1) if ans is not None else s1
                for k, x in enumerate((s0 - a, ans - s0, s1 - ans, b - s1)):
                    parts[k].append(x)
                ended += b - a
                break
        n = len(parts[0])
        share = f"{100 * ended / idle_total:.1f}%" if idle_total else "-"
        cells = " | ".join(f"{statistics.median(p):.1f} ({sum(p) / 1e3:.2f})" for p in parts) if n else "- | - | - | -"
        print(f"| {pid} | {n} | {ended / 1e3:.2f} | {share} | {cells} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    pp = sub.add_parser("plot", help="the utilisation picture (PNG)")
    pp.add_argument("timeline")
    pp.add_argument("-o", "--output", help="PNG to write (default: TIMELINE with .png)")
    pp.add_argument("--bins", type=int, default=300, help="time bins across the run")
    pp.add_argument("--title")
    ps = sub.add_parser("summary", help="per-rank numbers as a Markdown table")
    ps.add_argument("timeline")
    pi = sub.add_parser("idle", help="where each worker's idle time lies: start, end or between")
    pi.add_argument("timeline")
    pi.add_argument("--edge-ms", type=float, default=20.0, help="length of the start and end windows (ms)")
    pt = sub.add_parser("steals", help="where the idle gaps that granted steals ended went, per thief rank")
    pt.add_argument("timeline")
    args = p.parse_args()
    if args.command == "plot":
        if args.bins < 1:
            sys.exit("--bins must be at least 1")
        plot(args)
    elif args.command == "idle":
        if args.edge_ms <= 0:
            sys.exit("--edge-ms must be positive")
        idle(args)
    elif args.command == "steals":
        steals(args)
    else:
        summary(args)


if __name__ == "__main__":
    main()
