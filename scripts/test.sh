#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every CTest test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR="${BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" --output-on-failure --timeout 600 -j "$(nproc)" "$@"
