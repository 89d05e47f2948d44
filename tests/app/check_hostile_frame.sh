#!/usr/bin/env bash
# Issue 37's defects in the app frame, one case per call (each a CTest test):
#   check_hostile_frame.sh CASE NQUEENS WORKDIR
# early_signal     a SIGUSR1 while the process starts (MPI_Init, parsing) ends it with exit code 3
#                  and one line, never 138 (killed by the signal): the handler is the program's
#                  first act, before MPI starts
# fifo_signal      an input that blocks (a FIFO nobody writes) does not hold the process: it is
#                  refused (2) or a TERM ends it (3) within seconds, never a hang
# second_signal    ^C during the search, then ^C again and again while it stops and saves its
#                  checkpoint: exit code 3 and the checkpoint saved, never 130
# stats_first      an unwritable --stats is refused before the search (exit 2, no answer printed)
# timeline_cap     a --timeline-cap the memory limit cannot hold is refused at start-up (exit 2)
# setup_once       a set-up error on 2 ranks is printed once
# Answers: n queens solutions from OEIS A000170 (8: 92).
set -uo pipefail
case_="$1"; app="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
fail() { echo "FAIL $*"; exit 1; }
mpi=(mpirun --oversubscribe -n 2)
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)

# Waits until process $1 has a handler for SIGUSR1 (bit 10 of SigCgt): a signal sent before the
# program's first instruction (while the loader maps its libraries) cannot be handled by anyone.
handles_usr1() {
  for _ in $(seq 2000); do
    cgt=$(awk '/^SigCgt:/ {print $2}' "/proc/$1/status" 2>/dev/null) || return 1
    [ -n "$cgt" ] && (( (16#$cgt >> 9) & 1 )) && return 0
    sleep 0.005
  done
  return 1
}

case $case_ in
early_signal)
  # Inside MPI_Init: Open MPI maps its MCA plugins (openmpi3/mca_*.so) only there. (A single
  # process starts no orted child: comm/src/runtime.cpp runs it as an isolated singleton.)
  "$app" -n 16 --skeleton budget --checkpoint ck >out 2>err & p=$!
  for _ in $(seq 20000); do grep -q '/mca_' "/proc/$p/maps" 2>/dev/null && break; sleep 0.0005; done
  kill -USR1 $p; wait $p; rc=$?
  [ $rc -eq 3 ] || fail "USR1 while MPI starts: exit $rc, expected 3: $(cat err)"
  for delay in 0 0.05 0.2; do
    "$app" -n 16 --skeleton budget --checkpoint ck >out 2>err & p=$!
    handles_usr1 $p || fail "no SIGUSR1 handler within 10 s"
    sleep $delay; kill -USR1 $p; wait $p; rc=$?
    [ $rc -eq 3 ] || fail "USR1 after ${delay} s: exit $rc, expected 3: $(cat err)"
    [ "$(grep -c 'interrupted by a signal before the search started' err)" -le 1 ] || fail "more than one line: $(cat err)"
  done ;;
fifo_signal)
  # The reader is the app's: use the maxclique binary beside nqueens' folder.
  mc="$(dirname "$app")/../maxclique/maxclique"
  mkfifo f
  timeout 60 "$mc" f >out 2>err & p=$!
  sleep 2; kill -TERM $p 2>/dev/null; wait $p; rc=$?
  [ $rc -eq 2 ] || [ $rc -eq 3 ] || fail "maxclique on a FIFO: exit $rc (124: it hung), expected 2 or 3: $(cat err)" ;;
second_signal)
  # The first ^C once the search runs (its first progress line), however long the start took.
  "$app" -n 15 --skeleton budget --threads 2 --checkpoint ck --progress 0.2 >out 2>err & p=$!
  for _ in $(seq 600); do grep -q "progress:" err 2>/dev/null && break; sleep 0.05; done
  kill -INT $p
  for _ in $(seq 60); do kill -INT $p 2>/dev/null || break; sleep 0.02; done
  wait $p; rc=$?
  [ $rc -eq 3 ] || fail "exit $rc after repeated ^C, expected 3: $(cat err)"
  grep -q "CHECKPOINT: saved in ck" out || fail "no checkpoint saved: $(cat out err)"
  grep -q "status: interrupted" out || fail "no partial result printed" ;;
stats_first)
  "$app" -n 12 --skeleton budget --stats /nonexistent-folder/x.json >out 2>err; rc=$?
  [ $rc -eq 2 ] || fail "exit $rc, expected 2"
  grep -q -- "--stats" err || fail "the message does not name --stats: $(cat err)"
  ! grep -q "solutions:" out || fail "the search ran before the output path was checked: $(cat out)" ;;
timeline_cap)
  "$app" -n 8 --skeleton budget --timeline t.json --timeline-cap 4294967296 --memory-limit 1G >out 2>err; rc=$?
  [ $rc -eq 2 ] || fail "exit $rc, expected 2: $(cat err)"
  grep -q -- "--timeline-cap" err || fail "the message does not name --timeline-cap: $(cat err)"
  "$app" -n 8 --skeleton budget --timeline t.json --timeline-cap 1000 >out 2>err || fail "a small cap: $(cat err)"
  grep -q "solutions: 92" out || fail "8 queens: 92 solutions" ;;
setup_once)
  "${mpi[@]}" "$app" -n 8 --skeleton budget --resume no-such-folder >out 2>err; rc=$?
  [ $rc -eq 2 ] || fail "exit $rc, expected 2"
  [ "$(grep -c 'no-such-folder' err)" -eq 1 ] || fail "the message is not printed once: $(cat err)"
  "${mpi[@]}" "$app" -n 8 --skeleton budget --stats /nonexistent-folder/x.json >out 2>err; rc=$?
  [ $rc -eq 2 ] || fail "--stats on 2 ranks: exit $rc, expected 2"
  [ "$(grep -c -- '--stats' err)" -eq 1 ] || fail "--stats on 2 ranks: not printed once: $(cat err)" ;;
*) echo "unknown case $case_"; exit 2 ;;
esac
echo "ok $case_"
