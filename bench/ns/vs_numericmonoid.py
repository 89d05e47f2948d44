#!/usr/bin/env python3
"""Jackdaw's NS (`ns --skeleton seq`) against NumericMonoid (Fromentin & Hivert, src/Cilk++ built as
its serial elision, one binary per genus bound) and, with --rgd, against RGD (Bras-Amoros &
Fernandez-Gonzalez's RGD.cpp), side by side on one machine.

    bench/ns/vs_numericmonoid.py NM_DIR JACKDAW_BUILD [--genera 36 38 40] [--reps 5] [--simd auto]
                                 [--rgd PEERS_DIR/rgd/rgd] [--out FILE]

NM_DIR holds nm-treewalk-gG for each genus G, as bench/peers/build_peers.sh builds them into PEERS_DIR/nm
(g++ -O3 -march=x86-64-v3 -DMAX_GENUS=G). JACKDAW_BUILD is a build directory with apps/ns/ns.
The programs run alternately (NM, [RGD,] Jackdaw, NM, ...) so that a change in the machine's load
falls on all. Every run's counts per genus must agree (OEIS A007323), else the script stops. RGD
counts only the semigroups of genus exactly G (`rgd G` prints `nG=COUNT`): that count must equal
Jackdaw's at genus G. NumericMonoid and Jackdaw count every genus 0..G.
Times: wall = the process from start to exit (startup included), CPU = its user + system seconds.
Ratio = peer / Jackdaw (above 1: Jackdaw is faster), per repetition, median [min, max].
"""
import argparse
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402


def timed(cmd):
    """Run cmd; return (stdout, wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"{shlex.join(cmd)} failed with exit {p.returncode}:\n{p.stdout}{p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.stdout, wall, cpu


def nm_counts(out, g):
    """NumericMonoid prints the counts of genus 1..G on one line, then 'Total = <nodes - 1>, ...'."""
    lines = [l for l in out.splitlines() if l.strip()]
    for i, l in enumerate(lines):
        if l.startswith("Total = "):
            counts = [int(t) for t in lines[i - 1].split()]
            total = int(re.match(r"Total = (\d+)", l).group(1))
            if len(counts) != g or sum(counts) != total:
                sys.exit(f"NumericMonoid output not understood:\n{out}")
            return [1] + counts  # genus 0: N itself
    sys.exit(f"NumericMonoid output not understood:\n{out}")


def jackdaw_counts(out, g):
    """ns prints 'G: count' for every genus, then 'total: N'."""
    counts = {}
    for l in out.splitlines():
        m = re.match(r"\s*(\d+): (\d+)\s*$", l)
        if m:
            counts[int(m.group(1))] = int(m.group(2))
    if sorted(counts) != list(range(g + 1)):
        sys.exit(f"ns output not understood:\n{out}")
    return [counts[i] for i in range(g + 1)]


def rgd_count(out, g):
    m = re.search(rf"^n{g}=(\d+)$", out, re.M)
    if not m:
        sys.exit(f"RGD output not understood:\n{out}")
    return int(m.group(1))


def spread(xs, fmt="{:.2f}"):
    return f"{fmt.format(statistics.median(xs))} [{fmt.format(min(xs))}, {fmt.format(max(xs))}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("nm_dir", help="folder with nm-treewalk-gG binaries")
    ap.add_argument("build", help="Jackdaw build directory (apps/ns/ns)")
    ap.add_argument("--genera", type=int, nargs="+", default=[36, 38, 40])
    ap.add_argument("--reps", type=int, default=int(os.environ.get("REPS", 5)))
    ap.add_argument("--simd", default="auto", help="ns --simd (default auto: the widest the CPU has)")
    ap.add_argument("--rgd", help="RGD binary (build_peers.sh: PEERS_DIR/rgd/rgd); adds its columns")
    ap.add_argument("--note", default="", help="a line for the results (e.g. what else ran)")
    ap.add_argument("--out", help="also write the markdown here")
    a = ap.parse_args()

    ns = os.path.join(a.build, "apps", "ns", "ns")
    if not os.access(ns, os.X_OK):
        sys.exit(f"no ns binary at {ns}")
    for g in a.genera:
        if not os.access(os.path.join(a.nm_dir, f"nm-treewalk-g{g}"), os.X_OK):
            sys.exit(f"no nm-treewalk-g{g} in {a.nm_dir}")

    load0 = open("/proc/loadavg").read().split()[:3]
    start = benchlib.utc_now()
    rows = []
    for g in a.genera:
        nm_cmd = [os.path.join(a.nm_dir, f"nm-treewalk-g{g}")]
        jd_cmd = [ns, "-g", str(g), "--skeleton", "seq", "--simd", a.simd]
        nm_w, nm_c, jd_w, jd_c, rg_w, rg_c = [], [], [], [], [], []
        nodes = None
        for r in range(a.reps):
            out, w, c = timed(nm_cmd)
            nm = nm_counts(out, g)
            nm_w.append(w)
            nm_c.append(c)
            rg = None
            if a.rgd:
                out, w, c = timed([a.rgd, str(g)])
                rg = rgd_count(out, g)
                rg_w.append(w)
                rg_c.append(c)
            out, w, c = timed(jd_cmd)
            jd = jackdaw_counts(out, g)
            jd_w.append(w)
            jd_c.append(c)
            if nm != jd:
                bad = [i for i in range(g + 1) if nm[i] != jd[i]]
                sys.exit(f"genus {g}: the counts differ at genus {bad}: NumericMonoid {nm}, Jackdaw {jd}")
            if rg is not None and rg != jd[g]:
                sys.exit(f"genus {g}: RGD counts {rg}, Jackdaw {jd[g]}")
            nodes = sum(jd)
            print(f"genus {g} rep {r + 1}: NM {nm_w[-1]:.2f} s ({nm_c[-1]:.2f} CPU), "
                  + (f"RGD {rg_w[-1]:.2f} s ({rg_c[-1]:.2f} CPU), " if a.rgd else "") +
                  f"Jackdaw {jd_w[-1]:.2f} s ({jd_c[-1]:.2f} CPU)", file=sys.stderr, flush=True)
        ratio_w = [n / j for n, j in zip(nm_w, jd_w)]
        ratio_c = [n / j for n, j in zip(nm_c, jd_c)]
        rg_ratio = [r / j for r, j in zip(rg_c, jd_c)]
        rows.append((g, nodes, nm_w, jd_w, ratio_w, nm_c, jd_c, ratio_c, rg_c, rg_ratio))
    load1 = open("/proc/loadavg").read().split()[:3]

    t = []
    t.append(f"- machine: {benchlib.machine()}")
    t.append(f"- date: {start}; load average at start {' '.join(load0)}, at the end {' '.join(load1)}")
    if a.note:
        t.append(f"- {a.note}")
    t.append(f"- command: `bench/ns/vs_numericmonoid.py NM_DIR JACKDAW_BUILD --genera {' '.join(map(str, a.genera))} "
             f"--reps {a.reps} --simd {a.simd}"
             f"{' --rgd RGD' if a.rgd else ''}`")
    t.append(f"- NumericMonoid: `NM_DIR/nm-treewalk-gG` (no arguments: genus bound G compiled in, one thread)")
    if a.rgd:
        t.append("- RGD: `RGD G` (counts genus G only, one thread)")
    t.append(f"- Jackdaw: `JACKDAW_BUILD/apps/ns/ns -g G --skeleton seq --simd {a.simd}`")
    t.append(f"- {a.reps} repetitions per genus, alternated NM, {'RGD, ' if a.rgd else ''}Jackdaw, NM, ...; "
             "NM and Jackdaw printed the same counts for every genus 0..G (OEIS A007323) in every run"
             + (", RGD the same count for genus G" if a.rgd else ""))
    t.append("- wall: process start to exit, startup included; CPU: user + system seconds; "
             "median [min, max]; ratio peer / Jackdaw per repetition (above 1: Jackdaw faster)")
    t.append("")
    rg_head = " RGD CPU s | RGD / Jackdaw (CPU) |" if a.rgd else ""
    t.append("| genus ≤ | nodes | NM wall s | Jackdaw wall s | ratio (wall) | NM CPU s | Jackdaw CPU s | NM / Jackdaw (CPU) |"
             + rg_head)
    t.append("|---|---|---|---|---|---|---|---|" + ("---|---|" if a.rgd else ""))
    for g, nodes, nm_w, jd_w, rw, nm_c, jd_c, rc, rg_c, rgr in rows:
        t.append(f"| {g} | {nodes} | {spread(nm_w)} | {spread(jd_w)} | {spread(rw)} | "
                 f"{spread(nm_c)} | {spread(jd_c)} | **{spread(rc)}** |"
                 + (f" {spread(rg_c)} | **{spread(rgr)}** |" if a.rgd else ""))
    benchlib.emit("\n".join(t) + "\n", a.out)


if __name__ == "__main__":
    main()
