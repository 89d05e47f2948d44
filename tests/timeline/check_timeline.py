#!/usr/bin/env python3
"""Checks a --timeline file against the trace-event format and against the run's --stats.

  check_timeline.py TIMELINE STATS [--ranks N] [--workers W] [--expect-steals] [--expect-checkpoint]
  check_timeline.py TIMELINE STATS --truncated     a run past --timeline-cap: the file says so

--truncated checks the format, that events were dropped, that each such rank says until when its
part is complete, that no idle span goes past that time, and that tasks still never overlap.

Format (the Chrome trace-event "JSON object" form): a top-level object with a traceEvents list;
every event has a string name and ph, integer pid; by phase: X needs ts and dur >= 0, i needs ts
and a scope s in t/p/g, s/f need an id, M names a process or thread (args.name or sort_index).

Invariants of the run:
  - per worker, busy + idle spans add up to the run's search time on that rank (1 % + 50 us);
  - busy spans on one worker never overlap, and lie within a search; on every lane, spans are
    disjoint or nested (what a viewer needs to stack them);
  - every steal a thief records has exactly one answer on its victim, same id, same task count,
    and the request reached the victim within the thief's round trip (give or take the ranks'
    clock_error_us: 0 on rank 0's kernel clock);
  - every flow start has one end; task counts (for a one-search run) and granted steals equal
    those in --stats.
Exits 1 with every failed check listed.
"""
import argparse
import collections
import json
import sys

PHASES = {"X", "i", "M", "s", "f"}
ROUND = 0.002  # us: ts and dur are printed with three decimals


def fail(errors, msg):
    errors.append(msg)


def check_format(doc, errors):
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail(errors, "top level: an object with a traceEvents list is required")
        return []
    events = doc["traceEvents"]
    for n, e in enumerate(events):
        where = f"event {n} ({e.get('name')!r})"
        if not isinstance(e.get("name"), str) or not isinstance(e.get("ph"), str):
            fail(errors, f"{where}: name and ph must be strings")
            continue
        ph = e["ph"]
        if ph not in PHASES:
            fail(errors, f"{where}: unexpected phase {ph!r}")
        if not isinstance(e.get("pid"), int):
            fail(errors, f"{where}: pid must be an integer")
        if ph != "M" and not isinstance(e.get("tid"), int):
            fail(errors, f"{where}: tid must be an integer")
        if ph in ("X", "i", "s", "f") and not isinstance(e.get("ts"), (int, float)):
            fail(errors, f"{where}: ts must be a number")
        if ph == "X" and not (isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0):
            fail(errors, f"{where}: a complete event needs dur >= 0")
        if ph == "i" and e.get("s") not in ("t", "p", "g"):
            fail(errors, f"{where}: an instant event needs scope s in t/p/g")
        if ph in ("s", "f") and "id" not in e:
            fail(errors, f"{where}: a flow event needs an id")
        if ph == "M" and not ("name" in e.get("args", {}) or "sort_index" in e.get("args", {})):
            fail(errors, f"{where}: metadata needs args.name or args.sort_index")
    return events


def check_nesting(events, errors):
    """Trace viewers stack a thread's slices: on one lane two spans are disjoint or one holds the other."""
    by_lane = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            by_lane[(e["pid"], e["tid"])].append((e["ts"], -e["dur"], e["name"]))
    for (pid, tid), spans in sorted(by_lane.items()):
        stack = []
        for ts, negdur, name in sorted(spans):
            end = ts - negdur
            while stack and ts >= stack[-1][0] - ROUND:
                stack.pop()
            if stack and end > stack[-1][0] + ROUND:
                fail(errors, f"rank {pid} lane {tid}: {name!r} at {ts:.3f} crosses the end of {stack[-1][1]!r} "
                             f"({stack[-1][0]:.3f})")
                break
            stack.append((end, name))


def lanes(events):
    """pid -> {tid: lane name} from thread_name metadata."""
    out = collections.defaultdict(dict)
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            out[e["pid"]][e["tid"]] = e["args"]["name"]
    return out


def check_run(events, stats, args, errors, complete_until, clock_error):
    names = lanes(events)
    ranks = sorted(names)
    if args.ranks is not None and len(ranks) != args.ranks:
        fail(errors, f"expected {args.ranks} ranks, found {len(ranks)}")
    per_rank_stats = {r["rank"]: r for r in stats["distributed"]["per_rank"]} if "distributed" in stats else {
        0: {"workers": stats.get("workers", []), "steals_granted": 0, "comm": {"requests_granted": 0}}}
    for pid in ranks:
        workers = {tid: n for tid, n in names[pid].items() if n.startswith("worker ")}
        if args.workers is not None and len(workers) != args.workers:
            fail(errors, f"rank {pid}: expected {args.workers} worker lanes, found {len(workers)}")
        searches = [(e["ts"], e["ts"] + e["dur"]) for e in events
                    if e["pid"] == pid and e["ph"] == "X" and e["name"] == "search"]
        if not searches:
            fail(errors, f"rank {pid}: no search span")
            continue
        wall = sum(b - a for a, b in searches)
        wstats = {w["worker"]: w for w in per_rank_stats.get(pid, {}).get("workers", [])}
        for tid in sorted(workers):
            busy = sorted((e["ts"], e["ts"] + e["dur"]) for e in events
                          if e["pid"] == pid and e.get("tid") == tid and e["ph"] == "X" and e["name"] == "task")
            idles = [e for e in events if e["pid"] == pid and e.get("tid") == tid and e["ph"] == "X" and e["name"] == "idle"]
            idle = sum(e["dur"] for e in idles)
            total = sum(b - a for a, b in busy) + idle
            if args.truncated:
                until = complete_until.get(pid)
                if until is not None and any(e["ts"] + e["dur"] > until + ROUND for e in idles):
                    fail(errors, f"rank {pid} worker {tid}: an idle span goes past the part's end, {until} us")
            elif abs(total - wall) > 0.01 * wall + 50:
                fail(errors, f"rank {pid} worker {tid}: busy + idle = {total:.1f} us, search time {wall:.1f} us")
            for (a0, b0), (a1, _) in zip(busy, busy[1:]):
                if a1 < b0 - ROUND:
                    fail(errors, f"rank {pid} worker {tid}: tasks overlap ({a0:.3f}-{b0:.3f} and one from {a1:.3f})")
                    break
            for a, b in busy:
                if not any(s - ROUND <= a and b <= f + ROUND for s, f in searches):
                    fail(errors, f"rank {pid} worker {tid}: a task ({a:.3f}-{b:.3f}) outside every search")
                    break
            if args.truncated:
                continue
            if len(searches) == 1 and tid in wstats and "tasks" in wstats[tid] and \
                    stats.get("options", {}).get("skeleton") != "seq":
                if len(busy) != wstats[tid]["tasks"]:
                    fail(errors, f"rank {pid} worker {tid}: {len(busy)} task spans, --stats says {wstats[tid]['tasks']} tasks")

    if args.expect_checkpoint and not any(e["ph"] == "X" and e["name"] == "checkpoint written" for e in events):
        fail(errors, "no checkpoint span in a run that wrote checkpoints")
    if args.truncated:
        return
    # Steals: (thief, id) names a request on both sides.
    steals = {(e["pid"], e["args"]["id"]): e for e in events if e["ph"] == "X" and e["name"].startswith("steal (")}
    answers = {(e["args"]["thief"], e["args"]["id"]): e for e in events if e["ph"] == "X" and e["name"].startswith("answer (")}
    for key, s in steals.items():
        a = answers.get(key)
        if a is None:
            fail(errors, f"steal {key}: no answer recorded on victim {s['args']['victim']}")
            continue
        if a["pid"] != s["args"]["victim"] or a["args"]["tasks"] != s["args"]["tasks"]:
            fail(errors, f"steal {key}: thief says victim {s['args']['victim']} gave {s['args']['tasks']}, "
                         f"answer on rank {a['pid']} says {a['args']['tasks']}")
        # The request arrives after the thief sent it and before the thief has the reply (the
        # answer's end is read after its send returns: no bound). Zeros differ by at most the
        # ranks' clock errors (0 on one kernel's clock), plus the microsecond rounding.
        skew = clock_error.get(s["pid"], 1000.0) + clock_error.get(a["pid"], 1000.0) + ROUND
        if a["ts"] < s["ts"] - skew or a["ts"] > s["ts"] + s["dur"] + skew:
            fail(errors, f"steal {key}: answered at {a['ts']:.1f} us, outside the thief's round trip "
                         f"{s['ts']:.1f}-{s['ts'] + s['dur']:.1f} us")
    for key in answers.keys() - steals.keys():
        fail(errors, f"answer {key}: no steal recorded on thief {key[0]}")
    granted = collections.Counter(pid for (pid, _), s in steals.items() if s["args"]["tasks"] > 0)
    answered = collections.Counter(a["pid"] for a in answers.values() if a["args"]["tasks"] > 0)
    one_search = {pid for pid in names if sum(1 for e in events if e["pid"] == pid and e["name"] == "search") == 1}
    for pid, rs in per_rank_stats.items():
        if pid not in one_search:  # --stats counts the last search only
            continue
        if granted.get(pid, 0) != rs.get("steals_granted", 0):
            fail(errors, f"rank {pid}: {granted.get(pid, 0)} granted steals, --stats says {rs.get('steals_granted')}")
        if answered.get(pid, 0) != rs.get("comm", {}).get("requests_granted", 0):
            fail(errors, f"rank {pid}: {answered.get(pid, 0)} granted answers, --stats says "
                         f"{rs.get('comm', {}).get('requests_granted')}")
    if args.expect_steals and not granted:
        fail(errors, "no granted steal in a multi-rank run")
    starts = collections.Counter(e["id"] for e in events if e["ph"] == "s")
    ends = collections.Counter(e["id"] for e in events if e["ph"] == "f")
    if starts != ends or any(v != 1 for v in starts.values()):
        fail(errors, f"flow arrows: {len(starts)} starts and {len(ends)} ends do not pair up one to one")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("timeline")
    p.add_argument("stats")
    p.add_argument("--ranks", type=int)
    p.add_argument("--workers", type=int)
    p.add_argument("--expect-steals", action="store_true")
    p.add_argument("--expect-checkpoint", action="store_true")
    p.add_argument("--truncated", action="store_true")
    # The ranks found rank 0's clock by ping-pong (JACKDAW_TEST_CLOCK_PINGPONG): each but rank 0
    # must say a clock error above 0.
    p.add_argument("--clock-pingpong", action="store_true")
    args = p.parse_args()
    errors = []
    with open(args.timeline) as f:
        doc = json.load(f)
    with open(args.stats) as f:
        stats = json.load(f)
    events = check_format(doc, errors)
    if not errors:
        check_nesting(events, errors)
    per_rank = doc.get("otherData", {}).get("per_rank", [])
    complete_until = {r["rank"]: r["complete_until_us"] for r in per_rank if r.get("dropped")}
    if not errors:
        clock_error = {r["rank"]: r["clock_error_us"] for r in per_rank if "clock_error_us" in r}
        check_run(events, stats, args, errors, complete_until, clock_error)
    if args.clock_pingpong:
        for r in per_rank:
            if (r["rank"] > 0) != (r.get("clock_error_us", 0) > 0):
                errors.append(f"rank {r['rank']}: clock_error_us {r.get('clock_error_us')} (ping-pong: > 0 but on rank 0)")
    dropped = sum(r["dropped"] for r in per_rank)
    if args.truncated:
        if not dropped:
            errors.append("--truncated: the file says no event was dropped")
        for r in per_rank:
            if r.get("dropped") and "complete_until_us" not in r:
                errors.append(f"rank {r['rank']} dropped events but does not say until when its part is complete")
    elif dropped:
        errors.append(f"{dropped} events dropped: the checks need a whole timeline (raise --timeline-cap)")
    for e in errors:
        print("FAIL:", e)
    n = sum(1 for e in events if e.get("ph") == "X" and e["name"] == "task")
    print(f"{len(events)} events, {n} task spans, {len(errors)} failed checks")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
