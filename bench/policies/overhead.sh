#!/usr/bin/env bash
# The policy overhead check of the dissertation (docs/policies.md): 1 rank x 1 worker, ns -g GENUS with the budget
# skeleton, --policy random vs --policy performance, alternated R P R P ... REPS times; the seq
# skeleton runs beside them as the floor. Prints every run and the median / min / max per variant,
# and the performance-vs-random difference of the medians. Time = the search time ns prints.
#   bench/policies/overhead.sh [BUILD_DIR] [GENUS] [REPS]
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"; genus="${2:-37}"; reps="${3:-10}"
ns="$build/apps/ns/ns"
[[ -x $ns ]] || { echo "overhead.sh: $ns not built" >&2; exit 2; }
mpi=(mpirun --allow-run-as-root -n 1)

t() { grep -m1 '^time:' | awk '{print $2}'; }
declare -A runs
for i in $(seq 1 "$reps"); do
  for v in random performance seq; do
    if [[ $v == seq ]]; then
      s=$("${mpi[@]}" "$ns" -g "$genus" --skeleton seq | t)
    else
      s=$("${mpi[@]}" "$ns" -g "$genus" --skeleton budget -b 1000000 --threads 1 --policy "$v" | t)
    fi
    echo "run $i $v $s"
    runs[$v]+="$s "
  done
done
stats() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR]=$1} END {m=(NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.4f %.4f %.4f\n", m, v[1], v[NR]}'; }
echo
echo "| variant | runs | median s | min s | max s | spread % (max-min)/min |"
echo "|---|---|---|---|---|---|"
declare -A med
for v in random performance seq; do
  read -r m lo hi < <(echo "${runs[$v]}" | stats)
  med[$v]=$m
  echo "| $v | $reps | $m | $lo | $hi | $(awk -v a="$hi" -v b="$lo" 'BEGIN{printf "%.1f", (a-b)/b*100}') |"
done
echo
awk -v r="${med[random]}" -v p="${med[performance]}" \
  'BEGIN{printf "performance vs random, medians: %+.2f %% (speedup (4.1): (T_random - T_performance) / T_performance)\n", (r-p)/p*100}'
