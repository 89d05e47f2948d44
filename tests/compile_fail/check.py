#!/usr/bin/env python3
"""Compile-fail check for one model mistake.

check.py COMPILE_COMMANDS SOURCE REGEX [NOTE_REGEX]

1. The source as written must compile (the positive control: the mistake is the only problem).
2. With -DMISTAKE it must fail; the first line with "error:" must match REGEX (the requirement,
   stated at the user's call), and it must be the only error (no knock-on errors).
3. With NOTE_REGEX, the diagnostics must also match it (e.g. a note naming the types compared).
"""
import json
import re
import shlex
import subprocess
import sys


def command_for(db_path, source):
    with open(db_path) as f:
        for entry in json.load(f):
            if entry["file"] == source:
                args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
                return args, entry["directory"]
    sys.exit(f"{source} is not in {db_path} (is CMAKE_EXPORT_COMPILE_COMMANDS on?)")


def compile_(args, cwd, extra):
    # Only the front end: drop the output file and ask for a syntax check.
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a.startswith("-o") and len(a) > 2:
            continue
        out.append(a)
    cmd = out + extra + ["-fsyntax-only", "-fdiagnostics-color=never"]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def main():
    db, source, pattern = sys.argv[1:4]
    note = sys.argv[4] if len(sys.argv) > 4 else None
    args, cwd = command_for(db, source)
    ok = compile_(args, cwd, [])
    if ok.returncode != 0:
        print(ok.stderr)
        sys.exit(f"FAIL: {source} does not compile without the mistake; the test would prove nothing")
    bad = compile_(args, cwd, ["-DMISTAKE"])
    if bad.returncode == 0:
        sys.exit(f"FAIL: {source} compiled with the mistake")
    errors = [line for line in bad.stderr.splitlines() if "error:" in line]
    print(f"first error: {errors[0] if errors else '(none)'}")
    if not errors or not re.search(pattern, errors[0]):
        print(bad.stderr[:6000])
        sys.exit(f"FAIL: the first error does not name the requirement /{pattern}/")
    if len(errors) != 1:
        print("\n".join(errors))
        sys.exit(f"FAIL: {len(errors)} errors; the mistake must give exactly one")
    if note and not re.search(note, bad.stderr):
        print(bad.stderr[:6000])
        sys.exit(f"FAIL: the diagnostics do not match /{note}/")
    print(f"ok: {len(bad.stderr.splitlines())} lines of diagnostics, one error")


if __name__ == "__main__":
    main()
