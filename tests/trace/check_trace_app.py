#!/usr/bin/env python3
"""Runs an app with --trace FILE --stats JSON and checks the trace against the app's own output.

  check_trace_app.py DIR [options] -- APP ARGS...

Every run: exit 0; the header has every documented field; the records form a tree (every parent
before its child, every spawn point within the parent's nodes: tools/trace_info.py's check); the
header's nodes and tasks are the records' totals; ns_per_node is the records' CPU over their nodes.

  (default)       the trace's nodes equal the printed "nodes:", its tasks the tasks --stats says the
                  workers ran (1 for seq)
  --bnb           branch and bound: the recorded run is the second one, given the optimum as its bound:
                  its nodes equal the header's search_nodes and are at most the printed ones, its tasks
                  equal tasks_run, the header has initial_bound = the answer's ANSWER_KEY, exact is false;
                  with --levels N also N levels (a maximum: bounds below the optimum, falling), each
                  visiting at least the nodes of the tree above it, depth_bounded's tasks of that tree
                  every one matched, improvements inside their tasks and better than the level's bound
  --cost-guard    with --bnb: the levels stopped early at the recording's cost guard: the notes say so,
                  the last level cost over 20 times the answered run's nodes, and no level before it did
  --answer-key K  the --stats "result" key the header's "answer" must hold, with the same value
  --exact         also run with --threads 1 and --threads 2 (APP ARGS must not set --threads): the
                  header says exact, and both traces have the same multiset of (depth, nodes) per
                  task and the same totals
  --not-exact     the header says exact = false and gives notes
  --seq           one task, the root, with no parent
  --error REGEX   the run must fail with exit 2 and one error line matching REGEX, writing no trace
"""
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import trace_info  # noqa: E402

HEADER_FIELDS = ("app", "command", "skeleton", "kind", "workers", "exact", "notes", "cpu_model", "ns_per_node",
                 "nodes", "tasks", "wall_seconds", "answer", "recorded_at")


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd, trace, stats):
    full = cmd + ["--trace", trace, "--stats", stats]
    print("$", " ".join(full), flush=True)
    p = subprocess.run(full, capture_output=True, text=True, timeout=280)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    return p


def printed_nodes(stdout):
    m = re.search(r"^nodes: (\d+)$", stdout, re.M)
    if not m:
        fail("no 'nodes:' line in the output")
    return int(m.group(1))


def check_one(cmd, workdir, name, opts):
    trace, stats = os.path.join(workdir, name + ".jdtrace"), os.path.join(workdir, name + ".json")
    for f in (trace, stats):
        if os.path.exists(f):
            os.remove(f)
    p = run(cmd, trace, stats)
    if p.returncode != 0:
        fail(f"exit code {p.returncode}")
    header, tasks, levels = trace_info.read_levels(trace)
    with open(stats) as f:
        st = json.load(f)
    missing = [k for k in HEADER_FIELDS if k not in header]
    if missing:
        fail(f"header lacks {missing}")
    problem = trace_info.check(tasks)
    if problem:
        fail(problem)
    s = trace_info.summary(header, tasks)
    if header["nodes"] != s["nodes"] or header["tasks"] != s["tasks"]:
        fail(f"header nodes/tasks {header['nodes']}/{header['tasks']} != records {s['nodes']}/{s['tasks']}")
    if s["nodes"] and abs(header["ns_per_node"] - s["ns_per_node"]) > 1e-6 * max(1.0, s["ns_per_node"]):
        fail(f"ns_per_node {header['ns_per_node']} != {s['ns_per_node']}")
    if not re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", header["recorded_at"]):
        fail(f"recorded_at {header['recorded_at']!r}")
    if header["skeleton"] == "budget" and "budget" not in header:
        fail("a budget trace without its budget")
    if header["skeleton"] == "depth_bounded" and "spawn_depth" not in header:
        fail("a depth_bounded trace without its spawn_depth")
    if any(t["bytes"] == 0 for t in tasks) and header["kind"] != "unknown":
        fail("a task with no size on the wire")
    nodes = printed_nodes(p.stdout)
    stats_tasks = sum(w["tasks"] for w in st.get("workers", [])) if header["skeleton"] != "seq" else 1
    if opts.get("answer_key"):
        key = opts["answer_key"]
        if header["answer"].get(key) != st["result"].get(key):
            fail(f"answer {key}: {header['answer'].get(key)} != --stats result {st['result'].get(key)}")
    if opts.get("bnb"):
        if header["kind"] != "optimisation" or header["exact"] is not False:
            fail("branch and bound: kind optimisation, exact false expected")
        if "initial bound" not in header["notes"] and "as its initial bound" not in header["notes"]:
            fail(f"notes do not explain the bound run: {header['notes']!r}")
        if s["nodes"] != header["search_nodes"] or s["tasks"] != header["tasks_run"]:
            fail(f"recorded run: nodes {s['nodes']} vs search_nodes {header['search_nodes']}, "
                 f"tasks {s['tasks']} vs tasks_run {header['tasks_run']}")
        if s["nodes"] > nodes:
            fail(f"the bound run visited more nodes ({s['nodes']}) than the answered run ({nodes})")
        key = opts.get("answer_key")
        if key and header.get("initial_bound") != st["result"][key]:
            fail(f"initial_bound {header.get('initial_bound')} != optimum {st['result'][key]}")
        if len(levels) != opts.get("levels", 0):
            fail(f"{len(levels)} levels, {opts.get('levels', 0)} expected")
        above, above_bound = tasks, header["initial_bound"]
        for i, l in enumerate(levels):
            runs = header["level_runs"][i]
            lnodes = sum(t["nodes"] for t in l["tasks"])
            if not l["bound"] < above_bound or runs["bound"] != l["bound"] or runs["nodes"] != lnodes:
                fail(f"level {i + 1}: bound {l['bound']} under {above_bound}, level_runs {runs}, nodes {lnodes}")
            if lnodes < sum(t["nodes"] for t in above):
                fail(f"level {i + 1} (bound {l['bound']}) visited fewer nodes than the tree above it")
            problem = trace_info.check(l["tasks"])
            if problem:
                fail(f"level {i + 1}: {problem}")
            matched = {u for u in l["stronger"] if u is not None}
            if header["skeleton"] == "depth_bounded" and matched != set(range(len(above))):
                fail(f"level {i + 1}: {len(above) - len(matched)} task(s) of the tree above match none of its tasks")
            for m in l["improvements"]:
                if not m["objective"] > l["bound"] or m["after_nodes"] > l["tasks"][m["task"]]["nodes"]:
                    fail(f"level {i + 1}: improvement {m} not better than {l['bound']} or outside its task")
            above, above_bound = l["tasks"], l["bound"]
        if opts.get("cost_guard"):
            answered = header["answered_run"]["nodes"]
            costs = [r["nodes"] for r in header["level_runs"]]
            notes = " ".join(header["notes"]) if isinstance(header["notes"], list) else header["notes"]
            if not costs or costs[-1] <= 20 * answered or any(c > 20 * answered for c in costs[:-1]) or \
                    "Levels stopped after" not in notes:
                fail(f"cost guard: level nodes {costs} against 20 x {answered}; notes {notes!r}")
    else:
        if s["nodes"] != nodes:
            fail(f"trace nodes {s['nodes']} != printed nodes {nodes}")
        if s["tasks"] != stats_tasks:
            fail(f"trace tasks {s['tasks']} != --stats tasks {stats_tasks}")
    if opts.get("seq"):
        if s["tasks"] != 1 or tasks[0]["parent"] is not None or header["exact"] is not True:
            fail("seq: one task with no parent, exact, expected")
    if opts.get("not_exact") and (header["exact"] is not False or not header["notes"]):
        fail(f"exact {header['exact']}, notes {header['notes']!r}: expected not exact, with notes")
    print(f"ok: {name}: {s['tasks']} tasks, {s['nodes']} nodes, exact {header['exact']}", flush=True)
    return header, tasks


def shape(tasks):
    return collections.Counter((t["depth"], t["nodes"]) for t in tasks)


def main(argv):
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    cut = argv.index("--")
    mine, cmd = argv[1:cut], argv[cut + 1:]
    workdir = mine[0]
    os.makedirs(workdir, exist_ok=True)
    opts = {"bnb": "--bnb" in mine, "exact": "--exact" in mine, "not_exact": "--not-exact" in mine,
            "seq": "--seq" in mine, "cost_guard": "--cost-guard" in mine}
    if "--levels" in mine:
        opts["levels"] = int(mine[mine.index("--levels") + 1])
    if "--answer-key" in mine:
        opts["answer_key"] = mine[mine.index("--answer-key") + 1]
    if "--error" in mine:
        regex = mine[mine.index("--error") + 1]
        trace = os.path.join(workdir, "refused.jdtrace")
        if os.path.exists(trace):
            os.remove(trace)
        cmd = [c.replace("@TRACE@", trace) for c in cmd]
        print("$", " ".join(cmd), flush=True)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=280)
        out = p.stdout + p.stderr
        sys.stdout.write(out)
        if p.returncode != 2:
            fail(f"exit code {p.returncode}, expected 2")
        errors = [line for line in out.splitlines() if "error" in line]
        if len(errors) != 1 or not re.search(regex, errors[0]):
            fail(f"expected one error line matching {regex!r}, got {errors}")
        if os.path.exists(trace) and os.path.getsize(trace) > 0:
            fail("a refused run wrote a trace")
        print("ok: refused with one message")
        return 0
    if not opts["exact"]:
        check_one(cmd, workdir, "run", opts)
        return 0
    if "--threads" in cmd:
        fail("--exact sets --threads itself")
    h1, t1 = check_one(cmd + ["--threads", "1"], workdir, "w1", opts)
    h2, t2 = check_one(cmd + ["--threads", "2"], workdir, "w2", opts)
    for h in (h1, h2):
        if h["exact"] is not True:
            fail(f"exact {h['exact']} ({h['notes']})")
    if h2["workers"] != 2 or h1["workers"] != 1:
        fail(f"workers {h1['workers']}, {h2['workers']}")
    if shape(t1) != shape(t2):
        diff = (shape(t1) - shape(t2)) + (shape(t2) - shape(t1))
        fail(f"1 and 2 workers recorded different trees: {len(diff)} (depth, nodes) pairs differ, e.g. {list(diff)[:5]}")
    if (h1["nodes"], h1["tasks"]) != (h2["nodes"], h2["tasks"]):
        fail(f"totals differ: {h1['nodes']}/{h1['tasks']} vs {h2['nodes']}/{h2['tasks']}")
    print(f"ok: 1 and 2 workers recorded the same tree ({h1['tasks']} tasks, {h1['nodes']} nodes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
