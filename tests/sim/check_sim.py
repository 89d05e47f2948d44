#!/usr/bin/env python3
"""Checks jackdaw-sim against the traces it replays.

  check_sim.py SIM TRACE replay        every policy x board x 1, 2, 4 ranks (2 workers each): the
                                       replay visits exactly the trace's nodes in exactly its tasks
                                       (the totals the recording app wrote in the header); a
                                       branch-and-bound trace with levels does so with --incumbent
                                       optimum, and replaying its incumbent (the default) visits at
                                       least its strongest tree's nodes and at most its weakest's
                                       (a node of slack per task that changed tree)
  check_sim.py SIM TRACE reproducible  the same seed gives the same run, byte for byte (minus the
                                       simulator's own wall time and memory); another seed another
  check_sim.py SIM TRACE contended     --slow-hosts and --corun still replay every node of both jobs;
                                       --slow-ranks 0 --slowdown 3 makes a 1 x 1 run 3 times as long,
                                       and at 4 ranks --slow-ranks 1 still replays every node
  check_sim.py SIM TRACE oversubscribed  the local preset (2 cores) with more ranks than cores: every
                                       node and task under every policy; comm turns yield to busy
                                       workers there (Open MPI's rule: more ranks than cores), never
                                       at 2 ranks, never with --yield-slice-us 0; each yield delays
                                       the rank's steals, so the round trips grow; at 2 ranks a
                                       late wake-up (--wake-late-us) lengthens them too
  check_sim.py SIM TRACE incumbent_real REAL_MEDIAN TOLERANCE SIGMA
                                       the incumbent replay against real runs: 2 ranks x 1 worker on
                                       the local preset with --task-jitter SIGMA, seeds 1-20; the
                                       median of the simulated node counts is within TOLERANCE
                                       (a fraction) of REAL_MEDIAN, the median node count of real
                                       2-rank runs of the trace's command (traces/README.md says
                                       which runs); replaying the optimum's tree alone
                                       (--incumbent optimum) is not, so the check can tell the two
                                       apart; the same seed gives the same run byte for byte
                                       (minus the simulator's own wall time and memory), and the
                                       seeds do not all give one node count
  check_sim.py SIM - bad_input         a missing / garbage trace, an impossible flag: one message, exit 2
  check_sim.py SIM TRACE campaign      campaign.py simulate + report: every run complete with the
                                       trace's nodes, one table row per mode x ranks x policy
  check_sim.py SIM TRACE hunger        --split hunger: every node and task exactly once under every
                                       policy at 1, 2, 4 ranks x 1, 2, 3 workers; on 1 x 1 no split and
                                       the makespan is the trace's CPU time; with more workers there
                                       are splits, fewer than the tasks (children stay on their
                                       worker's private stack unless someone is hungry), the makespan
                                       is at least the critical path and CPU / workers, and the
                                       workers' busy time is the trace's CPU plus tasks split x split
                                       cost (checked at two costs, one task or a level per split, splits
                                       into the pool or straight to a thief)
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import trace_info  # noqa: E402

POLICIES = ("random", "performance", "proportional")


def run(sim, args, out=None):
    cmd = [sim] + args + (["--out", out] if out else [])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return p, (json.load(open(out)) if out and p.returncode == 0 else None)


def info_text(sim, trace):
    """What jackdaw-sim --info prints: the header's JSON, then the totals."""
    p = subprocess.run([sim, trace, "--info"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"--info failed: {p.stderr}")
    return p.stdout


def header(sim, trace):
    text = info_text(sim, trace)
    return json.loads(text[:text.rindex("}") + 1])


def levels_of(trace):
    """Branch and bound with levels: (strongest tree's nodes, weakest tree's nodes, slack); else None."""
    _, tasks, levels = trace_info.read_levels(trace)
    if not levels:
        return None
    slack = len(tasks) + sum(len(l["tasks"]) for l in levels)
    return sum(t["nodes"] for t in tasks), sum(t["nodes"] for t in levels[-1]["tasks"]), slack


def optimum_args(trace):
    """What makes the simulator replay exactly the trace's own tree."""
    return ["--incumbent", "optimum"] if levels_of(trace) else []


def replay(sim, trace):
    h = header(sim, trace)
    want_nodes, want_tasks = int(h["nodes"]), int(h["tasks"])
    levels = levels_of(trace)
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for policy in POLICIES:
            # Both steal sizes on the pushed board; the default (half) on the sampled one; seeding
            # down a binary tree of ranks, where every rank but 0 asks its parent once and, with
            # redirects, once more for each refusal that sent it on up the tree.
            for board, steal, seed, redirect in (("all", "half", 0, "on"), ("all", "one", 0, "on"),
                                                 ("sample", "half", 0, "on"), ("all", "half", 2, "on"),
                                                 ("all", "half", 2, "off")):
                for ranks in (1, 2, 4):
                    out = os.path.join(d, "r.json")
                    args = [trace, "--platform", "study", "--hosts", str(ranks), "--workers", "2", "--policy", policy,
                            "--board", board, "--steal", steal, "--seed", "3", "--seed-tree", str(seed),
                            "--seed-redirect", redirect]
                    if levels:
                        lo, hi, slack = levels
                        p, j = run(sim, args, out)
                        ok = p.returncode == 0 and j["complete"] and lo <= j["stats"]["nodes"] + slack and \
                            j["stats"]["nodes"] <= hi + slack and j["simulation"]["incumbent"]["replayed"]
                        print(f"{policy:13s} {board:6s} steal {steal:4s} seed tree {seed} {ranks} ranks, incumbent "
                              f"replayed: {'ok' if ok else 'FAILED'} nodes {j['stats']['nodes'] if j else '-'} in "
                              f"[{lo}, {hi}]{'' if p.returncode == 0 else ' exit ' + str(p.returncode) + ': ' + p.stderr.strip()}")
                        bad += not ok
                    p, j = run(sim, args + optimum_args(trace), out)
                    ok = p.returncode == 0 and j["complete"] and j["stats"]["nodes"] == want_nodes and \
                        j["stats"]["tasks"] == want_tasks and j["distributed"]["totals"]["nodes"] == want_nodes
                    if ranks == 1 and ok:
                        ok = j["distributed"]["totals"]["steal_requests"] == 0
                    if ok and seed:
                        ok = seed_requests_ok(j["distributed"]["per_rank"], seed, redirect == "on")
                    if ok:
                        ok = utilisation_ok(j)
                    print(f"{policy:13s} {board:6s} steal {steal:4s} seed tree {seed} {ranks} ranks: "
                          f"{'ok' if ok else 'FAILED'} nodes {j['stats']['nodes'] if j else '-'} / {want_nodes}, "
                          f"tasks {j['stats']['tasks'] if j else '-'} / {want_tasks}"
                          f"{'' if p.returncode == 0 else ' exit ' + str(p.returncode) + ': ' + p.stderr.strip()}")
                    bad += not ok
    return 1 if bad else 0


def seed_requests_ok(per_rank, arity, redirect):
    """Rank 0 asks nobody; rank r asks its parent, then one rank further up per redirect: at most
    as many redirects as its parent has ancestors, none with redirects off."""
    for r, row in enumerate(per_rank):
        asked, sent_on = row["comm"]["seed_requests"], row["comm"]["seed_redirects"]
        above = 0
        p = (r - 1) // arity if r > 0 else -1
        while p > 0:
            p = (p - 1) // arity
            above += 1
        if r == 0:
            if asked != 0 or sent_on != 0:
                return False
        elif asked != 1 + sent_on or sent_on > (above if redirect else 0):
            return False
    return True


def utilisation_ok(j):
    """The busy shares over time add up to the workers' busy time, each share lies in [0, 1], and
    half the workers were busy, if ever, within the run."""
    u, sim = j["simulation"]["utilisation"], j["simulation"]
    end, width, workers = sim["last_task_end_s"], u["bin_s"], j["ranks"] * j["options"]["threads"]
    busy = 0.0
    for i, share in enumerate(u["busy_share"]):
        if not -1e-9 <= share <= 1 + 1e-9:
            return False
        busy += share * workers * (min((i + 1) * width, end) - i * width)
    first, until = u["half_busy_first_s"], u["half_busy_until_s"]
    if (first is None) != (until is None) or (first is not None and not 0 <= first < until <= end + 1e-12):
        return False
    return abs(busy * 1e6 - j["distributed"]["totals"]["busy_us"]) <= 1e-6 * max(1.0, j["distributed"]["totals"]["busy_us"])


def strip(j):
    j = dict(j)
    j.pop("command", None)
    sim = dict(j["simulation"])
    for k in ("simulator_wall_seconds", "simulator_max_rss_mb", "trace"):
        sim.pop(k, None)
    j["simulation"] = sim
    return json.dumps(j, sort_keys=True)


def reproducible(sim, trace):
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for policy in POLICIES:
            args = [trace, "--platform", "study", "--hosts", "4", "--workers", "2", "--policy", policy]
            _, a = run(sim, args + ["--seed", "7"], os.path.join(d, "a.json"))
            _, b = run(sim, args + ["--seed", "7"], os.path.join(d, "b.json"))
            _, c = run(sim, args + ["--seed", "8"], os.path.join(d, "c.json"))
            same = a is not None and b is not None and strip(a) == strip(b)
            differ = c is not None and strip(a) != strip(c)
            print(f"{policy:13s} seed 7 twice: {'identical' if same else 'DIFFERENT'}; seed 8: "
                  f"{'differs' if differ else 'IDENTICAL (the seed is ignored?)'}")
            bad += not same
            # random draws every victim from the seed: another seed must change something
            if policy == "random":
                bad += not differ
    return 1 if bad else 0


def incumbent_real(sim, trace, real_median, tolerance, sigma):
    real_median, tolerance = float(real_median), float(tolerance)
    base = [trace, "--platform", "local", "--ranks", "2", "--workers", "1", "--policy", "random"]
    if not levels_of(trace):
        sys.exit(f"{trace}: no levels, nothing to replay")
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        def nodes_for(seed, more):
            p, j = run(sim, base + ["--seed", str(seed)] + more, os.path.join(d, "r.json"))
            if p.returncode != 0 or not j["complete"]:
                sys.exit(f"seed {seed}: the run failed: {p.stderr.strip()}")
            return j["stats"]["nodes"]
        jitter = ["--task-jitter", str(sigma)]
        nodes = sorted(nodes_for(seed, jitter) for seed in range(1, 21))
        med = (nodes[9] + nodes[10]) / 2
        err = med / real_median - 1
        ok = abs(err) <= tolerance
        print(f"replayed, seeds 1-20: median {med:.0f} nodes [{nodes[0]}, {nodes[-1]}] against real {real_median:.0f}: "
              f"{100 * err:+.1f} % (tolerance {100 * tolerance:.0f} %): {'ok' if ok else 'FAILED'}")
        bad += not ok
        spread = len(set(nodes)) > 1
        print(f"seeds give {len(set(nodes))} distinct node counts: {'ok' if spread else 'FAILED (the jitter does nothing?)'}")
        bad += not spread
        opt = nodes_for(1, jitter + ["--incumbent", "optimum"])
        apart = abs(opt / real_median - 1) > tolerance
        print(f"the optimum's tree alone: {opt} nodes, {100 * (opt / real_median - 1):+.1f} %: "
              f"{'outside the tolerance (ok)' if apart else 'INSIDE the tolerance: the check cannot tell'}")
        bad += not apart
        _, a = run(sim, base + ["--seed", "7"] + jitter, os.path.join(d, "a.json"))
        _, b = run(sim, base + ["--seed", "7"] + jitter, os.path.join(d, "b.json"))
        same = a is not None and b is not None and strip(a) == strip(b)
        print(f"seed 7 twice: {'identical' if same else 'DIFFERENT'}")
        bad += not same
    return 1 if bad else 0


def contended(sim, trace):
    h = header(sim, trace)
    want = int(h["nodes"])
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        p, j = run(sim, [trace, "--platform", "study", "--hosts", "4", "--workers", "3", "--slow-hosts", "0,2",
                         "--slowdown", "3", "--corun", trace] + optimum_args(trace), out)
        if p.returncode != 0:
            print(p.stdout, p.stderr)
            return 1
        ok = j["stats"]["nodes"] == want and j["corun"]["stats"]["nodes"] == want and j["corun"]["complete"]
        p2, alone = run(sim, [trace, "--platform", "study", "--hosts", "4", "--workers", "3"] + optimum_args(trace),
                        os.path.join(d, "a.json"))
        slower = alone is not None and j["seconds"] > alone["seconds"]
        print(f"contended: nodes {j['stats']['nodes']} and {j['corun']['stats']['nodes']} of {want} each; "
              f"makespan {j['seconds']:.6f} s vs {alone['seconds'] if alone else float('nan'):.6f} s alone")
        # --slow-ranks (the apps' SlowRank): one rank, one worker, every task followed by twice its
        # time of busy work, so three times the makespan; at 4 ranks every node still replayed.
        one = [trace, "--platform", "study", "--hosts", "1", "--workers", "1"] + optimum_args(trace)
        _, base = run(sim, one, os.path.join(d, "b.json"))
        _, slow = run(sim, one + ["--slow-ranks", "0", "--slowdown", "3"], os.path.join(d, "s.json"))
        tripled = base is not None and slow is not None and abs(slow["seconds"] / base["seconds"] - 3) < 0.01
        _, four = run(sim, [trace, "--platform", "study", "--hosts", "4", "--workers", "3", "--slow-ranks", "1",
                            "--slowdown", "3"] + optimum_args(trace), os.path.join(d, "f.json"))
        all_nodes = four is not None and four["stats"]["nodes"] == want
        print(f"--slow-ranks 0 --slowdown 3 at 1 x 1: {slow['seconds'] if slow else float('nan'):.6f} s, "
              f"{slow['seconds'] / base['seconds'] if slow and base else float('nan'):.4f} x alone (want 3); "
              f"--slow-ranks 1 at 4 ranks: nodes {four['stats']['nodes'] if four else '-'} of {want}")
        return 0 if ok and slower and tripled and all_nodes else 1


def oversubscribed(sim, trace):
    h = header(sim, trace)
    want_nodes, want_tasks = int(h["nodes"]), int(h["tasks"])
    bad = 0

    def rtt(j):
        rows = [r["comm"]["steal_round_trip_us_mean"] for r in j["distributed"]["per_rank"] if r["comm"]["steals_granted"]]
        return sum(rows) / len(rows) if rows else 0.0

    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        for policy in POLICIES:
            runs = {}
            for ranks, extra in ((4, []), (2, []), (4, ["--yield-slice-us", "0", "--wake-cpu-us", "0"]),
                                 (2, ["--wake-late-us", "0"])):
                args = [trace, "--platform", "local", "--ranks", str(ranks), "--workers", "1", "--policy", policy,
                        "--seed", "5"] + extra + optimum_args(trace)
                p, j = run(sim, args, out)
                if p.returncode != 0 or j is None:
                    print(f"{policy} {ranks} ranks {extra}: exit {p.returncode}: {p.stderr.strip()}")
                    bad += 1
                    continue
                runs[(ranks, tuple(extra))] = j
                exact = j["complete"] and j["stats"]["nodes"] == want_nodes and j["stats"]["tasks"] == want_tasks
                print(f"{policy:13s} {ranks} ranks {' '.join(extra)}: nodes {j['stats']['nodes']} / "
                      f"{want_nodes}, tasks {j['stats']['tasks']} / {want_tasks}, yields {j['simulation']['comm_yields']}, "
                      f"steal round trip {rtt(j):.0f} us: {'ok' if exact else 'FAILED'}")
                bad += not exact
            if len(runs) == 4:
                on, two, off = runs[(4, ())], runs[(2, ())], runs[(4, ("--yield-slice-us", "0", "--wake-cpu-us", "0"))]
                prompt = runs[(2, ("--wake-late-us", "0"))]
                ok = on["simulation"]["comm_yields"] > 0 and two["simulation"]["comm_yields"] == 0 and \
                    off["simulation"]["comm_yields"] == 0 and rtt(on) > rtt(off)
                print(f"{policy:13s} yields only when oversubscribed, and they slow the steals: {'ok' if ok else 'FAILED'}")
                bad += not ok
                ok = rtt(two) > rtt(prompt) > 0
                print(f"{policy:13s} 2 ranks: late wake-ups lengthen the round trip ({rtt(two):.0f} vs {rtt(prompt):.0f} us): "
                      f"{'ok' if ok else 'FAILED'}")
                bad += not ok
    return 1 if bad else 0


def bad_input(sim):
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        garbage = os.path.join(d, "garbage.jdtrace")
        with open(garbage, "wb") as f:
            f.write(b"this is not a trace\n" * 10)
        cases = [([os.path.join(d, "missing.jdtrace")], "missing.jdtrace"),
                 ([garbage], "not a Jackdaw trace"),
                 ([garbage, "--policy", "nosuch"], "nosuch"),
                 ([garbage, "--hosts", "0"], "--hosts"),
                 ([garbage, "--seed-redirect", "maybe"], "--seed-redirect"),
                 ([garbage, "--steal-retry-max-us", "0"], "--steal-retry-max-us: '0' is not a number in [1, ")]
        for args, expect in cases:
            p = subprocess.run([sim] + args, capture_output=True, text=True, timeout=60)
            msg = (p.stderr + p.stdout).strip()
            ok = p.returncode == 2 and expect in msg and len(msg.splitlines()) == 1
            print(f"{' '.join(args[1:]) or os.path.basename(args[0])}: exit {p.returncode}: {msg.splitlines()[:1]} "
                  f"{'ok' if ok else 'FAILED'}")
            bad += not ok
    return 1 if bad else 0


def campaign(sim, trace):
    want = int(header(sim, trace)["nodes"])
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "slurm", "campaign.py")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "grid")
        p = subprocess.run(["/usr/bin/python3", script, "simulate", "--out", out, "--sim", sim, "--trace", trace,
                            "--ranks", "2,3", "--reps", "2", "--policies", "random,performance", "--jobs", "2",
                            "--", "--platform", "study", "--workers", "2"] + optimum_args(trace),
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            print(p.stdout, p.stderr)
            return 1
        p = subprocess.run(["/usr/bin/python3", script, "report", out], capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            print(p.stdout, p.stderr)
            return 1
        nodes = []
        for run in sorted(os.listdir(os.path.join(out, "runs"))):
            with open(os.path.join(out, "runs", run, "stats.json")) as f:
                nodes.append(json.load(f)["stats"]["nodes"])
        with open(os.path.join(out, "table.md")) as f:
            rows = [line for line in f if line.startswith("| ") and not line.startswith("| mode")]
        with open(os.path.join(out, "report.html")) as f:
            page = f.read()
        # 3 modes x 2 rank counts x 2 policies x 2 seeds runs; a table row per mode x ranks x policy
        ok = len(nodes) == 24 and all(n == want for n in nodes) and len(rows) == 12 and "simulator command" in page
        print(f"campaign: {len(nodes)} runs, nodes {set(nodes)} (want {want}), {len(rows)} table rows: "
              f"{'ok' if ok else 'FAILED'}")
        return 0 if ok else 1


def hunger(sim, trace):
    h = header(sim, trace)
    want_nodes, want_tasks = int(h["nodes"]), int(h["tasks"])
    info = info_text(sim, trace)
    cpu = float(info.split("cpu seconds: ")[1].split()[0])
    critical = float(info.split("critical path seconds: ")[1].split()[0])
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        for policy in POLICIES:
            for ranks in (1, 2, 4):
                for workers in (1, 2, 3):
                    for cost, chunk, remote in ((500, "one", "pool"), (200000, "one", "pool"), (500, "level", "pool"),
                                                (200000, "level", "pool"), (500, "one", "direct"), (200000, "level", "direct"),
                                                (500, "rule", "pool"), (200000, "rule", "direct")):
                        if cost != 500 and (policy != "random" or ranks == 4):
                            continue
                        args = [trace, "--platform", "study", "--hosts", str(ranks), "--workers", str(workers),
                                "--policy", policy, "--seed", "5", "--split", "hunger", "--split-cost-ns", str(cost),
                                "--split-chunk", chunk, "--split-remote", remote]
                        p, j = run(sim, args + optimum_args(trace), out)
                        why = []
                        if p.returncode != 0:
                            why.append(f"exit {p.returncode}: {p.stderr.strip()}")
                        else:
                            sp = j["simulation"]["split"]
                            splits, seconds = sp["splits"], j["seconds"]
                            busy = j["distributed"]["totals"]["busy_us"] * 1e-6
                            if not (j["complete"] and j["stats"]["nodes"] == want_nodes and j["stats"]["tasks"] == want_tasks):
                                why.append(f"nodes {j['stats']['nodes']} / {want_nodes}, tasks {j['stats']['tasks']} / {want_tasks}")
                            if sp["mode"] != "hunger":
                                why.append("not in hunger mode")
                            # SimGrid's clock rounds each activity: a nanosecond per task and split. Random
                            # only: performance's fresh reads after a refusal (SimBoardView::refresh) sleep
                            # while the comm actor holds the rank, and a worker ending a task waits that out.
                            if policy == "random" and abs(busy - (cpu + sp["split_tasks"] * cost * 1e-9)) > 1e-6 * cpu + 1e-9 * (want_tasks + splits):
                                why.append(f"busy {busy:.9f} s != cpu {cpu:.9f} + {sp['split_tasks']} tasks split x {cost} ns")
                            if not (sp["split_tasks"] >= splits and (chunk != "one" or sp["split_tasks"] == splits)):
                                why.append(f"{sp['split_tasks']} tasks in {splits} splits")
                            if ranks * workers == 1:
                                if splits != 0 or abs(seconds - cpu) > 1e-6 * cpu:
                                    why.append(f"1 x 1: {splits} splits, makespan {seconds:.9f} s != cpu {cpu:.9f} s")
                            else:
                                if not 0 < splits < want_tasks:
                                    why.append(f"{splits} splits for {want_tasks} tasks")
                                if seconds < critical * (1 - 1e-9) or seconds < cpu / (ranks * workers) * (1 - 1e-9):
                                    why.append(f"makespan {seconds:.9f} s below critical path {critical} or cpu / workers")
                        print(f"hunger {policy:13s} {ranks} x {workers} cost {cost:6d} ns chunk {chunk:5s} {remote:6s}: "
                              f"{'ok' if not why else 'FAILED ' + '; '.join(why)}"
                              f"{'' if p.returncode else ', splits %d, makespan %.6f s' % (j['simulation']['split']['splits'], j['seconds'])}")
                        bad += bool(why)
    return 1 if bad else 0


def transport(sim, trace):
    """--board-transport messages keeps every node and task, turns the doorbell off (comm::forTransport,
    the runtime's rule) and charges board records; --task-cpu-scale scales the tasks alone (1 x 1:
    the makespan is the trace's CPU times the scale)."""
    h = header(sim, trace)
    want_nodes, want_tasks = int(h["nodes"]), int(h["tasks"])
    cpu = float(info_text(sim, trace).split("cpu seconds: ")[1].split()[0])
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        for board in ("rma", "messages"):
            for hosts, ranks in ((2, 2), (2, 4)):
                args = [trace, "--platform", "local", "--hosts", str(hosts), "--cores", "1", "--ranks", str(ranks),
                        "--workers", "1", "--split", "hunger", "--board-transport", board, "--seed", "3"]
                p, j = run(sim, args + optimum_args(trace), out)
                why = []
                if p.returncode != 0:
                    why.append(f"exit {p.returncode}: {p.stderr.strip()}")
                else:
                    c = j["distributed"]["totals"]["comm"]
                    if not (j["complete"] and j["stats"]["nodes"] == want_nodes and j["stats"]["tasks"] == want_tasks):
                        why.append(f"nodes {j['stats']['nodes']} / {want_nodes}, tasks {j['stats']['tasks']} / {want_tasks}")
                    if j["simulation"]["board_transport"] != board:
                        why.append(f"board transport {j['simulation']['board_transport']}")
                    rings = c["doorbell_rings"]
                    if board == "messages" and (j["simulation"]["doorbell"] or rings != 0):
                        why.append(f"doorbell {j['simulation']['doorbell']}, {rings} rings on messages")
                    if board == "rma" and c["steal_requests_sent"] > 0 and rings != c["steal_requests_sent"]:
                        why.append(f"{rings} rings for {c['steal_requests_sent']} requests on a window")
                print(f"transport {board:8s} {hosts} hosts x {ranks} ranks: {'ok' if not why else 'FAILED ' + '; '.join(why)}")
                bad += bool(why)
        for scale in (0.5, 2.0):
            p, j = run(sim, [trace, "--platform", "local", "--ranks", "1", "--workers", "1", "--split", "hunger",
                             "--task-cpu-scale", str(scale)] + optimum_args(trace), out)
            ok = p.returncode == 0 and abs(j["seconds"] - scale * cpu) <= 1e-6 * scale * cpu + 1e-9 * want_tasks
            print(f"task-cpu-scale {scale}: makespan {j['seconds'] if j else None} against {scale * cpu:.9f}: "
                  f"{'ok' if ok else 'FAILED'}")
            bad += not ok
    return 1 if bad else 0


def main():
    sim, trace, what = sys.argv[1:4]
    return {"replay": lambda: replay(sim, trace), "reproducible": lambda: reproducible(sim, trace),
            "contended": lambda: contended(sim, trace), "bad_input": lambda: bad_input(sim),
            "oversubscribed": lambda: oversubscribed(sim, trace),
            "campaign": lambda: campaign(sim, trace), "hunger": lambda: hunger(sim, trace),
            "transport": lambda: transport(sim, trace),
            "incumbent_real": lambda: incumbent_real(sim, trace, *sys.argv[4:7])}[what]()


if __name__ == "__main__":
    sys.exit(main())
