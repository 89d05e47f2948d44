#!/usr/bin/env bash
# Build the UTS 2.1 reference implementation (github.com/perarnau/uts) OUTSIDE this repository.
#
#   bench/uts_reference/build.sh DEST
#
# DEST receives uts-seq, uts-pthread and uts-mpi-ws (and the source, in DEST/src). The peer's code
# never enters our repository: DEST must lie outside it.
#
# Source: UTS_GIT, a local git clone of the reference, if set; otherwise a fresh clone of
# https://github.com/perarnau/uts. Either way commit UTS_COMMIT (default below) is checked out.
# Compilers: CC (default gcc) and MPICC (default mpicc); needs build-essential and libopenmpi-dev.
#
# The reference's Makefile does not work with our toolchain (-lm comes before the sources, which
# --as-needed drops, and there is no pthread target), so the compiles are spelled out here.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 DEST" >&2
  exit 2
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
dest=$(realpath -m "$1")
case "$dest/" in
  "$repo"/*) echo "$0: DEST ($dest) lies inside the repository; build the reference outside it" >&2; exit 2 ;;
esac
mkdir -p "$dest"

UTS_COMMIT=${UTS_COMMIT:-e10c4feab33a0f4f3ca394d0f75512185c031ac6}
CC=${CC:-gcc}
MPICC=${MPICC:-mpicc}
src="$dest/src"

if [ ! -d "$src/.git" ]; then
  rm -rf "$src"
  if [ -n "${UTS_GIT:-}" ]; then
    git clone --quiet "$UTS_GIT" "$src"
  else
    git clone --quiet https://github.com/perarnau/uts "$src"
  fi
fi
git -C "$src" -c advice.detachedHead=false checkout --quiet "$UTS_COMMIT"
echo "reference source: $src at $(git -C "$src" rev-parse HEAD)"

U="rng/brg_sha1.c uts.c"
DM="uts_dm.c stats.c dequeue.c dlist.c"
CF="-O3 -std=c99 -DBRG_RNG"

cd "$src"
set -x
# shellcheck disable=SC2086
$CC $CF -o "$dest/uts-seq" uts_shm.c $U -lm
# shellcheck disable=SC2086
$CC $CF -D__PTHREADS__ -o "$dest/uts-pthread" uts_shm.c $U -lpthread -lm
# shellcheck disable=SC2086
$MPICC $CF -D__VS_ORIG__ -D__MPI__ -o "$dest/uts-mpi-ws" $DM mpi_workstealing.c $U -lm
set +x

# A check on a small tree whose size is known (T1: 4,130,071 nodes).
T1="-t 1 -a 3 -d 10 -b 4 -r 19"
want=4130071
check() {
  local name=$1; shift
  local got
  got=$("$@" | sed -n 's/.*Tree size = \([0-9]*\).*/\1/p' | head -n 1)
  if [ "$got" != "$want" ]; then
    echo "$name: T1 has $want nodes, the reference counted '${got}'" >&2
    exit 1
  fi
  echo "$name: T1 = $got nodes (ok)"
}
# shellcheck disable=SC2086
check uts-seq "$dest/uts-seq" $T1
# shellcheck disable=SC2086
check uts-pthread "$dest/uts-pthread" $T1 -T 2
MPIRUN=${MPIRUN:-mpirun}
mpiflags=()
if [ "$(id -u)" = 0 ]; then mpiflags+=(--allow-run-as-root); fi
# shellcheck disable=SC2086
check uts-mpi-ws "$MPIRUN" "${mpiflags[@]}" --oversubscribe -n 2 "$dest/uts-mpi-ws" $T1
echo "built: $dest/uts-seq $dest/uts-pthread $dest/uts-mpi-ws"
