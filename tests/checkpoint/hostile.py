#!/usr/bin/env python3
"""Checkpoint folders under hostile use: no lost checkpoint, no two jobs in one folder, no resume
refused for a path typed differently, no branch-and-bound search made longer by its legs.

  hostile.py CASE SOURCE_DIR BUILD_DIR WORK_DIR

CASE:
  other_search   a folder holding another search's checkpoint is refused at start-up (exit 2, one
                 message, every rank), and left as it was; the same search may resume and save
                 there; --checkpoint-overwrite lets the other search replace it
  lock           DIR/lock keeps a second job out of a folder in use (exit 2 naming host and PID);
                 a stale lock (no process holds it) is taken over with a warning; a lock from another
                 host or another boot is refused; the lock is gone after every exit (whole, interrupted, failed,
                 interrupted during set-up), and a lock naming a zombie process counts as stale
  path_identity  --resume accepts the instance under another path (./g.clq, g.clq, /abs/g.clq,
                 a copy) when its SHA-1 matches, and refuses a file with other contents
  bnb_legs       branch and bound on one worker (a deterministic order): a run cut into
                 checkpoint legs, and a new process resuming its last set, visit exactly the
                 nodes of an uninterrupted run; the incumbent never weakens from leg to leg
  shared_folder  (issue 50) a sticky world-writable folder where another user planted links and
                 files: nothing is written through them; a loose (not sticky) one is refused
  pid_namespaces (issue 50) two jobs in separate PID namespaces, both process 1: the second is
                 refused while the first runs; a lock nobody holds is taken over
  oversized_record (issue 50) a 1 GiB record is refused by --memory-limit before it is read

Answers: 16 queens 14,772,512, 14 queens 365,596 and 12 queens 14,200 (OEIS A000170); numerical semigroups by genus
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


def interrupt_searching(cmd, d, after=0.5):
    """Starts cmd, waits until it searches (holds DIR/lock, however long its start took under load),
    then interrupt(p, after): a fixed delay from the start let a slow start be interrupted in set-up."""
    p = start(cmd)
    started_search(p, d, timeout=60)
    return interrupt(p, after)


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
    """Waits until the job holds DIR/lock (it is past set-up, searching). Held, not merely there:
    a test may plant the lock file before the job starts."""
    end = time.time() + timeout
    while time.time() < end:
        if p.poll() is not None:
            return False
        if flock_held(os.path.join(d, "lock")):
            time.sleep(0.2)
            return True
        time.sleep(0.05)
    return False


def flock_held(path):
    """Whether some process holds flock(2) on the file at path (listed in /proc/locks)."""
    try:
        ino = os.stat(path).st_ino
        with open("/proc/locks") as f:
            return any(l.split()[1] == "FLOCK" and l.split()[5].endswith(f":{ino}") for l in f if len(l.split()) > 5)
    except (OSError, IndexError):
        return False


def lock_held(path, timeout=60):
    """Waits until some process holds flock(2) on the file at path."""
    end = time.time() + timeout
    while time.time() < end:
        if flock_held(path):
            return True
        time.sleep(0.05)
    return False


def boot_id():
    with open("/proc/sys/kernel/random/boot_id") as f:
        return f.read().strip()


def case_other_search(build, work):
    nq, ns = app(build, "nqueens"), app(build, "ns")
    ck = os.path.join(work, "ck")
    # nqueens 16 interrupted: its checkpoint is in ck.
    rc, out, err = interrupt_searching([nq, "-n", "16", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck], ck)
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
    rc, out, err = interrupt_searching([nq, "-n", "16", "--skeleton", "budget", "--threads", "1", "--resume", ck, "--checkpoint", ck], ck)
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
    rc, out, err = interrupt_searching([ns, "-g", "45", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck, "--checkpoint-overwrite"], ck)
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
    check(lock.get("host") == host and lock.get("pid") == first.pid and lock.get("boot_id") == boot_id(),
          f"ck/lock names this host, its boot and the job's PID: {lock}")
    pat = rf"folder .* is in use by another job \(host {re.escape(host)}, process {first.pid}, nqueens, since .*lock file '.*lock', held\)"
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
    rc, out, err = interrupt_searching(resume, ck)
    check(rc == 3 and re.search(r"took over the stale lock", err) and "CHECKPOINT: saved" in out,
          f"a stale lock is taken over with a warning (exit {rc})", out + err)
    check(not os.path.exists(os.path.join(ck, "lock")), "the lock taken over is gone after the exit")
    # A zombie (exited, not yet reaped: mpirun can return before its last ranks are) is gone too.
    zombie = subprocess.Popen(["true"])
    time.sleep(0.3)
    with open(os.path.join(ck, "lock"), "w") as f:
        json.dump({"host": host, "pid": zombie.pid, "app": "nqueens", "since": "earlier"}, f)
    rc, out, err = interrupt_searching(resume, ck)
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
    # A container on this machine with its own host name: the same kernel (boot_id), so the kernel's
    # lock says its job is gone. Taken over.
    with open(os.path.join(ck, "lock"), "w") as f:
        json.dump({"host": "container-7", "boot_id": boot_id(), "pid": 1, "app": "nqueens", "since": "earlier"}, f)
    rc, out, err = interrupt_searching(resume, ck)
    check(rc == 3 and re.search(r"took over the stale lock .*host container-7, process 1", err) and "CHECKPOINT: saved" in out,
          f"a lock of another host name on this kernel (its boot_id), not held, is taken over (exit {rc})", out + err)
    # This host's name on another kernel (another machine of the same name, or before a reboot): refused.
    with open(os.path.join(ck, "lock"), "w") as f:
        json.dump({"host": host, "boot_id": "00000000-0000-0000-0000-000000000000", "pid": 4242}, f)
    rc, out, err = run(resume, timeout=60)
    refused("a lock of this host name from another boot", rc, out, err, r"in use by another job \(host .*, process 4242.*another machine")
    os.remove(os.path.join(ck, "lock"))
    # Another host: its process cannot be checked from here.
    with open(os.path.join(ck, "lock"), "w") as f:
        json.dump({"host": "elsewhere.invalid", "pid": 4242}, f)
    rc, out, err = run(resume, timeout=60)
    refused("a lock from another host", rc, out, err, r"in use by another job \(host elsewhere\.invalid, process 4242.*another machine.*no longer running.*remove")
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


OTHER_UID = 65534  # "nobody": files given away by root stand for another user's


def case_shared_folder(build, work):
    """Issue 50 item 1: a shared (sticky, world-writable) checkpoint folder where another user plants
    links and files; the victim's run never writes through them."""
    nq = app(build, "nqueens")
    host = socket.gethostname()
    victim = os.path.join(work, "victim.txt")
    with open(victim, "w") as f:
        f.write("mine\n")
    ck = os.path.join(work, "shared")
    os.makedirs(ck)
    os.chmod(ck, 0o1777)
    # Long enough (about 0.4 s on one worker here, more under load) that its first periodic set
    # (20 ms in) is written whatever the load: with -n 12 (14 ms) a loaded machine ended the run
    # before the first set, and the check below failed.
    job = [nq, "-n", "14", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck, "--checkpoint-every", "0.02"]

    def unchanged(what):
        with open(victim) as f:
            check(f.read() == "mine\n", f"{what}: the victim's file is unchanged")

    def plant_link(name):
        path = os.path.join(ck, name)
        os.symlink(victim, path)
        if os.getuid() == 0:
            os.lchown(path, OTHER_UID, OTHER_UID)
        return path

    # The attack of the issue: lock.<host>.<pid> links sprayed over the next PIDs.
    probe = subprocess.Popen(["true"])
    probe.wait()
    for pid in range(probe.pid, probe.pid + 400):
        plant_link(f"lock.{host}.{pid}")
    rc, out, err = run(job, timeout=60)
    if not check(rc == 0 and "solutions: 365596" in out and os.path.islink(os.path.join(ck, "current")),
                 f"a run beside 400 planted lock.<host>.<pid> links saves its sets: exit {rc}", out + err):
        return
    unchanged("sprayed lock links")
    # DIR/lock itself planted as a link: refused, nothing written.
    lock = plant_link("lock")
    rc, out, err = run(job, timeout=60)
    refused("DIR/lock planted as a link", rc, out, err, r"'.*/lock' is a symbolic link: refused")
    unchanged("DIR/lock planted as a link")
    os.remove(lock)
    if os.getuid() == 0:
        # Another user's lock file, and another user's current set: refused, left as they are.
        with open(lock, "w") as f:
            f.write('{"host": "x", "pid": 1}\n')
        os.chown(lock, OTHER_UID, OTHER_UID)
        rc, out, err = run(job, timeout=60)
        refused("DIR/lock of another user", rc, out, err, r"'.*/lock' belongs to another user \(uid 65534\): refused")
        os.remove(lock)
        current = os.path.join(ck, "current")
        os.lchown(current, OTHER_UID, OTHER_UID)
        rc, out, err = run(job, timeout=60)
        refused("DIR/current of another user", rc, out, err, r"current' belongs to another user \(uid 65534\)")
        os.lchown(current, 0, 0)
    # A folder anyone may write that is not sticky: anyone could replace its files. Refused.
    loose = os.path.join(work, "loose")
    os.makedirs(loose)
    os.chmod(loose, 0o777)
    rc, out, err = run([nq, "-n", "10", "--skeleton", "budget", "--checkpoint", loose], timeout=60)
    refused("a world-writable folder without the sticky bit", rc, out, err, r"can be written by every user and is not sticky")
    # The run's own files in the shared folder are its own, created new.
    rc, out, err = run(job, timeout=60)
    st = os.lstat(os.path.join(ck, "current"))
    check(rc == 0 and "solutions: 365596" in out and st.st_uid == os.getuid(), f"the shared folder still serves its owner (exit {rc})", out + err)
    unchanged("the whole case")


def case_pid_namespaces(build, work):
    """Issue 50 item 4: two jobs on one host in separate PID namespaces, both PID 1, share a folder."""
    nq = app(build, "nqueens")
    ns_ = ["unshare", "--pid", "--fork", "--mount-proc"]
    if subprocess.run(ns_ + ["true"], capture_output=True).returncode != 0:
        ns_ = ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc"]
        if subprocess.run(ns_ + ["true"], capture_output=True).returncode != 0:
            print("SKIP: no PID namespaces here (unshare --pid is not permitted)")
            sys.exit(77)
    ck = os.path.join(work, "ck")
    job = ns_ + [nq, "-n", "17", "--skeleton", "budget", "--threads", "1", "--checkpoint", ck]
    first = start(job)
    if not check(started_search(first, ck), "the first job (PID namespace) holds ck/lock"):
        os.killpg(first.pid, signal.SIGKILL)
        print(first.communicate())
        return
    with open(os.path.join(ck, "lock")) as f:
        lock = json.load(f)
    check(lock.get("pid") == 1, f"its lock names process 1 (its own namespace): {lock}")
    # Before: the second job, process 1 too, took the lock as its own stale one.
    rc, out, err = run(job, timeout=60)
    refused("a second job in its own PID namespace", rc, out, err, r"in use by another job \(host .*, process 1, nqueens.*held\)")
    # unshare does not pass signals on: SIGUSR1 goes to the app, its child (process 1 inside).
    def usr1_inside(p, after):
        time.sleep(after)
        with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
            for child in f.read().split():
                os.kill(int(child), signal.SIGUSR1)
        return interrupt(p, 120)

    rc, out, err = usr1_inside(first, 0)
    check(rc == 3 and "CHECKPOINT: saved" in out, f"the first job keeps its folder and saves at its signal (exit {rc})", out + err)
    # A job killed outright leaves its lock file, which no process holds: the next one (process 1
    # again) takes it over, with a warning.
    resume = ns_ + [nq, "-n", "17", "--skeleton", "budget", "--threads", "1", "--resume", ck, "--checkpoint", ck]
    killed = start(resume)
    if check(started_search(killed, ck), "a resumed job (PID namespace) holds ck/lock"):
        os.killpg(killed.pid, signal.SIGKILL)
        killed.communicate()
    check(os.path.exists(os.path.join(ck, "lock")), "kill -9 left its lock file")
    next_ = start(resume)
    check(lock_held(os.path.join(ck, "lock")), "the next job holds the lock (flock, /proc/locks)")
    rc, out, err = usr1_inside(next_, 1.0)
    check(rc == 3 and re.search(r"took over the stale lock .*process 1, nqueens.*no process holds it", err) and "CHECKPOINT: saved" in out,
          f"the next job (process 1 too) takes the lock nobody holds over, with a warning (exit {rc})", out + err)


def case_oversized_record(build, work):
    """Issue 50 item 6: a record's size is checked against the manifest, the file and --memory-limit
    before it is read."""
    import resource
    nq = app(build, "nqueens")
    ck = os.path.join(work, "ck")
    rc, out, err = run([nq, "-n", "14", "--skeleton", "budget", "--threads", "1", "-b", "200", "--checkpoint", ck,
                        "--checkpoint-every", "0.02"], timeout=120)
    if not check(rc == 0 and "solutions: 365596" in out and os.path.islink(os.path.join(ck, "current")),
                 f"nqueens 14 left a set (exit {rc})", out + err):
        return
    mpath = os.path.join(ck, "current", "manifest.json")
    record = os.path.join(ck, "current", "rank-00000.bin")
    with open(mpath) as f:
        m = json.load(f)
    resume = [nq, "-n", "14", "--skeleton", "budget", "--threads", "1", "--resume", ck, "--memory-limit", "256M"]
    # 1 GiB, sparse, and the manifest agreeing: refused by --memory-limit before a byte is read.
    os.truncate(record, 1 << 30)
    m["files"][0]["bytes"] = 1 << 30
    with open(mpath, "w") as f:
        json.dump(m, f)
    rc, out, err = run(resume, timeout=60)
    refused("a 1 GiB record under --memory-limit 256M", rc, out, err,
            r"rank-00000\.bin: 1073741824 bytes \(1\.0 GiB\): this rank's records would take more than the memory limit of 256\.0 MiB")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB, the largest child so far
    check(peak < 200 * 1024, f"no process of this test grew past 200 MiB (peak {peak // 1024} MiB): the record was not read")
    # The same file, the manifest saying otherwise: refused on the size alone.
    m["files"][0]["bytes"] = 4096
    with open(mpath, "w") as f:
        json.dump(m, f)
    rc, out, err = run(resume, timeout=60)
    refused("a 1 GiB record the manifest says is 4096 bytes", rc, out, err, r"rank-00000\.bin: 1073741824 bytes, the manifest says 4096")
    # A manifest padded past what any manifest needs (64 MiB): not read either.
    with open(mpath, "r+b") as f:
        f.truncate(65 << 20)
    rc, out, err = run(resume, timeout=60)
    refused("a 65 MiB manifest", rc, out, err, r"manifest\.json: holds 68157440 bytes .*not read")


def main():
    global SRC
    case, SRC, build, work = sys.argv[1:5]
    SRC, build, work = os.path.abspath(SRC), os.path.abspath(build), os.path.abspath(work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    {"other_search": case_other_search, "lock": case_lock, "path_identity": case_path_identity,
     "bnb_legs": case_bnb_legs, "shared_folder": case_shared_folder, "pid_namespaces": case_pid_namespaces,
     "oversized_record": case_oversized_record}[case](build, work)
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
