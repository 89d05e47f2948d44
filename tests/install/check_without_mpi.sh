#!/usr/bin/env bash
# Jackdaw built without MPI (-DJACKDAW_WITH_MPI=OFF), as a consumer uses it: installs the build into
# a scratch prefix; the three examples that call jackdaw::solve (unchanged: the package's
# jackdaw/jackdaw.hpp runs it on one process), the search-only and the trace-only consumers build
# against it with MPI, OpenSSL, cereal and spdlog hidden from CMake; no program has an MPI library
# among its dynamic dependencies; their answers are checked on one process (solve_checks.sh, and
# n-queens against OEIS A000170). Asking this package for the distributed component fails, saying
# it was built without MPI.
#   check_without_mpi.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build_dir="$1"; src_dir="$2"; work="$3"
reference="$src_dir/tests/install/reference.py"
mpiexec=""  # solve_checks.sh: no runs on ranks
# shellcheck source=solve_checks.sh
source "$src_dir/tests/install/solve_checks.sh"
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null

hide=()
for p in MPI OpenSSL cereal spdlog; do hide+=("-DCMAKE_DISABLE_FIND_PACKAGE_$p=ON"); done
consumers=(examples/knapsack_bb examples/graph_colouring examples/vertex_cover tests/install/search_only tests/install/trace_only)
for c in "${consumers[@]}"; do
  name=$(basename "$c")
  cmake -S "$src_dir/$c" -B "$work/$name" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" "${hide[@]}" \
    >"$work/$name.configure.log" 2>&1 || { echo "$c against the package without MPI: configure failed"; cat "$work/$name.configure.log"; exit 1; }
done
# The components this package has, and what it says when asked for one it has not.
cmake -S "$src_dir/tests/install/components" -B "$work/components.all" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  "-DFIND_ARGS=REQUIRED" "${hide[@]}" >"$work/components.all.log" 2>&1 &&
  grep -qx -- "-- loaded: search trace solve" "$work/components.all.log" ||
  { echo "find_package(Jackdaw REQUIRED) without MPI: expected search, trace and solve loaded"; cat "$work/components.all.log"; exit 1; }
rc=0
cmake -S "$src_dir/tests/install/components" -B "$work/components.distributed" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" \
  "-DFIND_ARGS=REQUIRED;COMPONENTS;distributed" >"$work/components.distributed.log" 2>&1 || rc=$?
{ [ "$rc" -ne 0 ] && grep -q "built without MPI (JACKDAW_WITH_MPI=OFF)" "$work/components.distributed.log"; } ||
  { echo "find_package(Jackdaw COMPONENTS distributed) without MPI: expected a failure saying so"; cat "$work/components.distributed.log"; exit 1; }
echo "ok: the package without MPI loads search, trace and solve; asked for distributed, it says it was built without MPI"

for c in "${consumers[@]}"; do
  name=$(basename "$c")
  cmake --build "$work/$name" >"$work/$name.log" 2>&1 || { echo "building $c failed:"; cat "$work/$name.log"; exit 1; }
done
knapsack="$work/knapsack_bb/knapsack_bb"
colouring="$work/graph_colouring/graph_colouring"
cover="$work/vertex_cover/vertex_cover"
for exe in "$knapsack" "$colouring" "$cover" "$work/search_only/search_only"; do
  "$src_dir/tests/engine/check_no_mpi.sh" "$exe" >/dev/null || { "$src_dir/tests/engine/check_no_mpi.sh" "$exe"; exit 1; }
done
# The trace format links no oneTBB (check_no_mpi.sh asks for it, to know ldd saw the libraries): zlib here.
deps=$(ldd "$work/trace_only/trace_only")
{ grep -q libz <<<"$deps" && ! grep -qi "libmpi\|open-rte\|open-pal" <<<"$deps"; } ||
  { echo "trace_only: expected zlib and no MPI among its dynamic dependencies"; echo "$deps"; exit 1; }
echo "ok: 5 programs built against the package without MPI, none linked to an MPI library"

check_search_only
run "$work/trace_only.out" "$work/trace_only/trace_only" "$work/trace_only.jdtrace"
echo "ok: trace_only: $(cat "$work/trace_only.out")"
check_solve_examples
