"""campaign.py's arguments: each checked before anything runs, one message and exit 2 when bad;
the policies a program offers; the names every part of the campaign shares."""
import argparse
import json
import math
import os
import re
import subprocess
import sys


MANIFEST_FIELDS = ["id", "mode", "ranks", "threads", "policy", "rep", "exit", "wall_seconds", "dir", "command"]
MODES = ("isolated", "slow", "simultaneous")
BAD_INPUT = 2


# ----------------------------------------------------------------------------------------- arguments
class Parser(argparse.ArgumentParser):
    """argparse with a bad argument as one line on stderr (no usage block) and exit 2."""

    def error(self, message):
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(BAD_INPUT)


def bad(message):
    """Bad input found after parsing: one line, exit 2, before anything has run."""
    sys.stderr.write(f"campaign {' '.join(sys.argv[1:2])}: error: {message}\n")
    sys.exit(BAD_INPUT)


def whole(lo, hi):
    """An argparse type: a plain decimal whole number in [lo, hi]."""
    def parse(text):
        if not re.fullmatch(r"-?[0-9]+", text) or not lo <= int(text) <= hi:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number in [{lo}, {hi}]")
        return int(text)
    return parse


def real(lo, hi, above=False):
    """An argparse type: a finite plain decimal number in [lo, hi] (in (lo, hi] with above)."""
    def parse(text):
        ok = re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", text)
        v = float(text) if ok else math.nan
        if not (math.isfinite(v) and lo <= v <= hi and (v > lo or not above)):
            raise argparse.ArgumentTypeError(f"'{text}' is not a number in {'(' if above else '['}{lo:g}, {hi:g}]")
        return v
    return parse


def listed(item, what):
    """An argparse type: a comma-separated list of `item`s, none twice."""
    def parse(text):
        values = [item(part) for part in text.split(",")]
        twice = sorted({str(v) for v in values if values.count(v) > 1})
        if twice:
            raise argparse.ArgumentTypeError(f"{', '.join(twice)} given twice")
        return values
    parse.__name__ = what
    return parse


def name(text):
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a name")
    return text


def mode(text):
    if text not in MODES:
        raise argparse.ArgumentTypeError(f"'{text}' is not a mode ({', '.join(MODES)})")
    return text


def policies_of(program):
    """The policies `program` offers, by name, from its --list-policies (every Jackdaw app and
    jackdaw-sim take it); None if it does not say. The program runs outside any Slurm job step (an
    app started alone runs as one rank without MPI)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "PMIX_", "PMI_"))}
    try:
        p = subprocess.run([program, "--list-policies"], capture_output=True, text=True, timeout=60, env=env,
                           stdin=subprocess.DEVNULL)
        return [pol["name"] for pol in json.loads(p.stdout)] if p.returncode == 0 else None
    except (OSError, subprocess.SubprocessError, ValueError, TypeError, KeyError):
        return None


def check_common(args, program):
    """What run and simulate share: the policies are the program's, the seeds fit, --out can be
    made. Called before anything runs; makes --out."""
    offered = policies_of(program)
    if offered is None:
        bad(f"{os.path.basename(program)} does not list its policies (--list-policies): not a Jackdaw program?")
    unknown = [p for p in args.policies if p not in offered]
    if unknown:
        bad(f"--policies: {', '.join(unknown)}: not a policy of {os.path.basename(program)} "
            f"(its policies: {', '.join(offered)})")
    if args.seed + args.reps - 1 > 2**64 - 1:
        bad(f"--seed {args.seed} with --reps {args.reps}: the last seed passes 2^64 - 1")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        bad(f"--out {args.out}: exists and is not a folder")
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        bad(f"--out {args.out}: cannot make this folder ({e.strerror})")
    if not os.access(args.out, os.W_OK | os.X_OK):
        bad(f"--out {args.out}: cannot write in this folder")
