#!/usr/bin/python3
"""A/B of two builds on distributed runs (e.g. before and after a comm-layer change), alternated.

    bench/distributed/builds_ab.py BUILD_A BUILD_B [--reps 7] [--set short|long] [--only TEXT] [--out FILE]

Each repetition runs every configuration with A then B (the next repetition B then A), so drift in
the machine's load hits both alike. Per configuration: the search time (`seconds` in --stats, rank
0), the ratio B/A per pair, the median steal round trip (from the ranks' log2 histograms), the
thieves' idle time and the comm threads' CPU. The answer must be the same in every run, or the
script stops: node count and result for the enumerations, omega for MaxClique. --only keeps the
configurations whose name contains TEXT.
"""
import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def enumeration(j):
    return j["stats"]["nodes"], str(j.get("result"))


NS = (["apps/ns/ns", "-g", "35", "--skeleton", "budget", "-b", "100000"], enumeration)
MC = (["apps/maxclique/maxclique", os.path.join(ROOT, "instances/dimacs/DSJC500_5.clq"), "--skeleton", "depth_bounded",
       "-d", "2"], lambda j: j["result"]["omega"])
UTS = (["apps/uts/uts", "--tree", "T1L", "--skeleton", "budget", "-b", "100000"], enumeration)
CONFIGS = [  # name, app, ranks, workers
    ("ns -g 35 budget, 1 rank x 2 workers", NS, 1, 2),
    ("ns -g 35 budget, 2 ranks x 1 worker", NS, 2, 1),
    ("maxclique DSJC500_5 -d 2, 1 rank x 2 workers", MC, 1, 2),
    ("maxclique DSJC500_5 -d 2, 2 ranks x 1 worker", MC, 2, 1),
    ("maxclique DSJC500_5 -d 2, 4 ranks x 1 worker", MC, 4, 1),
    ("uts T1L budget, 1 rank x 2 workers", UTS, 1, 2),
    ("uts T1L budget, 2 ranks x 1 worker", UTS, 2, 1),
]
# --set long: searches of seconds on 2 ranks, where a few percent stand out of the noise (the
# short set's sub-second runs spread by 20-40 % on a 2-core machine).
NS_LONG = (["apps/ns/ns", "-g", "38", "--skeleton", "budget", "-b", "100000"], enumeration)
MC_LONG = (["apps/maxclique/maxclique", os.path.join(ROOT, "instances/dimacs/brock400_4.clq"), "--skeleton",
            "depth_bounded"], lambda j: j["result"]["omega"])
LONG = [
    ("ns -g 38 budget, 2 ranks x 1 worker", NS_LONG, 2, 1),
    ("uts T1L budget, 2 ranks x 1 worker", UTS, 2, 1),
    ("maxclique brock400_4 depth_bounded, 2 ranks x 1 worker", MC_LONG, 2, 1),
]
SETS = {"short": CONFIGS, "long": LONG}


def median_from_log2(hist):
    """Median of a log2 histogram (bin i counts values in [2^i, 2^(i+1))), as the bin's midpoint."""
    n = sum(hist)
    if n == 0:
        return 0.0
    seen = 0
    for i, c in enumerate(hist):
        seen += c
        if 2 * seen >= n:
            return 1.5 * 2 ** i
    return 0.0


def measures(j):
    """Round trip, idle, comm CPU and requests of a multi-rank run; None for one rank (no comm layer)."""
    d = j.get("distributed")
    if not d:
        return None
    hist = [0] * 24
    for r in d["per_rank"]:
        for i, c in enumerate(r["comm"]["round_trip_us_log2"]):
            hist[i] += c
    t = d["totals"]
    return {"rtt": median_from_log2(hist), "idle": t["idle_us"] / 1e6, "comm_cpu": t["comm"]["comm_cpu_seconds"],
            "steals": t["steal_requests"]}


def source_commit(build):
    """The commit a build folder was configured from (its CMake cache names the source folder)."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            src = next(line.split("=", 1)[1].strip() for line in f if line.startswith("CMAKE_HOME_DIRECTORY"))
        r = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        return r.stdout.strip() or "unknown commit"
    except (OSError, StopIteration):
        return "unknown commit"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--set", choices=sorted(SETS), default="short", help="the configurations (default: short)")
    ap.add_argument("--only", default="", help="run only the configurations whose name contains this")
    ap.add_argument("--out")
    a = ap.parse_args()
    configs = [c for c in SETS[a.set] if a.only in c[0]]
    if not configs:
        sys.exit(f"--only {a.only!r}: no configuration's name contains it")
    builds = {"A": os.path.abspath(a.a), "B": os.path.abspath(a.b)}
    lines = ["# Two builds on distributed runs, alternated", "",
             f"- command: `bench/distributed/builds_ab.py A B --reps {a.reps}"
             + (f" --set {a.set}" if a.set != "short" else "")
             + (f" --only '{a.only}'" if a.only else "") + f"` (A = a build of {source_commit(a.a)}, B = a build of {source_commit(a.b)})",
             f"- machine: {benchlib.machine()}", f"- date: {benchlib.utc_now()}",
             "- ranks run with `mpirun --oversubscribe` and Open MPI's default binding (one core per rank for 2 ranks);",
             "  seconds = the app's search time (rank 0); rtt = median steal round trip over all ranks (log2 bins, bin",
             "  midpoint); idle = all workers' idle seconds; comm CPU = all comm threads' CPU seconds", "",
             "| configuration | A median s (min-max) | B median s (min-max) | B/A per pair, median (min-max) "
             "| rtt µs A / B | idle s A / B | comm CPU s A / B | steal requests A / B |",
             "|---|---|---|---|---|---|---|---|"]
    for name, (app, answer_of), ranks, workers in configs:
        runs = {"A": [], "B": []}
        answer = None
        for rep in range(a.reps):
            for v in ("A", "B") if rep % 2 == 0 else ("B", "A"):
                cmd = [os.path.join(builds[v], app[0])] + app[1:] + ["--threads", str(workers)]
                if ranks > 1:
                    cmd = ["mpirun", "--oversubscribe", "--allow-run-as-root", "-n", str(ranks)] + cmd
                j = benchlib.run_stats(cmd, cwd=ROOT)
                got = answer_of(j)
                if answer is None:
                    answer = got
                elif got != answer:
                    sys.exit(f"{name}, {v}: answer {got} differs from {answer}")
                runs[v].append((j["seconds"], measures(j)))
                print(f"{name} | {v} | rep {rep} | {j['seconds']:.3f} s", flush=True)
        ta = [s for s, _ in runs["A"]]
        tb = [s for s, _ in runs["B"]]
        ratios = [b / x for x, b in zip(ta, tb)]
        def med(v, k, fmt):
            got = [m[k] for _, m in runs[v] if m is not None]
            return format(statistics.median(got), fmt) if got else "—"
        lines.append(
            f"| {name} | {statistics.median(ta):.3f} ({min(ta):.3f}-{max(ta):.3f}) "
            f"| {statistics.median(tb):.3f} ({min(tb):.3f}-{max(tb):.3f}) "
            f"| {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f}) "
            f"| {med('A', 'rtt', '.0f')} / {med('B', 'rtt', '.0f')} | {med('A', 'idle', '.3f')} / {med('B', 'idle', '.3f')} "
            f"| {med('A', 'comm_cpu', '.3f')} / {med('B', 'comm_cpu', '.3f')} "
            f"| {med('A', 'steals', '.0f')} / {med('B', 'steals', '.0f')} |")
    lines.append("")
    benchlib.emit("\n".join(lines), a.out)


if __name__ == "__main__":
    main()
