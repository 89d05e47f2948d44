#!/bin/bash
# An app started without mpirun that needs MPI (here for --checkpoint) is an Open MPI singleton.
# Each singleton keeps its session folder in a folder of its own under TMPDIR (comm/src/runtime.cpp),
# so that singletons started together never remove one another's (a race in Open MPI's shared
# jf.0 folder that once failed two tests' MPI_Init). Checks: while one runs, its session folder
# lies inside a jackdaw-mpi-* folder, not in TMPDIR itself; six started together all give the
# right answer (N-queens n = 12: 14,200 solutions, OEIS A000170); afterwards TMPDIR is empty.
#   check_singleton_session.sh NQUEENS
set -u
nqueens=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work/tmp
mkdir "$TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }

"$nqueens" -n 15 --checkpoint "$work/ck" > "$work/long.out" 2>&1 &
pid=$!
seen=""
for _ in $(seq 1 200); do
  seen=$(find "$TMPDIR" -mindepth 2 -maxdepth 2 -path "$TMPDIR/jackdaw-mpi-*/ompi.*" 2>/dev/null | head -1)
  [ -n "$seen" ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.05
done
[ -n "$seen" ] || fail "no session folder inside $TMPDIR/jackdaw-mpi-* while the singleton ran: $(ls -A "$TMPDIR")"
[ -z "$(find "$TMPDIR" -maxdepth 1 -name 'ompi.*')" ] || fail "a session folder directly in TMPDIR"
wait $pid || fail "the singleton failed: $(cat "$work/long.out")"
grep -q "^solutions: 2279184$" "$work/long.out" || fail "n = 15: $(cat "$work/long.out")"

for i in 1 2 3 4 5 6; do
  "$nqueens" -n 12 --checkpoint "$work/ck$i" > "$work/out$i" 2>&1 &
done
for i in 1 2 3 4 5 6; do wait -n || true; done
for i in 1 2 3 4 5 6; do
  grep -q "^solutions: 14200$" "$work/out$i" || fail "singleton $i of 6: $(cat "$work/out$i")"
done
left=$(ls -A "$TMPDIR")
[ -z "$left" ] || fail "left in TMPDIR after the runs: $left"
echo "ok: session folders private to each singleton, removed at exit"
