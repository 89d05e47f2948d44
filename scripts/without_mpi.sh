#!/usr/bin/env bash
# The build without MPI: configures Jackdaw with -DJACKDAW_WITH_MPI=OFF and MPI, OpenSSL, cereal and
# spdlog hidden from CMake (so nothing can pick them up), builds the engine, skeletons and trace
# format, and runs that build's tests: the engine linked to Jackdaw::search alone, and the package
# installed and used by the solve examples and the search-only and trace-only consumers on one
# process (tests/install/check_without_mpi.sh). Run by scripts/test.sh; alone: scripts/without_mpi.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${BUILD_DIR:-build}-nompi"
echo "== without MPI: building in $dir" >&2
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DJACKDAW_WITH_MPI=OFF -DJACKDAW_BUILD_BENCH=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_cereal=ON -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON >/dev/null
cmake --build "$dir"
ctest --test-dir "$dir" --output-on-failure --timeout 600 -j "$(nproc)"
