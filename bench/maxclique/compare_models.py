#!/usr/bin/env python3
"""MaxClique bound/order change: an OLD and a NEW maxclique binary, alternated, seq skeleton.

    bench/maxclique/compare_models.py --old OLD_BINARY [--new build/apps/maxclique/maxclique]
        [--pairs 5] [--out FILE] [--note TEXT] [INSTANCE ...]

An INSTANCE is a name in instances/dimacs (brock200_1) or a path to a .clq file, optionally with
@K for a decision search (brock200_1@22: --decision 22; the answer compared is then found or not,
shown in the omega column as ">= K" or "< K"). For each one
it runs OLD, NEW, OLD, NEW, ... (PAIRS pairs) with `--skeleton seq --stats JSON` and reports, per
binary, the median and range of the search time the app reports (parsing excluded), the user CPU
seconds of the whole process (less sensitive to a shared machine), the node count, and per
instance the median of the per-pair ratios OLD/NEW (both measures). Both binaries must agree on
omega. YEWPAR_SEQ_MS holds YewPar's sequential times on this machine kind (median of 3, 1 worker);
the table divides them by NEW's median search time.
"""
import argparse
import datetime
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

# YewPar master (HPX 1.9.1, Release), seq skeleton, one search worker, milliseconds of search.
YEWPAR_SEQ_MS = {"brock200_1": 446, "san200_0.9_3": 8919, "brock400_4": 68672}


def instance_path(name):
    if os.path.sep in name or name.endswith(".clq"):
        return os.path.abspath(name)
    return os.path.join(ROOT, "instances", "dimacs", name + ".clq")


def run_once(binary, path, decision=None):
    """(search seconds, user CPU seconds, nodes, answer) of one seq run."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        stats = f.name
    try:
        cmd = [binary, "--skeleton", "seq", "--stats", stats, path]
        if decision is not None:
            cmd += ["--decision", str(decision)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        p = subprocess.run(cmd, capture_output=True, text=True)
        user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
        if p.returncode != 0:
            sys.exit(f"{shlex.join(cmd)} failed with exit {p.returncode}:\n{p.stderr}")
        with open(stats) as f:
            doc = json.load(f)
        res = doc["result"]
        answer = res["omega"] if decision is None else (f">= {decision}" if res["found"] else f"< {decision}")
        return doc["seconds"], user, doc["stats"]["nodes"], answer
    finally:
        os.unlink(stats)


def spread(xs):
    return f"{statistics.median(xs):.3f} [{min(xs):.3f}, {max(xs):.3f}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True, help="the binary before the change")
    ap.add_argument("--new", default=os.path.join(ROOT, "build", "apps", "maxclique", "maxclique"))
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--out", default=None, help="also write the Markdown here")
    ap.add_argument("--note", default="")
    ap.add_argument("instances", nargs="*", default=["brock200_1", "san200_0.9_3", "brock400_4"])
    a = ap.parse_args()
    for b in (a.old, a.new):
        if not os.access(b, os.X_OK):
            sys.exit(f"not an executable: {b}")

    rows = []
    for spec in a.instances:
        name, _, k = spec.partition("@")
        decision = int(k) if k else None
        path = instance_path(name)
        inst = os.path.splitext(os.path.basename(path))[0]
        runs = {"old": [], "new": []}
        for i in range(a.pairs):
            for which, binary in (("old", a.old), ("new", a.new)):
                r = run_once(binary, path, decision)
                runs[which].append(r)
                print(f"{inst} pair {i + 1} {which}: search {r[0]:.3f} s, user {r[1]:.3f} s, nodes {r[2]}, "
                      f"omega {r[3]}", file=sys.stderr, flush=True)
        omegas = {r[3] for rs in runs.values() for r in rs}
        if len(omegas) != 1:
            sys.exit(f"{inst}: the binaries disagree on omega: {sorted(omegas)}")
        t = {w: [r[0] for r in rs] for w, rs in runs.items()}
        u = {w: [r[1] for r in rs] for w, rs in runs.items()}
        nodes = {w: sorted({r[2] for r in rs}) for w, rs in runs.items()}
        ratio_t = statistics.median(o / n for o, n in zip(t["old"], t["new"]))
        ratio_u = statistics.median(o / max(n, 1e-3) for o, n in zip(u["old"], u["new"]))
        yew = YEWPAR_SEQ_MS.get(inst) if decision is None else None
        if decision is not None:
            inst += f" (decision {decision})"
        vs = f"{yew / 1000 / statistics.median(t['new']):.2f}" if yew else "—"
        rows.append(
            f"| {inst} | {omegas.pop()} | {'/'.join(map(str, nodes['old']))} | {'/'.join(map(str, nodes['new']))} "
            f"| {spread(t['old'])} | {spread(t['new'])} | {ratio_t:.2f} | {spread(u['old'])} | {spread(u['new'])} "
            f"| {ratio_u:.2f} | {yew if yew else '—'} | {vs} |")

    cmd = "bench/maxclique/compare_models.py " + shlex.join(sys.argv[1:])
    lines = [
        f"- command: `{cmd}` (from the repository root)",
        f"- machine: {benchlib.cpu_model()}, nproc {os.cpu_count()}, Linux {platform.release()}",
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
        f"- pairs: {a.pairs} per instance, old and new alternated (old, new, old, new, ...)",
    ] + ([f"- note: {a.note}"] if a.note else []) + [
        "",
        "| instance | ω | nodes old | nodes new | search s old, median [min, max] | search s new | old/new "
        "| user s old | user s new | old/new (user) | YewPar seq ms | YewPar / new |",
        "|---|---:|---:|---:|---|---|---:|---|---|---:|---:|---:|",
    ] + rows
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
