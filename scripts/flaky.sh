#!/usr/bin/env bash
# Flakiness hunt before a change lands: runs the tests whose outcome could depend on timing
# (CTest label "timing": signals at a moment, grain and watchdog checks, time limits, host faults)
# N times each, two at a time, with a CPU-bound process beside them (the load a CI machine or a
# second user brings), and stops at the first failure.
#   scripts/flaky.sh [N] [extra ctest arguments]     (default N = 5; e.g. scripts/flaky.sh 20 -R grain)
# Environment: BUILD_DIR (default build), HOG=0 to run without the CPU-bound process.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-5}"
shift || true
build="${BUILD_DIR:-build}"
[ -f "$build/CTestTestfile.cmake" ] || { echo "flaky.sh: no build in $build (run scripts/test.sh or scripts/setup.sh first)" >&2; exit 2; }
hog=""
if [ "${HOG:-1}" != 0 ]; then
  # One core's worth of pure computation for as long as the tests run.
  ( while :; do :; done ) &
  hog=$!
  trap 'kill "$hog" 2>/dev/null' EXIT
fi
start=$(date +%s)
set +e
ctest --test-dir "$build" -L timing --repeat "until-fail:$n" -j 2 --timeout 900 --output-on-failure "$@"
rc=$?
set -e
echo "flaky.sh: label timing, $n repetitions each, CPU hog $([ -n "$hog" ] && echo on || echo off): exit $rc after $(( $(date +%s) - start )) s"
exit $rc
