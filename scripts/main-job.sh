#!/usr/bin/env bash
# The main job: installs what is missing, builds, then runs a real search on a shipped instance —
# maximum clique of brock400_1 (DIMACS; known omega = 27).
# Extra arguments go to the app, e.g. scripts/main-job.sh --skeleton seq
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR="${BUILD_DIR:-build}"
mkdir -p results
exec "$BUILD_DIR/apps/maxclique/maxclique" instances/dimacs/brock400_1.clq \
  --stats results/main-job.json "$@"
