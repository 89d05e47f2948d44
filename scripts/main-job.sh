#!/usr/bin/env bash
# The main job: installs what is missing, builds, then runs a real search on a shipped instance —
# maximum clique of brock400_4 (DIMACS; known omega = 33) on RANKS MPI ranks (default 2) with one
# worker per core each, depth-bounded skeleton with the automatic grain (the default -d auto).
# Statistics go to results/main-job.json.
# Extra arguments go to the app, e.g. scripts/main-job.sh --policy performance
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_TARGETS=maxclique scripts/setup.sh   # the test command builds the rest
BUILD_DIR="${BUILD_DIR:-build}"
RANKS="${RANKS:-2}"
THREADS="${THREADS:-$(( $(nproc) / RANKS > 0 ? $(nproc) / RANKS : 1 ))}"
mkdir -p results
mpi=(mpirun --oversubscribe -n "$RANKS")
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
exec "${mpi[@]}" "$BUILD_DIR/apps/maxclique/maxclique" instances/dimacs/brock400_4.clq \
  --skeleton depth_bounded --threads "$THREADS" --stats results/main-job.json "$@"
