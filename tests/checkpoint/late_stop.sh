#!/usr/bin/env bash
# The checkpoint agreement race, made deterministic: a rank whose stop flag is raised (as by a
# checkpoint timer) just after the ranks agreed the search had ended must neither save alone nor
# wait alone in the checkpoint's collectives (that hangs the job; unforced, the race comes about
# once in 70 runs under load). Each run
# must end within its timeout with the whole answer (12 queens: 14200, OEIS A000170), status
# complete, and no checkpoint written.
#   late_stop.sh NQUEENS WORKDIR
set -uo pipefail
nq=$1 work=$2
mkdir -p "$work"
fail=0
for ranks in 2 3; do
  for late in 0 $((ranks - 1)); do
    name="ranks${ranks}_late${late}"
    ck="$work/$name"; rm -rf "$ck"; rm -f "$work/$name.json"
    out=$(timeout 60 mpirun --oversubscribe --allow-run-as-root -n "$ranks" "$nq" -n 12 --skeleton budget \
      --threads 1 --checkpoint "$ck" --test-late-stop-rank "$late" --stats "$work/$name.json" 2>&1)
    rc=$?
    if [ $rc -ne 0 ]; then echo "FAIL $name: exit $rc (124: hung)"; echo "$out"; fail=1; continue; fi
    grep -q "^solutions: 14200$" <<<"$out" && grep -q "^status: complete$" <<<"$out" ||
      { echo "FAIL $name: not the whole answer"; echo "$out"; fail=1; continue; }
    if grep -q "CHECKPOINT\|PARTIAL" <<<"$out" || [ -n "$(find "$ck" -name manifest.json 2>/dev/null)" ]; then
      echo "FAIL $name: a checkpoint or a partial result after a whole search"; echo "$out"; ls -la "$ck"; fail=1; continue
    fi
    echo "ok   $name"
  done
done
exit $fail
