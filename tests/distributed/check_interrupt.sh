#!/usr/bin/env bash
# SIGUSR1 (Slurm's time-limit warning) to every rank of a 2-rank search that cannot finish in
# time: rank 0 prints the partial counts marked PARTIAL, --stats says interrupted and incomplete,
# and the job exits 3. The combined status comes from every rank's share, so this also checks
# that the shares carry their stop reason.
#   check_interrupt.sh NS_BINARY WORKDIR
set -uo pipefail
ns="$1"; work="$2"
mkdir -p "$work"
stats="$work/interrupt.json"; rm -f "$stats"
out=$(mktemp); trap 'rm -f "$out"' EXIT
tag="--seed 4242"  # picks out this job's ranks for the signal
mpirun --oversubscribe --allow-run-as-root -n 2 "$ns" -g 60 --skeleton budget --threads 1 $tag --stats "$stats" \
  --progress 0.2 >"$out" 2>&1 &
job=$!
# Once both ranks search (their progress lines): a signal during set-up ends the job before any
# search, which is another test's business (hostile.*.early_signal).
for _ in $(seq 600); do
  grep -q "rank 0\] \[info\] progress:" "$out" && grep -q "rank 1\] \[info\] progress:" "$out" && break
  sleep 0.05
done
pkill -USR1 -f -- "-g 60 --skeleton budget --threads 1 $tag"
timeout 30 tail --pid="$job" -f /dev/null || { echo "FAIL: no exit 30 s after SIGUSR1"; pkill -KILL -f -- "$tag"; exit 1; }
wait "$job"; rc=$?
fails=0
check() { if eval "$1"; then echo "ok   $2"; else echo "FAIL $2"; fails=$((fails + 1)); fi; }
check '[ $rc -eq 3 ]' "exit 3 (got $rc)"
check 'grep -q "^PARTIAL RESULT" "$out"' "stdout marked partial"
check 'grep -q "\"complete\": false" "$stats"' "stats: complete false"
check 'grep -q "\"status\": \"interrupted\"" "$stats"' "stats: status interrupted"
[ $fails -eq 0 ] || tail -20 "$out"
echo "$((4 - fails)) passed, $fails failed"
[ $fails -eq 0 ]
