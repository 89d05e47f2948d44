#!/usr/bin/env bash
# Multi-rank answers: K ranks x workers {1,2} x every parallel skeleton give exactly the known
# answers (DIMACS omega from instances/dimacs/ANSWERS.tsv; NS counts from OEIS A007323), under
# one victim policy (ctest runs the matrix once per policy) and one load board scheme.
# GRAIN fixed (default): -d 2 -b 500; auto: no -d / -b, so the apps' default automatic grain,
# aimed at 50 us tasks so that it retunes and deepens even on these small trees.
#   check_matrix.sh BUILD_DIR INSTANCES_DIR RANKS [POLICY] [BOARD] [BOARD_SAMPLE] [STEAL] [SEED_TREE] [GRAIN]
# MATRIX_EXTRA: more flags for every run (e.g. --board-transport messages). MATRIX_WORKERS: the
# worker counts (default "1 2").
set -euo pipefail
build="$1"; inst="$2"; k="$3"; policy="${4:-random}"; board="${5:-all}"; sample="${6:-4}"; steal="${7:-half}"; seedtree="${8:-0}"
grain="${9:-fixed}"
case "$grain" in fixed) g=(-d 2 -b 500) ;; auto) g=(--task-target-ms 0.05) ;; *) echo "GRAIN: fixed or auto"; exit 2 ;; esac
mpi=(mpirun --oversubscribe --allow-run-as-root -n "$k")
fails=0; runs=0
# check REGEX COMMAND...: one run, counted as failed unless it exits 0 and prints a line matching
# REGEX; $passed says which, and its output stays in $out for further checks.
out=""; passed=false
check() {
  local want="$1"; shift
  runs=$((runs + 1)); passed=false
  if ! out=$(timeout 120 "${mpi[@]}" "$@" 2>&1); then
    echo "FAIL (exit): $*"; echo "$out" | tail -5; fails=$((fails + 1)); return 0
  fi
  if grep -Eq "$want" <<<"$out"; then passed=true; else echo "FAIL (answer, want /$want/): $*"; echo "$out" | tail -5; fails=$((fails + 1)); fi
}
mc="$build/apps/maxclique/maxclique"; ns="$build/apps/ns/ns"
for w in ${MATRIX_WORKERS:-1 2}; do
  for sk in depth_bounded budget stack_stealing ordered; do
    common=(--skeleton "$sk" --threads "$w" "${g[@]}" --policy "$policy" --board "$board" --board-sample "$sample" --steal "$steal" --seed-tree "$seedtree" ${MATRIX_EXTRA:-})
    check "omega = 12" "$mc" "$inst/dimacs/brock200_2.clq" "${common[@]}"
    check "omega = 16" "$mc" "$inst/dimacs/hamming8-4.clq" "${common[@]}"
    check "omega = 17" "$mc" "$inst/dimacs/brock200_4.clq" "${common[@]}"
    check "clique of size >= 17: found" "$mc" "$inst/dimacs/brock200_4.clq" --decision 17 "${common[@]}"
    check "clique of size >= 18: none" "$mc" "$inst/dimacs/brock200_4.clq" --decision 18 "${common[@]}"
    # NS: every per-genus count 0..18 (A007323) and the total, from one run.
    check "^total: 33282$" "$ns" -g 18 "${common[@]}"
    $passed || continue
    for pair in 0:1 1:1 2:2 3:4 4:7 5:12 6:23 7:39 8:67 9:118 10:204 11:343 12:592 13:1001 14:1693 15:2857 16:4806 17:8045 18:13467; do
      grep -q "^${pair%%:*}: ${pair##*:}$" <<<"$out" || { echo "FAIL: ns -g 18 $sk w=$w: no line '${pair%%:*}: ${pair##*:}'"; echo "$out" | tail -5; fails=$((fails + 1)); break; }
    done
  done
done
echo "$runs runs on $k ranks, policy $policy, board $board, steal $steal, seed tree $seedtree, grain $grain, $fails failed"
echo "$((runs - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
