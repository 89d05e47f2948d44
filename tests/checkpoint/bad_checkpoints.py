#!/usr/bin/env python3
"""A checkpoint that is corrupt, truncated, incomplete or from another search is bad input: the
resumed run must exit 2 with one message naming the file (or the field, or the option that
differs) -- never crash, hang or print an answer. A mutation that leaves the set valid (it
touched only an informational field) must give the right answer.

  bad_checkpoints.py SOURCE_DIR BUILD_DIR WORK_DIR [--mutations N] [--seed S]

The base checkpoint: 14 queens (365,596 solutions, OEIS A000170) on 2 ranks, saved every 0.1 s.
"""
import os
import random
import re
import shutil
import subprocess
import sys

import mutation_args

ANSWER = "solutions: 365596"


def nqueens(build, extra, ranks=1, n=14, timeout=60):
    cmd = [os.path.join(build, "apps/nqueens/nqueens"), "-n", str(n), "--skeleton", "budget", "--threads", "1"] + extra
    if ranks > 1:
        cmd = ["mpirun", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none", "-n", str(ranks)] + cmd
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "timeout"
    return p.returncode, p.stdout, p.stderr


def main():
    a = mutation_args.parse(mutations=300, seed=2026)
    work = os.path.abspath(a.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    base = os.path.join(work, "base")
    rc, out, err = nqueens(a.build, ["--checkpoint", base, "--checkpoint-every", "0.1", "-b", "200"], ranks=2)
    if rc != 0 or ANSWER not in out or not os.path.islink(os.path.join(base, "current")):
        print(f"FAIL: could not make the base checkpoint (exit {rc})\n{out}\n{err}")
        return 1
    setname = os.readlink(os.path.join(base, "current"))
    fails = 0

    def fresh():
        d = os.path.join(work, "ck")
        shutil.rmtree(d, ignore_errors=True)
        if os.path.exists(d):
            os.remove(d)
        shutil.copytree(base, d, symlinks=True)
        return d, os.path.join(d, setname)

    def expect_bad(name, d, pattern, extra=None, ranks=1, n=14, app_cmd=None):
        nonlocal fails
        if app_cmd:
            p = subprocess.run(app_cmd, capture_output=True, text=True, errors="replace", timeout=60)
            rc, out, err = p.returncode, p.stdout, p.stderr
        else:
            rc, out, err = nqueens(a.build, extra or ["--resume", d], ranks=ranks, n=n)
        ok = rc == 2 and re.search(pattern, err) and "solutions:" not in out
        print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {rc}: {err.strip().splitlines()[-1] if err.strip() else ''}")
        if not ok:
            print(out, err)
            fails += 1

    # The valid set resumes to the right answer, on 1 and on 3 ranks.
    for ranks in (1, 3):
        d, _ = fresh()
        rc, out, err = nqueens(a.build, ["--resume", d], ranks=ranks)
        ok = rc == 0 and ANSWER in out
        print(f"{'ok  ' if ok else 'FAIL'} valid checkpoint resumed on {ranks} rank(s): exit {rc}")
        fails += 0 if ok else 1

    # Named cases.
    d, s = fresh()
    expect_bad("another instance (-n 13)", d, r"for another search: option --size is \"13\" here, \"14\"", n=13)
    expect_bad("another app (ns)", d, r"written by 'nqueens', this is 'ns'",
               app_cmd=[os.path.join(a.build, "apps/ns/ns"), "-g", "10", "--skeleton", "budget", "--resume", d])
    with open(os.path.join(s, "rank-00001.bin"), "r+b") as f:
        f.seek(os.path.getsize(f.name) // 2)
        b = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([b[0] ^ 0x40]))
    expect_bad("a flipped byte", d, r"rank-00001\.bin: contents altered")
    expect_bad("a flipped byte, 2 ranks (rank 1 reads it)", d, r"rank 1: .*rank-00001\.bin: contents altered", ranks=2)
    d, s = fresh()
    os.truncate(os.path.join(s, "rank-00000.bin"), 10)
    expect_bad("a truncated record", d, r"rank-00000\.bin: 10 bytes, the manifest says")
    d, s = fresh()
    os.remove(os.path.join(s, "rank-00001.bin"))
    expect_bad("a missing record", d, r"rank-00001\.bin: missing")
    d, s = fresh()
    os.remove(os.path.join(s, "rank-00001.bin"))
    os.mkdir(os.path.join(s, "rank-00001.bin"))
    expect_bad("a folder instead of a record", d, r"rank-00001\.bin: missing")
    d, s = fresh()
    os.remove(os.path.join(s, "manifest.json"))
    expect_bad("no manifest (a set cut short)", d, r"manifest\.json: missing")
    d, s = fresh()
    with open(os.path.join(s, "manifest.json"), "w") as f:
        f.write("{ not json")
    expect_bad("a manifest that is not JSON", d, r"manifest\.json: line 1, column \d+: not valid JSON")
    d, s = fresh()
    os.remove(os.path.join(d, "current"))
    expect_bad("no current set", d, r"holds no checkpoint")
    d, s = fresh()
    expect_bad("a folder that does not exist", d, r"no checkpoint folder", extra=["--resume", d + "-nowhere"])
    expect_bad("a file instead of a folder", d, r"no checkpoint folder", extra=["--resume", os.path.join(s, "manifest.json")])

    # Mutations from a fixed seed: each gives exit 2 naming the file, or (if the set is still
    # valid) the right answer.
    rng = random.Random(a.seed)
    d0, s0 = fresh()
    manifest = open(os.path.join(s0, "manifest.json"), "rb").read()
    records = {n: open(os.path.join(s0, n), "rb").read() for n in ("rank-00000.bin", "rank-00001.bin")}
    kinds = {}
    for m in range(a.mutations):
        d, s = fresh()
        target = rng.choice(["manifest.json", "rank-00000.bin", "rank-00001.bin"])
        data = bytearray(manifest if target == "manifest.json" else records[target])
        kinds_here = ["truncate", "flip", "empty", "append"] + (["number", "drop"] if target == "manifest.json" else [])
        kind = rng.choice(kinds_here)
        if kind == "truncate":
            data = data[: rng.randrange(len(data))]
        elif kind == "flip":
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(len(data))
                data[i] ^= 1 << rng.randrange(8)
        elif kind == "number":
            nums = [mm.span() for mm in re.finditer(rb"-?\d+", bytes(data))]
            lo, hi = rng.choice(nums)
            data[lo:hi] = rng.choice([b"-1", b"0", b"99999999999999999999999", b"18446744073709551615", b"1e308", b"-7"])
        elif kind == "drop":
            lines = bytes(data).split(b"\n")
            del lines[rng.randrange(len(lines))]
            data = bytearray(b"\n".join(lines))
        elif kind == "empty":
            data = bytearray()
        else:
            data += bytes([rng.randrange(256)])
        with open(os.path.join(s, target), "wb") as f:
            f.write(data)
        rc, out, err = nqueens(a.build, ["--resume", d])
        named = re.search(re.escape(d) + r"|--resume", err)
        ok = (rc == 2 and named and "solutions:" not in out) or (rc == 0 and ANSWER in out)
        kinds[(target, kind, rc)] = kinds.get((target, kind, rc), 0) + 1
        if not ok:
            fails += 1
            print(f"FAIL mutation {m} ({kind} of {target}): exit {rc}\n{out}\n{err[-1500:]}")
    for (target, kind, rc), n in sorted(kinds.items(), key=str):
        print(f"     {n:4d} x {kind:8s} {target:15s} -> exit {rc}")
    print(f"{a.mutations} mutations and the named cases: {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
