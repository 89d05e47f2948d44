"""campaign.py run and simulate: the grid of runs, alternating the policies, on a real launcher or
jackdaw-sim; both write DIR/runs.tsv and a stats file per run."""
import csv
import os
import shlex
import shutil
import subprocess
import sys
import time

from campaign_args import MANIFEST_FIELDS, bad, check_common


# ----------------------------------------------------------------------------------------------- run
def launcher_prefix(kind, ranks, threads):
    if kind == "auto":
        kind = "srun" if os.environ.get("SLURM_JOB_ID") else "mpirun"
    if kind == "srun":
        # --overlap: simultaneous runs share the allocation's CPUs (that is the point of the mode)
        return ["srun", "--mpi=pmix", "--overlap", "--overcommit", "-n", str(ranks), f"--cpus-per-task={threads}"]
    if kind == "mpirun":
        cmd = ["mpirun", "--oversubscribe", "-n", str(ranks)]
        if os.geteuid() == 0:
            cmd.insert(1, "--allow-run-as-root")
        return cmd
    if kind == "direct":
        if ranks != 1:
            sys.exit("campaign: --launcher direct runs one rank only")
        return []
    sys.exit(f"campaign: unknown launcher {kind}")


def start_run(args, out, run_id, mode, ranks, policy, rep):
    rdir = os.path.join(out, "runs", run_id)
    os.makedirs(rdir, exist_ok=True)
    app_args = list(args.app)
    cmd = launcher_prefix(args.launcher, ranks, args.threads) + app_args + [
        "--policy", policy, "--threads", str(args.threads),
        "--seed", str(args.seed + rep), "--stats", os.path.join(rdir, "stats.json")]
    if mode == "slow":
        slow = ",".join(str(r) for r in args.slow_ranks if r < ranks)
        cmd += ["--slow-ranks", slow, "--slowdown", str(args.slowdown)]
    with open(os.path.join(rdir, "command"), "w") as f:
        f.write(shlex.join(cmd) + "\n")
    stdout = open(os.path.join(rdir, "stdout"), "w")
    stderr = open(os.path.join(rdir, "stderr"), "w")
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=stderr)
    return {"proc": proc, "t0": time.monotonic(), "files": (stdout, stderr), "cmd": cmd, "dir": rdir,
            "row": {"id": run_id, "mode": mode, "ranks": ranks, "threads": args.threads, "policy": policy,
                    "rep": rep}}


def finish_run(run, timeout, writer, manifest):
    try:
        rc = run["proc"].wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        run["proc"].kill()
        run["proc"].wait()
        rc = "timeout"
    for f in run["files"]:
        f.close()
    row = dict(run["row"], exit=rc, wall_seconds=f"{time.monotonic() - run['t0']:.3f}",
               dir=os.path.relpath(run["dir"], os.path.dirname(manifest.name)), command=shlex.join(run["cmd"]))
    writer.writerow(row)
    manifest.flush()
    status = "ok" if rc == 0 else f"exit {rc}"
    print(f"[campaign] {row['id']}: {row['mode']} ranks={row['ranks']} {row['policy']} rep={row['rep']} "
          f"{row['wall_seconds']} s ({status})", flush=True)
    return rc


def cmd_run(args):
    if args.app[:1] == ["--"]:
        args.app = args.app[1:]
    if not args.app:
        bad("give the app and its arguments after --")
    program = shutil.which(args.app[0])
    if program is None:
        bad(f"app '{args.app[0]}' not found (or not executable)")
    if args.launcher == "direct" and args.ranks != [1]:
        bad(f"--launcher direct runs one rank: --ranks {','.join(map(str, args.ranks))}")
    check_common(args, program)
    out = args.out
    path = os.path.join(out, "runs.tsv")
    fresh = not os.path.exists(path)
    failures = 0
    with open(path, "a", newline="") as manifest:
        writer = csv.DictWriter(manifest, MANIFEST_FIELDS, delimiter="\t")
        if fresh:
            writer.writeheader()
        policies = args.policies
        n = 0
        for mode in args.modes:
            for ranks in args.ranks:
                if mode == "slow" and not [r for r in args.slow_ranks if r < ranks]:
                    print(f"[campaign] skip: slow mode needs one of ranks {args.slow_ranks} in a {ranks}-rank job")
                    continue
                for rep in range(args.reps):
                    if mode == "simultaneous":
                        runs = []
                        for p in policies:
                            n += 1
                            runs.append(start_run(args, out, f"{n:04d}", mode, ranks, p, rep))
                        for r in runs:
                            failures += finish_run(r, args.timeout, writer, manifest) != 0
                    else:
                        # One run at a time, every policy once per repetition. With --order rotate
                        # repetition k starts at policy k (A B C, B C A, C A B, ...), so no policy
                        # always holds the same place in the sequence: a fixed order once gave one
                        # policy a +16 % "win" that vanished when the order changed.
                        order = policies
                        if args.order == "rotate":
                            k = rep % len(policies)
                            order = policies[k:] + policies[:k]
                        for p in order:
                            n += 1
                            r = start_run(args, out, f"{n:04d}", mode, ranks, p, rep)
                            failures += finish_run(r, args.timeout, writer, manifest) != 0
    print(f"[campaign] done: {n} runs, {failures} failed; manifest {path}")
    return 1 if failures else 0


# ------------------------------------------------------------------------------------------ simulate
def cmd_simulate(args):
    if not (os.path.isfile(args.sim) and os.access(args.sim, os.X_OK)):
        bad(f"simulator '{args.sim}' not found (or not executable)")
    if not os.path.isfile(args.trace):
        bad(f"trace '{args.trace}' not found")
    extra = args.sim_args[1:] if args.sim_args[:1] == ["--"] else args.sim_args
    # The simulator parses SIM-ARGS (and reads the trace) for --info and stops there: a typo is
    # one message now, not a failed run per configuration.
    try:
        p = subprocess.run([args.sim, args.trace, "--info"] + extra, capture_output=True, text=True, timeout=600,
                           stdin=subprocess.DEVNULL)
        why = (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[0] if p.returncode != 0 else None
    except (OSError, subprocess.SubprocessError) as e:
        why = str(e)
    if why:
        bad(f"{os.path.basename(args.sim)} refuses the trace or the arguments after --: {why}")
    check_common(args, args.sim)
    out = args.out
    path = os.path.join(out, "runs.tsv")
    fresh = not os.path.exists(path)
    policies = args.policies
    todo, n = [], 0
    for mode in args.modes:
        for ranks in args.ranks:
            slow = [str(r) for r in args.slow_ranks if r < ranks]
            if mode == "slow" and not slow:
                continue
            for rep in range(args.reps):
                for i, p in enumerate(policies):
                    n += 1
                    run_id = f"{n:04d}"
                    rdir = os.path.join(out, "runs", run_id)
                    cmd = [args.sim, args.trace, "--hosts", str(ranks), "--policy", p, "--seed", str(args.seed + rep),
                           "--out", os.path.join(rdir, "stats.json")] + extra
                    if mode == "slow":
                        cmd += ["--slow-hosts", ",".join(slow), "--slowdown", str(args.slowdown)]
                    if mode == "simultaneous":
                        cmd += ["--corun", args.trace, "--corun-policy", policies[(i + 1) % len(policies)]]
                    todo.append((rdir, cmd, {"id": run_id, "mode": mode, "ranks": ranks, "threads": "sim",
                                             "policy": p, "rep": rep}))
    failures = 0
    with open(path, "a", newline="") as manifest:
        writer = csv.DictWriter(manifest, MANIFEST_FIELDS, delimiter="\t")
        if fresh:
            writer.writeheader()
        running = []
        for rdir, cmd, row in todo:
            os.makedirs(rdir, exist_ok=True)
            with open(os.path.join(rdir, "command"), "w") as f:
                f.write(shlex.join(cmd) + "\n")
            while len(running) >= args.jobs:
                done = [r for r in running if r["proc"].poll() is not None]
                for r in done:
                    failures += finish_run(r, args.timeout, writer, manifest) != 0
                    running.remove(r)
                if not done:
                    time.sleep(0.05)
            stdout = open(os.path.join(rdir, "stdout"), "w")
            stderr = open(os.path.join(rdir, "stderr"), "w")
            running.append({"proc": subprocess.Popen(cmd, stdout=stdout, stderr=stderr), "t0": time.monotonic(),
                            "files": (stdout, stderr), "cmd": cmd, "dir": rdir, "row": row})
        for r in running:
            failures += finish_run(r, args.timeout, writer, manifest) != 0
    print(f"[campaign] done: {n} simulated runs, {failures} failed; manifest {path}")
    return 1 if failures else 0
