# The checks of the examples that call jackdaw::solve (knapsack_bb, graph_colouring, vertex_cover)
# against the answers tests/install/reference.py computes, and of the search-only consumer, shared
# by check_install.sh (a package with MPI: one process and 2 ranks) and check_without_mpi.sh (a
# package without: one process). Sourced; uses $work, $src_dir, $reference, $knapsack, $colouring,
# $cover and $mpiexec (empty: no MPI runs).

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

# solve_runs NAME EXE ARGS...: the instance on one process with depth_bounded and with budget, and on
# two ranks unless mpiexec is empty (small budgets, so work is split and stolen often); `outputs`
# lists what they printed.
solve_runs() {
  local name="$1" exe="$2"; shift 2
  outputs=("$name.depth_bounded" "$name.budget")
  run "${outputs[0]}" "$exe" "$@" --skeleton depth_bounded -d 2 --threads 2
  run "${outputs[1]}" "$exe" "$@" --skeleton budget -b 10 --threads 2
  if [ -n "$mpiexec" ]; then
    outputs+=("$name.ranks2")
    run "${outputs[2]}" "$mpiexec" --oversubscribe --allow-run-as-root -n 2 "$exe" "$@" --skeleton budget -b 10 --threads 2
  fi
}

# check_search_only: tests/install/search_only built in $work/search_only counts the n-queens
# solutions (OEIS A000170: n = 8 gives 92, n = 10 gives 724) the same from seq, depth_bounded, budget.
check_search_only() {
  for nq in "8 92" "10 724"; do
    read -r n count <<<"$nq"
    run "$work/search_only.out" "$work/search_only/search_only" "$n"
    for sk in seq depth_bounded budget; do
      grep -qx "$sk: $count" "$work/search_only.out" || { echo "search_only $n: expected $sk: $count"; cat "$work/search_only.out"; exit 1; }
    done
    echo "ok: search_only $n (Jackdaw::search, no MPI found): $count queens solutions from seq, depth_bounded, budget"
  done
}

# check_solve_examples: every instance below under solve_runs, its answer checked.
check_solve_examples() {
  local how="depth_bounded, budget (one process, 2 threads)"
  [ -n "$mpiexec" ] && how+=" and budget on 2 ranks"
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

  # Vertex cover (minimisation): the complement of a graph has a minimum cover of n - omega, omega
  # the graph's published clique number (instances/dimacs/ANSWERS.tsv).
  for graph in MANN_a9 hamming6-4; do
    read -r n omega < <(awk -v g="$graph" '$1 == g { print $2, $4 }' "$src_dir/instances/dimacs/ANSWERS.tsv")
    name="$work/cover.$graph"
    solve_runs "$name" "$cover" --graph "$src_dir/instances/dimacs/$graph.clq" --complement
    for out in "${outputs[@]}"; do
      grep -qx "minimum cover: $((n - omega))" "$out" || { echo "vertex_cover $graph: expected $((n - omega)) ($out)"; cat "$out"; exit 1; }
    done
    echo "ok: vertex_cover --complement $graph: $((n - omega)) = $n - omega, on $how"
  done
}
