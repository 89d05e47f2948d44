#!/usr/bin/env python3
"""What a one-line change of a model costs to rebuild: examples/chromatic_number, built against an
installed package: as shipped (one file per search kind, minimise.cpp and decide.cpp, compiled side
by side; the frame's headers precompiled; only the skeletons --skeleton auto uses), the same
without the precompiled headers, with every skeleton compiled in, and as a Debug build (-O0 -g:
the write-compile-fix loop of a new model). --before DIR adds another copy of the example (an
older layout, e.g. `git worktree add` of an earlier commit) as it is.

  bench/compile/rebuild.py PREFIX [--rounds 5] [--before DIR] [--out FILE]

PREFIX is an installed Jackdaw (cmake --install build --prefix PREFIX). Each variant is a copy of
the example in a scratch folder, configured (Ninja) and built once; then every round, in an order
that rotates, touches the copy's model.hpp and times `cmake --build` (wall seconds, the whole
rebuild: the searches recompiled and the program linked; main.cpp and reader.cpp are not).
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
EXAMPLE = os.path.join(ROOT, "examples", "chromatic_number")
SEARCHES = ("minimise.cpp", "decide.cpp")
TABLE = re.compile(r"using Skeletons = jackdaw::skeletons::AutoTable<jackdaw::\w+>;")
ALL = "using Skeletons = jackdaw::app::AppSkeletons;"
PCH = re.compile(r"^target_precompile_headers\(.*$", re.M)


def edit(path, pattern, replacement):
    text = open(path).read()
    if not pattern.search(text):
        sys.exit(f"{path}: nothing matches {pattern.pattern}")
    open(path, "w").write(pattern.sub(replacement, text))


def prepare(scratch, prefix, example, every_skeleton, precompiled, build_type):
    src = os.path.join(scratch, f"src{len(os.listdir(scratch))}")
    shutil.copytree(example, src)
    if every_skeleton:
        for f in SEARCHES:
            edit(os.path.join(src, f), TABLE, ALL)
    if not precompiled:
        edit(os.path.join(src, "CMakeLists.txt"), PCH, "")
    build = src + "-build"
    subprocess.run(["cmake", "-S", src, "-B", build, "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}",
                    f"-DCMAKE_BUILD_TYPE={build_type}"], check=True,
                   capture_output=True)
    subprocess.run(["cmake", "--build", build], check=True, capture_output=True)
    return src, build


def rebuild(src, build):
    """(wall seconds, CPU seconds: user + system of the build's processes) of one rebuild."""
    os.utime(os.path.join(src, "model.hpp"))
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(["cmake", "--build", build], capture_output=True, text=True)
    secs = time.monotonic() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0 or "reader.cpp" in p.stdout or "main.cpp" in p.stdout or "Linking" not in p.stdout:
        sys.exit(f"rebuild of {build} recompiled the command line or the reader, or nothing:\n{p.stdout}{p.stderr}")
    return secs, (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prefix")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--before", help="another copy of the example, built as it is (Release)")
    ap.add_argument("--out")
    a = ap.parse_args()
    # name -> (example folder, every skeleton, frame precompiled, CMAKE_BUILD_TYPE)
    variants = {
        "as shipped, Release": (EXAMPLE, False, True, "Release"),
        "as shipped, no precompiled headers, Release": (EXAMPLE, False, False, "Release"),
        "every skeleton, Release": (EXAMPLE, True, True, "Release"),
        "as shipped, Debug": (EXAMPLE, False, True, "Debug"),
    }
    if a.before:
        variants["before (--before), Release"] = (os.path.abspath(a.before), False, True, "Release")
    scratch = tempfile.mkdtemp(prefix="rebuild-")
    try:
        dirs = {name: prepare(scratch, os.path.abspath(a.prefix), *v) for name, v in variants.items()}
        times = {name: [] for name in variants}
        cpus = {name: [] for name in variants}
        loads = []
        names = list(variants)
        for r in range(a.rounds):
            for name in names[r % len(names):] + names[:r % len(names)]:
                wall, cpu = rebuild(*dirs[name])
                times[name].append(wall)
                cpus[name].append(cpu)
                loads.append(os.getloadavg()[0])
                print(f"round {r + 1}: {name}: {wall:.1f} s, CPU {cpu:.1f} s", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    out = ["# Rebuild after a one-line model change: examples/chromatic_number", "",
           f"- command: `bench/compile/rebuild.py PREFIX --rounds {a.rounds}{' --before DIR' if a.before else ''}` "
           "(from the repository root; PREFIX: this tree installed with `cmake --install build --prefix PREFIX`)",
           f"- machine: {benchlib.machine()}; g++ {subprocess.run(['g++', '-dumpfullversion'], capture_output=True, text=True).stdout.strip()}, Ninja; Release: -O3, Debug: -O0 -g",
           f"- date: {benchlib.utc_now()}; 1-minute load average during the rounds: {min(loads):.1f}-{max(loads):.1f}",
           "- each round touches model.hpp and times `cmake --build` (the searches recompiled, then linked); the variants' "
           "order rotates from round to round",
           "- wall: the rebuild's seconds; CPU: user + system seconds of its processes (less sensitive to "
           "other load on the machine)",
           "", "| example, build type | wall s, median [min, max] | CPU s, median [min, max] | wall, each round |",
           "|---|---|---|---|"]
    for name in variants:
        ts, cs = times[name], cpus[name]
        out.append(f"| {name} | {statistics.median(ts):.1f} [{min(ts):.1f}, {max(ts):.1f}] | "
                   f"{statistics.median(cs):.1f} [{min(cs):.1f}, {max(cs):.1f}] | {', '.join(f'{t:.1f}' for t in ts)} |")
    benchlib.emit("\n".join(out) + "\n", a.out)


if __name__ == "__main__":
    main()
