#!/usr/bin/env python3
"""Compile cost of one app file: wall time and peak memory of the compiler, by the skeletons the
app frame compiles in (all five, as shipped, versus fewer via JACKDAW_APP_SKELETONS).

  bench/compile/run.py BUILD_DIR [--rounds 3] [--files apps/nqueens/main.cpp ...] [--out FILE]

Each round compiles every (file, variant) once, variants alternating, with the build's own
command line from compile_commands.json (object written to a scratch file). Reports the median
and the range of the wall time and of the peak resident set (GNU time's %M) per file and variant.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

VARIANTS = [
    ("all five (default)", None),
    ("budget only", "jackdaw::skeletons::Budget"),
    ("seq only", "jackdaw::skeletons::Seq"),
]


def command(db, source):
    for e in db:
        if os.path.realpath(e["file"]) == os.path.realpath(source):
            return shlex.split(e["command"]), e["directory"]
    sys.exit(f"{source}: not in compile_commands.json")


def once(args, cwd, rows, obj):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        out.append(a)
    out += ["-o", obj]
    if rows:
        out.append(f"-DJACKDAW_APP_SKELETON_ROWS={rows}")
    with tempfile.NamedTemporaryFile("r") as t:
        p = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", t.name] + out, cwd=cwd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(p.stderr[-3000:])
        secs, kb = t.read().split()
    return float(secs), int(kb) / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--files", nargs="+", default=["apps/nqueens/main.cpp", "apps/maxclique/src/main.cpp",
                                                    "apps/ns/src/main.cpp"])
    ap.add_argument("--out")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(a.build, "compile_commands.json")) as f:
        db = json.load(f)
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.rounds):
            for fi, src in enumerate(a.files):
                args, cwd = command(db, os.path.join(root, src))
                order = VARIANTS if r % 2 == 0 else list(reversed(VARIANTS))
                for name, rows in order:
                    s, mb = once(args, cwd, rows, os.path.join(tmp, f"{fi}.o"))
                    res.setdefault((src, name), []).append((s, mb))
                    print(f"round {r + 1} {src} [{name}]: {s:.1f} s, {mb:.0f} MB", flush=True)
    lines = ["| file | skeletons compiled in | wall s, median (range) | peak MB, median (range) | time vs all |",
             "|---|---|---|---|---|"]
    for src in a.files:
        base = statistics.median(s for s, _ in res[(src, VARIANTS[0][0])])
        for name, _ in VARIANTS:
            v = res[(src, name)]
            ts = [s for s, _ in v]
            ms = [m for _, m in v]
            lines.append(f"| {src} | {name} | {statistics.median(ts):.1f} ({min(ts):.1f}–{max(ts):.1f}) | "
                         f"{statistics.median(ms):.0f} ({min(ms):.0f}–{max(ms):.0f}) | "
                         f"{statistics.median(ts) / base:.2f} |")
    table = "\n".join(lines)
    print(table)
    if a.out:
        with open(a.out, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
