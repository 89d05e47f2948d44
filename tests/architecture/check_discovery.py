#!/usr/bin/env python3
"""A built-in policy is its header plus its registry line, and a new app is its folder: in a scratch
copy of the source tree, with no other file edited, both are found wherever policies and apps are
listed.

  check_discovery.py SOURCE_DIR WORK_DIR LIST_POLICIES   (LIST_POLICIES: this build's list_policies)

In WORK_DIR/src (the tree without build folders; instances/ linked):
- a policy: comm/include/jackdaw/comm/policies/scratch_first.hpp (the random policy's header under
  another name and summary) and, in comm/src/policy_registry.cpp, its #include and add<> line;
- an app: apps/scratch_queens/, the nqueens folder with the program renamed.
Then configures WORK_DIR/build and checks:
- the app's tests exist without a line of tests/ naming it: its check run on one process and on
  2 ranks and its options fuzzed (CTest lists app.scratch_queens.check, .check_ranks2 and
  hostile.4.option_fuzz.scratch_queens);
- the one thing left to write for the app is its docs entry: the docs check of the app table names
  exactly it (no row in docs/running.md);
- the registry lists the policy: list_policies (policyListing over PolicyRegistry::builtin(), what
  every program's --list-policies prints; policy.listed_everywhere checks the programs print the
  same) built in the scratch tree shows scratch_first with its summary, after the four built-ins;
- the one thing left for the policy is its docs section: docs/policies.md has none (the check of
  policy.listed_everywhere would name it).
The listing before is this build's list_policies: the scratch one must be it plus the new policy.
"""
import json
import os
import re
import shutil
import subprocess
import sys

POLICY = "scratch_first"
APP = "scratch_queens"
SKIP = {".git", "instances"}  # instances/ is linked, not copied


def copy_tree(src, dst):
    def ignore(folder, names):
        top = os.path.abspath(folder) == os.path.abspath(src)
        return [n for n in names if top and (n in SKIP or n.startswith("build"))] + [
            n for n in names if n == "__pycache__"]
    shutil.copytree(src, dst, ignore=ignore, symlinks=True)
    os.symlink(os.path.join(os.path.abspath(src), "instances"), os.path.join(dst, "instances"))


def add_policy(root):
    policies = os.path.join(root, "comm", "include", "jackdaw", "comm", "policies")
    text = open(os.path.join(policies, "random.hpp"), encoding="utf-8").read()
    text = text.replace("class RandomPolicy", "class ScratchFirstPolicy").replace(
        "explicit RandomPolicy(", "explicit ScratchFirstPolicy(")
    text = re.sub(r'name = "random"', f'name = "{POLICY}"', text)
    text = re.sub(r'summary = "[^"]*"', 'summary = "a scratch copy of random, added by check_discovery.py"', text)
    assert "ScratchFirstPolicy" in text and POLICY in text, "random.hpp no longer looks as this check expects"
    open(os.path.join(policies, f"{POLICY}.hpp"), "w", encoding="utf-8").write(text)
    registry = os.path.join(root, "comm", "src", "policy_registry.cpp")
    text = open(registry, encoding="utf-8").read()
    include = '#include "jackdaw/comm/policies/random.hpp"\n'
    line = "  r.add<TwoChoicePolicy>();\n"
    assert include in text and line in text, "policy_registry.cpp no longer looks as this check expects"
    text = text.replace(include, include + f'#include "jackdaw/comm/policies/{POLICY}.hpp"\n')
    text = text.replace(line, line + "  r.add<ScratchFirstPolicy>();\n")
    open(registry, "w", encoding="utf-8").write(text)


def add_app(root):
    src, dst = os.path.join(root, "apps", "nqueens"), os.path.join(root, "apps", APP)
    shutil.copytree(src, dst)
    cm = os.path.join(dst, "CMakeLists.txt")
    text = open(cm, encoding="utf-8").read()
    text = re.sub(r"\bjackdaw_nqueens\b", f"jackdaw_{APP}", text)
    text = re.sub(r"add_executable\(nqueens\b", f"add_executable({APP}", text)
    text = re.sub(r"target_link_libraries\(nqueens\b", f"target_link_libraries({APP}", text)
    text = re.sub(r"jackdaw_app_check\(nqueens\b", f"jackdaw_app_check({APP}", text)
    assert f"add_executable({APP}" in text and f"jackdaw_app_check({APP}" in text, \
        "apps/nqueens/CMakeLists.txt no longer looks as this check expects"
    open(cm, "w", encoding="utf-8").write(text)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    source, work, lister = (os.path.abspath(a) for a in sys.argv[1:4])
    failures = 0

    def check(ok, what):
        nonlocal failures
        print(("ok   " if ok else "FAIL ") + what, flush=True)
        failures += not ok

    shutil.rmtree(work, ignore_errors=True)
    root, build = os.path.join(work, "src"), os.path.join(work, "build")
    copy_tree(source, root)
    before = run_listing(lister)
    check(len(before) > 0 and all(p["name"] != POLICY for p in before),
          "this build lists " + ", ".join(p["name"] for p in before))
    add_policy(root)
    add_app(root)

    tests = configure(root, build)
    for name in (f"app.{APP}.check", f"app.{APP}.check_ranks2", f"hostile.4.option_fuzz.{APP}"):
        check(name in tests, f"the new app's test {name} exists")
    sys.path.insert(0, os.path.join(source, "tests", "docs"))
    import check_app_table  # noqa: E402
    problems = check_app_table.listing_problems(root)
    check(problems == [f"no row: {APP}"], f"the app table check names only its missing row: {problems}")

    after = listing(build)
    names = [p["name"] for p in after]
    added = next((p for p in after if p["name"] == POLICY), None)
    check(names == [p["name"] for p in before] + [POLICY], f"the registry lists {', '.join(names)}")
    check(added is not None and "scratch copy of random" in added["summary"], "with the new policy's own summary")
    policies_md = open(os.path.join(root, "docs", "policies.md"), encoding="utf-8").read()
    check(f"## {POLICY}" not in policies_md, "docs/policies.md has no section on it yet (the docs check would say so)")
    print(f"{failures} failures")
    return 1 if failures else 0


def configure(root, build):
    """Configures the scratch tree; returns the names of its CTest tests."""
    r = subprocess.run(["cmake", "-S", root, "-B", build, "-G", "Ninja", "-DJACKDAW_BUILD_BENCH=OFF"],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit(f"FAIL configuring the scratch tree:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    r = subprocess.run(["ctest", "--test-dir", build, "-N"], capture_output=True, text=True, timeout=300)
    return set(re.findall(r"Test\s+#\d+: (\S+)", r.stdout))


def listing(build):
    """Builds list_policies in the configured scratch build and returns its listing."""
    r = subprocess.run(["cmake", "--build", build, "--target", "list_policies"], capture_output=True, text=True,
                       timeout=1200)
    if r.returncode != 0:
        raise SystemExit(f"FAIL building list_policies:\n{r.stdout[-3000:]}{r.stderr[-2000:]}")
    return run_listing(os.path.join(build, "tests", "policy", "list_policies"))


def run_listing(program):
    r = subprocess.run([program], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise SystemExit(f"FAIL {program}: exit {r.returncode}: {r.stderr[-500:]}")
    return json.loads(r.stdout)


if __name__ == "__main__":
    sys.exit(main())
