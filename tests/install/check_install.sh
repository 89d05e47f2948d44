#!/usr/bin/env bash
# Installs the built tree into a scratch prefix and builds the three examples against it, as an
# outside project would, then checks their answers:
#   examples/self_avoiding_walks  the app frame; counts against OEIS A001411
#   examples/knapsack_bb          jackdaw::solve, optimisation; optimum against a dynamic programme
#   examples/graph_colouring      jackdaw::solve, decision; yes/no against the chromatic number
#                                 (inclusion-exclusion), and every colouring found is checked
# (reference.py computes those answers without searching). The solve examples run on one process
# under two skeletons and on two MPI ranks.
#
#   check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR [MPIEXEC]
set -euo pipefail
build_dir="$1"; src_dir="$2"; work="$3"; mpiexec="${4:-mpirun}"
reference="$src_dir/tests/install/reference.py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null

examples=(self_avoiding_walks knapsack_bb graph_colouring)
for ex in "${examples[@]}"; do
  cmake -S "$src_dir/examples/$ex" -B "$work/$ex" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
done
# One source file each: the three compile side by side.
pids=()
for ex in "${examples[@]}"; do
  cmake --build "$work/$ex" >"$work/$ex.log" 2>&1 &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "building examples/${examples[$i]} against the installed package failed:"; cat "$work/${examples[$i]}.log"; exit 1; }
done
saw="$work/self_avoiding_walks/saw"
knapsack="$work/knapsack_bb/knapsack_bb"
colouring="$work/graph_colouring/graph_colouring"

# run OUT COMMAND...: runs it (never longer than 2 minutes) with its stdout in OUT; fails the test,
# showing what it printed, if it exits non-zero.
run() {
  local out="$1"; shift
  local rc=0
  timeout 120 "$@" >"$out" 2>"$out.err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "exit $rc: $*"; cat "$out" "$out.err"; exit 1
  fi
}

# A001411: self-avoiding walks of n steps on the square lattice.
expect=(1 4 12 36 100 284 780 2172 5916 16268 44100 120292 324932)
# check_saw RANKS ARGS...: saw -n 12 on one process or under mpirun on RANKS ranks.
check_saw() {
  local ranks="$1"; shift
  local out="$work/saw.out" launch=()
  [ "$ranks" -gt 1 ] && launch=("$mpiexec" --oversubscribe --allow-run-as-root -n "$ranks")
  run "$out" "${launch[@]}" "$saw" -n 12 "$@"
  for n in "${!expect[@]}"; do
    grep -qx "$n: ${expect[$n]}" "$out" || { echo "saw $*: wrong or missing count for n=$n"; cat "$out"; exit 1; }
  done
  echo "ok: saw -n 12 $* (ranks: $ranks)"
}
check_saw 1 --skeleton seq
check_saw 1 --skeleton depth_bounded -d 3 --threads 2
check_saw 1 --skeleton budget -b 1000 --threads 2
check_saw 2 --skeleton budget -b 1000 --threads 1

# solve_runs NAME EXE ARGS...: the instance on one process with depth_bounded and with budget, and on
# two ranks (small budgets, so work is split and stolen often); `outputs` lists what they printed.
solve_runs() {
  local name="$1" exe="$2"; shift 2
  outputs=("$name.depth_bounded" "$name.budget" "$name.ranks2")
  run "${outputs[0]}" "$exe" "$@" --skeleton depth_bounded -d 2 --threads 2
  run "${outputs[1]}" "$exe" "$@" --skeleton budget -b 10 --threads 2
  run "${outputs[2]}" "$mpiexec" --oversubscribe --allow-run-as-root -n 2 "$exe" "$@" --skeleton budget -b 10 --threads 2
}
how="depth_bounded, budget (one process, 2 threads) and budget on 2 ranks"

# Knapsack: two drawn and two strongly correlated instances.
for instance in "40 1 drawn" "60 3 drawn" "50 3 correlated" "60 1 correlated"; do
  read -r items seed profits <<<"$instance"
  flags=(--items "$items" --seed "$seed")
  [ "$profits" = correlated ] && flags+=(--correlated)
  name="$work/knapsack.$items.$seed.$profits"
  solve_runs "$name" "$knapsack" "${flags[@]}"
  answer=$(python3 "$reference" knapsack "$items" "$seed" "$profits" "${outputs[@]}") || { echo "$answer"; exit 1; }
  echo "ok: knapsack_bb ${flags[*]}: $answer, on $how"
done

# Colouring: each graph with one colour fewer than its chromatic number (no) and with it (yes).
for graph in "20 30 2" "20 70 6"; do
  read -r vertices density seed <<<"$graph"
  chi=$(python3 "$reference" chromatic "$vertices" "$density" "$seed")
  for k in $((chi - 1)) "$chi"; do
    flags=(--vertices "$vertices" --density "$density" --seed "$seed" --colours "$k")
    name="$work/colouring.$vertices.$density.$seed.$k"
    solve_runs "$name" "$colouring" "${flags[@]}"
    answer=$(python3 "$reference" colouring "$vertices" "$density" "$seed" "$k" "${outputs[@]}") || { echo "$answer"; exit 1; }
    echo "ok: graph_colouring ${flags[*]}: $answer, on $how"
  done
done
