#!/usr/bin/env bash
# The watchdog: (1) one rank of a running 3-rank search is SIGSTOP'd; the job must exit non-zero
# within the watchdog period + 10 s with a message naming that rank. (2) A node whose expansion
# takes 3 s, with --watchdog 1, must not make it fire: the comm thread keeps beating.
# BOARD (default all) is the load board scheme: on "sample" each rank watches only the next two
# ranks round the ring, so rank 2 of 3 is still watched (by ranks 0 and 1).
#   check_watchdog.sh NS_BINARY THROWING_APP [BOARD]
set -uo pipefail
ns="$1"; app="$2"; board="${3:-all}"
mpi=(mpirun --oversubscribe --allow-run-as-root)
fails=0; runs=0
out=$(mktemp); trap 'rm -f "$out"' EXIT

# (1) Stop rank 2 of 3 mid-search.
runs=$((runs + 1))
"${mpi[@]}" -n 3 "$ns" -g 45 --skeleton budget --threads 1 --watchdog 2 --board "$board" --progress 0.3 >"$out" 2>&1 &
job=$!
victim=""
for _ in $(seq 1 100); do  # find rank 2 by its Open MPI environment
  for pid in $(pgrep -f -- "-g 45 --skeleton budget --threads 1 --watchdog 2 --board $board --progress"); do
    [ "$pid" = "$job" ] && continue
    if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=2"; then victim=$pid; fi
  done
  [ -n "$victim" ] && break
  sleep 0.1
done
if [ -z "$victim" ]; then
  echo "FAIL: rank 2 not found"; fails=$((fails + 1)); kill "$job" 2>/dev/null
else
  # Mid-search: once rank 2 has logged progress (a stop during set-up is no watchdog's business:
  # the others wait in a collective, which the launcher ends).
  for _ in $(seq 300); do grep -q "rank 2\] \[info\] progress:" "$out" && break; sleep 0.1; done
  kill -STOP "$victim"
  stopped=$(date +%s)
  timeout 12 tail --pid="$job" -f /dev/null; waited=$?
  secs=$(( $(date +%s) - stopped ))
  wait "$job"; rc=$?
  kill -KILL "$victim" 2>/dev/null  # never leave a stopped process behind
  if [ $waited -eq 124 ]; then
    echo "FAIL: the job was still running 12 s after rank 2 stopped (watchdog 2 s)"
    pkill -KILL -f -- "-g 45 --skeleton budget --threads 1 --watchdog 2 --board $board"
    fails=$((fails + 1))
  elif [ $rc -eq 0 ]; then
    echo "FAIL: exit 0 although rank 2 was stopped"; fails=$((fails + 1))
  elif ! grep -q "watchdog: rank 2 sent no heartbeat" "$out"; then
    echo "FAIL: no message naming rank 2"; tail -5 "$out"; fails=$((fails + 1))
  else
    echo "ok   (board $board) rank 2 stopped: job ended after ${secs} s, exit $rc: $(grep -m1 -o 'rank [0-9]*: watchdog: rank 2 sent no heartbeat for [0-9.]* s' "$out")"
  fi
fi

# (2) A 3-second node expansion with --watchdog 1: no false alarm, the right answer.
for ranks in 2 3; do
  runs=$((runs + 1))
  res=$(timeout 60 "${mpi[@]}" -n "$ranks" "$app" --skeleton budget --threads 1 -b 50 --stall-ms 3000 --watchdog 1 \
        --board "$board" --kind count 2>&1); rc=$?
  if [ $rc -ne 0 ] || ! grep -qx "nodes: 2097151" <<<"$res"; then
    echo "FAIL: long node on $ranks ranks, exit $rc"; grep -m3 "watchdog\|error" <<<"$res"; tail -5 <<<"$res"; fails=$((fails + 1))
  else
    echo "ok   3 s node expansion on $ranks ranks with --watchdog 1: no alarm, nodes: 2097151"
  fi
done
echo "$((runs - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
