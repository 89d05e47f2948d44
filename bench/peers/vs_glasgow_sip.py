#!/usr/bin/env python3
"""Jackdaw's SIP app (`sip --skeleton seq`) against the Glasgow Subgraph Solver, side by side on one
machine, on the instances of instances/sip/ANSWERS.tsv.

    bench/peers/vs_glasgow_sip.py GLASGOW JACKDAW_BUILD [--reps 3] [--timeout 60] [--only REGEX]
                                  [--note TEXT] [--out FILE]
    bench/peers/vs_glasgow_sip.py --self-test

GLASGOW is the glasgow_subgraph_solver binary (bench/peers/build_peers.sh builds it into
PEERS_DIR/glasgow/); JACKDAW_BUILD is a build directory with apps/sip/sip.

Every row of instances/sip/ANSWERS.tsv is one case (--only REGEX keeps those whose pattern path
matches): the variant column gives `--induced` to both programs, and an answer with a solution count
("solution_count=N", "count N") makes both count every embedding (Glasgow `--count-solutions`,
Jackdaw `--count`); otherwise both decide (SAT / UNSAT). Both run on one thread:
  Glasgow:  GLASGOW [--induced] [--count-solutions] [--format lad] PATTERN TARGET
  Jackdaw:  JACKDAW_BUILD/apps/sip/sip --skeleton seq --threads 1 [--induced] [--count] PATTERN TARGET
(--format lad for files not ending in .csv, as the Glasgow solver's own tests name it.)
They alternate, Glasgow then Jackdaw, REPS times per case, so drift in the machine's load falls on
both. Each run's answer must equal the other program's and the known answer, else the script stops.
A run past --timeout seconds is killed and shown as "> T"; that program's other repetitions of the
case are skipped.

Times: CPU = user + system seconds of the process (the fair measure on a shared machine), wall =
process start to exit, both including start-up and reading the graphs; median [min, max]. Nodes:
Jackdaw's search nodes (--stats), Glasgow's "nodes =" line (its search nodes, counted its own way).
"""
import argparse
import json
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SIP = os.path.join(ROOT, "instances", "sip")


def parse_answer(text):
    """ANSWERS.tsv's answer column -> ('count', N) or ('decision', True/False)."""
    m = re.search(r"solution_count\s*=\s*(\d+)", text) or re.search(r"\bcount (\d+)", text)
    if m:
        return "count", int(m.group(1))
    if re.match(r"\s*UNSAT", text):
        return "decision", False
    if re.match(r"\s*SAT", text):
        return "decision", True
    raise ValueError(f"answer not understood: {text!r}")


def read_cases(path):
    """The rows of ANSWERS.tsv: dicts with pattern, target (relative to instances/sip), induced, mode, want."""
    cases = []
    header = None
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        if header is None:
            header = cols
            continue
        row = dict(zip(header, cols))
        mode, want = parse_answer(row["answer"])
        if row["variant"] not in ("induced", "non-induced"):
            raise ValueError(f"variant not understood: {row['variant']!r}")
        cases.append({"pattern": row["pattern"], "target": row["target"], "induced": row["variant"] == "induced",
                      "mode": mode, "want": want})
    return cases


def glasgow_result(out, mode):
    """Glasgow's output -> (answer, nodes or None)."""
    nodes = re.search(r"^nodes = (\d+)", out, re.M)
    nodes = int(nodes.group(1)) if nodes else None
    if mode == "count":
        m = re.search(r"^solution_count = (\d+)", out, re.M)
        return (int(m.group(1)) if m else None), nodes
    m = re.search(r"^status = (true|false)", out, re.M)
    return ({"true": True, "false": False}[m.group(1)] if m else None), nodes


def jackdaw_result(doc, mode):
    """Jackdaw's --stats JSON -> (answer, nodes); None when the search did not finish. An
    interrupted run keeps its result under "partial_result" (apps/common finish.hpp)."""
    res = doc.get("result", doc.get("partial_result", {}))
    if not doc.get("complete", False) and not (mode == "decision" and res.get("satisfiable")):
        return None, doc["stats"]["nodes"]
    if mode == "count":
        return int(res["solutions"]), doc["stats"]["nodes"]
    return bool(res["satisfiable"]), doc["stats"]["nodes"]


def timed(cmd, timeout):
    """Run cmd; return (stdout + stderr, wall s, CPU s, timed_out)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    timed_out = False
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT) as p:
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            out, _ = p.communicate()
            timed_out = True
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if not timed_out and p.returncode != 0:
        sys.exit(f"{shlex.join(cmd)} failed with exit {p.returncode}:\n{out}")
    return out, wall, cpu, timed_out


def commands(a, c, stats):
    p, t = os.path.join(SIP, c["pattern"]), os.path.join(SIP, c["target"])
    g = [a.glasgow] + (["--induced"] if c["induced"] else []) + (["--count-solutions"] if c["mode"] == "count" else [])
    if not p.endswith(".csv"):
        g += ["--format", "lad"]
    j = [os.path.join(a.build, "apps", "sip", "sip"), "--skeleton", "seq", "--threads", "1"]
    j += (["--induced"] if c["induced"] else []) + (["--count"] if c["mode"] == "count" else [])
    return g + [p, t], j + [p, t] + (["--stats", stats] if stats else [])


def shown(a, cmd):
    """A command as the results show it: GLASGOW, JACKDAW_BUILD, paths relative to the repository."""
    words = []
    for w in cmd:
        if w == a.glasgow:
            words.append("GLASGOW")
        elif w.startswith(a.build + os.sep):
            words.append("JACKDAW_BUILD/" + os.path.relpath(w, a.build))
        elif os.path.isabs(w):
            words.append(os.path.relpath(w, ROOT))
        else:
            words.append(w)
    return shlex.join(words)


def fmt_answer(mode, x):
    if x is None:
        return "?"
    return str(x) if mode == "count" else ("SAT" if x else "UNSAT")


def label(c):
    """A case as the table shows it: the folder for a pattern/target pair in one folder, else pattern → target."""
    p, t = c["pattern"], c["target"]
    if p.endswith("/pattern") and t == p[:-len("pattern")] + "target":
        return f"`{p[:-len('/pattern')]}`"
    return f"`{p}` → `{t}`"


def ratio_str(r):
    return f"{r:.2f}" if r >= 0.1 else f"{r:.2g}"


def spread(xs, timeouts, timeout, cpu=None):
    """median [min, max]; for a run killed at the timeout, what it had used by then."""
    if timeouts:
        return f"> {max(cpu):.1f} (killed)" if cpu else f"> {timeout:g} (killed)"
    return benchlib.spread(xs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("glasgow", nargs="?", help="the glasgow_subgraph_solver binary")
    ap.add_argument("build", nargs="?", help="Jackdaw build directory (apps/sip/sip)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60, help="seconds one run may take (default 60)")
    ap.add_argument("--only", default="", help="regex on the pattern path (default: every case)")
    ap.add_argument("--answers", default=os.path.join(SIP, "ANSWERS.tsv"))
    ap.add_argument("--note", default="", help="a line for the results (e.g. what else ran)")
    ap.add_argument("--out", help="also write the markdown here")
    ap.add_argument("--self-test", action="store_true", help="check the parsers and exit")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if not a.glasgow or not a.build:
        ap.error("GLASGOW and JACKDAW_BUILD are required")
    a.glasgow, a.build = os.path.abspath(a.glasgow), os.path.abspath(a.build)
    for exe in (a.glasgow, os.path.join(a.build, "apps", "sip", "sip")):
        if not os.access(exe, os.X_OK):
            sys.exit(f"{exe} is missing or not executable")
    cases = [c for c in read_cases(a.answers) if re.search(a.only, c["pattern"])]
    if not cases:
        sys.exit("no case matches --only")

    load0 = " ".join(open("/proc/loadavg").read().split()[:3])
    start = benchlib.utc_now()
    rows = []
    fd, stats = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        for c in cases:
            g_cmd, j_cmd = commands(a, c, stats)
            res = {"Glasgow": {"wall": [], "cpu": [], "nodes": set(), "timeout": False},
                   "Jackdaw": {"wall": [], "cpu": [], "nodes": set(), "timeout": False}}
            for rep in range(a.reps):
                for impl, cmd in (("Glasgow", g_cmd), ("Jackdaw", j_cmd)):
                    r = res[impl]
                    if r["timeout"]:
                        continue
                    if impl == "Jackdaw" and os.path.exists(stats):
                        os.unlink(stats)
                    out, wall, cpu, killed = timed(cmd, a.timeout)
                    if killed:
                        r["timeout"] = True
                        got, nodes = None, None
                    elif impl == "Glasgow":
                        got, nodes = glasgow_result(out, c["mode"])
                        if got is None:
                            sys.exit(f"{shlex.join(cmd)}: answer not understood:\n{out}")
                    else:
                        with open(stats) as f:
                            got, nodes = jackdaw_result(json.load(f), c["mode"])
                        if got is None:
                            sys.exit(f"{shlex.join(cmd)}: the search did not finish:\n{out}")
                    if not killed and got != c["want"]:
                        sys.exit(f"{c['pattern']} {c['target']} ({'induced' if c['induced'] else 'non-induced'}, "
                                 f"{c['mode']}): {impl} answered {fmt_answer(c['mode'], got)}, the known answer "
                                 f"is {fmt_answer(c['mode'], c['want'])}\n{shlex.join(cmd)}\n{out}")
                    r["wall"].append(wall)
                    r["cpu"].append(cpu)
                    if nodes is not None:
                        r["nodes"].add(nodes)
                    print(f"{c['pattern']} rep {rep + 1} {impl}: "
                          f"{'killed at ' + format(a.timeout, 'g') + ' s' if killed else fmt_answer(c['mode'], got)}, "
                          f"{cpu:.3f} s CPU, {wall:.3f} s wall, nodes {nodes}", file=sys.stderr, flush=True)
            rows.append((c, res))
    finally:
        if os.path.exists(stats):
            os.unlink(stats)
    load1 = " ".join(open("/proc/loadavg").read().split()[:3])

    def nodes(r):
        if not r["nodes"]:
            return "?" if not r["timeout"] else "–"
        return "/".join(f"{n:,}" for n in sorted(r["nodes"]))

    t = [f"- machine: {benchlib.machine()}",
         f"- date: {start}; load average at start {load0}, at the end {load1}"]
    if a.note:
        t.append(f"- {a.note}")
    argv = ["GLASGOW", "JACKDAW_BUILD", "--reps", str(a.reps), "--timeout", f"{a.timeout:g}"]
    if a.only:
        argv += ["--only", a.only]
    t.append(f"- command: `{shlex.join(['bench/peers/vs_glasgow_sip.py'] + argv)}`")
    t.append("- Glasgow: `GLASGOW [--induced] [--count-solutions] [--format lad] PATTERN TARGET`; Jackdaw: "
             "`JACKDAW_BUILD/apps/sip/sip --skeleton seq --threads 1 [--induced] [--count] PATTERN TARGET`")
    t.append(f"- {a.reps} repetitions per case, alternated Glasgow, Jackdaw, Glasgow, ...; every finished run gave "
             "the known answer (instances/sip/ANSWERS.tsv); a run killed at the timeout is shown as `> T`, and "
             "that program's further repetitions of the case were skipped (its CPU column then shows the CPU "
             "seconds it had used when killed, and the ratio is a bound)")
    t.append("- CPU: user + system seconds of the process; wall: start to exit; both include start-up and reading "
             "the graphs; median [min, max]; ratio = Glasgow / Jackdaw CPU medians (above 1: Jackdaw faster)")
    t.append("")
    t.append("| instance (instances/sip/: pattern → target, or a folder's pattern and target) | variant | answer "
             "| Glasgow CPU s | Jackdaw CPU s | ratio (CPU) | Glasgow wall s | Jackdaw wall s | Glasgow nodes "
             "| Jackdaw nodes |")
    t.append("|---|---|---|---|---|---|---|---|---|---|")
    for c, res in rows:
        g, j = res["Glasgow"], res["Jackdaw"]
        if g["timeout"] and j["timeout"]:
            ratio = "?"
        elif j["timeout"]:  # Jackdaw's CPU time at the kill is a lower bound on its time
            ratio = f"< {ratio_str(statistics.median(g['cpu']) / max(j['cpu']))}"
        elif g["timeout"]:
            ratio = f"> {ratio_str(max(g['cpu']) / statistics.median(j['cpu']))}"
        else:
            ratio = ratio_str(statistics.median(g['cpu']) / max(statistics.median(j['cpu']), 1e-9))
        variant = ("induced" if c["induced"] else "non-induced") + (", count" if c["mode"] == "count" else "")
        t.append(f"| {label(c)} | {variant} | {fmt_answer(c['mode'], c['want'])} "
                 f"| {spread(g['cpu'], g['timeout'], a.timeout, g['cpu'])} "
                 f"| {spread(j['cpu'], j['timeout'], a.timeout, j['cpu'])} "
                 f"| {ratio} | {spread(g['wall'], g['timeout'], a.timeout)} "
                 f"| {spread(j['wall'], j['timeout'], a.timeout)} | {nodes(g)} | {nodes(j)} |")
    t.append("")
    t.append("Commands of the first case, as run:")
    t.append("")
    g_cmd, j_cmd = commands(a, rows[0][0], None)
    t.append(f"- `{shown(a, g_cmd)}`")
    t.append(f"- `{shown(a, j_cmd)} --stats FILE`")
    benchlib.emit("\n".join(t) + "\n", a.out)


def self_test():
    assert parse_answer("SAT, solution_count=6") == ("count", 6)
    assert parse_answer("UNSAT (count 0)") == ("count", 0)
    assert parse_answer("solution_count=12") == ("count", 12)
    assert parse_answer("SAT") == ("decision", True)
    assert parse_answer("UNSAT") == ("decision", False)
    assert glasgow_result("status = true\nnodes = 42\nruntime = 3\n", "decision") == (True, 42)
    assert glasgow_result("status = false\nsolution_count = 0\nnodes = 7\n", "count") == (0, 7)
    assert jackdaw_result({"complete": True, "result": {"solutions": 12}, "stats": {"nodes": 21}}, "count") == (12, 21)
    assert jackdaw_result({"complete": False, "result": {"satisfiable": True}, "stats": {"nodes": 4}},
                          "decision") == (True, 4)
    assert jackdaw_result({"complete": False, "result": {"satisfiable": False}, "stats": {"nodes": 4}},
                          "decision") == (None, 4)
    assert jackdaw_result({"complete": False, "partial_result": {"solutions": 3}, "stats": {"nodes": 9}},
                          "count") == (None, 9)
    assert ratio_str(0.37) == "0.37" and ratio_str(0.00049) == "0.00049" and ratio_str(11.05) == "11.05"
    assert label({"pattern": "LV/g10", "target": "LV/g42"}) == "`LV/g10` → `LV/g42`"
    assert label({"pattern": "a/b/pattern", "target": "a/b/target"}) == "`a/b`"
    cases = read_cases(os.path.join(SIP, "ANSWERS.tsv"))
    assert cases and all(os.path.exists(os.path.join(SIP, c["pattern"])) for c in cases)
    print("vs_glasgow_sip.py self-test: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
