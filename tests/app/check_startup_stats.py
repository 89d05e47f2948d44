#!/usr/bin/env python3
"""--stats has the start-up phases (apps/common/src/report.cpp), and they add up.

    check_startup_stats.py APP ARGS...

Runs APP ARGS --stats FILE, timing the run from outside. Each phase (exec_to_main_s, mpi_init_s,
options_s, input_s) must be there, at least 0, and their sum at most the wall time measured
outside (exec_to_main_s is read in clock ticks of 10 ms: up to two ticks' slack).
"""
import json
import os
import subprocess
import sys
import tempfile
import time


def main():
    cmd = sys.argv[1:]
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "stats.json")
        t0 = time.perf_counter()
        p = subprocess.run(cmd + ["--stats", stats], capture_output=True, text=True, timeout=120)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            sys.exit(f"FAIL: exit {p.returncode}\n{p.stdout}{p.stderr}")
        s = json.load(open(stats)).get("startup")
    if not isinstance(s, dict):
        sys.exit("FAIL: no 'startup' section in --stats")
    for key in ("exec_to_main_s", "mpi_init_s", "options_s", "input_s"):
        if not isinstance(s.get(key), (int, float)):
            sys.exit(f"FAIL: startup.{key} missing: {s}")
    if s["exec_to_main_s"] < -0.01 or min(s["mpi_init_s"], s["options_s"], s["input_s"]) < 0:
        sys.exit(f"FAIL: a negative phase: {s}")
    total = sum(s.values())
    if total > wall + 0.02:
        sys.exit(f"FAIL: the phases add up to {total:.3f} s, more than the {wall:.3f} s the run took: {s}")
    print(f"ok: {s}, whole run {wall:.3f} s")


if __name__ == "__main__":
    main()
