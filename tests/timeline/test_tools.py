#!/usr/bin/env python3
"""tools/timeline.py on a made-up timeline whose numbers are known by construction.

Two ranks; rank 0 has 2 workers, rank 1 one; each search lasts 1000 us. Rank 0's workers are busy
600 + 400 us (50 %), rank 1's worker 250 us (25 %) starting at 100 us. Rank 1 stole twice from
rank 0 (one granted with 3 tasks, one refused). summary must print exactly these numbers, and plot
must write a PNG. idle with 100 us windows: rank 0's worker 0 idles 600-1000 (0 in the first
window, 100 in the last, 300 between), worker 1 0-200, 500-600 and 700-1000 (100, 100, 400), rank 1's
worker 0-100 and 350-1000 (100, 100, 550). steals: rank 1's first gap (0-100) ended with the granted
steal, sent at 50 µs, answered by rank 0 at 65, taken in at 90, its work begun at 100: 50, 15, 25 and 10 µs,
one gap of rank 1's 750 µs of idle (13.3 %); the refused steal ends no gap, and rank 0 stole nothing.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "timeline.py")


def meta(pid, tid, name):
    return {"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": name}}


def span(name, pid, tid, ts, dur, **args):
    return {"name": name, "cat": "x", "ph": "X", "pid": pid, "tid": tid, "ts": ts, "dur": dur, "args": args}


EVENTS = [
    meta(0, 0, "worker 0"), meta(0, 1, "worker 1"), meta(0, 2, "comm"), meta(0, 3, "steals"),
    meta(1, 0, "worker 0"), meta(1, 1, "comm"), meta(1, 2, "steals"),
    span("search", 0, 5, 0, 1000, leg=0), span("search", 1, 4, 0, 1000, leg=0),
    span("task", 0, 0, 0, 600, depth=0), span("task", 0, 1, 200, 300, depth=1), span("task", 0, 1, 600, 100, depth=1),
    span("task", 1, 0, 100, 250, depth=2),
    span("steal (granted)", 1, 2, 50, 40, victim=0, id=0, tasks=3),
    span("steal (refused)", 1, 2, 400, 30, victim=0, id=1, tasks=0),
    span("answer (granted)", 0, 2, 60, 5, thief=1, id=0, tasks=3),
    span("answer (refused)", 0, 2, 410, 5, thief=1, id=1, tasks=0),
    {"name": "better solution", "ph": "i", "s": "t", "pid": 1, "tid": 0, "ts": 200, "args": {}},
]


def main():
    failures = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.json")
        with open(path, "w") as f:
            json.dump({"traceEvents": EVENTS, "otherData": {"app": "made-up", "per_rank": []}}, f)
        out = subprocess.run([sys.executable, TOOL, "summary", path], stdout=subprocess.PIPE, text=True, check=True).stdout
        rows = [line for line in out.splitlines() if line.startswith("| 0 |") or line.startswith("| 1 |")]
        want = ["| 0 | 1.0 | 50.0% | 0.00 | 0 | 0 | 3 |", "| 1 | 1.0 | 25.0% | 0.10 | 1 | 1 | 0 |"]
        if rows != want:
            failures.append(f"summary rows {rows}, expected {want}")
        out = subprocess.run([sys.executable, TOOL, "idle", path, "--edge-ms", "0.1"], stdout=subprocess.PIPE,
                             text=True, check=True).stdout
        rows = [line for line in out.splitlines() if line.startswith("| 0 |") or line.startswith("| 1 |")]
        want = ["| 0 | 0 | 0.40 | 40.0% | 0.00 | 0.10 | 0.30 |", "| 0 | 1 | 0.60 | 60.0% | 0.10 | 0.10 | 0.40 |",
                "| 1 | 0 | 0.75 | 75.0% | 0.10 | 0.10 | 0.55 |"]
        if rows != want:
            failures.append(f"idle rows {rows}, expected {want}")
        out = subprocess.run([sys.executable, TOOL, "steals", path], stdout=subprocess.PIPE, text=True,
                             check=True).stdout
        rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
                for line in out.splitlines() if line.startswith("| 0 |") or line.startswith("| 1 |")}
        medians = [c.split()[0] for c in rows.get("1", [])[3:]]
        if rows.get("0") != ["0", "0.00", "0.0%", "-", "-", "-", "-"] or rows.get("1", [])[:3] != ["1", "0.10", "13.3%"] \
                or medians != ["50.0", "15.0", "25.0", "10.0"]:
            failures.append(f"steals rows {rows}, expected rank 0 none and rank 1 one gap of 50, 15, 25 and 10 µs")
        png = os.path.join(d, "t.png")
        subprocess.run([sys.executable, TOOL, "plot", path, "-o", png], stdout=subprocess.PIPE, check=True)
        with open(png, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                failures.append("plot did not write a PNG")
        bad = subprocess.run([sys.executable, TOOL, "summary", os.path.join(d, "missing.json")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if bad.returncode == 0 or "missing.json" not in bad.stderr or "Traceback" in bad.stderr:
            failures.append(f"a missing file: exit {bad.returncode}, stderr {bad.stderr!r} (want one message)")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failed checks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
