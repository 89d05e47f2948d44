#!/usr/bin/env bash
# The original study's grid, simulated (docs/simulation.md): 5, 10, 15, 20 nodes x 16 cores
# (15 workers + the comm thread), random vs performance vs proportional vs twochoice, isolated / slow /
# simultaneous, 10 seeds each, on one trace; then the campaign report (table, plots, report.html).
#   bench/sim/study_grid.sh TRACE OUT_DIR [extra jackdaw-sim flags...]
set -euo pipefail
trace=$1 out=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
sim=${SIM:-$root/build/sim/jackdaw-sim}
rm -rf "$out"
/usr/bin/python3 "$root/slurm/campaign.py" simulate --out "$out" --sim "$sim" --trace "$trace" \
  --ranks 5,10,15,20 --policies random,performance,proportional,twochoice --reps "${REPS:-10}" --jobs "${JOBS:-2}" \
  --modes isolated,slow,simultaneous --slow-ranks 1 --slowdown 3 -- --platform study --workers 15 "$@"
/usr/bin/python3 "$root/slurm/campaign.py" report "$out"
