#!/usr/bin/env bash
# Installs the built tree into a scratch prefix, builds examples/self_avoiding_walks against it as
# an outside project would, and checks its counts against OEIS A001411.
set -euo pipefail
build_dir="$1"; src_dir="$2"; work="$3"
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$src_dir/examples/self_avoiding_walks" -B "$work/saw-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/saw-build" >/dev/null
# A001411: self-avoiding walks of n steps on the square lattice.
expect=(1 4 12 36 100 284 780 2172 5916 16268 44100 120292 324932)
check() {
  local out; out=$("$work/saw-build/saw" -n 12 "$@")
  for n in "${!expect[@]}"; do
    grep -qx "$n: ${expect[$n]}" <<<"$out" || { echo "saw $*: wrong or missing count for n=$n"; echo "$out"; exit 1; }
  done
  echo "ok: saw -n 12 $*"
}
check --skeleton seq
check --skeleton depth_bounded -d 3 --threads 2
check --skeleton budget -b 1000 --threads 2
