#!/usr/bin/env bash
# A program linked only against Jackdaw::search has no MPI library among its dynamic dependencies.
#   check_no_mpi.sh BINARY
set -euo pipefail
deps=$(ldd "$1")
grep -q libtbb <<<"$deps" || { echo "ldd shows no oneTBB for $1: the check would see nothing"; echo "$deps"; exit 1; }
if grep -i "libmpi\|open-rte\|open-pal" <<<"$deps"; then
  echo "FAIL: $1 depends on MPI"; exit 1
fi
echo "ok: $(wc -l <<<"$deps") dynamic dependencies of $(basename "$1"), none of them MPI"
