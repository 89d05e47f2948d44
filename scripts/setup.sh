#!/usr/bin/env bash
# Installs the Debian packages Jackdaw needs (only the missing ones), then configures and builds.
# Used by both README commands. Environment: BUILD_DIR (default: build), CMAKE_ARGS (extra flags),
# BUILD_TARGETS (space-separated targets to build; default: everything).
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  cmake ninja-build g++ pkg-config git
  libtbb-dev libhwloc-dev hwloc
  openmpi-bin libopenmpi-dev
  libcli11-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libcereal-dev libssl-dev  # libssl-dev: bench/apps-a compares SHA-1 with OpenSSL
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-matplotlib
  zlib1g-dev libsimgrid-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

BUILD_DIR="${BUILD_DIR:-build}"
# shellcheck disable=SC2086
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} >/dev/null
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR" ${BUILD_TARGETS:+--target $BUILD_TARGETS}
