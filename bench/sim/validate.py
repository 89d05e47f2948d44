#!/usr/bin/python3
"""Validation of jackdaw-sim against real runs on this machine (docs/simulation.md, "Validation").

  validate.py --sim build/sim/jackdaw-sim --out DIR [--reps 10] [--ranks 1,2,4] [--workers 1,2]
              [--policies random,performance] [--incumbent replay,optimum]
              [--loopback-latency-us X] [--comm-cost-us Y] [--sched on,nolate,off]
              [--yield-slice-us A] [--wake-cpu-us B] [--wake-late-us C]
              [--configs 1x2,2x1] [--real-skeleton S] [--real-args "ARGS"] [--sim-args "ARGS"]
              [--calibrate] TRACE...

For every trace (recorded by an app's --trace: the header holds the app's command) and every
ranks x workers x policy: REPS real runs of that command under mpirun, alternating the policies
(A B A B ...), and REPS simulations of the same trace on the "local" platform (one host with this
machine's cores, ranks talking through shared memory) with seeds 1..REPS; a branch-and-bound trace
with levels is simulated in each --incumbent mode (replay: when each rank learns a better bound;
optimum: every rank knows the optimum from the start), and in each --sched mode (on: the local
preset's scheduling model, its yield slice, wake-up CPU and wake-up lateness; nolate: without the
lateness; off: all three zero, as if the host's scheduling cost nothing). --yield-slice-us, --wake-cpu-us and --wake-late-us replace the preset's constants with
ones measured on another machine (bench/sim/wake_latency; docs/simulation.md, "Calibrating to your
cluster"); nolate and off still zero theirs. Writes DIR/validation.md
(median makespan real vs simulated and the prediction error, steals and idle % side by side) and
DIR/validation.json with every run.

Hunger splitting (docs/simulation.md, "Hunger splitting"): --real-skeleton stack_stealing runs the
real app under that skeleton instead of the recorded one (the recording's grain flags dropped),
--sim-args "--split hunger" passes the flags to every simulation, and --calibrate first times REPS
real runs at 1 rank x 1 worker (the real skeleton) and REPS of --skeleton seq, and simulates every
row with --core-speed = the trace's task CPU / the median 1 x 1 run (the real skeleton's cost per
node, which the recorded tasks' CPU does not hold: a fine budget tree makes many more tasks).
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import benchlib  # noqa: E402  (bench/benchlib.py)


def trace_header(sim, trace):
    p = subprocess.run([sim, trace, "--info"], capture_output=True, text=True, check=True)
    return json.loads(p.stdout[:p.stdout.rindex("}") + 1])


def app_command(header, skeleton=None):
    """The recorded app command without what only the recording needed; with `skeleton`, that
    skeleton instead of the recorded one and none of the recording's grain flags."""
    cmd = header["command"]
    cmd = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
    drop = ["--trace", "--trace-levels", "--threads", "--stats", "--policy", "--seed", "--timeline"]
    if skeleton:
        drop += ["--skeleton", "-b", "--budget", "-d", "--spawn-depth", "--task-target-ms"]
    out, skip = [], False
    for a in cmd:
        if skip:
            skip = False
            continue
        if a in drop:
            skip = True
            continue
        if a.startswith(tuple(f + "=" for f in drop)) or (skeleton and a in ("--chunked", "--discrepancy")):
            continue
        out.append(a)
    return out + (["--skeleton", skeleton] if skeleton else [])


def real_run(cmd, ranks, workers, policy, seed, tmp):
    stats = os.path.join(tmp, "stats.json")
    # --bind-to none: Open MPI binds each rank to one core when there are at most two ranks, which
    # would put a 1-rank x 2-worker run on one core; the simulated host shares its cores among all.
    mpi = ["mpirun", "--oversubscribe", "--bind-to", "none", "-n", str(ranks)]
    if os.geteuid() == 0:
        mpi.insert(1, "--allow-run-as-root")
    full = mpi + cmd + ["--threads", str(workers), "--policy", policy, "--seed", str(seed), "--stats", stats]
    p = subprocess.run(full, capture_output=True, text=True, timeout=1800)
    if p.returncode != 0:
        sys.exit(f"validate: real run failed: {shlex.join(full)}\n{p.stderr}")
    return summary(json.load(open(stats)))


def sim_run(sim, trace, ranks, workers, policy, seed, extra, tmp):
    out = os.path.join(tmp, "sim.json")
    cmd = [sim, trace, "--platform", "local", "--ranks", str(ranks), "--workers", str(workers), "--policy", policy,
           "--seed", str(seed), "--out", out] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if p.returncode != 0:
        sys.exit(f"validate: simulation failed: {shlex.join(cmd)}\n{p.stderr}")
    return summary(json.load(open(out)))


def summary(doc):
    tot = doc.get("distributed", {}).get("totals", {})
    return {"seconds": doc["seconds"], "nodes": doc["stats"]["nodes"], "steals": tot.get("steal_requests", 0),
            "failed": tot.get("steals_failed", 0), "idle_pct": benchlib.idle_pct(doc), "rtt_us": benchlib.steal_rtt_us(doc)}


def med(rows, key):
    return statistics.median(r[key] for r in rows)


def spread(rows, key):
    v = [r[key] for r in rows]
    return (max(v) - min(v)) / statistics.median(v) * 100 if statistics.median(v) else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--ranks", default="1,2,4")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--policies", default="random,performance")
    ap.add_argument("--loopback-latency-us", type=float, default=None)
    ap.add_argument("--comm-cost-us", type=float, default=None)
    ap.add_argument("--incumbent", default="replay", help="modes for traces with levels: replay, optimum or both")
    ap.add_argument("--sched", default="on", help="the scheduling model: on, nolate, off, or a list (on,nolate,off)")
    for flag in ("--yield-slice-us", "--wake-cpu-us", "--wake-late-us"):
        ap.add_argument(flag, type=float, default=None, help="the local preset's constant, measured here (default: the preset's)")
    ap.add_argument("--configs", default=None, help="ranks x workers pairs instead of --ranks x --workers (e.g. 1x2,2x1)")
    ap.add_argument("--real-skeleton", default=None, help="run the real app under this skeleton (e.g. stack_stealing)")
    ap.add_argument("--sim-args", default="", help="more flags for every simulation (e.g. \"--split hunger\")")
    ap.add_argument("--real-args", default="",
                    help="more flags for every real run but --skeleton seq's (e.g. \"--hunger-split false\")")
    ap.add_argument("--calibrate", action="store_true",
                    help="simulate with --core-speed = trace CPU / the real 1 x 1 median (and time --skeleton seq)")
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    extra = []
    if a.loopback_latency_us is not None:
        extra += ["--loopback-latency-us", str(a.loopback_latency_us)]
    if a.comm_cost_us is not None:
        extra += ["--comm-cost-us", str(a.comm_cost_us)]
    extra += shlex.split(a.sim_args)
    policies = a.policies.split(",")
    results, calibration = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for trace in a.traces:
            h = trace_header(a.sim, trace)
            cmd = app_command(h, a.real_skeleton) + shlex.split(a.real_args)
            speed = []
            if a.calibrate:
                one = [real_run(cmd, 1, 1, policies[0], rep + 1, tmp) for rep in range(a.reps)]
                seq = [real_run(app_command(h, "seq"), 1, 1, policies[0], rep + 1, tmp) for rep in range(a.reps)]
                core = h["cpu_seconds"] / med(one, "seconds")
                speed = ["--core-speed", f"{core:.6f}"]
                calibration.append({"trace": os.path.basename(trace), "trace_cpu_s": h["cpu_seconds"], "real_1x1": one,
                                    "seq": seq, "core_speed": core})
                print(f"{os.path.basename(trace)}: trace CPU {h['cpu_seconds']:.3f} s, real 1 x 1 median "
                      f"{med(one, 'seconds'):.3f} s (spread {spread(one, 'seconds'):.0f} %), seq median "
                      f"{med(seq, 'seconds'):.3f} s: --core-speed {core:.4f}", flush=True)
            pairs = [tuple(int(v) for v in c.split("x")) for c in a.configs.split(",")] if a.configs else \
                [(r, w) for r in (int(x) for x in a.ranks.split(",")) for w in (int(x) for x in a.workers.split(","))]
            for ranks, workers in pairs:
                if True:
                    pols = policies if ranks > 1 else policies[:1]
                    real = {p: [] for p in pols}
                    for rep in range(a.reps):
                        for p in pols:  # alternating: A B A B ...
                            real[p].append(real_run(cmd, ranks, workers, p, rep + 1, tmp))
                    modes = a.incumbent.split(",") if h.get("levels") else ["-"]
                    for p in pols:
                        for mode in modes:
                            for sched in a.sched.split(","):
                                more = extra + speed + ([] if mode == "-" else ["--incumbent", mode])
                                consts = {"--yield-slice-us": a.yield_slice_us, "--wake-cpu-us": a.wake_cpu_us,
                                          "--wake-late-us": a.wake_late_us}
                                if sched in ("off", "nolate"):
                                    consts["--wake-late-us"] = 0
                                if sched == "off":
                                    consts["--yield-slice-us"] = consts["--wake-cpu-us"] = 0
                                for flag, v in consts.items():
                                    if v is not None:
                                        more += [flag, str(v)]
                                sims = [sim_run(a.sim, trace, ranks, workers, p, rep + 1, more, tmp) for rep in range(a.reps)]
                                row = {"trace": os.path.basename(trace), "app": h.get("app"), "ranks": ranks, "workers": workers,
                                       "policy": p, "incumbent": mode, "sched": sched, "real": real[p], "sim": sims}
                                results.append(row)
                                r, s = med(real[p], "seconds"), med(sims, "seconds")
                                print(f"{row['trace']} {ranks}x{workers} {p} {mode} sched {sched}: real {r:.3f} s, sim {s:.3f} s, "
                                      f"error {100 * (s - r) / r:+.1f} %", flush=True)
    json.dump({"calibration": calibration, "rows": results} if a.calibrate else results,
              open(os.path.join(a.out, "validation.json"), "w"), indent=1)
    lines = ["| trace | ranks x workers | policy | incumbent | sched | real median s (spread %) | simulated median s (spread %) | "
             "error % | real nodes | sim nodes | real steals | sim steals | real failed | sim failed | real idle % | sim idle % | "
             "real steal RTT us | sim steal RTT us |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in results:
        r, s = row["real"], row["sim"]
        err = 100 * (med(s, "seconds") - med(r, "seconds")) / med(r, "seconds")
        lines.append(f"| {row['trace']} | {row['ranks']} x {row['workers']} | {row['policy']} | {row.get('incumbent', '-')} | {row.get('sched', '-')} | "
                     f"{med(r, 'seconds'):.3f} ({spread(r, 'seconds'):.0f}) | {med(s, 'seconds'):.3f} ({spread(s, 'seconds'):.0f}) | "
                     f"{err:+.1f} | {med(r, 'nodes'):.0f} | {med(s, 'nodes'):.0f} | {med(r, 'steals'):.0f} | {med(s, 'steals'):.0f} | {med(r, 'failed'):.0f} | "
                     f"{med(s, 'failed'):.0f} | {med(r, 'idle_pct'):.1f} | {med(s, 'idle_pct'):.1f} | "
                     f"{med(r, 'rtt_us'):.0f} | {med(s, 'rtt_us'):.0f} |")
    for c in calibration:
        lines.append(f"\n{c['trace']}: trace CPU {c['trace_cpu_s']:.3f} s; real 1 x 1 median {med(c['real_1x1'], 'seconds'):.3f} s; "
                     f"seq median {med(c['seq'], 'seconds'):.3f} s; simulated with --core-speed {c['core_speed']:.4f}")
    open(os.path.join(a.out, "validation.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
