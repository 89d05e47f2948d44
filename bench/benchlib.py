"""What the end-to-end benchmark scripts share: the machine line of a results file and its output.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import benchlib
    say(f"- machine: {benchlib.machine()}")
    doc = benchlib.run_stats([app, args...], cwd=ROOT)   # the run's --stats JSON; exits on failure
    benchlib.emit(text, out_path_or_None)
    benchlib.idle_pct(doc), benchlib.steal_rtt_us(doc)   # what a --stats JSON says of a run
"""
import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile


def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "?"


def machine():
    return f"{cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}"


def shown(path, root=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")):
    """A path as a results file should show it: relative to the repository when inside it."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    return rel if not rel.startswith("..") else path


def utc_now():
    return f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC"


def add_run_args(ap, reps, root):
    """--reps, --build (default ROOT/build), --out and --note: what every study script takes."""
    ap.add_argument("--reps", type=int, default=reps)
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--out")
    ap.add_argument("--note", default="")


def preamble(title, script, argv, method, note=""):
    """A results file's first lines: title, the command as run, machine, date, the method, a note."""
    lines = [f"# {title}", "",
             f"- command: `{script} {' '.join(shlex.quote(x) for x in argv)}` (from the repository root)",
             f"- machine: {machine()}", f"- date: {utc_now()}", f"- {method}"]
    return lines + ([f"- note: {note}"] if note else [])


def emit(text, out=None):
    """Print the results text and, if `out` is given, write it there too."""
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text)


def run_stats(cmd, cwd=None, timeout=1800):
    """Run an app command with `--stats FILE` appended; return the JSON. A failed run ends the script."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        stats = f.name
    try:
        full = list(cmd) + ["--stats", stats]
        p = subprocess.run(full, capture_output=True, text=True, cwd=cwd, timeout=timeout)
        if p.returncode != 0:
            sys.exit(f"{shlex.join(full)} failed with exit {p.returncode}:\n{p.stdout}{p.stderr}")
        with open(stats) as f:
            return json.load(f)
    finally:
        os.unlink(stats)


def idle_pct(doc):
    """The share of the workers' time spent idle in an app's (or jackdaw-sim's) --stats JSON."""
    tot = doc.get("distributed", {}).get("totals", {})
    busy, idle = tot.get("busy_us", 0.0), tot.get("idle_us", 0.0)
    if not doc.get("distributed"):  # one rank: the workers' own accounts
        busy = sum(w.get("busy_us", 0.0) for w in doc.get("workers", []))
        idle = sum(w.get("idle_us", 0.0) for w in doc.get("workers", []))
    return 100.0 * idle / (busy + idle) if busy + idle else 0.0


def steal_rtt_us(doc):
    """The ranks' mean steal round trips, averaged over the ranks (0 for one rank)."""
    ranks = doc.get("distributed", {}).get("per_rank", [])
    return statistics.mean(r["comm"].get("steal_round_trip_us_mean", 0.0) for r in ranks) if ranks else 0.0


def spread(xs, fmt="{:.3f}"):
    """'median [min, max]' of xs."""
    return f"{fmt.format(statistics.median(xs))} [{fmt.format(min(xs))}, {fmt.format(max(xs))}]"


def add_session_args(ap, binary, default, reps):
    """The flags of an alternating session: --BINARY PATH (default `default`), --baseline OLD (an
    older build alternated with it), --reps, --out and --note."""
    ap.add_argument(f"--{binary}", default=default)
    ap.add_argument("--baseline", help=f"an older {binary} binary to alternate with")
    ap.add_argument("--reps", type=int, default=reps)
    ap.add_argument("--out")
    ap.add_argument("--note", default="")


def session_binaries(a, binary):
    """[(label, path)]: the new binary, then the baseline if one was given (see add_session_args)."""
    return [("new", getattr(a, binary))] + ([("baseline", a.baseline)] if a.baseline else [])


def alternated(reps, variants, binaries):
    """One alternating session: yields (rep, i, binary label, binary path) so that every repetition
    runs every variant once, in an order rotated by one each repetition, and each variant with every
    binary, their order reversed every other repetition. Drift in the machine's load reaches all alike."""
    for rep in range(reps):
        order = list(range(len(variants)))
        order = order[rep % len(order):] + order[:rep % len(order)]
        for i in order:
            for label, path in (binaries if rep % 2 == 0 else binaries[::-1]):
                yield rep, i, label, path
