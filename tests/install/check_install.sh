#!/usr/bin/env bash
# Installs the built tree into a scratch prefix and builds the five examples against it, as an
# outside project would, then checks their answers:
#   examples/self_avoiding_walks  the app frame; counts against OEIS A001411
#   examples/knapsack_bb          jackdaw::solve, optimisation; optimum against a dynamic programme
#   examples/graph_colouring      jackdaw::solve, decision; yes/no against the chromatic number
#                                 (inclusion-exclusion), and every colouring found is checked
#   examples/vertex_cover         jackdaw::solve, minimisation; the minimum cover of the complement
#                                 of DIMACS graphs is n - omega (omega: instances/dimacs/ANSWERS.tsv)
#   examples/chromatic_number     the app frame (both ask for the app component), minimisation and its decision (--decide K): chi of the
#                                 DIMACS colouring graphs (instances/colouring/ANSWERS.tsv) and of
#                                 random graphs (inclusion-exclusion), K = chi - 1 (no) and chi (yes),
#                                 every colouring checked; with no flags (--skeleton auto), seq, and
#                                 `mpirun -n 2` with no flags; an interrupted run resumed (--checkpoint)
# (reference.py computes those answers without searching). The solve examples (solve_checks.sh) run
# on one process under two skeletons and on two MPI ranks; they ask for the solve component and are
# configured with OpenSSL and zlib hidden. The package by components:
#   tests/install/search_only     find_package(Jackdaw COMPONENTS search) with MPI, OpenSSL, cereal,
#                                 spdlog, CLI11, nlohmann_json and ZLIB hidden from CMake; counts
#                                 n-queens solutions with three skeletons (OEIS A000170)
#   tests/install/trace_only      find_package(Jackdaw COMPONENTS trace) with MPI, OpenSSL, cereal,
#                                 spdlog and CLI11 hidden; writes a trace, reads it back, refuses it cut
#   tests/install/components      which components load for which request: the ones needed come
#                                 along, an optional one whose dependency is missing is left out,
#                                 a required one whose dependency is missing or an unknown one fails
# And the consumer's checked build:
#   tests/install/checked_build   configured with -DJACKDAW_CHECK_MODELS=ON, a model that
#                                 over-counts numChildren must fail with ModelError and the honest
#                                 one count right (OEIS A000073); configured without, it is unchecked
#
#   check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR [MPIEXEC]
set -euo pipefail
build_dir="$1"; src_dir="$2"; work="$3"; mpiexec="${4:-mpirun}"
reference="$src_dir/tests/install/reference.py"
# shellcheck source=solve_checks.sh
source "$src_dir/tests/install/solve_checks.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null

# The app frame's examples ask for the app component; the solve examples for solve (the distributed
# component here), configured with the app's and trace's own dependencies hidden: not even looked for.
examples=(self_avoiding_walks knapsack_bb graph_colouring vertex_cover chromatic_number)
for ex in self_avoiding_walks chromatic_number; do
  cmake -S "$src_dir/examples/$ex" -B "$work/$ex" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
done
for ex in knapsack_bb graph_colouring vertex_cover; do
  cmake -S "$src_dir/examples/$ex" -B "$work/$ex" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
    -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON >"$work/$ex.configure.log" 2>&1 ||
    { echo "$ex with OpenSSL and ZLIB hidden: configure failed"; cat "$work/$ex.configure.log"; exit 1; }
  for p in OpenSSL ZLIB; do
    grep -qx "  *CMAKE_DISABLE_FIND_PACKAGE_$p" "$work/$ex.configure.log" ||
      { echo "find_package(Jackdaw COMPONENTS solve) looked for $p"; cat "$work/$ex.configure.log"; exit 1; }
  done
done
# The checked-build probe, once with JACKDAW_CHECK_MODELS=ON and once as a plain Release build.
cmake -S "$src_dir/tests/install/checked_build" -B "$work/checked" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DJACKDAW_CHECK_MODELS=ON >"$work/checked.configure.log" 2>&1 || { cat "$work/checked.configure.log"; exit 1; }
if grep -q "not used by the project" "$work/checked.configure.log"; then
  echo "JACKDAW_CHECK_MODELS was not read by the installed package:"; cat "$work/checked.configure.log"; exit 1
fi
cmake -S "$src_dir/tests/install/checked_build" -B "$work/unchecked" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null

# Every package that only the distributed, trace and app components need, hidden from CMake.
hide=()
for p in MPI OpenSSL cereal spdlog CLI11 nlohmann_json ZLIB; do hide+=("-DCMAKE_DISABLE_FIND_PACKAGE_$p=ON"); done
cmake -S "$src_dir/tests/install/search_only" -B "$work/search_only" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  "${hide[@]}" >"$work/search_only.configure.log" 2>&1 ||
  { echo "search component without MPI & co: configure failed"; cat "$work/search_only.configure.log"; exit 1; }
# Not even looked for: CMake lists each of those switches as a variable the project never read.
for p in MPI OpenSSL cereal spdlog CLI11 nlohmann_json ZLIB; do
  grep -qx "  *CMAKE_DISABLE_FIND_PACKAGE_$p" "$work/search_only.configure.log" ||
    { echo "find_package(Jackdaw COMPONENTS search) looked for $p"; cat "$work/search_only.configure.log"; exit 1; }
done
# The trace format alone: MPI, OpenSSL, cereal, spdlog and CLI11 hidden (nlohmann_json, ZLIB are its own).
cmake -S "$src_dir/tests/install/trace_only" -B "$work/trace_only" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  "${hide[@]:0:5}" >"$work/trace_only.configure.log" 2>&1 ||
  { echo "trace component without MPI & co: configure failed"; cat "$work/trace_only.configure.log"; exit 1; }

# components NAME EXPECT FIND_ARGS [CMAKE_ARGS...]: configures tests/install/components with
# find_package(Jackdaw FIND_ARGS). EXPECT "loaded: C...": the configure succeeds with exactly the
# components C loaded (the probe checks that their targets, and no others, are defined);
# EXPECT "fails: REGEX": it fails, saying REGEX.
components() {
  local name="$1" expect="$2" args="$3"; shift 3
  local log="$work/components.$name.log" rc=0
  cmake -S "$src_dir/tests/install/components" -B "$work/components.$name" -G Ninja \
    -DCMAKE_PREFIX_PATH="$work/prefix" "-DFIND_ARGS=$args" "$@" >"$log" 2>&1 || rc=$?
  case "$expect" in
    loaded:*) [ "$rc" -eq 0 ] && grep -qx -- "-- $expect" "$log" ;;
    fails:*) [ "$rc" -ne 0 ] && grep -Eq -- "${expect#fails: }" "$log" ;;
  esac || { echo "find_package(Jackdaw $args) $*: expected $expect (configure exit $rc)"; cat "$log"; exit 1; }
  echo "ok: find_package(Jackdaw ${args//;/ })${*:+, $# hidden}: $expect"
}
components all "loaded: search trace distributed app solve" "REQUIRED"
components app "loaded: search trace distributed app" "REQUIRED;COMPONENTS;app"
components search "loaded: search" "REQUIRED;COMPONENTS;search" "${hide[@]}"
components trace "loaded: trace" "REQUIRED;COMPONENTS;trace" "${hide[@]:0:5}"  # nlohmann_json, ZLIB left
# distributed alone: MPI, nlohmann_json, cereal, spdlog and CLI11 (its comm flags) found; the
# app's and trace's own (OpenSSL, ZLIB) hidden.
components distributed "loaded: search distributed" "REQUIRED;COMPONENTS;distributed" \
  -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON
components solve "loaded: search distributed solve" "REQUIRED;COMPONENTS;solve" \
  -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON
components optional "loaded: search" "REQUIRED;COMPONENTS;search;OPTIONAL_COMPONENTS;distributed" "${hide[@]}"
components no_mpi "fails: (module|dependency) MPI" "REQUIRED;COMPONENTS;distributed" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON
components unknown "fails: no component 'nosuch'" "REQUIRED;COMPONENTS;search;nosuch"
components unknown_optional "loaded: search" "REQUIRED;COMPONENTS;search;OPTIONAL_COMPONENTS;nosuch"

# One source file each: they compile side by side.
builds=("${examples[@]}" checked unchecked search_only trace_only)
pids=()
for ex in "${builds[@]}"; do
  cmake --build "$work/$ex" >"$work/$ex.log" 2>&1 &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "building ${builds[$i]} against the installed package failed:"; cat "$work/${builds[$i]}.log"; exit 1; }
done
saw="$work/self_avoiding_walks/saw"
knapsack="$work/knapsack_bb/knapsack_bb"
colouring="$work/graph_colouring/graph_colouring"
cover="$work/vertex_cover/vertex_cover"
chromatic="$work/chromatic_number/chromatic"


# Checked build: compositions of 10 into parts 1..3 are 274 (OEIS A000073, a(12)). Checked, the
# honest model gives 274 and the over-counting one stops with ModelError (exit 1); unchecked, the
# honest model gives 274 too (what the lying one prints unchecked is not asserted: it is wrong).
probe() {  # probe DIR ARGS...: its output in $work/probe.out, its exit code in probe_rc
  probe_rc=0
  timeout 60 "$work/$1/checked_build" "${@:2}" >"$work/probe.out" 2>&1 || probe_rc=$?
}
probe checked 10
{ [ "$probe_rc" -eq 0 ] && grep -qx "checked: yes" "$work/probe.out" && grep -qx "count: 274" "$work/probe.out"; } ||
  { echo "checked build, honest model: expected checked, count 274, exit 0 (got $probe_rc)"; cat "$work/probe.out"; exit 1; }
probe checked 10 overcount
{ [ "$probe_rc" -eq 1 ] && grep -q "^error: model .*numChildren over-counts the children" "$work/probe.out"; } ||
  { echo "checked build, over-counting model: expected ModelError and exit 1 (got $probe_rc)"; cat "$work/probe.out"; exit 1; }
probe unchecked 10
{ [ "$probe_rc" -eq 0 ] && grep -qx "checked: no" "$work/probe.out" && grep -qx "count: 274" "$work/probe.out"; } ||
  { echo "unchecked build, honest model: expected unchecked, count 274, exit 0 (got $probe_rc)"; cat "$work/probe.out"; exit 1; }
probe unchecked 10 overcount
echo "ok: -DJACKDAW_CHECK_MODELS=ON out of tree stops the over-counting model; unchecked it printed: $(grep count "$work/probe.out")"

check_search_only

run "$work/trace_only.out" "$work/trace_only/trace_only" "$work/trace_only.jdtrace"
echo "ok: trace_only (Jackdaw::trace, no MPI found): $(cat "$work/trace_only.out")"

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

check_solve_examples

# The chromatic number (app frame): each graph with no flags (--skeleton auto: a parallel skeleton on
# this machine's workers), with --skeleton seq, and on 2 ranks with no flags at all.
frame_runs() {  # frame_runs NAME ARGS...: `outputs` lists what the three runs printed
  local name="$1"; shift
  outputs=("$name.auto" "$name.seq" "$name.ranks2")
  run "${outputs[0]}" "$chromatic" "$@"
  run "${outputs[1]}" "$chromatic" "$@" --skeleton seq
  run "${outputs[2]}" "$mpiexec" --oversubscribe --allow-run-as-root -n 2 "$chromatic" "$@"
}
how="no flags, --skeleton seq, and mpirun -n 2 with no flags"
answers="$src_dir/instances/colouring/ANSWERS.tsv"
for graph in myciel3 myciel4 myciel5 queen5_5 queen6_6; do
  file="$src_dir/instances/colouring/$graph.col"
  chi=$(awk -v g="$graph" '$1 == g { print $4 }' "$answers")
  frame_runs "$work/chromatic.$graph" "$file"
  answer=$(python3 "$reference" chromatic_number "$file" "$chi" "${outputs[@]}") || { echo "$answer"; exit 1; }
  for k in $((chi - 1)) "$chi"; do
    frame_runs "$work/chromatic.$graph.decide$k" "$file" --decide "$k"
    verdict=$(python3 "$reference" decide "$file" "$chi" "$k" "${outputs[@]}") || { echo "$verdict"; exit 1; }
  done
  echo "ok: chromatic $graph: $answer; --decide $((chi - 1)) and $chi: right and every colouring proper; $how"
done
# Random graphs, their chromatic number by inclusion-exclusion over independent sets.
for g in "14 30 1" "16 50 2" "17 70 3"; do
  read -r vertices density seed <<<"$g"
  file="$work/random.$vertices.$density.$seed.col"
  python3 "$reference" dimacs "$vertices" "$density" "$seed" "$file"
  chi=$(python3 "$reference" chromatic_of "$file")
  frame_runs "$work/chromatic.random.$seed" "$file"
  answer=$(python3 "$reference" chromatic_number "$file" "$chi" "${outputs[@]}") || { echo "$answer"; exit 1; }
  frame_runs "$work/chromatic.random.$seed.decide" "$file" --decide "$((chi - 1))"
  python3 "$reference" decide "$file" "$chi" "$((chi - 1))" "${outputs[@]}" >/dev/null || exit 1
  echo "ok: chromatic G($vertices, $density%, seed $seed): $answer (brute force), --decide $((chi - 1)): no; $how"
done

# Bad input is exit 2 with one line naming the file (and line): a malformed edge, a FIFO (which a
# reader that opens it plainly would wait on for ever).
printf 'p edge 3 1\ne 1 4\n' >"$work/bad.col"
rc=0; timeout 60 "$chromatic" "$work/bad.col" >"$work/bad.out" 2>&1 || rc=$?
{ [ "$rc" -eq 2 ] && grep -q "^chromatic: error: $work/bad.col:2: " "$work/bad.out"; } ||
  { echo "chromatic, a malformed edge: expected exit 2 naming bad.col:2 (got $rc)"; cat "$work/bad.out"; exit 1; }
mkfifo "$work/graph.fifo"
rc=0; timeout 60 "$chromatic" "$work/graph.fifo" >"$work/fifo.out" 2>&1 || rc=$?
{ [ "$rc" -eq 2 ] && grep -q "FIFO" "$work/fifo.out"; } ||
  { echo "chromatic, a FIFO as the graph: expected exit 2 naming a FIFO (got $rc)"; cat "$work/fifo.out"; exit 1; }
echo "ok: chromatic: a malformed edge and a FIFO are bad input (exit 2, one line)"

# Interrupted and resumed: queen8_8 (chi 9, a few seconds on 2 workers) gets SIGINT once the search
# runs (its first --progress line). Exit 3 must come with a checkpoint, the best so far marked
# partial (no "result" in --stats), and --resume must finish with chi = 9; a run that ended before
# the signal must be whole.
file="$src_dir/instances/colouring/queen8_8.col"
rm -rf "$work/ck"
"$chromatic" "$file" --checkpoint "$work/ck" --progress 0.2 --stats "$work/leg1.json" >"$work/leg1.out" 2>"$work/leg1.err" &
pid=$!
for _ in $(seq 1200); do
  grep -q "progress:" "$work/leg1.err" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
kill -INT "$pid" 2>/dev/null || true
rc=0; timeout 120 tail --pid="$pid" -f /dev/null || { kill -KILL "$pid"; echo "chromatic: no exit 120 s after SIGINT"; exit 1; }
wait "$pid" || rc=$?
if [ "$rc" -eq 3 ]; then
  { head -1 "$work/leg1.out" | grep -q "^PARTIAL RESULT" && grep -q '"partial": true' "$work/leg1.json" &&
    ! grep -q '"result"' "$work/leg1.json"; } ||
    { echo "chromatic, interrupted: the best so far is not marked partial"; cat "$work/leg1.out" "$work/leg1.json"; exit 1; }
  run "$work/leg2.out" "$chromatic" "$file" --resume "$work/ck"
  python3 "$reference" chromatic_number "$file" 9 "$work/leg2.out" >/dev/null || exit 1
  echo "ok: chromatic queen8_8 interrupted (exit 3, marked partial, checkpoint), resumed: 9"
else
  [ "$rc" -eq 0 ] || { echo "chromatic queen8_8 --checkpoint: exit $rc"; cat "$work/leg1.out" "$work/leg1.err"; exit 1; }
  python3 "$reference" chromatic_number "$file" 9 "$work/leg1.out" >/dev/null || exit 1
  echo "ok: chromatic queen8_8 ended before the signal: 9"
fi
