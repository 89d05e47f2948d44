#!/usr/bin/env python3
"""Every victim policy a program offers is found where policies are listed, without a hand-kept
list: the program's --list-policies is valid JSON whose names are --policy's choices in --help;
each policy and each of its constants is documented (docs/policies.md names the policy, a policy
page or docs/options.md its constants); and each policy answers right on 3 ranks, on the pushed and
the sampled board (NS genus 0..18, OEIS A007323, from instances/ns/genus_counts.tsv).

  check_listed_policies.py NS MPIEXEC REPO_ROOT [PROGRAM...]
    NS: the ns app (runs the policies); PROGRAM...: more programs whose listing must equal NS's
    (list_policies, jackdaw-sim).
"""
import json
import os
import re
import subprocess
import sys

GENUS = 18


def listing(program):
    p = subprocess.run([program, "--list-policies"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise SystemExit(f"FAIL {program} --list-policies: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def main():
    ns, mpiexec, root = sys.argv[1:4]
    others = sys.argv[4:]
    failures = 0

    def check(ok, what):
        nonlocal failures
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        failures += not ok

    policies = listing(ns)
    names = [p["name"] for p in policies]
    check(len(names) == len(set(names)) and "random" in names, f"ns --list-policies: {', '.join(names)}")
    help_text = subprocess.run([ns, "--help"], capture_output=True, text=True, timeout=60).stdout
    m = re.search(r"--policy\s+TEXT:\{([^}]*)\}", help_text)
    check(m is not None and m.group(1).split(",") == names, "--help's --policy choices are the listing's")
    for program in others:
        check([p["name"] for p in listing(program)] == names, f"{os.path.basename(program)} lists the same policies")

    docs = {f: open(os.path.join(root, "docs", f), encoding="utf-8").read() for f in ("policies.md", "options.md")}
    for p in policies:
        check(f"## {p['name']}" in docs["policies.md"], f"docs/policies.md has a section on {p['name']}")
        for c in p["constants"]:
            named = re.compile("`" + re.escape(c["flag"]) + "[ `]")  # `--flag` or `--flag VALUE`
            check(any(named.search(text) for text in docs.values()),
                  f"{p['name']}'s {c['flag']} is documented (docs/policies.md or docs/options.md)")
            check(c["lo"] <= c["default"] <= c["hi"], f"{c['flag']}: default {c['default']} in [{c['lo']}, {c['hi']}]")

    with open(os.path.join(root, "instances", "ns", "genus_counts.tsv")) as f:
        rows = [line.split("\t") for line in f if line[0].isdigit()]
    want = "\n".join(f"{g}: {count}" for g, count, *_ in rows if int(g) <= GENUS)
    for name in names:
        for board in ("all", "sample"):
            cmd = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-n", "3", ns, "-g", str(GENUS), "--skeleton",
                   "budget", "-b", "100", "--threads", "1", "--policy", name, "--board", board, "--board-sample", "2"]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            got = "\n".join(line for line in p.stdout.splitlines() if re.match(r"^\d+: \d+$", line))
            check(p.returncode == 0 and got == want, f"3 ranks, --policy {name} --board {board}: genus 0..{GENUS}"
                  + ("" if p.returncode == 0 else f" (exit {p.returncode}: {p.stderr.strip()[-300:]})"))
    print(f"{len(names)} policies; {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
