#!/usr/bin/python3
"""Jackdaw across emulated hosts against one host (docs/running.md, "Across hosts").

  bench/hosts/run.py [--build build] [--reps 3] [--out bench/results/hosts.md] [--skip-comm]

Brings up two emulated hosts (tests/hosts/cluster.sh: network namespaces talking TCP over a
private bridge; root only) and measures, on this machine's two cores:

1. the network: MPI ping-pong between the hosts and between two ranks on one host (bench/hosts/
   pingpong), the latency and bandwidth that jackdaw-sim's platform takes;
2. the comm layer (bench/comm/comm_bench): board publish and reads, steal round trip and bound
   propagation, on one host (shared memory), between the hosts on Open MPI's defaults (the board
   on messages) and with --mca osc ucx (a window over TCP);
3. searches with 2 ranks x 1 worker: one host x 2 ranks against two hosts x 1 rank (the same two
   cores), on Open MPI's defaults and with osc/ucx, and two hosts under a 10 Mbit/s limit
   (tc tbf). Alternated per repetition; medians of wall time with the spread, nodes and steals;
4. jackdaw-sim's prediction of those searches: each recorded once (--trace, one worker, a fine
   grain: RECORD below), then simulated REPS times with hunger splitting on one host x 2 cores and
   on two hosts of one core each, linked by the latency and bandwidth measured in 1 (a message
   between hosts crosses two links: each link gets half the one-way time), the board on messages.
   The constants are this machine's, measured first (wake_latency, comm_bench's comm-thread CPU
   per sleep on each path, pingpong's CPU per message, the one-worker time of each enumeration);
   nothing is fitted to the 2-rank runs.

Writes OUT (markdown) and OUT with .json.
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLUSTER = os.path.join(ROOT, "tests", "hosts", "cluster.sh")
INST = os.path.join(ROOT, "instances")

SEARCHES = {
    "NS g34 budget": ("ns", ["-g", "34", "--skeleton", "budget"], r"^total: (\d+)$"),
    "UTS T1L budget": ("uts", ["--tree", "T1L", "--skeleton", "budget"], r"^tree nodes: (\d+)$"),
    "UTS T3L budget": ("uts", ["--tree", "T3L", "--skeleton", "budget"], r"^tree nodes: (\d+)$"),
    "MaxClique brock400_4 depth_bounded": ("maxclique", [os.path.join(INST, "dimacs", "brock400_4.clq"),
                                                         "--skeleton", "depth_bounded"], r"^omega = (\d+)$"),
}
# name: (hosts, extra mpirun flags, bandwidth limit)
LAYOUTS = {
    "1 host x 2 ranks": (1, [], None),
    "2 hosts, Open MPI defaults (board on messages)": (2, [], None),
    "2 hosts, --mca osc ucx (window over TCP)": (2, ["--mca", "osc", "ucx"], None),
    "2 hosts, defaults, 10 Mbit/s": (2, [], "10mbit"),
}


def sh(cmd, **kw):
    return subprocess.run(cmd, text=True, capture_output=True, **kw)


class Hosts:
    def __init__(self, work):
        self.dir = os.path.join(work, "cluster")
        r = sh([CLUSTER, "start", self.dir, "2"])
        if r.returncode != 0:
            sys.exit(f"cannot start the emulated hosts: {r.stderr}")
        env = {}
        with open(os.path.join(self.dir, "hosts.env")) as f:
            for line in f:
                k, _, v = line.strip().partition("=")
                env[k] = v.strip('"')
        self.hosts = env["HOSTS"].split(",")
        self.args = shlex.split(env["MPIRUN_HOSTS_ARGS"])

    def mpirun(self, nhosts, extra, cmd, env=None, timeout=600):
        hosts = f"{self.hosts[0]}:2" if nhosts == 1 else ",".join(self.hosts[:2])
        full = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none", *self.args, "--host", hosts,
                "-n", "2", *extra]
        if env:
            for k in env:
                full += ["-x", k]
        full += cmd
        t0 = time.monotonic()
        r = sh(full, timeout=timeout, env={**os.environ, **(env or {})})
        return r, time.monotonic() - t0

    def limit(self, rate):
        for h in self.hosts:
            sh([CLUSTER, "limit", self.dir, h, rate or "none"])

    def stop(self):
        sh([CLUSTER, "stop", self.dir])


def pingpong(hosts, build):
    """Per path: the rows (bytes, one-way µs, Gb/s), and the CPU per message (pingpong's cpu line)."""
    out, cpu = {}, {}
    for name, nhosts, extra in (("one host (shared memory)", 1, []), ("two hosts (TCP)", 2, [])):
        r, _ = hosts.mpirun(nhosts, extra, [os.path.join(build, "bench", "hosts", "pingpong")])
        lines = [line.split() for line in r.stdout.splitlines() if line.strip()]
        out[name] = [tuple(float(x) for x in ws) for ws in lines if ws[0] != "cpu"]
        cpu.update({name: float(ws[1]) for ws in lines if ws[0] == "cpu"})
    return out, cpu


def comm_bench(hosts, build):
    out = {}
    exe = os.path.join(build, "bench", "comm", "comm_bench")
    for name, nhosts, extra in (("one host", 1, []), ("two hosts, defaults (messages)", 2, []),
                                ("two hosts, osc ucx", 2, ["--mca", "osc", "ucx"])):
        r, _ = hosts.mpirun(nhosts, extra, [exe], timeout=300)
        out[name] = [line for line in r.stdout.splitlines() if line.startswith("| ") and "measurement" not in line]
        if r.returncode != 0:
            out[name].append(f"| (exit {r.returncode}) | | | {r.stderr[-200:]!r} |")
    return out


def searches(hosts, build, reps, work):
    runs = []
    for rep in range(reps):
        for sname, (app, args, pattern) in SEARCHES.items():
            names = list(LAYOUTS)
            order = names if rep % 2 == 0 else names[::-1]  # alternate the layouts' order
            for lname in order:
                nhosts, extra, rate = LAYOUTS[lname]
                hosts.limit(rate)
                stats = os.path.join(work, "stats.json")
                cmd = [os.path.join(build, "apps", app, app), *args, "--threads", "1", "--stats", stats]
                r, wall = hosts.mpirun(nhosts, extra, cmd)
                hosts.limit(None)
                m = re.search(pattern, r.stdout, re.M)
                row = {"search": sname, "layout": lname, "rep": rep, "rc": r.returncode, "wall": wall,
                       "answer": m.group(1) if m else None}
                try:
                    d = json.load(open(stats))
                    row["search_seconds"] = d.get("seconds")
                    row["nodes"] = d.get("stats", {}).get("nodes")
                    dist = d.get("distributed", {})
                    row["steals"] = dist.get("totals", {}).get("steals_granted")
                    row["transport"] = dist.get("board", {}).get("transport")
                except (OSError, ValueError):
                    pass
                runs.append(row)
                print(json.dumps(row), flush=True)
    return runs


# How each search is recorded for jackdaw-sim. The real runs split on hunger (budget and
# depth_bounded do by default), so the simulator replays hunger splitting (--split hunger) on a fine
# recording: budget -b 1000 (T3L, a binomial tree, -b 100), whose per-task tracing cost the
# one-worker calibration takes out (--task-cpu-scale); MaxClique at its own grain, with 5 incumbent
# levels so that a replay charges the nodes a real run spends before it has the optimum.
RECORD = {
    "NS g34 budget": (["-b", "1000"], True),
    "UTS T1L budget": (["-b", "1000"], True),
    "UTS T3L budget": (["-b", "100"], True),
    "MaxClique brock400_4 depth_bounded": (["--trace-levels", "5"], False),
}
RECORD_TEXT = "; ".join(f"{k}: {' '.join(v[0])}" for k, v in RECORD.items())


def median_seconds(cmd, reps):
    """The app's reported search time (--stats seconds), median of reps one-worker runs."""
    out, stats = [], cmd[-1]
    for _ in range(reps):
        r = sh(cmd, timeout=1800)
        if r.returncode == 0:
            out.append(json.load(open(stats))["seconds"])
    return statistics.median(out) if out else None


def wake_constants(build):
    """This machine's wake-up lateness and CPU per sleep (bench/sim/wake_latency, one spinner per core)."""
    r = sh([os.path.join(build, "bench", "sim", "wake_latency"), "--procs", str(os.cpu_count()), "--seconds", "2",
            "--reps", "3"], timeout=600)
    for line in r.stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) >= 7 and cells[0].isdigit():
            return {"wake_late_us": float(cells[2].split()[0]), "wake_cpu_us": float(cells[6])}
    return None


def turn_cpu(comm_rows):
    """comm_bench's 'comm thread CPU per sleep, busy rank' (µs) per path: a sleep, its wake-up and a
    turn of MPI progress on that transport."""
    out = {}
    for name, rows in (comm_rows or {}).items():
        for line in rows:
            cells = [c.strip() for c in line.strip("|").split("|")]
            if cells and cells[0] == "comm thread CPU per sleep, busy rank":
                out[name] = float(cells[1])
    return out


def simulate(build, sim, reps, work, net, msg_cpu, turn):
    """Records each search once, then simulates both layouts; returns rows of predictions."""
    lat_us, gbps = net
    wake = wake_constants(build)
    rows = [{"constants": wake, "message_cpu_us": msg_cpu, "turn_cpu_us": turn}]
    print(json.dumps(rows[0]), flush=True)
    common = ["--platform", "local", "--ranks", "2", "--workers", "1"]
    if wake:
        common += ["--wake-late-us", f"{wake['wake_late_us']:.1f}"]
    # A comm thread's CPU per sleep: comm_bench's busy rank on the layout's path (the sleep, the
    # wake-up and the turn's MPI progress, which polls TCP sockets between hosts); wake_latency's
    # sleep and wake-up alone where comm_bench did not run.
    def wake_cpu(path):
        us = turn.get(path) or (wake or {}).get("wake_cpu_us")
        return ["--wake-cpu-us", f"{us:.1f}"] if us else []
    # A message between the hosts costs the comm actors what the default charges on one host plus
    # what TCP adds (pingpong's "cpu" line, two hosts less one host).
    tcp_cost = 2.0 + max(0.0, msg_cpu.get("two hosts (TCP)", 0.0) - max(0.0, msg_cpu.get("one host (shared memory)", 0.0)))
    for sname, (app, args, _) in SEARCHES.items():
        rec_args, calibrate = RECORD[sname]
        trace = os.path.join(work, re.sub(r"\W+", "_", sname) + ".jdtrace")
        exe = os.path.join(build, "apps", app, app)
        r = sh([exe, *args, "--threads", "1", *rec_args, "--trace", trace], timeout=3600)
        if r.returncode != 0:
            rows.append({"search": sname, "error": r.stderr[-300:]})
            continue
        flags = list(common) + ["--split", "hunger"]
        if calibrate:
            text = sh([sim, trace, "--info"]).stdout
            info = json.loads(text[:text.index("\n}\n") + 2])
            real1 = median_seconds([exe, *args, "--threads", "1", "--stats", os.path.join(work, "one.json")], reps)
            flags += ["--task-cpu-scale", f"{real1 / info['cpu_seconds']:.4f}"]
        layouts = {"1 host x 2 ranks": flags + wake_cpu("one host"),
                   "2 hosts, Open MPI defaults (board on messages)":
                       flags + wake_cpu("two hosts, defaults (messages)") +
                       ["--hosts", "2", "--cores", "1", "--latency-us", f"{lat_us / 2:.3f}", "--gbps", f"{gbps:.4f}",
                        "--board-transport", "messages", "--comm-cost-us", f"{tcp_cost:.2f}"]}
        for lname, lflags in layouts.items():
            secs = []
            for seed in range(1, reps + 1):
                out = os.path.join(work, "sim.json")
                p = sh([sim, trace, *lflags, "--seed", str(seed), "--out", out], timeout=3600)
                if p.returncode == 0:
                    secs.append(json.load(open(out))["seconds"])
            rows.append({"search": sname, "layout": lname, "sim_seconds": secs, "flags": lflags})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def table(runs):
    lines = ["| search | layout | board | median search s | spread (min-max) | nodes (median) | granted steals (median) | answers |",
             "|---|---|---|---|---|---|---|---|"]
    base = {}
    for sname in SEARCHES:
        for lname in LAYOUTS:
            rs = [r for r in runs if r["search"] == sname and r["layout"] == lname and r["rc"] == 0]
            if not rs:
                lines.append(f"| {sname} | {lname} | | failed | | | | |")
                continue
            t = [r.get("search_seconds") or r["wall"] for r in rs]
            med = statistics.median(t)
            if lname == "1 host x 2 ranks":
                base[sname] = med
            ratio = f" ({med / base[sname]:.2f}x)" if sname in base and lname != "1 host x 2 ranks" else ""
            answers = sorted({r["answer"] for r in rs})
            lines.append(f"| {sname} | {lname} | {rs[0].get('transport')} | {med:.3f}{ratio} | {min(t):.3f}-{max(t):.3f} | "
                         f"{statistics.median([r.get('nodes') or 0 for r in rs]):.0f} | "
                         f"{statistics.median([r.get('steals') or 0 for r in rs]):.0f} | {', '.join(map(str, answers))} |")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "hosts.md"))
    ap.add_argument("--skip-comm", action="store_true")
    ap.add_argument("--skip-sim", action="store_true")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    work = os.path.join(build, "bench-hosts")
    os.makedirs(work, exist_ok=True)
    hosts = Hosts(work)
    result = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "cpu": sh(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"]).stdout.strip(),
              "cores": os.cpu_count(), "load_before": open("/proc/loadavg").read().split()[:3]}
    try:
        result["pingpong"], result["message_cpu"] = pingpong(hosts, build)
        if not a.skip_comm:
            result["comm_bench"] = comm_bench(hosts, build)
        result["runs"] = searches(hosts, build, a.reps, work)
    finally:
        hosts.stop()
    two = {int(r[0]): r for r in result["pingpong"].get("two hosts (TCP)", [])}
    if not a.skip_sim and 8 in two and (8 << 20) in two:
        result["network"] = {"one_way_8B_us": two[8][1], "gbps_8MiB": two[8 << 20][2]}
        result["sim"] = simulate(build, os.path.join(build, "sim", "jackdaw-sim"), a.reps, work,
                                 (two[8][1], two[8 << 20][2]), result.get("message_cpu", {}),
                                 turn_cpu(result.get("comm_bench")))
    result["load_after"] = open("/proc/loadavg").read().split()[:3]
    with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
        json.dump(result, f, indent=1)
    md = [f"# Across hosts: measured runs", "",
          f"`bench/hosts/run.py --reps {a.reps}` on {result['date']}: {result['cores']} cores, {result['cpu']}, "
          f"load before {' '.join(result['load_before'])}, after {' '.join(result['load_after'])}.", "",
          "## Network (bench/hosts/pingpong: one-way time, median of 9 batches)", "",
          "| path | 8 B µs | 64 KiB µs | 1 MiB µs | 8 MiB Gb/s |", "|---|---|---|---|---|"]
    for name, rows in result["pingpong"].items():
        by = {int(r[0]): r for r in rows}
        if by:
            md.append(f"| {name} | {by[8][1]:.1f} | {by[65536][1]:.1f} | {by[1 << 20][1]:.1f} | {by[8 << 20][2]:.2f} |")
    if "comm_bench" in result:
        md += ["", "## Comm layer (bench/comm/comm_bench, 2 ranks)", ""]
        for name, rows in result["comm_bench"].items():
            md += [f"### {name}", "", "| measurement | value | unit | note |", "|---|---|---|---|", *rows, ""]
    md += ["## Searches, 2 ranks x 1 worker", "",
           "Search time as the app reports it (`--stats` seconds), median of the repetitions; the ratio is to "
           "one host x 2 ranks in the same run.", "", *table(result["runs"])]
    if result.get("sim"):
        net = result["network"]
        head = result["sim"][0]
        wake = head.get("constants") or {}
        md += ["", "## jackdaw-sim's prediction", "",
               f"Each search recorded once (`--trace`, one worker; `{RECORD_TEXT}`) and simulated {a.reps} times "
               f"(seeds 1..{a.reps}) with `--split hunger`, as the real runs split. This machine's constants, measured "
               f"first: a sleeping comm thread wakes {wake.get('wake_late_us', '?')} µs late (bench/sim/wake_latency); "
               f"its CPU per sleep, a turn of MPI progress included, is comm_bench's busy rank on each path "
               f"({', '.join(f'{k}: {v:.1f} µs' for k, v in head.get('turn_cpu_us', {}).items())}; wake_latency's "
               f"sleep and wake-up alone: {wake.get('wake_cpu_us', '?')} µs); a message costs "
               f"{head['message_cpu_us'].get('one host (shared memory)', float('nan')):.2f} µs of CPU on one host and "
               f"{head['message_cpu_us'].get('two hosts (TCP)', float('nan')):.2f} µs between the hosts (pingpong's cpu line). "
               f"Enumerations: the recording's task CPU is scaled to the real one-worker time (`--task-cpu-scale`, the "
               f"median of {a.reps} runs). Two hosts: one core each, each link {net['one_way_8B_us'] / 2:.1f} µs and "
               f"{net['gbps_8MiB']:.2f} Gb/s (half the measured one-way MPI time, and the measured bandwidth), the board "
               "on messages (no doorbell), each message costing the comm actor 2 µs plus what TCP adds.", "",
               "| search | layout | real median s | simulated median s | error |", "|---|---|---|---|---|"]
        for row in result["sim"][1:]:
            if "error" in row:
                md.append(f"| {row['search']} | | | recording failed | |")
                continue
            real = [r.get("search_seconds") for r in result["runs"]
                    if r["search"] == row["search"] and r["layout"] == row["layout"] and r["rc"] == 0]
            if not real or not row["sim_seconds"]:
                continue
            rm, sm = statistics.median(real), statistics.median(row["sim_seconds"])
            md.append(f"| {row['search']} | {row['layout']} | {rm:.3f} | {sm:.3f} | {100 * (sm - rm) / rm:+.1f} % |")
    with open(a.out, "w") as f:
        f.write("\n".join(md) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
