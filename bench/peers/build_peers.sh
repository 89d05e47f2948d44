#!/usr/bin/env bash
# Builds the specialist programs Jackdaw is measured against, OUTSIDE this repository, and checks
# their answers on small instances. Their code never enters the repository.
#
#   UTS_GIT=DIR CLISAT_GIT=DIR GSS_GIT=DIR CXXOPTS_GIT=DIR NM_GIT=DIR RGD_GIT=DIR bench/peers/build_peers.sh PEERS_DIR
#
# Each *_GIT is a local git directory (a clone or a bare mirror) of the peer's public repository:
#   UTS_GIT      perarnau/uts                       UTS 2.1 reference (via bench/uts_reference/build.sh)
#   CLISAT_GIT   psanse/CliSAT                      binary-only repository: the authors' Linux binary
#   GSS_GIT      ciaranm/glasgow-subgraph-solver    subgraph and clique solvers
#   CXXOPTS_GIT  jarro2783/cxxopts                  the Glasgow solver's FetchContent pin (v3.3.1)
#   NM_GIT       hivert/NumericMonoid               Fromentin & Hivert's src/Cilk++, as its serial elision
#   RGD_GIT      mbrasamoros/RGD-algorithm          Bras-Amoros & Fernandez-Gonzalez's RGD.cpp (serial)
# Environment (optional):
#   PEERS="uts clisat glasgow nm rgd"  which peers to build (default: all five; their *_GIT only when built)
#   MARCH=x86-64-v3                 -march for the Glasgow solver, NumericMonoid and RGD (their own default,
#                                   -march=native, is not portable between machines)
#   NM_GENERA="28 30 36 38 40"      NumericMonoid's genus bound is a compile-time constant: one binary each
#   CHECK=1                         0 skips the answer checks
#   JOBS=1                          parallel compile jobs for the Glasgow solver
# Output (PEERS_DIR must lie outside the repository):
#   PEERS_DIR/uts/{uts-seq,uts-pthread,uts-mpi-ws}      (bench/uts_reference/run.py --ref PEERS_DIR/uts)
#   PEERS_DIR/clisat/CliSAT                             (CliSAT FILE.clq TIMELIMIT_S ORDER)
#   PEERS_DIR/glasgow/{glasgow_subgraph_solver,glasgow_clique_solver}
#                                    (bench/peers/vs_glasgow_sip.py PEERS_DIR/glasgow/glasgow_subgraph_solver ...)
#   PEERS_DIR/nm/nm-treewalk-gG                         (bench/ns/vs_numericmonoid.py PEERS_DIR/nm ...)
#   PEERS_DIR/rgd/rgd                                   (rgd G prints nG=...; vs_numericmonoid.py --rgd)
#   PEERS_DIR/src/... (checked-out sources), PEERS_DIR/build/... (build trees and logs)
# Needs: git, gcc/g++ (C++20 for the Glasgow solver; GCC 12 works), cmake >= 3.21, ninja, libgmp-dev,
# an MPI (libopenmpi-dev, for uts-mpi-ws). Every compile runs under `nice -n 19`. See bench/peers/README.md.
set -euo pipefail

if [ $# -ne 1 ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
DEST=$(realpath -m "$1")
case "$DEST/" in
  "$repo"/*) echo "$0: PEERS_DIR ($DEST) lies inside the repository; build the peers outside it" >&2; exit 2 ;;
esac
mkdir -p "$DEST"

PEERS=${PEERS:-uts clisat glasgow nm rgd}
MARCH=${MARCH:-x86-64-v3}
NM_GENERA=${NM_GENERA:-28 30 36 38 40}
CHECK=${CHECK:-1}
JOBS=${JOBS:-1}
NICE="nice -n 19"

# The versions measured in bench/results/vs-peers.md.
UTS_SHA=e10c4feab33a0f4f3ca394d0f75512185c031ac6      # 2014-07-16 "Seed rng properly for all ranks" (UTS 2.1)
CLISAT_SHA=c33e95292463ff635e9e6f7f5a0504d498ad984e   # 2022-04-17 "binary release of CliSAT": bin/CliSAT
GSS_SHA=1217f5b82ce62c2c2f227002eedb029765da74f3      # "Remove the GAP symmetry-detection interface (#67)"
CXXOPTS_SHA=44380e5a44706ab7347f400698c703eb2a196202  # v3.3.1, the pin in the Glasgow solver's CMakeLists.txt
NM_SHA=8d3a5de41f366c60f684d15139e7ae3574ca0449       # 2024-11-02 "reformat table"
RGD_SHA=3c723821b02783d1918a019d3cc5c5a7bbf1caab   # 2020-02-03 README update; RGD.cpp as uploaded 2019-12-29 (549ce23)

want() { case " $PEERS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
need_git() { local var=$1 name=$2
  if [ -z "${!var:-}" ]; then echo "$0: set $var to a git directory of $name" >&2; exit 2; fi
  git -C "${!var}" rev-parse --git-dir >/dev/null 2>&1 || { echo "$0: $var=${!var} is not a git directory" >&2; exit 2; }; }
# A clone without a checkout, then only the paths needed: mirrors may lack big blobs that no build needs
# (NumericMonoid's logs, CliSAT's later binaries), which would make a full checkout fail.
clone() { local src=$1 dir=$2 sha=$3; shift 3
  [ -d "$dir/.git" ] || { rm -rf "$dir"; git clone -q --no-checkout "$src" "$dir"; }
  if [ $# -eq 0 ]; then git -C "$dir" -c advice.detachedHead=false checkout -q "$sha"
  else git -C "$dir" checkout -q "$sha" -- "$@"; fi; }
FAILS=0
check() {  # check REGEX CMD...: CMD's output (exit status ignored) must match REGEX
  local w=$1; shift; local o t0; t0=$(date +%s%N)
  o=$("$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g') || true
  if grep -qE -- "$w" <<<"$o"; then echo "ok    $(( ($(date +%s%N) - t0) / 1000000 )) ms  $*"
  else echo "FAIL  $*: no /$w/ in its output:"; tail -5 <<<"$o"; FAILS=$((FAILS + 1)); fi; }
mkdir -p "$DEST/src" "$DEST/build"
cd "$DEST"
I=$repo/instances

# ---- 1. UTS 2.1 reference: bench/uts_reference/build.sh (it spells out the compiles, since the reference's
#         Makefile puts -lm before the sources, and checks every binary on T1).
if want uts; then
  need_git UTS_GIT perarnau/uts
  UTS_GIT=$UTS_GIT UTS_COMMIT=$UTS_SHA $NICE "$repo/bench/uts_reference/build.sh" "$DEST/uts"
fi

# ---- 2. CliSAT (San Segundo et al.): the repository holds no source, only the authors' binaries.
#         bin/CliSAT at c33e952 is their Linux x86-64 build of 2022-04-17 (dynamically linked to the system's
#         libstdc++, libm and libc only). Usage: CliSAT FILE.clq TIMELIMIT_S ORDER (1 degree sort, 2 colour sort).
if want clisat; then
  need_git CLISAT_GIT psanse/CliSAT
  mkdir -p clisat
  git -C "$CLISAT_GIT" show "$CLISAT_SHA:bin/CliSAT" > clisat/CliSAT
  git -C "$CLISAT_GIT" show "$CLISAT_SHA:bin/readme.txt" > clisat/readme.txt 2>/dev/null || true
  chmod +x clisat/CliSAT
  echo "CliSAT: $DEST/clisat/CliSAT (psanse/CliSAT $CLISAT_SHA:bin/CliSAT)"
fi

# ---- 3. Glasgow Subgraph Solver. Needs GMP and, through FetchContent, cxxopts and Catch2. Offline, so
#         FETCHCONTENT_SOURCE_DIR_CXXOPTS points at the local clone of the pinned cxxopts, and Catch2 (only
#         the solver's tests use it; a Catch2 v3 package would be found first) is a two-line stand-in
#         target. Build type "Portable" = its Release flags with -march=$MARCH instead of the -march=native
#         that only the Release type adds.
if want glasgow; then
  need_git GSS_GIT ciaranm/glasgow-subgraph-solver
  need_git CXXOPTS_GIT jarro2783/cxxopts
  clone "$GSS_GIT" src/glasgow-subgraph-solver "$GSS_SHA"
  clone "$CXXOPTS_GIT" src/cxxopts "$CXXOPTS_SHA"
  mkdir -p src/catch2-standin
  printf '%s\n' '# stand-in: the Glasgow solver test targets name Catch2::Catch2WithMain; only the solvers are built' \
    'add_library(Catch2WithMain INTERFACE)' 'add_library(Catch2::Catch2WithMain ALIAS Catch2WithMain)' \
    > src/catch2-standin/CMakeLists.txt
  $NICE cmake -S src/glasgow-subgraph-solver -B build/glasgow -G Ninja -DCMAKE_BUILD_TYPE=Portable \
    -DCMAKE_CXX_FLAGS_PORTABLE="-O3 -march=$MARCH" -DFETCHCONTENT_FULLY_DISCONNECTED=ON \
    -DFETCHCONTENT_SOURCE_DIR_CXXOPTS="$DEST/src/cxxopts" \
    -DFETCHCONTENT_SOURCE_DIR_CATCH2="$DEST/src/catch2-standin" >build/glasgow-configure.log 2>&1 \
    || { tail -30 build/glasgow-configure.log; exit 1; }
  $NICE ninja -C build/glasgow -j"$JOBS" glasgow_subgraph_solver glasgow_clique_solver >build/glasgow-build.log 2>&1 \
    || { tail -30 build/glasgow-build.log; exit 1; }
  mkdir -p glasgow
  cp build/glasgow/glasgow_subgraph_solver build/glasgow/glasgow_clique_solver glasgow/
  echo "Glasgow: $DEST/glasgow/glasgow_{subgraph,clique}_solver ($GSS_SHA, cxxopts $CXXOPTS_SHA, -march=$MARCH)"
fi

# ---- 4. NumericMonoid (Fromentin & Hivert), src/Cilk++ ("the last and definitive version"). GCC dropped
#         Cilk Plus in GCC 8, so this is its serial elision: four small headers turn cilk_spawn/cilk_sync into
#         nothing and the reducers into plain values; the kernel is unchanged and runs on one thread. The
#         genus bound is a compile-time constant (-DMAX_GENUS), hence one binary per bound. Flags are the
#         Makefile's (-std=c++11 -O3 -DNDEBUG) with -march=$MARCH for its -march=native.
if want nm; then
  need_git NM_GIT hivert/NumericMonoid
  clone "$NM_GIT" src/NumericMonoid "$NM_SHA" \
    src/Cilk++/treewalk.cpp src/Cilk++/treewalk.hpp src/Cilk++/monoid.cpp src/Cilk++/monoid.hpp
  SH=build/nm-shim/cilk; mkdir -p $SH
  printf '%s\n' '#pragma once' '#define cilk_spawn' '#define cilk_sync' '#define cilk_for for' > $SH/cilk.h
  cat > $SH/reducer.h <<'EOF'
#pragma once
#include <new>
namespace cilk {
template <class T> struct monoid_base {
  typedef T value_type;
  static void identity(T* p) { new (p) T(); }
  static void destroy(T* p) { p->~T(); }
};
template <class Monoid> class reducer {  // serial elision: the one view is the value
  typename Monoid::value_type v_{};
 public:
  typename Monoid::value_type& view() { return v_; }
};
}  // namespace cilk
EOF
  cat > $SH/reducer_list.h <<'EOF'
#pragma once
#include <list>
#include <memory>
namespace cilk {
template <class T, class A = std::allocator<T>> class reducer_list_append {
  std::list<T, A> l_;
 public:
  void push_back(const T& x) { l_.push_back(x); }
  std::list<T, A>& get_value() { return l_; }
};
}  // namespace cilk
EOF
  printf '%s\n' '#pragma once' '#define __CILKRTS_SET_PARAM_SUCCESS 0' \
    'inline int __cilkrts_set_param(const char*, const char*) { return __CILKRTS_SET_PARAM_SUCCESS; }' \
    'inline int __cilkrts_get_nworkers() { return 1; }' > $SH/cilk_api.h
  S=src/NumericMonoid/src/Cilk++
  mkdir -p nm
  for g in $NM_GENERA; do
    # -Wno-cpp hides the authors' '#warning "Loop not unrolled"' (genus < 23: the kernel loops instead).
    $NICE g++ -std=c++11 -O3 -march="$MARCH" -DNDEBUG -DMAX_GENUS="$g" -Wno-cpp -Ibuild/nm-shim -I$S \
      $S/treewalk.cpp $S/monoid.cpp -o nm/nm-treewalk-g"$g"
  done
  echo "NumericMonoid: $DEST/nm/nm-treewalk-g{${NM_GENERA// /,}} ($NM_SHA, -march=$MARCH)"
fi

# ---- 5. RGD (Bras-Amoros & Fernandez-Gonzalez, "The right-generators descendant of a numerical semigroup",
#         Math. Comp. 2020): RGD.cpp, the serial program that first computed n71 and n72. Its README compiles it
#         with `gcc -Wall` and no optimisation; here -O3 -march=$MARCH as for NumericMonoid. It counts the
#         semigroups of exactly the genus given on its command line: `rgd G` prints `nG=COUNT`.
if want rgd; then
  need_git RGD_GIT mbrasamoros/RGD-algorithm
  clone "$RGD_GIT" src/RGD-algorithm "$RGD_SHA" RGD.cpp
  mkdir -p rgd
  $NICE g++ -O3 -march="$MARCH" -DNDEBUG -w src/RGD-algorithm/RGD.cpp -o rgd/rgd
  echo "RGD: $DEST/rgd/rgd ($RGD_SHA, -march=$MARCH)"
fi

[ "$CHECK" = 0 ] && exit 0
# ---- 6. Answer checks on small instances with known answers (instances/*/ANSWERS.tsv, OEIS A007323).
echo "answer checks:"
if want uts; then
  check 'Tree size = 4112897,' uts/uts-seq -t 0 -b 2000 -q 0.124875 -m 8 -r 42   # T3
fi
if want clisat; then
  check 'omega:21' clisat/CliSAT "$I/dimacs/brock200_1.clq" 100 1
  sed 's/^p col /p edge /' "$I/dimacs/C125.9.clq" > build/C125.9.pedge.clq   # CliSAT reads only "p edge"
  check 'omega:34' clisat/CliSAT build/C125.9.pedge.clq 100 1
fi
if want glasgow; then
  G=glasgow/glasgow_subgraph_solver S=$I/sip/glasgow
  check 'omega = 21' glasgow/glasgow_clique_solver "$I/dimacs/brock200_1.clq"
  check 'solution_count = 6' $G --count-solutions --format lad "$S/small" "$S/large"
  check 'solution_count = 0' $G --count-solutions --induced --format lad "$S/small" "$S/large"
  check 'solution_count = 12' $G --count-solutions "$S/trident.csv" "$S/longtrident.csv"
  check 'solution_count = 6' $G --count-solutions --induced "$S/c3.csv" "$S/c3c2.csv"
  d=$I/sip/si2_rand_r001_200/si2_r001_m200.00
  check 'status = true' $G --format lad "$d/pattern" "$d/target"
  check 'status = true' $G --induced --format lad "$d/pattern" "$d/target"
fi
if want nm; then
  # NumericMonoid prints the counts of genus 1..G; the last is n(G): n(28) = 2,091,030, n(30) = 5,646,773.
  for g in $NM_GENERA; do
    case $g in
      28) check '(^| )2091030 *$' nm/nm-treewalk-g28 ;;
      30) check '(^| )5646773 *$' nm/nm-treewalk-g30 ;;
    esac
  done
fi
if want rgd; then
  check '^n30=5646773$' rgd/rgd 30   # OEIS A007323
  check '^n35=66687201$' rgd/rgd 35
fi
echo "answer checks: $FAILS failed"
exit "$FAILS"
