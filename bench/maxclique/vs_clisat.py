#!/usr/bin/env python3
"""MaxClique side by side with CliSAT (San Segundo, Furini, Alvarez and Pardalos 2023), run alternately.

    bench/maxclique/vs_clisat.py --clisat PATH [--jackdaw PATH] [--old PATH] [--repeats N]
                                 [--timeout S] [--workers W] [--orders 1,2] [--out FILE] [INSTANCE ...]

CliSAT is the authors' Linux binary (github.com/psanse/CliSAT, bin/CliSAT at commit
c33e95292463ff635e9e6f7f5a0504d498ad984e); keep it outside the repository. It is run as
`CliSAT FILE TIMELIMIT ORDER` with both of its initial orders (1: degree sort, 2: colour sort);
it needs a 'p edge' header, so 'p col' files are copied with the header changed into a temporary
folder. It always exits 0: a line 'exiting on time out' means not proved.

Each repeat runs, one after the other on one instance: CliSAT order 1, CliSAT order 2 (--orders
picks which; an order left out shows "–"), the Glasgow clique solver (--glasgow, if given:
`glasgow_clique_solver --timeout S FILE`, one thread), Jackdaw `--skeleton seq`, the old Jackdaw build (--old,
if given) `--skeleton seq`, and Jackdaw with `--skeleton budget --threads W` (--parallel picks
another skeleton; --workers 0 leaves it out). CPU seconds are the child's user + system time
(from wait4), wall seconds the elapsed time of the whole process (reading the file included, for
both programs). Every answer is checked against instances/dimacs/ANSWERS.tsv (or the ANSWERS.tsv
next to the instance). The table gives median [min, max].
"""
import argparse
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def answers(folder):
    out = {}
    path = os.path.join(folder, "ANSWERS.tsv")
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("instance\t"):
                continue
            p = line.rstrip("\n").split("\t")
            if len(p) >= 4 and p[3].isdigit():
                out[p[0]] = int(p[3])
    return out


def timed(cmd, timeout):
    """Runs cmd; returns (stdout + stderr, wall seconds, timed out). Its CPU time: Cpu.delta() next."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    timed_out = False
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, _ = p.communicate()
        timed_out = True
    wall = time.monotonic() - t0
    return out, wall, timed_out


class Cpu:
    """CPU seconds of the children reaped since the last call."""

    def __init__(self):
        self.last = self.now()

    @staticmethod
    def now():
        r = os.times()
        return r.children_user + r.children_system

    def delta(self):
        n = self.now()
        d, self.last = n - self.last, n
        return d


def run_clisat(binary, path, order, limit, cpu):
    out, wall, to = timed([binary, path, str(limit), str(order)], limit + 30)
    c = cpu.delta()
    m = re.search(r"omega:(\d+)", out)
    if to or "time out" in out or not m:
        return None, c, wall
    return int(m.group(1)), c, wall


def run_glasgow(binary, path, limit, cpu):
    """The Glasgow clique solver (McCreesh et al., built by bench/peers/build_peers.sh), one thread."""
    out, wall, to = timed([binary, "--timeout", str(limit), path], limit + 30)
    c = cpu.delta()
    m = re.search(r"^omega = (\d+)", out, re.M)
    if to or "aborted" in out or not m:
        return None, c, wall
    return int(m.group(1)), c, wall


def run_jackdaw(binary, path, extra, limit, cpu):
    stats = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
    try:
        out, wall, to = timed([binary, path, "--stats", stats] + extra, limit)
        c = cpu.delta()
        m = re.search(r"^omega = (\d+)", out, re.M)
        n = re.search(r"^nodes: (\d+)", out, re.M)
        init = None
        try:
            with open(stats) as f:
                doc = json.load(f)
            if "initial_clique" in doc:
                init = (doc["initial_clique"], doc["initial_seconds"])
        except (OSError, ValueError):
            pass
        if to or not m:
            return None, c, wall, None, init
        return int(m.group(1)), c, wall, int(n.group(1)) if n else None, init
    finally:
        os.unlink(stats)


def spread(xs):
    if not xs:
        return "–"
    return f"{statistics.median(xs):.3g} [{min(xs):.3g}, {max(xs):.3g}]"


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def settle(r, key, w, want, cpu_s, wall_s, who):
    """Files one run's outcome in row r: unsolved (no answer), wrong, or its times. True if right."""
    if w is None:
        r["unsolved"].add(key)
        return False
    if w != want:
        r["wrong"].append(f"{who}: {w}")
        return False
    r[key].append((cpu_s, wall_s))
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clisat", required=True, help="the CliSAT binary (outside the repository)")
    ap.add_argument("--jackdaw", default=os.path.join(ROOT, "build", "apps", "maxclique", "maxclique"))
    ap.add_argument("--old", help="an older maxclique build, run --skeleton seq for the before column")
    ap.add_argument("--glasgow", help="the Glasgow clique solver (glasgow_clique_solver, outside the repository): "
                    "a column and its ratio to Jackdaw seq")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=600, help="seconds per run (CliSAT's own limit too)")
    ap.add_argument("--workers", type=int, default=2, help="workers of the parallel run (0: no parallel run)")
    ap.add_argument("--orders", default="1,2", help="CliSAT's initial orders to run (1 degree sort, 2 colour sort)")
    ap.add_argument("--parallel", default="budget", help="the parallel skeleton of the W-worker runs")
    ap.add_argument("--dir", default=os.path.join(ROOT, "instances", "dimacs"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "maxclique_vs_clisat.md"))
    ap.add_argument("--note", default="")
    ap.add_argument("instances", nargs="*", help="names in --dir (default: every instance of its ANSWERS.tsv)")
    a = ap.parse_args()
    omega = answers(a.dir)
    names = a.instances or [n for n in sorted(omega, key=str.lower) if os.path.exists(os.path.join(a.dir, n + ".clq"))]
    tmp = tempfile.mkdtemp(prefix="vs_clisat_")
    cpu = Cpu()
    load0 = loadavg()
    rows = []
    try:
        for name in names:
            path = os.path.join(a.dir, name + ".clq")
            edge = os.path.join(tmp, name + ".clq")  # CliSAT wants 'p edge'
            with open(path) as f, open(edge, "w") as g:
                for line in f:
                    g.write("p edge" + line[5:] if line.startswith("p col") else line)
            want = omega.get(name)
            r = {"name": name, "omega": want, "c1": [], "c2": [], "new": [], "old": [], "par": [], "wrong": [],
                 "nodes_new": [], "nodes_old": [], "nodes_par": [], "init": None, "unsolved": set(), "gl": []}
            for rep in range(a.repeats):
                for order, key in ((1, "c1"), (2, "c2")):
                    if str(order) not in a.orders.split(","):
                        continue
                    w, c, t = run_clisat(a.clisat, edge, order, a.timeout, cpu)
                    settle(r, key, w, want, c, t, f"CliSAT order {order}")
                if a.glasgow:
                    w, c, t = run_glasgow(a.glasgow, path, a.timeout, cpu)
                    settle(r, "gl", w, want, c, t, "Glasgow")
                runs = [("new", a.jackdaw, ["--skeleton", "seq"]), ("old", a.old, ["--skeleton", "seq"]),
                        ("par", a.jackdaw, ["--skeleton", a.parallel, "--threads", str(a.workers)])]
                for key, binary, extra in runs:
                    if not binary or (key == "par" and a.workers == 0):
                        continue
                    w, c, t, nodes, init = run_jackdaw(binary, path, extra, a.timeout, cpu)
                    if settle(r, key, w, want, c, t, f"Jackdaw {key}"):
                        r["nodes_" + key].append(nodes)
                        if key == "new" and init:
                            r["init"] = init
                print(f"{name} repeat {rep + 1}: " + ", ".join(
                    f"{k} {r[k][-1][0]:.2f}s" for k in ("c1", "c2", "gl", "new", "old", "par") if r[k]), flush=True)
            rows.append(r)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load1 = loadavg()

    def cell(r, key, i):
        if key in r["unsolved"] and not r[key]:
            return f"> {a.timeout}"
        return spread([x[i] for x in r[key]])

    def med(r, key, i):
        return statistics.median(x[i] for x in r[key]) if r[key] else None

    def glratio(r, new):
        return f"{med(r, 'gl', 0) / new:.2f}" if r["gl"] and new else "–"

    lines = []
    # No machine paths in the record: an absolute path is written as <its file name>.
    cmd = "bench/maxclique/vs_clisat.py " + " ".join(
        f"<{os.path.basename(x)}>" if os.path.isabs(x) else shlex.quote(x) for x in sys.argv[1:])
    lines.append(f"Machine: {platform.node()} ({os.cpu_count()} CPUs, {platform.machine()}), "
                 f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC. Load average (1, 5, 15 min) "
                 f"at the start {load0}, at the end {load1}.{' ' + a.note if a.note else ''}")
    lines.append("")
    lines.append(f"Command (binaries given by path): `{cmd}`; {a.repeats} repeats, alternating, "
                 f"timeout {a.timeout} s per run. Seconds: median [min, max]. CPU = user + system of the process.")
    lines.append("")
    lines.append("| instance | ω | CliSAT o1 CPU s | CliSAT o2 CPU s | Jackdaw seq before CPU s | nodes before | "
                 "Jackdaw seq CPU s | nodes | initial clique (s) | CliSAT best / Jackdaw seq | "
                 f"CliSAT best wall s | Jackdaw {a.workers} workers wall s | CliSAT best / Jackdaw {a.workers}w |"
                 + (" Glasgow CPU s | Glasgow / Jackdaw seq |" if a.glasgow else ""))
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if a.glasgow else ""))
    for r in rows:
        best = min((m for m in (med(r, "c1", 0), med(r, "c2", 0)) if m is not None), default=None)
        bestw = min((m for m in (med(r, "c1", 1), med(r, "c2", 1)) if m is not None), default=None)
        new, par = med(r, "new", 0), med(r, "par", 1)
        ratio = f"{best / new:.2f}" if best and new else "–"
        pratio = f"{bestw / par:.2f}" if bestw and par else "–"
        nodes = lambda k: str(int(statistics.median(r["nodes_" + k]))) if r["nodes_" + k] else "–"
        init = f"{r['init'][0]} ({r['init'][1]:.3f})" if r["init"] else "–"
        lines.append(f"| {r['name']} | {r['omega']} | {cell(r, 'c1', 0)} | {cell(r, 'c2', 0)} | "
                     f"{cell(r, 'old', 0) if a.old else '–'} | {nodes('old')} | {cell(r, 'new', 0)} | {nodes('new')} | "
                     f"{init} | {ratio} | {bestw if bestw is None else f'{bestw:.3g}'} | {cell(r, 'par', 1)} | {pratio} |"
                     + (f" {cell(r, 'gl', 0)} | {glratio(r, new)} |" if a.glasgow else ""))
    wrong = [f"{r['name']}: {w}" for r in rows for w in r["wrong"]]
    lines.append("")
    lines.append("Wrong answers: " + ("; ".join(wrong) if wrong else "none (every answer equals ANSWERS.tsv)."))
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
