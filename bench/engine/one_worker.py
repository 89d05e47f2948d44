#!/usr/bin/env python3
"""The engine's own cost on one worker: each parallel skeleton with --threads 1 against seq, per app.

    bench/engine/one_worker.py [--build build] [--baseline OLD_BUILD] [--apps ns,uts,maxclique]
                               [--reps 5] [--out FILE] [--note TEXT]

For NS (genus 36), UTS (T1L) and MaxClique (brock400_4): seq, then budget -b 100000, stack_stealing
and depth_bounded (-d 20 for NS, -d 6 for UTS, -d 2 for MaxClique) on one worker and one process. With
--baseline (an older build's folder), every run is repeated with that build's app, alternated with
the new one inside each repetition; the order of the variants rotates each repetition, so drift in
the machine's load reaches every variant alike. Time is the process's CPU time (user + system,
start-up included). Every run must give seq's answer (NS: every genus count; UTS: the node count;
MaxClique: omega). Reports each variant's median [min, max] and the median of the per-repetition
ratios skeleton / seq (goal of the engine: <= 1.03).
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

APPS = {
    "ns": ("apps/ns/ns", ["-g", "36"], "20"),
    "uts": ("apps/uts/uts", ["--tree", "T1L"], "6"),
    "maxclique": ("apps/maxclique/maxclique", [os.path.join(ROOT, "instances/dimacs/brock400_4.clq")], "2"),
}


def variants(depth):
    return [("seq", ["--skeleton", "seq"]),
            ("budget", ["--skeleton", "budget", "-b", "100000", "--threads", "1"]),
            ("stack_stealing", ["--skeleton", "stack_stealing", "--threads", "1"]),
            ("depth_bounded", ["--skeleton", "depth_bounded", "-d", depth, "--threads", "1"])]


def answer(app, out):
    """What every skeleton must agree on."""
    if app == "ns":
        return tuple(re.findall(r"^(\d+): (\d+)$", out, re.M))
    if app == "uts":
        return re.search(r"^nodes: (\d+)", out, re.M).group(1)
    return re.search(r"^omega = (\d+)", out, re.M).group(1)


def cpu_run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=1800)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed with exit {p.returncode}:\n{p.stdout}{p.stderr}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    benchlib.add_run_args(ap, 5, ROOT)
    ap.add_argument("--baseline", help="an older build folder to alternate with")
    ap.add_argument("--apps", default="ns,uts,maxclique")
    a = ap.parse_args()
    builds = [("new", a.build)] + ([("baseline", a.baseline)] if a.baseline else [])
    lines = benchlib.preamble("The engine's cost on one worker", "bench/engine/one_worker.py", sys.argv[1:],
                              "time: CPU seconds (user + system) of the whole process; "
                              f"{a.reps} repetitions, variants rotated, builds alternated", a.note)
    for app in a.apps.split(","):
        path, args, depth = APPS[app]
        vs = variants(depth)
        times, ref = {}, None
        for rep, i, label, build in benchlib.alternated(a.reps, vs, builds):
            name, flags = vs[i]
            t, out = cpu_run([os.path.join(build, path)] + args + flags)
            got = answer(app, out)
            if ref is None:
                ref = got
            elif got != ref:
                sys.exit(f"{app} {name} ({label}) answered {got}, another run {ref}")
            times.setdefault((label, name), []).append((rep, t))
        lines += ["", f"### {app} `{' '.join(os.path.basename(x) for x in args)}`", "",
                  "| build | variant | CPU s, median [min, max] | / seq per repetition, median [min, max] |",
                  "|---|---|---|---|"]
        for label, _ in builds:
            seq = dict(times[(label, "seq")])
            for name, _ in vs:
                runs = times[(label, name)]
                cell = benchlib.spread([t for _, t in runs])
                ratio = "" if name == "seq" else benchlib.spread([t / seq[r] for r, t in runs])
                lines.append(f"| {label} | {name} | {cell} | {ratio} |")
    benchlib.emit("\n".join(lines) + "\n", a.out)


if __name__ == "__main__":
    main()
