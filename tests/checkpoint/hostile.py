#!/usr/bin/env python3
"""Checkpoint folders under hostile use: no lost checkpoint, no two jobs in one folder, no resume
refused for a path typed differently, no branch-and-bound search made longer by its legs.

  hostile.py CASE SOURCE_DIR BUILD_DIR WORK_DIR

CASE:
  other_search   a folder holding another search's checkpoint is refused at start-up (exit 2, one
                 message, every rank), and left as it was; the same search may resume and save
                 there; --checkpoint-overwrite lets the other search replace it
  lock           DIR/lock keeps a second job out of a folder in use (exit 2 naming host and PID);
                 a stale lock (its process gone) is taken over with a warning; a lock from another
                 host is refused; the lock is gone after every exit (whole, interrupted, failed,
                 interrupted during set-up), and a lock naming a zombie process counts as stale
  path_identity  --resume accepts the instance under another path (./g.clq, g.clq, /abs/g.clq,
                 a copy) when its SHA-1 matches, and refuses a file with other contents
  bnb_legs       branch and bound on one worker (a deterministic order): a run cut into
                 checkpoint legs, and a new process resuming its last set, visit exactly the
                 nodes of an uninterrupted run; the incumbent never weakens from leg to leg

Answers: 16 queens 14,772,512 and 14 queens 365,596 (OEIS A000170); numerical semigroups by genus
(OEIS A007323, instances/ns/genus_counts.tsv); omega of the DIMACS graphs (instances/dimacs/ANSWERS.tsv).
"""
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

MPI = ["mpirun", "--oversubscribe", "--allow-run-as-root", "--bind-to", "none"]
failures = 0


def check(ok, what, detail=""):
    global failures
    print(f"{'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        failures += 1
        if detail:
            print(detail)
    return ok


def app(build, name):
    return os.path.join(build, "apps", name, name)


def run(cmd, cwd=None, timeout=120):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", (e.stderr or "") + "\n(timeout: it hung)"
    return p.returncode, p.stdout, p.stderr


def start(cmd, cwd=None):
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                            cwd=cwd, start_new_session=True)


def interrupt(p, after, timeout=120):
    """SIGUSR1 (Slurm's time-limit signal) after `after` seconds unless it ended; (rc, out, err)."""
    try:
        p.wait(timeout=after)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGUSR1)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return None, out, err + "\n(timeout: it hung)"
    return p.returncode, out, err


def folder_digest(d):
    """Where DIR/current points and the bytes of every file of that set."""
    link = os.path.join(d, "current")
    if not os.path.islink(link):
        return None
    target = os.readlink(link)
    h = hashlib.sha1(target.encode())
    s = os.path.join(d, target)
    for name in sorted(os.listdir(s)):
        with open(os.path.join(s, name), "rb") as f:
            h.update(name.encode() + f.read())
    return h.hexdigest()


def manifest(d):
    with open(os.path.join(d, "current", "manifest.json")) as f:
        return json.load(f)


def refused(name, rc, out, err, pattern, ranks=1, marker=": error: "):
    """Exit 2, one message matching `pattern` (from rank 0 only), no answer printed."""
    lines = [l for l in err.splitlines() if marker in l]
    ok = rc == 2 and len(lines) == 1 and re.search(pattern, lines[0]) and "status:" not in out
    return check(ok, f"{name}: exit {rc}, {len(lines)} error line(s) on {ranks} rank(s)",
                 f"stdout:\n{out}\nstderr:\n{err}")


def started_search(p, d, timeout=30):
    """Waits until the job holds DIR/lock (it is past set-up, searching)."""
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(os.path.join(d, "lock")) and p.poll() is None:
            time.sleep(0.2)
            return True
        if p.poll() is not None:
            return False
        time.sleep(0.05)
    return False


def case_other_search(build, work):
    nq, ns = app(build, "nqueens"), app(build, "ns")
    ck = os.path.join(work, "ck")
    # nqueens 16 interrupted: its checkpoint is in ck.
    rc, out, err = interrupt(start([nq, "-n", "16", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck]), 1.0)
    if not check(rc == 3 and "CHECKPOINT: saved" in out, f"nqueens 16 interrupted under --checkpoint: exit {rc}", out + err):
        return
    before = folder_digest(ck)
    # Another app, another option value, on 1 and 2 ranks: refused before searching, folder untouched.
    for name, cmd, ranks in [
        ("ns in nqueens' folder", [ns, "-g", "30", "--skeleton", "budget", "--checkpoint", ck], 1),
        ("ns in nqueens' folder", MPI + ["-n", "2", ns, "-g", "30", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck], 2),
        ("nqueens 15 in nqueens 16's folder", [nq, "-n", "15", "--skeleton", "budget", "--checkpoint", ck], 1),
        ("nqueens 15 in nqueens 16's folder", MPI + ["-n", "2", nq, "-n", "15", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck], 2),
        ("ns resuming nothing, saving in nqueens' folder", [ns, "-g", "30", "--skeleton", "budget", "--checkpoint", ck, "--checkpoint-every", "0.01"], 1),
    ]:
        rc, out, err = run(cmd, timeout=60)
        refused(name, rc, out, err, r"--checkpoint: folder .* holds the checkpoint of another search \(.*\); this run would replace it.*--checkpoint-overwrite", ranks)
        check(folder_digest(ck) == before, f"{name}: the nqueens set is untouched")
        check(not os.path.exists(os.path.join(ck, "lock")), f"{name}: no lock left behind")
    # The same search resumes there and saves there again.
    seq = manifest(ck)["sequence"]
    rc, out, err = interrupt(start([nq, "-n", "16", "--skeleton", "budget", "--threads", "1", "--resume", ck, "--checkpoint", ck]), 1.0)
    check(rc == 3 and manifest(ck)["sequence"] == seq + 1, f"nqueens 16 --resume ck --checkpoint ck: allowed, saved (exit {rc})", out + err)
    # A damaged set cannot be identified: refused, unless overwritten.
    shutil.copytree(ck, ck + "-damaged", symlinks=True)
    with open(os.path.join(ck + "-damaged", "current", "manifest.json"), "w") as f:
        f.write("{ not json")
    rc, out, err = run([nq, "-n", "12", "--skeleton", "budget", "--checkpoint", ck + "-damaged"], timeout=60)
    refused("a folder whose set cannot be read", rc, out, err, r"holds a checkpoint that cannot be identified \(.*manifest.json' is damaged")
    # --checkpoint-overwrite: ns replaces the nqueens set, and gives its answer.
    counts = {}
    with open(os.path.join(SRC, "instances/ns/genus_counts.tsv")) as f:
        for line in f:
            p = line.split("\t")
            if p[0].isdigit():
                counts[int(p[0])] = int(p[1])
    rc, out, err = run([ns, "-g", "24", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck, "--checkpoint-overwrite"], timeout=120)
    ok = rc == 0 and all(f"{g}: {counts[g]}\n" in out for g in range(25)) and "--checkpoint-overwrite" in err
    check(ok, f"ns -g 24 --checkpoint-overwrite in nqueens' folder: runs, warns, right counts (exit {rc})", out + err)
    rc, out, err = interrupt(start([ns, "-g", "45", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck, "--checkpoint-overwrite"]), 1.0)
    check(rc == 3 and manifest(ck)["identity"]["app"] == "ns", f"ns interrupted with --checkpoint-overwrite: its set replaced nqueens' (exit {rc})", out + err)
    rc, out, err = run([nq, "-n", "8", "--skeleton", "budget", "--checkpoint-overwrite"], timeout=60)
    check(rc == 2 and "--checkpoint-overwrite requires --checkpoint" in err, f"--checkpoint-overwrite alone: exit {rc}", err)


def case_lock(build, work):
    nq = app(build, "nqueens")
    host = socket.gethostname()
    ck = os.path.join(work, "ck")
    job = [nq, "-n", "16", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck]
    first = start(job)
    if not check(started_search(first, ck), "the first job holds ck/lock"):
        first.kill()
        print(first.communicate())
        return
    with open(os.path.join(ck, "lock")) as f:
        lock = json.load(f)
    check(lock.get("host") == host and lock.get("pid") == first.pid, f"ck/lock names this host and the job's PID: {lock}")
    pat = rf"folder .* is in use by another job \(host {re.escape(host)}, process {first.pid}, nqueens, since .*remove '.*lock'"
    rc, out, err = run(job, timeout=60)
    refused("a second job in the same folder", rc, out, err, pat)
    rc, out, err = run(job + ["--checkpoint-overwrite"], timeout=60)
    refused("a second job with --checkpoint-overwrite", rc, out, err, pat)
    rc, out, err = run(MPI + ["-n", "2", nq, "-n", "16", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck], timeout=60)
    refused("a second job on 2 ranks", rc, out, err, pat, 2)
    rc, out, err = interrupt(first, 0)
    check(rc == 3 and "CHECKPOINT: saved" in out, f"the first job, interrupted, saved (exit {rc})", out + err)
    check(not os.path.exists(os.path.join(ck, "lock")), "its lock is gone after the interrupted exit")

    def dead_pid():
        p = subprocess.Popen(["true"])
        p.wait()
        return p.pid

    resume = [nq, "-n", "16", "--skeleton", "budget", "--threads", "1", "--resume", ck, "--checkpoint", ck]
    # Stale: this host, a process that is gone. Taken over, with a warning.
    with open(os.path.join(ck, "lock"), "w") as f:
        json.dump({"host": host, "pid": dead_pid(), "app": "nqueens", "since": "earlier"}, f)
    rc, out, err = interrupt(start(resume), 1.0)
    check(rc == 3 and re.search(r"took over the stale lock", err) and "CHECKPOINT: saved" in out,
          f"a stale lock is taken over with a warning (exit {rc})", out + err)
    check(not os.path.exists(os.path.join(ck, "lock")), "the lock taken over is gone after the exit")
    # A zombie (exited, not yet reaped: mpirun can return before its last ranks are) is gone too.
    zombie = subprocess.Popen(["true"])
    time.sleep(0.3)
    with open(os.path.join(ck, "lock"), "w") as f:
        json.dump({"host": host, "pid": zombie.pid, "app": "nqueens", "since": "earlier"}, f)
    rc, out, err = interrupt(start(resume), 1.0)
    zombie.wait()
    check(rc == 3 and re.search(r"took over the stale lock", err) and "CHECKPOINT: saved" in out,
          f"a lock naming a zombie process is taken over with a warning (exit {rc})", out + err)
    # A signal during set-up ends the job at once (exit 3, nothing searched): its lock goes with it,
    # on one rank and on two (mpirun returns as the first rank exits).
    for ranks in (1, 2):
        p = start((MPI + ["-n", "2"] if ranks == 2 else []) + resume + ["--test-setup-pause", "30"])
        if check(started_search(p, ck), f"a job paused in set-up on {ranks} rank(s) holds ck/lock"):
            rc, out, err = interrupt(p, 0)
            check(rc == 3 and "before the search started" in err and "CHECKPOINT: none written" in out,
                  f"interrupted in set-up on {ranks} rank(s): exit {rc}, nothing written", out + err)
            check(not os.path.exists(os.path.join(ck, "lock")), f"its lock is gone after that exit ({ranks} rank(s))")
        else:
            os.killpg(p.pid, signal.SIGKILL)
            print(p.communicate())
    # Another host: its process cannot be checked from here.
    with open(os.path.join(ck, "lock"), "w") as f:
        json.dump({"host": "elsewhere.invalid", "pid": 4242}, f)
    rc, out, err = run(resume, timeout=60)
    refused("a lock from another host", rc, out, err, r"in use by another job \(host elsewhere\.invalid, process 4242.*no longer running.*remove")
    check(os.path.exists(os.path.join(ck, "lock")), "another job's lock is left in place")
    with open(os.path.join(ck, "lock"), "w") as f:
        f.write("\x00garbage")
    rc, out, err = run(resume, timeout=60)
    refused("an unreadable lock", rc, out, err, r"in use by another job \(an unreadable lock file")
    os.remove(os.path.join(ck, "lock"))
    # Set-up fails on another rank after rank 0 took the lock: all exit 2, the lock is gone.
    rc, out, err = run(MPI + ["-n", "2"] + resume + ["--test-fail-rank", "1"], timeout=60)
    refused("set-up failing on rank 1", rc, out, err, r"rank 1 cannot read its input", 2, marker="cannot read its input")
    check(not os.path.exists(os.path.join(ck, "lock")), "the lock is gone after a failed set-up")
    # A whole run removes it too.
    rc, out, err = run([nq, "-n", "10", "--skeleton", "budget", "--checkpoint", os.path.join(work, "small")], timeout=60)
    check(rc == 0 and "solutions: 724" in out and not os.path.exists(os.path.join(work, "small", "lock")),
          f"a whole run leaves no lock (exit {rc})", out + err)
    # The lock taken from under a running job (removed by hand, another job's lock in its place):
    # its next save fails (exit 1) instead of writing into that job's folder, and that lock stays.
    stolen = os.path.join(work, "stolen")
    p = start([nq, "-n", "16", "--skeleton", "budget", "--threads", "1", "--checkpoint", stolen, "--checkpoint-every", "0.5"])
    if check(started_search(p, stolen), "a job with --checkpoint-every holds its lock"):
        foreign = {"host": "elsewhere.invalid", "pid": 4242}
        with open(os.path.join(stolen, "lock.tmp"), "w") as f:
            json.dump(foreign, f)
        os.replace(os.path.join(stolen, "lock.tmp"), os.path.join(stolen, "lock"))
    rc, out, err = interrupt(p, 60)
    with open(os.path.join(stolen, "lock")) as f:
        left = json.load(f)
    check(rc == 1 and "no longer this job's" in err and "solutions:" not in out and left == foreign,
          f"a save after the lock was taken away fails, writes nothing, leaves the other lock (exit {rc})", out + err)
    # Two jobs started together on a fresh folder: exactly one gets it.
    both = os.path.join(work, "both")
    jobs = [start([nq, "-n", "16", "--skeleton", "budget", "--threads", "1", "--checkpoint", both]) for _ in range(2)]
    time.sleep(3)
    results = [interrupt(p, 0) for p in jobs]
    codes = sorted(r[0] for r in results)
    check(codes == [2, 3], f"two jobs started together on one folder: exits {codes} (one refused, one saved)",
          "\n".join(r[1] + r[2] for r in results))


def case_path_identity(build, work):
    mc = app(build, "maxclique")
    graph, omega = "brock200_1", None
    with open(os.path.join(SRC, "instances/dimacs/ANSWERS.tsv")) as f:
        for line in f:
            p = line.split("\t")
            if p[0] == graph:
                omega = int(p[3])
    src = os.path.join(SRC, "instances/dimacs", graph + ".clq")
    shutil.copy(src, os.path.join(work, "g.clq"))
    os.makedirs(os.path.join(work, "sub"))
    shutil.copy(src, os.path.join(work, "sub", "copy.clq"))
    base = ["--skeleton", "budget", "--threads", "1"]
    ck = os.path.join(work, "ck")
    # A whole run under --checkpoint-every leaves its last set: one to resume.
    rc, out, err = run([mc, "./g.clq"] + base + ["--checkpoint", ck, "--checkpoint-every", "0.01"], cwd=work)
    if not check(rc == 0 and f"omega = {omega}" in out and os.path.islink(os.path.join(ck, "current")),
                 f"maxclique ./g.clq saved a set (exit {rc})", out + err):
        return
    shutil.copytree(ck, ck + ".orig", symlinks=True)
    for typed, cwd in [("g.clq", work), (os.path.join(work, "g.clq"), None), ("../g.clq", os.path.join(work, "sub")),
                       ("sub/copy.clq", work)]:
        shutil.rmtree(ck)
        shutil.copytree(ck + ".orig", ck, symlinks=True)
        for extra in ([], ["--checkpoint", ck]):
            rc, out, err = run([mc, typed] + base + ["--resume", ck] + extra, cwd=cwd)
            check(rc == 0 and f"omega = {omega}" in out,
                  f"--resume with the instance typed as {typed}{' (and --checkpoint there)' if extra else ''}: exit {rc}", out + err)
    # Other contents under the same name: refused, naming the file's option.
    with open(src) as f:
        lines = f.readlines()
    last = max(i for i, l in enumerate(lines) if l.startswith("e "))
    with open(os.path.join(work, "g.clq"), "w") as f:
        f.writelines(lines[:last] + lines[last + 1:])
    shutil.rmtree(ck)
    shutil.copytree(ck + ".orig", ck, symlinks=True)
    rc, out, err = run([mc, "./g.clq"] + base + ["--resume", ck], cwd=work)
    refused("--resume with an edge removed from the instance", rc, out, err, r"the file of option --input has other contents")
    rc, out, err = run([mc, "./g.clq"] + base + ["--checkpoint", ck], cwd=work)
    refused("--checkpoint with an edge removed from the instance", rc, out, err, r"holds the checkpoint of another search \(the file of option --input has other contents")


def case_bnb_legs(build, work):
    mc = app(build, "maxclique")
    graph = os.path.join(SRC, "instances/dimacs/brock200_1.clq")
    # --no-heuristic: the legs must find the incumbents themselves (the initial clique is brock200_1's optimum)
    one = [graph, "--skeleton", "budget", "--threads", "1", "--no-heuristic"]

    def nodes(cmd):
        stats = os.path.join(work, "s.json")
        if os.path.exists(stats):
            os.remove(stats)
        rc, out, err = run([mc] + cmd + ["--stats", stats])
        if rc != 0 or "omega = 21" not in out:
            check(False, f"{' '.join(cmd[1:])}: exit {rc}, not omega = 21 (brock200_1)", out + err)
            return None
        with open(stats) as f:
            return json.load(f)["stats"]["nodes"]

    whole = nodes(one)
    if whole is None:
        return
    print(f"     uninterrupted: {whole} nodes")
    tested = 0
    for every in ["0.005", "0.01", "0.02", "0.04"]:
        ck = os.path.join(work, "ck" + every)
        legs = nodes(one + ["--checkpoint", ck, "--checkpoint-every", every])
        check(legs == whole, f"--checkpoint-every {every}: {legs} nodes, as uninterrupted")
        if not os.path.islink(os.path.join(ck, "current")):
            continue  # it ended before the first save
        m = manifest(ck)
        inc = [l.get("incumbent") for l in m["legs"]]
        check(all(a is not None and b is not None and b >= a for a, b in zip(inc, inc[1:])) and inc[-1] == m.get("incumbent"),
              f"--checkpoint-every {every}: the incumbent never weakens over {len(inc)} legs: {inc}")
        resumed = nodes(one[:1] + ["--skeleton", "budget", "--threads", "1", "--no-heuristic", "--resume", ck])
        check(resumed == whole, f"resumed in a new process from set {m['sequence']} ({m['nodes_so_far']} nodes, incumbent "
                                f"{m.get('incumbent')}, {m['tasks']} tasks): {resumed} nodes in all, as uninterrupted")
        if m.get("incumbent") and m["tasks"] > 0:
            tested += 1
    check(tested > 0, f"{tested} resume(s) from a set holding an incumbent and work left (the case that can fail)")


def main():
    global SRC
    case, SRC, build, work = sys.argv[1:5]
    SRC, build, work = os.path.abspath(SRC), os.path.abspath(build), os.path.abspath(work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    {"other_search": case_other_search, "lock": case_lock, "path_identity": case_path_identity,
     "bnb_legs": case_bnb_legs}[case](build, work)
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
