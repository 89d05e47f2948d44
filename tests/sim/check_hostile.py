#!/usr/bin/env python3
"""jackdaw-sim under hostile use: no wrong answer, no crash, no hang (issue 37).

  check_hostile.py SIM TRACE nan_options    nan, inf, a negative seed: refused with exit 2 and one
                                            message naming the option; good values still taken
  check_hostile.py SIM TRACE memory_budget  a platform or a trace too big for --memory-limit is refused
                                            with exit 2 before it is allocated (small max RSS, quick);
                                            the estimate stays between 1x and 3x the measured max RSS
  check_hostile.py SIM TRACE exit_codes     command-line errors exit 2 (not CLI11's 105 ...); malformed
                                            traces (fields at their type's limits) exit 2 naming the
                                            field, never 3 ("simulator bug"); values at the limits
                                            that mean something still replay
  check_hostile.py SIM TRACE fuzz           every numeric option (as --help lists them) x hostile values:
                                            exit 2 with one message naming the option, or a run that
                                            finishes with exit 0; never a signal, 3 or 105

TRACE is a small committed trace (tests/sim/traces/uts_small.jdtrace).
"""
import concurrent.futures
import gzip
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time

BAD_INPUT = 2

# ------------------------------------------------------------------------------------------ running


def run(cmd, timeout=60):
    """(exit code or -signal, or None on timeout, stdout, stderr, max RSS in MB, wall seconds)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > timeout:
                p.kill()
                _, status, usage = os.wait4(p.pid, 0)
                p.returncode = -9
                return None, "", "", usage.ru_maxrss / 1024, time.monotonic() - t0
            time.sleep(0.005)
        rc = os.waitstatus_to_exitcode(status)
        p.returncode = rc
        out.seek(0)
        err.seek(0)
        return (rc, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                usage.ru_maxrss / 1024, time.monotonic() - t0)


def refused(rc, out, err, name):
    """Exit 2 with one message (one line on stderr, nothing on stdout) that names `name`."""
    lines = [line for line in err.splitlines() if line.strip()]
    return rc == BAD_INPUT and len(lines) == 1 and name in lines[0] and not out.strip()


# ---------------------------------------------------------------------------------- writing traces


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def records(tasks):
    """tasks: (parent or None, after_nodes, nodes, cpu_ns, depth, bytes) per task."""
    body = bytearray(varint(len(tasks)))
    for parent, after, nodes, cpu, depth, size in tasks:
        for v in (0 if parent is None else parent + 1, after, nodes, cpu, depth, size):
            body += varint(v)
    return bytes(body)


def write_trace(path, header, tasks, levels=(), raw_tasks=None):
    """A trace file as trace/src/trace.cpp writes it. levels: (bound, tasks, stronger, improvements)
    with stronger as task ids + 1 (0: pruned) and improvements as (task, after_nodes, objective)."""
    h = json.dumps(header).encode()
    body = b"JDTRACE1" + struct.pack("<I", len(h)) + h + (raw_tasks if raw_tasks is not None else records(tasks))
    for _, ltasks, stronger, improvements in levels:
        body += records(ltasks) + b"".join(varint(s) for s in stronger) + varint(len(improvements))
        for task, after, objective in improvements:
            body += varint(task) + varint(after) + struct.pack("<d", objective)
    with open(path, "wb") as f:
        f.write(gzip.compress(body, 1))
    return path


def small_tree(nodes=(10, 5, 5), cpu=(10000, 5000, 5000), depth=(0, 1, 1), size=(16, 16, 16)):
    """A root and two children spawned half-way through it."""
    return [(None, 0, nodes[0], cpu[0], depth[0], size[0]),
            (0, nodes[0] // 2, nodes[1], cpu[1], depth[1], size[1]),
            (0, nodes[0] // 2, nodes[2], cpu[2], depth[2], size[2])]


def header_for(recs, **extra):
    h = {"app": "hostile", "kind": "enumeration", "nodes": sum(t[2] for t in recs), "tasks": len(recs)}
    h.update(extra)
    return h


# ------------------------------------------------------------------------------------- nan_options


def nan_options(sim, trace):
    base = [sim, trace, "--platform", "study", "--hosts", "2", "--workers", "1"]
    bad = 0
    for opt, value in (("--core-speed", "nan"), ("--latency-us", "nan"), ("--gbps", "nan"), ("--seed", "-1"),
                       ("--loopback-latency-us", "nan"), ("--slowdown", "nan"), ("--comm-cost-us", "inf"),
                       ("--perf-alpha", "nan"), ("--steal-retry-max-us", "nan"), ("--workers", " 3")):
        rc, out, err, _, _ = run((base[:-2] if opt == "--workers" else base) + [opt, value])
        ok = refused(rc, out, err, opt)
        print(f"{opt} {value!r}: exit {rc}: {err.strip()[:120]!r} {'ok' if ok else 'FAILED'}")
        bad += not ok
    # Good values are still taken, and reach the run.
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        rc, out, err, _, _ = run(base + ["--core-speed", "0.5", "--latency-us", "3.5", "--gbps", "2e1",
                                         "--seed", "18446744073709551615", "--out", path])
        j = json.load(open(path)) if rc == 0 else {}
        plat = j.get("simulation", {}).get("platform", {})
        ok = (rc == 0 and plat.get("core_speed") == 0.5 and plat.get("link_latency_us") == 3.5
              and plat.get("link_gbps") == 20 and j.get("options", {}).get("seed") == 2**64 - 1)
        print(f"good values: exit {rc}: {plat} {'ok' if ok else 'FAILED'} {err.strip()[:200]}")
        bad += not ok
    return 1 if bad else 0


# ----------------------------------------------------------------------------------- memory_budget


def memory_budget(sim, trace):
    bad = 0

    def check(what, cond, detail):
        nonlocal bad
        print(f"{what}: {detail} {'ok' if cond else 'FAILED'}")
        bad += not cond

    # The case: 10^6 hosts x 4096 cores would take 8 GB and end in std::bad_alloc; it must be
    # refused at once, small and fast.
    rc, out, err, rss, wall = run([sim, trace, "--hosts", "1000000", "--cores", "4096"], timeout=60)
    check("--hosts 1000000 --cores 4096", refused(rc, out, err, "memory limit") and rss < 200 and wall < 20,
          f"exit {rc}, {rss:.0f} MB max RSS, {wall:.1f} s: {err.strip()[:200]!r}")
    # A limit the user gives: the study platform's 1,000 ranks x 15 workers do not fit in 64 MiB ...
    rc, out, err, rss, wall = run([sim, trace, "--hosts", "1000", "--memory-limit", "64M"])
    check("--hosts 1000 --memory-limit 64M", refused(rc, out, err, "memory limit") and rss < 100,
          f"exit {rc}, {rss:.0f} MB: {err.strip()[:200]!r}")
    # ... two hosts with a worker each do ...
    rc, out, err, rss, wall = run([sim, trace, "--hosts", "2", "--workers", "1", "--memory-limit", "64M"])
    check("--hosts 2 --workers 1 --memory-limit 64M", rc == 0, f"exit {rc}, {rss:.0f} MB {err.strip()[:200]!r}")
    with tempfile.TemporaryDirectory() as d:
        # ... and a second job (--corun) counts too: a limit between the estimates with and without
        # it takes the one and refuses the other.
        path = os.path.join(d, "r.json")
        job = [sim, trace, "--hosts", "100", "--workers", "1", "--out", path]
        est = []
        for extra in ([], ["--corun", trace]):
            rc, out, err, _, _ = run(job + extra)
            est.append(json.load(open(path))["simulation"].get("memory_estimate_mb", 0) if rc == 0 else 0)
        limit = f"{int(sum(est) / 2)}M"
        alone, _, _, _, _ = run(job + ["--memory-limit", limit])
        rc, out, err, _, _ = run(job + ["--memory-limit", limit, "--corun", trace])
        check(f"100 ranks under --memory-limit {limit}, alone and with --corun",
              0 < est[0] < est[1] and alone == 0 and refused(rc, out, err, "memory limit"),
              f"estimates {est[0]:.1f} and {est[1]:.1f} MB, exit {alone} alone, {rc} with --corun: {err.strip()[:120]!r}")
        # A trace whose task count is over the limit is refused before its records are read into
        # memory (2^24 tasks of zeros: 100 MB of records, 0.8 GB as TaskRecords).
        # Written in pieces: this process stays small, since a child's max RSS counts it (fork).
        big = os.path.join(d, "big.jdtrace")
        n = 1 << 24
        h = json.dumps({"app": "hostile", "nodes": 0, "tasks": n}).encode()
        with gzip.open(big, "wb", 1) as f:
            f.write(b"JDTRACE1" + struct.pack("<I", len(h)) + h + varint(n))
            piece = bytes([0, 0, 0, 0, 0, 0]) * (1 << 16)
            for _ in range(n >> 16):
                f.write(piece)
        rc, out, err, rss, wall = run([sim, big, "--info", "--memory-limit", "64M"])
        check("a 2^24-task trace under --memory-limit 64M", refused(rc, out, err, "memory limit") and rss < 150,
              f"exit {rc}, {rss:.0f} MB, {wall:.1f} s: {err.strip()[:200]!r}")
        # The estimate against what runs take: between 1x and 3x the max RSS, where the platform
        # (hosts), the actors (ranks x workers) and the ranks' per-peer state (ranks^2) dominate.
        for args in (["--hosts", "20000", "--ranks", "1", "--workers", "1"],
                     ["--hosts", "100", "--ranks", "100", "--workers", "64"],
                     ["--hosts", "100", "--ranks", "1000", "--workers", "1"]):
            path = os.path.join(d, "r.json")
            rc, out, err, rss, wall = run([sim, trace, "--out", path] + args, timeout=120)
            est = json.load(open(path))["simulation"].get("memory_estimate_mb", 0) if rc == 0 else 0
            check(" ".join(args), rc == 0 and rss <= est <= 3 * rss,
                  f"exit {rc}: estimate {est:.0f} MB, measured max RSS {rss:.0f} MB ({wall:.1f} s)")
    return 1 if bad else 0


# -------------------------------------------------------------------------------------- exit_codes


def exit_codes(sim, trace):
    bad = 0

    def expect(what, args, want, name=None, timeout=60):
        nonlocal bad
        rc, out, err, _, _ = run([sim] + args, timeout=timeout)
        ok = refused(rc, out, err, name) if want == BAD_INPUT else rc == want
        print(f"{what}: exit {rc} (want {want}): {(err.strip() or out.strip())[:160]!r} {'ok' if ok else 'FAILED'}")
        bad += not ok

    # The command line: CLI11's own codes (105 validation, 106 required, 109 extras, ...) become 2.
    expect("--hosts x", [trace, "--hosts", "x"], BAD_INPUT, "--hosts")
    expect("no trace", [], BAD_INPUT, "trace")
    expect("an unknown option", [trace, "--no-such-option"], BAD_INPUT, "--no-such-option")
    expect("an extra argument", [trace, "extra.jdtrace"], BAD_INPUT, "extra.jdtrace")
    expect("--platform nowhere", [trace, "--platform", "nowhere"], BAD_INPUT, "--platform")
    expect("--hosts without a value", [trace, "--hosts"], BAD_INPUT, "--hosts")
    expect("--slow-hosts 7 of 2 hosts", [trace, "--hosts", "2", "--slow-hosts", "7"], BAD_INPUT, "--slow-hosts")
    expect("--slow-ranks 7 of 2 ranks", [trace, "--hosts", "2", "--slow-ranks", "7"], BAD_INPUT, "--slow-ranks")
    expect("--help", ["--help"], 0)

    small = ["--platform", "study", "--hosts", "2", "--workers", "1"]
    with tempfile.TemporaryDirectory() as d:
        made = []

        def t(_, recs, header=None, levels=()):
            # Numbered files: the message must name the field, not echo the file's name.
            made.append(os.path.join(d, f"case{len(made)}.jdtrace"))
            return write_trace(made[-1], header or header_for(recs), recs, levels)

        top = 2**64 - 1
        # A task's nodes or CPU time at the type's limit: the replay cannot count them (it counts
        # nodes in doubles, 2^53 exactly); these exited 3 ("simulator bug").
        expect("task nodes = 2^64-1", [t("nodes_top", small_tree(nodes=(top, 5, 5)))] + small, BAD_INPUT, "nodes")
        expect("task nodes = 2^53+1", [t("nodes_53", small_tree(nodes=(2**53 + 1, 5, 5)))] + small, BAD_INPUT, "nodes")
        # 2^11 tasks of 2^53 nodes each: every one counts exactly, their sum wrapped 2^64 to 0 (and the
        # replay, wrapping alike, "matched" it: a wrong answer with exit 0).
        many = [(None, 0, 2**53, 1000, 0, 8)] * 2048
        expect("nodes adding up past 2^62", [t("nodes_sum", many, {"app": "hostile"})] + small, BAD_INPUT, "nodes")
        expect("task cpu = 2^64-1", [t("cpu_top", small_tree(cpu=(top, 5, 5)))] + small, BAD_INPUT, "CPU")
        expect("task depth = 2^32", [t("depth", small_tree(depth=(0, 2**32, 1)))] + small, BAD_INPUT, "depth")
        expect("task bytes = 2^64-1", [t("bytes", small_tree(size=(16, top, 16)))] + small, BAD_INPUT, "bytes")
        # The header's totals must be the records'.
        tree = small_tree()
        expect("header nodes = 2^64-1", [t("h_nodes", tree, header_for(tree, nodes=top))] + small, BAD_INPUT,
               '"nodes"')
        expect("header tasks = -1", [t("h_tasks", tree, header_for(tree, tasks=-1))] + small, BAD_INPUT, '"tasks"')
        expect("header nodes = 1.5", [t("h_nodes_real", tree, header_for(tree, nodes=1.5))] + small, BAD_INPUT,
               '"nodes"')
        # Header fields the simulator reads, of the wrong type (a JSON type_error before).
        expect("header sense = 7", [t("h_sense", tree, header_for(tree, sense=7))] + small, BAD_INPUT, '"sense"')
        expect("header sense = sideways", [t("h_sense2", tree, header_for(tree, sense="sideways"))] + small,
               BAD_INPUT, '"sense"')
        expect("header app = []", [t("h_app", tree, header_for(tree, app=[]))] + small, BAD_INPUT, '"app"')
        expect("header initial_bound = x", [t("h_bound", tree, header_for(tree, initial_bound="x"))] + small,
               BAD_INPUT, '"initial_bound"')
        # A branch-and-bound level whose improvement is not a number.
        lvl = [(5.0, small_tree(), [1, 2, 3], [(1, 2, float("nan"))])]
        expect("improvement objective = nan",
               [t("imp_nan", tree, header_for(tree, sense="maximise", initial_bound=9, levels=[5.0]), lvl)] + small,
               BAD_INPUT, "objective")
        # At the limits but meaningful: replayed, exit 0.
        expect("task nodes = 2^53", [t("nodes_ok", small_tree(nodes=(2**53, 5, 5)))] + small, 0)
        expect("task depth = 2^32-1", [t("depth_ok", small_tree(depth=(0, 2**32 - 1, 1)))] + small, 0)
        expect("a level with a good improvement",
               [t("imp_ok", tree, header_for(tree, sense="maximise", initial_bound=9, levels=[5.0]),
                  [(5.0, small_tree(), [1, 2, 3], [(1, 2, 7.0)])])] + small, 0)
    return 1 if bad else 0


# -------------------------------------------------------------------------------------------- fuzz

# Every numeric option of jackdaw-sim, with what it needs around it to mean something.
NUMERIC = {
    "--hosts": [], "--cores": [], "--ranks": [], "--workers": [], "--seed": [], "--board-sample": ["--board", "sample"],
    "--seed-tree": [], "--slow-hosts": [], "--core-speed": [], "--latency-us": [], "--gbps": [],
    "--loopback-latency-us": [], "--yield-slice-us": [], "--wake-cpu-us": [], "--wake-late-us": [],
    "--slowdown": ["--slow-hosts", "1"], "--comm-cost-us": [], "--seed-hold-ms": ["--seed-tree", "2"],
    "--steal-retry-max-us": [], "--steal-hold-us": [], "--memory-limit": [], "--slow-ranks": [], "--task-jitter": [],
    "--task-cpu-scale": [],
    "--split-check-nodes": ["--split", "hunger"], "--split-cost-ns": ["--split", "hunger"],
}
# Policy constants: the policy that reads them, by prefix.
VALUES = ["nan", "inf", "-inf", "-1", "0", "9223372036854775808", "18446744073709551616", "1e400", " -5", ""]
# Meaningless for every option: these must be refused.
ALWAYS_REFUSED = {"nan", "inf", "-inf", "-1", "18446744073709551616", "1e400", " -5", ""}
OPTION_LINE = re.compile(r"^\s+(--[a-z0-9-]+)\s+(\S+)")  # "  --hosts INT:INT in [1, 1000000]"
NUMERIC_TYPE = re.compile(r"\b(INT|UINT|FLOAT|NUMBER|SIZE)\b")


def numeric_options(sim):
    """The options whose value --help types as a number (INT, UINT, FLOAT, NUMBER, SIZE)."""
    p = subprocess.run([sim, "--help"], capture_output=True, text=True, timeout=60)
    return sorted({m.group(1) for line in p.stdout.splitlines()
                   if (m := OPTION_LINE.match(line)) and NUMERIC_TYPE.search(m.group(2))})


def policy_of_constant(sim):
    """Each policy constant's flag and a policy that reads it, from the program's --list-policies."""
    p = subprocess.run([sim, "--list-policies"], capture_output=True, text=True, timeout=60, check=True)
    return {c["flag"]: pol["name"] for pol in reversed(json.loads(p.stdout)) for c in pol["constants"]}


def fuzz(sim, trace):
    listed = numeric_options(sim)
    policy_of = policy_of_constant(sim)
    policy_constants = [o for o in listed if o in policy_of]
    uncovered = [o for o in listed if o not in NUMERIC and o not in policy_constants]
    missing = [o for o in NUMERIC if o not in listed]
    if uncovered or missing or not policy_constants:
        print(f"sim option fuzz: --help lists numeric options this test does not cover: {uncovered}; "
              f"the test covers options --help does not list: {missing}; policy constants: {policy_constants}")
        return 1
    base = ["--platform", "study", "--hosts", "3", "--workers", "1"]
    cases = []
    for opt in sorted(NUMERIC) + policy_constants:
        ctx = list(NUMERIC.get(opt, []))
        if opt in policy_of:
            ctx = ["--policy", policy_of[opt]]
        args = [a for i, a in enumerate(base) if a != opt and (i == 0 or base[i - 1] != opt)]
        for v in VALUES:
            cases.append((opt, v, [sim, trace] + args + ctx + [opt, v]))

    def one(case):
        opt, v, cmd = case
        rc, out, err, _, wall = run(cmd, timeout=60)
        if rc == 0 and "makespan:" in out and v not in ALWAYS_REFUSED:
            return "accepted", None
        if refused(rc, out, err, opt):
            return "refused", None
        why = "timed out" if rc is None else f"exit {rc}"
        return "failed", f"{opt} {v!r}: {why}, {wall:.1f} s: {(err.strip() or out.strip())[:200]!r}"

    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(one, cases))
    failures = [why for kind, why in results if kind == "failed"]
    for why in failures:
        print("FAILED", why)
    n_ref = sum(kind == "refused" for kind, _ in results)
    n_acc = sum(kind == "accepted" for kind, _ in results)
    print(f"sim option fuzz: {len(cases)} cases, {n_ref} refused, {n_acc} accepted, {len(failures)} failed "
          f"({len(listed)} numeric options, {time.monotonic() - t0:.1f} s)")
    return 1 if failures else 0


def main():
    sim, trace, what = sys.argv[1:4]
    return {"nan_options": nan_options, "memory_budget": memory_budget, "exit_codes": exit_codes,
            "fuzz": fuzz}[what](sim, trace)


if __name__ == "__main__":
    sys.exit(main())
