#!/usr/bin/env bash
# The grain check: a run where one task visits most of the nodes says so (rank 0, once) and a
# well-split run does not; both keep the known answer (NS genus <= 32: 38858196 semigroups in
# total, OEIS A007323 summed) and put the numbers in --stats "grain".
#   check_grain.sh NS_BINARY WORKDIR
set -uo pipefail
ns=$1 work=$2
mkdir -p "$work"
fail=0
run() {  # name, expect warning (yes/no), command...
  local name=$1 expect=$2
  shift 2
  local out
  out=$(timeout 120 "$@" --stats "$work/$name.json" 2>&1) || { echo "$name: exit $?"; echo "$out"; fail=1; return; }
  grep -q "^total: 38858196$" <<<"$out" || { echo "$name: wrong or missing total"; echo "$out"; fail=1; }
  local warnings
  warnings=$(grep -c "one task visited" <<<"$out")
  if [ "$expect" = yes ] && [ "$warnings" != 1 ]; then echo "$name: expected one grain warning, got $warnings"; echo "$out"; fail=1; fi
  if [ "$expect" = no ] && [ "$warnings" != 0 ]; then echo "$name: unexpected grain warning"; echo "$out"; fail=1; fi
  /usr/bin/python3 - "$work/$name.json" "$expect" <<'PY' || fail=1
import json, sys
g = json.load(open(sys.argv[1])).get("grain")
if g is None:
    sys.exit(f"{sys.argv[1]}: no grain section")
assert g["nodes"] == 38858196, g
assert 0 < g["largest_task_nodes"] <= g["nodes"], g
assert abs(g["largest_task_share"] - g["largest_task_nodes"] / g["nodes"]) < 1e-12, g
if sys.argv[2] == "yes":
    assert g["others_busy_at_most"] <= 0.5, g
else:
    assert g["others_busy_at_most"] > 0.5, g
PY
}
# -d 8 on NS without the hunger rule: one task below the cutoff holds nearly every node.
run depth8 yes "$ns" -g 32 --skeleton depth_bounded -d 8 --threads 2 --hunger-split false
run depth8_ranks2 yes mpirun --oversubscribe --allow-run-as-root -n 2 "$ns" -g 32 --skeleton depth_bounded -d 8 --threads 1 --hunger-split false
# With it (the default), the same cutoff feeds the hungry worker.
run depth8_hunger no "$ns" -g 32 --skeleton depth_bounded -d 8 --threads 2
# The default budget splits it finely.
run budget no "$ns" -g 32 --skeleton budget --threads 2
exit $fail
