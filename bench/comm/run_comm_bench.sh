#!/bin/sh
# Re-runs the comm-layer benchmarks and rewrites bench/results/comm.md.
#   bench/comm/run_comm_bench.sh [BUILD_DIR]      (default: build-comm next to this repo's root)
# Runs comm_bench on 2 and 4 ranks (oversubscribed if the machine has fewer cores). ~30 s.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-comm}
out=$root/bench/results/comm.md
ninja -C "$build" comm_bench >/dev/null
mpirun_flags="--oversubscribe --allow-run-as-root"
{
  echo "# Comm-layer benchmarks"
  echo
  echo "Re-run with: \`bench/comm/run_comm_bench.sh $build\` (runs \`mpirun -n K $mpirun_flags $build/bench/comm/comm_bench\` for K = 2, 4)."
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -sr)"
  echo "- MPI: $(mpirun --version 2>/dev/null | head -1)"
  echo "- load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "Read with care: ranks, their comm threads and whatever else runs share $(nproc) cores; with more"
  echo "ranks than cores every figure includes scheduler delays. Steal round trips are dominated by the"
  echo "idle comm threads' sleep backoff (CommOptions), not by MPI."
  echo
  for k in 2 4; do
    echo "## $k ranks"
    echo
    timeout 170 mpirun -n "$k" $mpirun_flags "$build/bench/comm/comm_bench"
    echo
  done
  echo "- load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
