#!/usr/bin/env bash
# The grain check: a run where one task visits most of the nodes says so (rank 0, once) and a
# well-split run does not; both keep the known answer (NS genus <= 32: 38858196 semigroups in
# total, OEIS A007323 summed) and put the numbers in --stats "grain".
#   check_grain.sh NS_BINARY WORKDIR
# What holds on a loaded machine as on a quiet one: without the hunger rule, the largest task of
# -d 8 is one fixed subtree whatever the timing, so the warning is certain; with it, how much of
# that subtree the hungry worker takes depends on how much CPU it gets (a process beside the test
# can starve it), so the test asks only that the rule split it (a smaller largest task than without
# the rule) and that a warning, if any, agrees with the numbers in --stats.
set -uo pipefail
ns=$1 work=$2
mkdir -p "$work"
fail=0
run() {  # name, expect warning (yes/no/either), command...
  local name=$1 expect=$2
  shift 2
  local out
  out=$(timeout 120 "$@" --stats "$work/$name.json" 2>&1) || { echo "$name: exit $?"; echo "$out"; fail=1; return; }
  grep -q "^total: 38858196$" <<<"$out" || { echo "$name: wrong or missing total"; echo "$out"; fail=1; }
  local warnings
  warnings=$(grep -c "one task visited" <<<"$out")
  if [ "$expect" = yes ] && [ "$warnings" != 1 ]; then echo "$name: expected one grain warning, got $warnings"; echo "$out"; fail=1; fi
  if [ "$expect" = no ] && [ "$warnings" != 0 ]; then echo "$name: unexpected grain warning"; echo "$out"; fail=1; fi
  if [ "$expect" = either ] && [ "$warnings" -gt 1 ]; then echo "$name: $warnings grain warnings (at most one)"; echo "$out"; fail=1; fi
  /usr/bin/python3 - "$work/$name.json" "$expect" "$warnings" <<'PY' || fail=1
import json, sys
g = json.load(open(sys.argv[1])).get("grain")
if g is None:
    sys.exit(f"{sys.argv[1]}: no grain section")
assert g["nodes"] == 38858196, g
assert 0 < g["largest_task_nodes"] <= g["nodes"], g
assert abs(g["largest_task_share"] - g["largest_task_nodes"] / g["nodes"]) < 1e-12, g
# The warning is printed exactly when the bound in --stats says the others were busy half the time or less.
warned = sys.argv[3] == "1"
assert warned == (g["others_busy_at_most"] <= 0.5), (warned, g)
if sys.argv[2] == "yes":
    assert g["others_busy_at_most"] <= 0.5, g
elif sys.argv[2] == "no":
    assert g["others_busy_at_most"] > 0.5, g
PY
}
share() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["grain"]["largest_task_share"])' "$work/$1.json"; }
# -d 8 on NS without the hunger rule: one task below the cutoff holds nearly every node.
run depth8 yes "$ns" -g 32 --skeleton depth_bounded -d 8 --threads 2 --hunger-split false
run depth8_ranks2 yes mpirun --oversubscribe --allow-run-as-root -n 2 "$ns" -g 32 --skeleton depth_bounded -d 8 --threads 1 --hunger-split false
# With it (the default), the same cutoff feeds the hungry worker from that task.
run depth8_hunger either "$ns" -g 32 --skeleton depth_bounded -d 8 --threads 2
if [ -f "$work/depth8.json" ] && [ -f "$work/depth8_hunger.json" ]; then
  without=$(share depth8) with=$(share depth8_hunger)
  /usr/bin/python3 -c 'import sys; sys.exit(0 if float(sys.argv[2]) < float(sys.argv[1]) else 1)' "$without" "$with" ||
    { echo "depth8_hunger: the hunger rule did not split the largest task (share $with, without the rule $without)"; fail=1; }
  echo "largest task's share: $without without the hunger rule, $with with it"
fi
# The default budget splits it finely.
run budget no "$ns" -g 32 --skeleton budget --threads 2
exit $fail
