#!/usr/bin/env python3
"""Issue 50 item 5: crafted checkpoint records whose manifest checksums were recomputed. Each of N
seeded mutations of a real `ns -g 32` set (saved by 2 ranks) rewrites one record, then puts that
record's true size and SHA-1 into the manifest, as someone who can write the folder would. The run
resuming it must either refuse it (exit 2, one error line, no answer) or give the right counts;
a wrong answer, a crash or a hang fails the test.

  crafted_records.py SOURCE_DIR BUILD_DIR WORK_DIR [--mutations N] [--seed S]

The record (distributed/saved_work.hpp, comm/wire.hpp): magic u32, the share (ns's GenusCounts:
96 u64 counts; has-incumbent byte; SearchStats: nodes, prunes, backtracks, max depth as u64; the
stop reason), the task count u64, then each task: the node's raw bytes (ns::Node<128>: 320), depth
i32, priority u64. Answers: semigroups by genus, OEIS A007323 (instances/ns/genus_counts.tsv).
"""
import collections
import hashlib
import json
import os
import random
import shutil
import struct
import subprocess
import sys

import mutation_args

GENUS = 32
NODE = 320  # sizeof(jackdaw::ns::Node<128>), the node size for genus <= 42
TASK = NODE + 4 + 8


def layout(data):
    """(offset of the task count, stop reason's size) for this record, found from its length."""
    for stop in (4, 1, 8):
        at = 4 + 96 * 8 + 1 + 32 + stop
        if at + 8 <= len(data):
            n = struct.unpack_from("<Q", data, at)[0]
            if at + 8 + n * TASK == len(data):
                return at, stop
    raise SystemExit("FAIL: the record's layout is not the one this test knows (ns node size changed?)")


def snapshot(run, base):
    """Copies the set run/current names into base (as base/current -> set) if it is whole (every
    record matches the manifest) and holds work; the writer may replace it meanwhile: then nothing."""
    tmp = base + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        name = os.readlink(os.path.join(run, "current"))
        shutil.copytree(os.path.join(run, name), os.path.join(tmp, name))
        with open(os.path.join(tmp, name, "manifest.json")) as f:
            m = json.load(f)
        for e in m["files"]:
            with open(os.path.join(tmp, name, e["name"]), "rb") as f:
                if hashlib.sha1(f.read()).hexdigest() != e["sha1"]:
                    return
        if m["tasks"] == 0:
            return
        os.symlink(name, os.path.join(tmp, "current"))
    except (OSError, ValueError, KeyError, shutil.Error):
        return
    shutil.rmtree(base, ignore_errors=True)
    os.rename(tmp, base)


def main():
    a = mutation_args.parse(mutations=60, seed=50)
    counts = {}
    with open(os.path.join(a.src, "instances/ns/genus_counts.tsv")) as f:
        for line in f:
            p = line.split("\t")
            if p[0].isdigit():
                counts[int(p[0])] = int(p[1])
    answer = [f"{g}: {counts[g]}" for g in range(GENUS + 1)]
    ns = os.path.join(a.build, "apps/ns/ns")
    work = os.path.abspath(a.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    base = os.path.join(work, "base")
    run = os.path.join(work, "run")
    mpi = ["mpirun", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none", "-n", "2"]
    # A whole run that pauses and saves every 0.05 s; the last set seen that still holds work
    # becomes the base (a run's final set may hold none), so each resume has little left to do.
    p = subprocess.Popen(mpi + [ns, "-g", str(GENUS), "--skeleton", "budget", "--threads", "1", "-b", "2000",
                                "--checkpoint", run, "--checkpoint-every", "0.05"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while True:
        done = p.poll() is not None
        snapshot(run, base)
        if done:
            break
    out, err = p.communicate(timeout=300)
    if p.returncode != 0 or not all(l in out.splitlines() for l in answer) or not os.path.islink(os.path.join(base, "current")):
        print(f"FAIL: could not make the base set (exit {p.returncode}, a set with work left: "
              f"{os.path.islink(os.path.join(base, 'current'))})\n{out}\n{err}")
        return 1
    setname = os.readlink(os.path.join(base, "current"))
    with open(os.path.join(base, setname, "manifest.json")) as f:
        manifest = json.load(f)
    names = [f["name"] for f in manifest["files"]]
    records = {n: open(os.path.join(base, setname, n), "rb").read() for n in names}
    print(f"base set: {setname}, {manifest['tasks']} tasks, {manifest['nodes_so_far']} nodes so far, "
          f"records of {[len(r) for r in records.values()]} bytes")

    def resume(d):
        try:
            p = subprocess.run([ns, "-g", str(GENUS), "--skeleton", "budget", "--threads", "1", "--resume", d],
                               capture_output=True, text=True, errors="replace", timeout=120)
        except subprocess.TimeoutExpired:
            return "wrong", "timeout (it hung)"
        errors = [l for l in p.stderr.splitlines() if ": error: " in l]
        if p.returncode == 2 and len(errors) == 1 and "status:" not in p.stdout:
            return "refused", errors[0]
        if p.returncode == 0 and all(l in p.stdout.splitlines() for l in answer) and "status: complete" in p.stdout:
            return "right", ""
        return "wrong", f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"

    # The untouched set resumes to the right answer (the checks refuse nothing real).
    d = os.path.join(work, "ck")
    shutil.copytree(base, d, symlinks=True)
    outcome, detail = resume(d)
    ok = outcome == "right"
    print(f"{'ok  ' if ok else 'FAIL'} the untouched set resumes to the right counts: {outcome} {detail}")
    if not ok:
        return 1

    with_tasks = [n for n in names if len(records[n]) > layout(records[n])[0] + 8]  # records holding a task
    rng = random.Random(a.seed)
    tally = collections.Counter()
    kinds = collections.Counter()
    wrong = 0
    for i in range(a.mutations):
        name = rng.choice(with_tasks or names)
        data = bytearray(records[name])
        at, _ = layout(data)
        n = struct.unpack_from("<Q", data, at)[0]
        tasks = at + 8
        kind = rng.choice(["flip", "flip", "flip", "flip_counts", "flip_nodes", "flip_nodes", "count_plus",
                           "count_and_nodes_plus", "depth", "drop_task", "dup_task", "swap_tasks", "bytes"])
        if kind in ("drop_task", "dup_task", "swap_tasks", "flip_nodes", "depth") and n < 2:
            kind = "flip"
        if kind == "flip":  # 1-4 bits anywhere
            for _ in range(rng.randint(1, 4)):
                j = rng.randrange(len(data))
                data[j] ^= 1 << rng.randrange(8)
        elif kind == "flip_counts":  # the partial counts
            for _ in range(rng.randint(1, 2)):
                j = 4 + rng.randrange(8 * (GENUS + 1))
                data[j] ^= 1 << rng.randrange(8)
        elif kind == "flip_nodes":  # a node's dec bytes, gens, conductor, multiplicity or genus
            t = tasks + rng.randrange(n) * TASK
            j = t + 128 + rng.randrange(283 - 128)
            data[j] ^= 1 << rng.randrange(8)
        elif kind == "count_plus":  # a plausible partial count: +8 at one genus
            g = rng.randrange(GENUS + 1)
            struct.pack_into("<Q", data, 4 + 8 * g, struct.unpack_from("<Q", data, 4 + 8 * g)[0] + 8)
        elif kind == "count_and_nodes_plus":  # the same, with the share's node count raised to match
            g = rng.randrange(GENUS + 1)
            struct.pack_into("<Q", data, 4 + 8 * g, struct.unpack_from("<Q", data, 4 + 8 * g)[0] + 8)
            nodes_at = 4 + 96 * 8 + 1
            struct.pack_into("<Q", data, nodes_at, struct.unpack_from("<Q", data, nodes_at)[0] + 8)
        elif kind == "depth":  # a task's depth, off by one either way
            t = tasks + rng.randrange(n) * TASK + NODE
            struct.pack_into("<i", data, t, struct.unpack_from("<i", data, t)[0] + rng.choice([-1, 1]))
        elif kind == "drop_task":
            t = tasks + rng.randrange(n) * TASK
            del data[t:t + TASK]
            struct.pack_into("<Q", data, at, n - 1)
        elif kind == "dup_task":
            t = tasks + rng.randrange(n) * TASK
            data[t:t] = data[t:t + TASK]
            struct.pack_into("<Q", data, at, n + 1)
        elif kind == "swap_tasks":
            x, y = sorted(rng.sample(range(n), 2))
            tx, ty = tasks + x * TASK, tasks + y * TASK
            data[tx:tx + TASK], data[ty:ty + TASK] = data[ty:ty + TASK], data[tx:tx + TASK]
        else:  # a run of random bytes
            j = rng.randrange(len(data))
            for k in range(j, min(len(data), j + rng.randint(1, 16))):
                data[k] = rng.randrange(256)
        # Into a fresh copy of the set, with the manifest's size and SHA-1 of the record recomputed.
        shutil.rmtree(d)
        shutil.copytree(base, d, symlinks=True)
        with open(os.path.join(d, setname, name), "wb") as f:
            f.write(data)
        m = json.loads(json.dumps(manifest))
        for f in m["files"]:
            if f["name"] == name:
                f["bytes"] = len(data)
                f["sha1"] = hashlib.sha1(bytes(data)).hexdigest()
        with open(os.path.join(d, setname, "manifest.json"), "w") as f:
            json.dump(m, f, indent=2)
        outcome, detail = resume(d)
        tally[outcome] += 1
        kinds[(kind, outcome)] += 1
        if outcome == "wrong":
            wrong += 1
        print(f"{'FAIL' if outcome == 'wrong' else 'ok  '} {i:2d} {kind:20s} {name}: {outcome}"
              f"{': ' + detail.split(chr(10))[0][-150:] if detail else ''}")
        if outcome == "wrong":
            print(detail)
    print(f"{a.mutations} mutations: {tally['refused']} refused, {tally['right']} right, {tally['wrong']} wrong")
    for (kind, outcome), c in sorted(kinds.items()):
        print(f"  {kind:20s} {outcome:8s} {c}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
