#!/usr/bin/env python3
"""The apps' documentation is the apps: docs/running.md's table ("## The apps") has one row per
folder of apps/ that builds a program (none missing, none extra), the README names each, and each
row's example, run from the repository root, prints the answer the row gives.

  check_app_table.py REPO_ROOT BUILD_DIR
  check_app_table.py --self-test   (a new apps/ folder without its row, and a row without its
                                    folder, are caught in a scratch copy; with both, nothing is)

A row reads | `app` | what it searches | `app ARGS` → `ANSWER` ... |; the program is
BUILD_DIR/apps/APP/APP.
"""
import os
import re
import shlex
import subprocess
import sys

ROW = re.compile(r"^\|\s*`([a-z0-9_]+)`\s*\|.*\|\s*`([^`]+)`\s*→\s*`([^`]+)`")
PROGRAM = re.compile(r"^\s*add_executable\(\s*([A-Za-z0-9_]+)\s", re.M)


def app_folders(root):
    """apps/NAME folders whose CMakeLists.txt builds the program NAME."""
    out = set()
    apps = os.path.join(root, "apps")
    for name in os.listdir(apps):
        cm = os.path.join(apps, name, "CMakeLists.txt")
        if os.path.isfile(cm) and name in PROGRAM.findall(open(cm, encoding="utf-8").read()):
            out.add(name)
    return out


def table(root):
    rows, inside = {}, False
    with open(os.path.join(root, "docs", "running.md"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                inside = line.strip() == "## The apps"
                continue
            m = ROW.match(line) if inside else None
            if m:
                rows[m.group(1)] = (m.group(2), m.group(3))
    return rows


def listing_problems(root):
    """What the listing check (not the runs) finds wrong in root."""
    folders, rows = app_folders(root), table(root)
    readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    return ([f"no row: {a}" for a in sorted(folders - set(rows))] + [f"no folder: {a}" for a in sorted(set(rows) - folders)]
            + [f"not in README: {a}" for a in sorted(folders & set(rows)) if f"`{a}`" not in readme])


def self_test(root):
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "docs"))
        shutil.copy(os.path.join(root, "docs", "running.md"), os.path.join(d, "docs"))
        shutil.copy(os.path.join(root, "README.md"), d)
        shutil.copytree(os.path.join(root, "apps"), os.path.join(d, "apps"),
                        ignore=lambda _, names: [n for n in names if n != "CMakeLists.txt" and "." in n])
        results = [listing_problems(d) == []]
        os.makedirs(os.path.join(d, "apps", "colouring"))
        with open(os.path.join(d, "apps", "colouring", "CMakeLists.txt"), "w") as f:
            f.write("add_executable(colouring main.cpp)\n")
        results.append(listing_problems(d) == ["no row: colouring", ])
        with open(os.path.join(d, "docs", "running.md")) as f:
            text = f.read()
        row = "| `colouring` | graph colouring | `colouring g.col` → `chi = 4` |\n"
        text = text.replace("| `nqueens` |", row + "| `nqueens` |", 1)
        with open(os.path.join(d, "docs", "running.md"), "w") as f:
            f.write(text)
        results.append(listing_problems(d) == ["not in README: colouring"])
        with open(os.path.join(d, "README.md"), "a") as f:
            f.write("\nAlso `colouring`.\n")
        results.append(listing_problems(d) == [])
        text = text.replace(row, row + "| `ghost` | nothing | `ghost` → `0` |\n")
        with open(os.path.join(d, "docs", "running.md"), "w") as f:
            f.write(text)
        results.append(listing_problems(d) == ["no folder: ghost"])
    print(f"self-test: {sum(results)} of {len(results)} cases as expected")
    return 0 if all(results) else 1


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    root, build = sys.argv[1:3]
    failures = 0

    def check(ok, what):
        nonlocal failures
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        failures += not ok

    folders, rows = app_folders(root), table(root)
    problems = listing_problems(root)
    check(bool(folders) and not problems, f"apps/ builds {', '.join(sorted(folders))}: each has its row in "
          f"docs/running.md and is named in README.md" + (f" ({'; '.join(problems)})" if problems else ""))
    for app in sorted(folders & set(rows)):
        example, answer = rows[app]
        argv = shlex.split(example)
        if argv[0] != app:
            check(False, f"{app}'s example runs {argv[0]}")
            continue
        p = subprocess.run([os.path.join(build, "apps", app, app)] + argv[1:], cwd=root, capture_output=True,
                           text=True, timeout=240)
        check(p.returncode == 0 and answer in p.stdout,
              f"{example} → {answer}" + ("" if p.returncode == 0 else f" (exit {p.returncode}: {p.stderr.strip()[-200:]})"))
    print(f"{len(rows)} rows, {len(folders)} apps; {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
