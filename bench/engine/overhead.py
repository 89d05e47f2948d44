#!/usr/bin/env python3
"""The cost of generality on NS: each skeleton against seq, 2 workers against 1, 2 ranks against 2 workers.

    bench/engine/overhead.py [--ns build/apps/ns/ns] [--baseline OLD_NS] [--genus 35] [--reps 5]
                             [--out FILE] [--note TEXT]

Runs, in one alternating session (the order rotated each repetition, so drift in the machine's
load reaches every variant alike):
  seq; budget -b 100000, depth_bounded -d 20 and stack_stealing with 1 worker; budget with
  2 workers; budget on 2 MPI ranks x 1 worker (mpirun -n 2, Open MPI's default binding: a core each).
Time is the search time ns reports ("time:", rank 0; MPI start-up excluded); every run must count
the same nodes and semigroups as seq. Reports per variant the median [min, max] and nodes/s, and
the ratios the engine aims at (median of the per-repetition ratios, with their range):
  skeleton, 1 worker / seq (goal <= 1.03); budget 1 worker / 2 workers (goal >= 1.95);
  2 workers / 2 ranks x 1 worker (goal >= 0.95); and the 2-worker speedup over that ceiling.
With --baseline, every variant also runs with that binary (an older build), alternated with the
new one inside each repetition, and each table is given for both.
"""
import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-n", "2"]
PAIR = ["<two at once>"]  # not a command: run() starts two copies side by side

VARIANTS = [
    ("seq", [], ["--skeleton", "seq"]),
    ("budget, 1 worker", [], ["--skeleton", "budget", "-b", "100000", "--threads", "1"]),
    ("depth_bounded -d 20, 1 worker", [], ["--skeleton", "depth_bounded", "-d", "20", "--threads", "1"]),
    ("stack_stealing, 1 worker", [], ["--skeleton", "stack_stealing", "--threads", "1"]),
    ("budget, 2 workers", [], ["--skeleton", "budget", "-b", "100000", "--threads", "2"]),
    ("budget, 2 ranks x 1 worker", MPIRUN, ["--skeleton", "budget", "-b", "100000", "--threads", "1"]),
    ("two seq processes at once (slower)", PAIR, ["--skeleton", "seq"]),
]
# (label, numerator variant, denominator variant, goal text, factor): factor x ratio of times.
RATIOS = [
    ("budget 1 worker / seq", 1, 0, "<= 1.03", 1),
    ("depth_bounded -d 20 1 worker / seq", 2, 0, "<= 1.03", 1),
    ("stack_stealing 1 worker / seq", 3, 0, "<= 1.03", 1),
    ("budget: 1 worker / 2 workers (speedup)", 1, 4, ">= 1.95", 1),
    ("2 workers / 2 ranks x 1 worker", 4, 5, ">= 0.95", 1),
    ("ceiling: 2 x seq / two seq processes at once", 0, 6, "", 2),
]


def run(prefix, ns, genus, args):
    if prefix is PAIR:  # two processes side by side: the slower one's time
        cmd = [ns, "-g", str(genus)] + args
        ps = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outs = [p.communicate(timeout=900) for p in ps]
        got = [parse(cmd, p.returncode, *o) for p, o in zip(ps, outs)]
        if got[0][1:] != got[1][1:]:
            sys.exit(f"two copies of {shlex.join(cmd)} disagree: {got}")
        return max(got)
    cmd = prefix + [ns, "-g", str(genus)] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    return parse(cmd, p.returncode, p.stdout, p.stderr)


def parse(cmd, rc, stdout, stderr):
    if rc != 0:
        sys.exit(f"failed ({rc}): {shlex.join(cmd)}\n{stdout}{stderr}")
    get = lambda k: re.search(rf"^{k}: ([0-9.e+-]+)", stdout, re.M).group(1)
    return float(get("time")), int(get("nodes")), int(get("total"))



def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    benchlib.add_session_args(ap, "ns", os.path.join(ROOT, "build", "apps", "ns", "ns"), reps=5)
    ap.add_argument("--genus", type=int, default=35)
    a = ap.parse_args()

    binaries = benchlib.session_binaries(a, "ns")
    times = {b: [[] for _ in VARIANTS] for b, _ in binaries}
    seen = set()
    for rep, i, b, path in benchlib.alternated(a.reps, VARIANTS, binaries):
        name, prefix, args = VARIANTS[i]
        t, nodes, total = run(prefix, path, a.genus, args)
        times[b][i].append(t)
        seen.add((nodes, total))
        print(f"rep {rep + 1}: {b:8s} {name:32s} {t:.3f} s", flush=True)
    if len(seen) != 1:
        sys.exit(f"the variants disagree on (nodes, semigroups): {sorted(seen)}")
    nodes, total = seen.pop()

    out = []
    say = out.append
    say(f"- command: `bench/engine/overhead.py {' '.join(shlex.quote(x) for x in sys.argv[1:])}`")
    say(f"- machine: {benchlib.machine()}")
    say(f"- date: {benchlib.utc_now()}; load average at the end "
        f"{os.getloadavg()[0]:.2f}")
    say(f"- ns -g {a.genus}: {nodes} nodes, {total} semigroups in every variant; {a.reps} repetitions, order rotated")
    if a.note:
        say(f"- note: {a.note}")
    say("")
    for b, path in binaries:
        say("")
        say(f"### {b}: `{benchlib.shown(path)}`")
        say("")
        say("| variant | seconds, median [min, max] | M nodes/s (median) |")
        say("|---|---|---|")
        for (name, _, _), ts in zip(VARIANTS, times[b]):
            say(f"| {name} | {benchlib.spread(ts)} | {nodes / statistics.median(ts) / 1e6:.1f} |")
        say("")
        say("| ratio of times | per repetition, median [min, max] | goal |")
        say("|---|---|---|")
        for label, n, d, goal, factor in RATIOS:
            rs = [factor * x / y for x, y in zip(times[b][n], times[b][d])]
            say(f"| {label} | {benchlib.spread(rs)} | {goal} |")
        # The 2-worker speedup as a share of what two busy cores give this machine.
        rs = [(x / y) / (2 * s / p) for x, y, s, p in zip(times[b][1], times[b][4], times[b][0], times[b][6])]
        say(f"| speedup / ceiling | {benchlib.spread(rs)} | |")
    text = "\n".join(out) + "\n"
    benchlib.emit(text, a.out)


if __name__ == "__main__":
    main()
