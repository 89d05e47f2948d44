#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs the sanitizer builds' subset
# (scripts/sanitizers.sh), the build without MPI (scripts/without_mpi.sh) and then every CTest test
# of the main build. With arguments, only the main build's ctest runs, with those arguments
# (e.g. scripts/test.sh -L mpi).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR="${BUILD_DIR:-build}"
if [ $# -eq 0 ]; then
  BUILD_DIR="$BUILD_DIR" scripts/sanitizers.sh
  BUILD_DIR="$BUILD_DIR" scripts/without_mpi.sh
fi
ctest --test-dir "$BUILD_DIR" --output-on-failure --timeout 600 -j "$(nproc)" "$@"
