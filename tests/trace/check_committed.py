#!/usr/bin/env python3
"""The traces committed under tests/sim/traces/ (the simulator's test inputs) read back with
tools/trace_info.py, form trees, and hold the totals their README states."""
import os
import re
import sys

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "tools"))
import trace_info  # noqa: E402

folder = os.path.join(root, "tests", "sim", "traces")
readme = open(os.path.join(folder, "README.md")).read()
names = sorted(f for f in os.listdir(folder) if f.endswith(".jdtrace"))
if not names:
    sys.exit("FAIL: no traces in " + folder)
for name in names:
    header, tasks = trace_info.read(os.path.join(folder, name))
    problem = trace_info.check(tasks)
    if problem:
        sys.exit(f"FAIL: {name}: {problem}")
    s = trace_info.summary(header, tasks)
    if (header["nodes"], header["tasks"]) != (s["nodes"], s["tasks"]):
        sys.exit(f"FAIL: {name}: header totals differ from the records")
    # The README's row for this file: | name | command | nodes | tasks |
    row = re.search(r"^\|\s*`?" + re.escape(name) + r"`?\s*\|.*\|\s*([\d,]+)\s*\|\s*([\d,]+)\s*\|", readme, re.M)
    if not row:
        sys.exit(f"FAIL: {name}: no row in README.md")
    nodes, tasks = (int(x.replace(",", "")) for x in row.groups())
    if (nodes, tasks) != (s["nodes"], s["tasks"]):
        sys.exit(f"FAIL: {name}: README says {nodes} nodes, {tasks} tasks; the file has {s['nodes']}, {s['tasks']}")
    print(f"ok: {name}: {s['tasks']} tasks, {s['nodes']} nodes, exact {header['exact']}")
