#!/usr/bin/env bash
# The sanitizer builds: an AddressSanitizer+UndefinedBehaviorSanitizer build and a ThreadSanitizer
# build of the engine, the readers and the app stack, each running the tests labelled "sanitize"
# (core and stop rules, the block queue, the pulse hook, the timeline recorder, every skeleton on
# toy models, the MPI-free engine, the reader mutation test, a 2-rank search with and without
# --timeline, a model throwing on 1-4 ranks), and the tests labelled with the build's own name
# (asan: the option fuzz of the app frame). Any finding fails the run.
# Run by scripts/test.sh before the main suite; alone: scripts/sanitizers.sh [asan] [tsan]
set -euo pipefail
cd "$(dirname "$0")/.."
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(asan tsan)
targets=(test_core test_block_queue test_pulse test_timeline test_parallel test_engine_mpi_free test_reader_mutation test_hostile fourth_policy throwing_app minimal_app)
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"   # Open MPI keeps allocations until exit
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp"
for kind in "${kinds[@]}"; do
  case $kind in
    asan) flag=-DJACKDAW_ASAN=ON ;;
    tsan) flag=-DJACKDAW_TSAN=ON ;;
    *) echo "sanitizers.sh: unknown build '$kind' (asan, tsan)" >&2; exit 2 ;;
  esac
  dir="${BUILD_DIR:-build}-$kind"
  echo "== $kind: building ${targets[*]} in $dir" >&2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$flag" -DJACKDAW_BUILD_BENCH=OFF >/dev/null
  cmake --build "$dir" --target "${targets[@]}"
  ctest --test-dir "$dir" -L "^(sanitize|$kind)$" --output-on-failure --timeout 900 -j "$(nproc)"
done
