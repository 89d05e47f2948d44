#!/usr/bin/env bash
# Model code throws at a node every search reaches: in the generator, the bound, the objective or
# the enumerator, under every parallel skeleton, on 1 rank x 2 workers and on 2 and 4 ranks x 1-2
# workers. Each run must end within 10 s (a hang fails), with exit 1 and the message naming the
# rank exactly once. Control runs without the throw give the closed-form answers.
#   check_throws.sh THROWING_APP
set -uo pipefail
app="$1"
# A run past its limit prints every process's stacks before it is killed (run_with_stacks.sh).
limit="$(dirname "$0")/run_with_stacks.sh"
mpi=(mpirun --oversubscribe --allow-run-as-root)
sites=(generator bound objective enumerator)
kinds=(count optimise decide)
fails=0; runs=0; i=0
# On a timeout the whole output (the stacks) is shown; otherwise its last lines.
fail() { if grep -q "run_with_stacks:" <<<"$2"; then echo "$2"; else echo "$2" | tail -8; fi; echo "FAIL: $1"; fails=$((fails + 1)); }

# THROW_LAYOUTS (ranks x workers, comma-separated) is shorter in the sanitizer builds.
IFS=, read -r -a layouts <<<"${THROW_LAYOUTS:-1 2,2 1,2 2,4 1,4 2}"
for layout in "${layouts[@]}"; do
  read -r ranks workers <<<"$layout"
  for sk in depth_bounded budget stack_stealing ordered; do
    site=${sites[$((i % 4))]}
    # The objective and the bound are only called by optimisation / decision searches.
    case $site in
      objective|bound) kind=${kinds[$((1 + i % 2))]} ;;
      enumerator) kind=count ;;
      *) kind=${kinds[$((i % 3))]} ;;
    esac
    i=$((i + 1))
    cmd=("$app" --skeleton "$sk" --threads "$workers" -d 3 -b 50 --throw-in "$site" --kind "$kind")
    [ "$ranks" -gt 1 ] && cmd=("${mpi[@]}" -n "$ranks" "${cmd[@]}")
    runs=$((runs + 1))
    start=$(date +%s%N)
    out=$("$limit" 10 "${cmd[@]}" 2>&1); rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    what="$ranks rank(s) x $workers worker(s), $sk, throw in $site, $kind"
    if [ $rc -eq 124 ]; then fail "$what: no exit within 10 s (hang)" "$out"; continue; fi
    if [ $rc -ne 1 ]; then fail "$what: exit $rc, expected 1" "$out"; continue; fi
    n=$(grep -cE "throwing_app: error: rank [0-9]+: the model threw during the search: trap node reached in the $site" <<<"$out")
    [ "$n" -eq 1 ] || { fail "$what: the message appears $n times, expected once" "$out"; continue; }
    echo "ok   $what: exit 1 in ${ms} ms, $(grep -oE 'rank [0-9]+: the model threw' <<<"$out")"
  done
done

# Controls: the same layouts without the throw give the known answers (a complete binary tree of
# depth D: 2^(D+1) - 1 nodes, optimum D). CONTROL_DEPTH (default 20) is smaller in the sanitizer
# builds, where every node costs ten times as much.
D="${CONTROL_DEPTH:-20}"
for layout in "1 2" "2 2" "4 1"; do
  read -r ranks workers <<<"$layout"
  for kind in count optimise decide; do
    cmd=("$app" --skeleton budget --threads "$workers" -b 50 -D "$D" --throw-in none --kind "$kind")
    [ "$ranks" -gt 1 ] && cmd=("${mpi[@]}" -n "$ranks" "${cmd[@]}")
    runs=$((runs + 1))
    out=$("$limit" 60 "${cmd[@]}" 2>&1); rc=$?
    case $kind in count) want="nodes: $(( (1 << (D + 1)) - 1 ))" ;; optimise) want="optimum: $D" ;; decide) want="found: yes" ;; esac
    if [ $rc -ne 0 ] || ! grep -qx "$want" <<<"$out"; then fail "control $ranks x $workers $kind: exit $rc" "$out"; continue; fi
    echo "ok   control $ranks rank(s) x $workers worker(s) $kind: $want"
  done
done
echo "$((runs - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
