#!/usr/bin/env python3
"""Every numeric option of an app, fed the values a hostile or careless user types.

  option_fuzz.py --common-from MINIMAL_APP [--own] [--expect REGEX] -- APP BASE_ARGS...

The numeric options are read from APP --help (CLI11 names their type: INT, UINT, FLOAT, NUMBER,
SIZE, INT|auto). With --own only the options APP adds to the common ones (those MINIMAL_APP, an
app with no options of its own, lists) are tried (an app with none of its own passes once it lists
every common option); without it, only the common ones. Each option
gets each value of VALUES as --option=value, after BASE_ARGS (a BASE_ARGS pair naming the same
option is dropped). Every case must end in one of two ways:

  exit 2, with exactly one line saying "error:" that names the option;
  exit 0 (the value is meaningful), and stdout matching --expect if given; never for the values in
  NEVER (no option of ours takes a non-finite, blank-led, empty, hexadecimal or 2^64 value, nor a
  negative one unless its range says so).

Anything else fails the test: another exit code, a signal (an abort, a crash), a hang (timeout),
or a refusal that does not say which option. Prints the case counts.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

VALUES = ["nan", "inf", "-inf", "-1", "0", str(2**63), str(2**64), "1e400", " -5", "", "0x10"]
# No option of ours means anything by these: they must be refused, never taken as some number
# ("-1" only where the option's range, as --help shows it, starts below zero, e.g. a UTS root seed).
NEVER = {"nan", "inf", "-inf", "-1", str(2**64), "1e400", " -5", "", "0x10"}
LOWER = re.compile(r"in \[(-?[0-9.e+]+)[ ,]")
OPTION = re.compile(r"^\s{2}(?:-(\w),)?(--[\w-]+)\s+([A-Z][\w:|]*)")
NUMERIC = re.compile(r"^(INT|UINT|FLOAT|NUMBER)|:(INT|UINT|FLOAT|NUMBER|SIZE)\b|INT\|auto")


def numeric_options(app):
    text = subprocess.run([app, "--help"], capture_output=True, text=True, timeout=60).stdout
    found = {}
    for line in text.splitlines():
        m = OPTION.match(line)
        if m and NUMERIC.search(m.group(3)):
            lo = LOWER.search(line)
            negative = bool(lo) and float(lo.group(1)) < 0
            found[m.group(2)] = (m.group(1), negative)
    if not found:
        sys.exit(f"option_fuzz: no numeric option found in {app} --help")
    return found


def drop(base, names):
    out, i = [], 0
    while i < len(base):
        key = base[i].split("=", 1)[0]
        if key in names:
            i += 1 if "=" in base[i] else 2
            continue
        out.append(base[i])
        i += 1
    return out


def run_case(app, base, option, spec, value, expect, timeout):
    short, negative = spec
    names = {option} | ({"-" + short} if short else set())
    cmd = [app] + drop(base, names) + [f"{option}={value}"]
    shown = " ".join(cmd[:-1]) + f" '{option}={value}'"
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return "fail", f"{shown}: no answer within {timeout} s"
    errors = [l for l in p.stderr.splitlines() if "error:" in l]
    if p.returncode == 2:
        if len(errors) != 1:
            return "fail", f"{shown}: exit 2 with {len(errors)} error lines:\n{p.stderr[-800:]}"
        if option not in errors[0] and not (short and f"-{short}" in errors[0]):
            return "fail", f"{shown}: the message does not name {option}: {errors[0]}"
        return "refused", None
    if p.returncode == 0 and value in NEVER and not (value == "-1" and negative):
        return "fail", f"{shown}: accepted a value that means nothing (exit 0)"
    if p.returncode == 0:
        if expect and not re.search(expect, p.stdout):
            return "fail", f"{shown}: accepted, but stdout does not match '{expect}':\n{p.stdout[-800:]}"
        return "accepted", None
    what = f"signal {-p.returncode}" if p.returncode < 0 else f"exit {p.returncode}"
    return "fail", f"{shown}: {what}:\n{p.stderr[-800:]}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--common-from", required=True, help="an app with no options of its own")
    ap.add_argument("--own", action="store_true", help="only the options APP adds to the common ones")
    ap.add_argument("--expect", default="", help="regex an accepted run's stdout must match")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        ap.error("give the app and its base arguments after --")
    app, base = command[0], command[1:]
    common = numeric_options(a.common_from)
    mine = numeric_options(app)
    missing = sorted(set(common) - set(mine))
    if missing:
        sys.exit(f"option_fuzz: {app} lacks common options {missing}")
    options = {k: v for k, v in mine.items() if k not in common} if a.own else common
    if not options and a.own:
        # Every app is fuzzed (tests/app takes them from jackdaw_app_check): one with no numeric
        # option of its own has only the common ones, fuzzed on the frame's smallest app.
        print(f"option_fuzz: {app} has every common option and no numeric option of its own")
        return 0
    if not options:
        sys.exit(f"option_fuzz: {app} has no numeric options to try")
    cases = [(o, s, v) for o, s in sorted(options.items()) for v in VALUES]
    counts = {"refused": 0, "accepted": 0, "fail": 0}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        futures = [pool.submit(run_case, app, base, o, s, v, a.expect, a.timeout) for o, s, v in cases]
        for f in futures:
            kind, message = f.result()
            counts[kind] += 1
            if message:
                failures.append(message)
    for m in failures:
        print("FAIL", m)
    print(f"option fuzz of {os.path.basename(app)}: {len(cases)} cases ({len(options)} options x {len(VALUES)} values), "
          f"{counts['refused']} refused, {counts['accepted']} accepted, {counts['fail']} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
