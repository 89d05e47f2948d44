#!/usr/bin/env bash
# Pack what run.sh (beside this file) needs on a machine where nothing can be installed: the
# stripped release binaries of uts, ns, maxclique and queue_bench, the libraries that machine
# lacks (oneTBB, spdlog, fmt, Google Benchmark: not MPI, whose own library must match its
# mpirun), the UTS 2.1 reference built by bench/uts_reference/build.sh and, given PEERS_DIR,
# NumericMonoid's nm-treewalk-g36/38/40 and RGD as bench/peers/build_peers.sh builds them.
#
#   bench/machine16/pack.sh BUILD_DIR UTS_REF_DIR PACK.tar.gz [PEERS_DIR]
set -euo pipefail
build=$(realpath "$1"); refdir=$(realpath "$2"); pack=$(realpath -m "$3"); peers=${4:+$(realpath "$4")}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bin" "$t/lib" "$t/ref"
for b in apps/uts/uts apps/ns/ns apps/maxclique/maxclique bench/queue/queue_bench; do
  strip -o "$t/bin/$(basename "$b")" "$build/$b"
done
for r in uts-seq uts-pthread uts-mpi-ws; do strip -o "$t/ref/$r" "$refdir/$r"; done
if [ -n "$peers" ]; then
  for g in 36 38 40; do strip -o "$t/ref/nm-treewalk-g$g" "$peers/nm/nm-treewalk-g$g"; done
  strip -o "$t/ref/rgd" "$peers/rgd/rgd"
fi
for l in libtbb.so.12 libtbbmalloc.so.2 libspdlog.so.1.10 libfmt.so.9 libbenchmark.so.1debian; do
  f=$(ldconfig -p | awk -v l="$l" '$1 == l {print $NF; exit}')
  [ -n "$f" ] && cp -L "$f" "$t/lib/$l"
done
tar -czf "$pack" -C "$t" bin lib ref
ls -l "$pack"
