#!/usr/bin/env bash
# --skeleton auto, the default (issue 53): each app under `mpirun -n 2` with no flag of its own but
# the instance gives the known answer, on 2 ranks, with the parallel skeleton --stats records.
# Answers: omega(brock200_4) = 17 (instances/dimacs/ANSWERS.tsv), 10 queens 724 (OEIS A000170),
# 2857 semigroups of genus 15 (OEIS A007323), UTS's default tree 1732 nodes (tests/uts), knapsack
# f8 9767 and TSP burma14 3323 (instances/*/ANSWERS.tsv), 12 embeddings of trident in longtrident
# (instances/sip/ANSWERS.tsv).
#   check_auto_default.sh BUILD_DIR INSTANCES WORKDIR
set -uo pipefail
build="$1"; inst="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"
mpi=(mpirun --oversubscribe -n 2)
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
fails=0
# case APP EXPECTED_LINE ARGS...
case_() {
  local app="$1" want="$2"; shift 2
  local out="$work/$app.out" stats="$work/$app.json" rc=0
  timeout 240 "${mpi[@]}" "$build/apps/$app/$app" "$@" --stats "$stats" >"$out" 2>"$out.err" || rc=$?
  local got
  got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); o=d["options"]
print(d["ranks"], d["status"], o["skeleton_auto"], o["skeleton"] != "seq")' "$stats" 2>/dev/null)
  if [ "$rc" -eq 0 ] && grep -qx -- "$want" "$out" && [ "$got" = "2 complete True True" ]; then
    echo "ok   mpirun -n 2 $app $*: $want ($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["options"]["skeleton"])' "$stats"))"
  else
    echo "FAIL mpirun -n 2 $app $*: exit $rc, expected '$want' on 2 ranks with a parallel skeleton (stats: $got)"
    cat "$out" "$out.err"
    fails=$((fails + 1))
  fi
}
case_ maxclique "omega = 17" "$inst/dimacs/brock200_4.clq"
case_ nqueens "solutions: 724" -n 10
case_ ns "15: 2857" -g 15
case_ uts "tree nodes: 1732"
case_ knapsack "profit: 9767" "$inst/knapsack/instances_01_KP/low-dimensional/f8_l-d_kp_23_10000"
case_ tsp "optimal length: 3323" "$inst/tsp/burma14.tsp"
case_ sip "solutions: 12" --count "$inst/sip/glasgow/trident.csv" "$inst/sip/glasgow/longtrident.csv"
echo "$((7 - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
