#!/usr/bin/env bash
# --threads 2 under mpirun's binding of each rank to one core (its default for 2 ranks, spelled
# out here so the test does not depend on the machine's core count): rank 0 says once, in plain
# words, that the workers share a CPU and what to pass to mpirun; every rank still runs 2 workers
# (--stats), both working; no oneTBB warning; and the answer is right (13 queens: 73,712, OEIS
# A000170). 13, not 12: a 30 ms search sometimes ended before the thief rank's second worker got a task.
#   check_threads_binding.sh NQUEENS_BINARY WORKDIR
set -uo pipefail
nq="$1"; work="$2"
mkdir -p "$work"
stats="$work/threads.json"; err="$work/threads.err"; out="$work/threads.out"
rm -f "$stats"
timeout 120 mpirun --allow-run-as-root --bind-to core --map-by core -n 2 "$nq" -n 13 --skeleton budget -b 50 \
  --threads 2 --stats "$stats" >"$out" 2>"$err"
rc=$?
fails=0
check() { if eval "$1"; then echo "ok   $2"; else echo "FAIL $2"; fails=$((fails + 1)); fi; }
check '[ $rc -eq 0 ]' "exit 0 (got $rc)"
check 'grep -q "^solutions: 73712$" "$out"' "13 queens: 73712 solutions"
check '[ "$(grep -c "workers share them" "$err")" -eq 1 ]' "one message that the workers share the CPU"
check 'grep -q "rank 0 may run on only 1 CPU(s), so its 2 workers share them" "$err"' "the message names the rank and the counts"
check 'grep -q -- "--bind-to none" "$err" && grep -q -- "--cpus-per-task=2" "$err"' "the message says what to pass to mpirun and srun"
check '! grep -qi "limited to" "$err"' "no oneTBB 'limited to' warning"
check 'python3 - "$stats" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
ranks = d["distributed"]["per_rank"]
assert len(ranks) == 2, ranks
for r in ranks:
    assert len(r["workers"]) == 2, r["workers"]          # the 2 workers the message speaks of
    assert all(w["tasks"] > 0 for w in r["workers"]), r["workers"]  # and both ran tasks
PY' "every rank reports 2 workers in --stats, and both ran tasks"
[ $fails -eq 0 ] || { cat "$err"; cat "$out"; }
echo "$((7 - fails)) passed, $fails failed"
[ $fails -eq 0 ]
