#!/usr/bin/env bash
# A signal that finds some ranks searching and one still setting up (made certain by the TEST ONLY
# flag --test-start-pause-rank R: rank R waits 3 s after the last set-up collective). Under
# --checkpoint the job must end with exit 3 and either a saved set or the line saying none was
# written, never neither (checkpoint.resume.decision once found no set after a leg that exited 3:
# a rank still setting up ended at once, alone and silent, and took the others with it).
#   start_signal.sh NQUEENS WORKDIR
set -uo pipefail
nq=$1 work=$2
mkdir -p "$work"
fail=0
for ranks in 2 3; do
  late=$((ranks - 1))
  ck="$work/ranks$ranks"; rm -rf "$ck"
  out="$work/ranks$ranks.out"
  timeout 120 mpirun --oversubscribe --allow-run-as-root -n "$ranks" "$nq" -n 16 --skeleton budget --threads 1 \
    --checkpoint "$ck" --test-start-pause-rank "$late" --progress 0.2 >"$out" 2>&1 &
  job=$!
  # The other ranks are past set-up (their progress lines); rank $late is in its pause.
  for _ in $(seq 300); do grep -q "rank 0\] \[info\] progress:" "$out" && break; sleep 0.05; done
  sleep 0.5
  pkill -USR1 -f -- "^mpirun .*-n 16 --skeleton budget --threads 1 --checkpoint $ck --test-start-pause-rank"
  wait "$job"; rc=$?
  if [ $rc -ne 3 ]; then echo "FAIL ranks $ranks: exit $rc (want 3)"; tail -5 "$out"; fail=1; continue; fi
  if grep -q "^CHECKPOINT: saved" "$out" && [ -f "$ck/current/manifest.json" ]; then
    echo "ok   ranks $ranks: $(grep -m1 '^CHECKPOINT: saved' "$out")"
  elif grep -q "before the search started" "$out"; then
    echo "ok   ranks $ranks: nothing searched, said so"
  else
    echo "FAIL ranks $ranks: exit 3 with neither a saved set nor the line saying none was written"; tail -8 "$out"; fail=1
  fi
done
exit $fail
