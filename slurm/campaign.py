#!/usr/bin/python3
"""Policy-comparison campaign: run, then report.

  campaign.py run --out DIR [--ranks 1,2,4] [--policies random,performance] [--reps 10]
                  [--modes isolated,slow,simultaneous] [--threads 1] [--launcher auto|mpirun|srun|direct]
                  -- APP APP-ARGS...
      Runs every configuration, alternating the policies run by run (A B A B ...). Modes:
        isolated      one search at a time
        slow          one search at a time, with --slow-ranks/--slowdown passed to the app (uneven ranks)
        simultaneous  one search per policy started at the same time on the same cores (contention),
                      as in the 2023 dissertation
      Writes DIR/runs.tsv (one line per run) and per run DIR/runs/<id>/{stdout,stderr,stats.json,command}.

  campaign.py simulate --out DIR --sim PATH --trace FILE [--ranks 5,10,15,20] [--policies ...] [--reps 10]
                  [--modes isolated,slow,simultaneous] [--jobs N] [-- SIM-ARGS...]
      The same grid on a simulated cluster: jackdaw-sim replays FILE (an app's --trace) with one rank per
      simulated host (SIM-ARGS: --platform, --workers, ...), seed = --seed + rep. slow = --slow-hosts;
      simultaneous = a second job (--corun) of the next policy in the list on the same hosts. Writes the
      same DIR/runs.tsv and stats.json files as run, so report reads both alike.

  campaign.py report DIR
      Reads DIR/runs.tsv and the stats files; writes DIR/table.md, DIR/table.csv, PNG plots in DIR/plots/
      (runtime_vs_ranks, runtime_spread, per_rank, speedup) and DIR/report.html: one self-contained page
      (header, summary table, every plot embedded) to open offline.

The same commands work on a laptop (mpirun) and inside a Slurm allocation (srun --mpi=pmix).
Every argument is checked before the first run starts (policies against the program's --list-policies,
SIM-ARGS by the simulator's --info): a bad one is one message and exit 2.

This file is the command line; the work is in campaign_args.py (arguments, the program's
policies), campaign_runs.py (run, simulate), campaign_report.py (tables, report.html) and
campaign_plots.py (the plots), beside it.
"""
import argparse
import os
import sys

from campaign_args import MODES, Parser, listed, mode, name, real, whole
from campaign_runs import cmd_run, cmd_simulate
from campaign_report import cmd_report


def main():
    ap = Parser(prog="campaign", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ranks = listed(whole(1, 1_000_000), "ranks")
    policies = listed(name, "policies")
    modes = listed(mode, "modes")
    slow_ranks = listed(whole(0, 1_000_000), "ranks")

    def common(p, ranks_default, ranks_help):
        p.add_argument("--out", required=True, help="the campaign folder (made if absent)")
        p.add_argument("--ranks", type=ranks, default=ranks(ranks_default), help=ranks_help)
        p.add_argument("--policies", type=policies, default=policies("random,performance"),
                       help="comma-separated; the program's own (its --list-policies lists them)")
        p.add_argument("--reps", type=whole(1, 1_000_000), default=10, help="seeds per configuration")
        p.add_argument("--modes", type=modes, default=list(MODES), help="comma-separated: " + ", ".join(MODES))
        p.add_argument("--slow-ranks", type=slow_ranks, default=[1])
        p.add_argument("--slowdown", type=real(1, 1000), default=3.0)
        p.add_argument("--seed", type=whole(0, 2**64 - 1), default=1)
        p.add_argument("--timeout", type=real(0, 1e9, above=True), default=3600, help="seconds per run")

    r = sub.add_parser("run", help="run a campaign")
    common(r, "1,2,4", "comma-separated rank counts")
    r.add_argument("--threads", type=whole(1, 4096), default=1, help="workers per rank")
    r.add_argument("--launcher", default="auto", choices=["auto", "mpirun", "srun", "direct"])
    r.add_argument("--order", choices=["rotate", "fixed"], default="rotate",
                   help="rotate: repetition k starts with the k-th policy; fixed: the same order every time")
    r.add_argument("app", nargs=argparse.REMAINDER)
    s = sub.add_parser("simulate", help="the same grid on a simulated cluster (jackdaw-sim)")
    common(s, "5,10,15,20", "simulated hosts, one rank each")
    s.add_argument("--sim", required=True, help="the jackdaw-sim program")
    s.add_argument("--trace", required=True, help="a trace recorded with an app's --trace")
    s.add_argument("--jobs", type=whole(1, 1024), default=os.cpu_count() or 1, help="simulations at once")
    s.add_argument("sim_args", nargs=argparse.REMAINDER)
    p = sub.add_parser("report", help="tables and plots from a campaign folder")
    p.add_argument("dir")
    args = ap.parse_args()
    return {"run": cmd_run, "simulate": cmd_simulate, "report": cmd_report}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
