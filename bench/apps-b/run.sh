#!/usr/bin/env bash
# End-to-end benchmark of the tsp and sip apps (sequential skeleton); writes bench/results/apps-b.md.
#   bench/apps-b/run.sh [BUILD_DIR]     (default: build-appsb next to this repo's top level)
#   FULL=1 LIMIT=300 bench/apps-b/run.sh   adds the larger st70
# Each run has a time limit (LIMIT seconds, default 120); a run that hits it is recorded as such.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-appsb}
limit=${LIMIT:-120}
out=$root/bench/results/apps-b.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tsp=$build/apps/tsp/tsp
sip=$build/apps/sip/sip
[[ -x $tsp && -x $sip ]] || { echo "build tsp and sip first: ninja -C $build tsp sip" >&2; exit 2; }

rows=()
# run LABEL CMD... : one timed run; the row holds the app's first output line, nodes and seconds.
run() {
  local label=$1; shift
  local t0 t1 first status
  t0=$(date +%s.%N)
  if timeout "$limit" "$@" --skeleton seq --stats "$tmp/s.json" >"$tmp/out" 2>"$tmp/err"; then status=ok; else status="exit $? (124: time limit)"; fi
  first=$(grep -m1 -E 'length|solutions|SAT|UNKNOWN' "$tmp/out" || true)
  t1=$(date +%s.%N)
  if [[ -s $tmp/s.json ]]; then
    read -r nodes secs < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["stats"]["nodes"], "%.3f" % d["seconds"])' "$tmp/s.json")
  else
    nodes="-"; secs="-"
  fi
  rm -f "$tmp/s.json"
  rows+=("| $label | \`${*#$root/}\` | $first | $nodes | $secs | $(printf '%.2f' "$(echo "$t1 - $t0" | bc)") | $status |")
}

I=$root/instances
for f in dantzig42 swiss42 eil51 berlin52; do run "tsp $f" "$tsp" "$I/tsp/$f.tsp"; done
# FULL=1 adds st70 (about 90 s sequential on the loaded dev machine; needs LIMIT >= 120).
if [[ ${FULL:-0} == 1 ]]; then run "tsp st70" "$tsp" "$I/tsp/st70.tsp"; fi
for f in dantzig42 swiss42 eil51; do run "tsp $f (no greedy bound)" "$tsp" --no-initial-bound "$I/tsp/$f.tsp"; done
run "sip small/large count" "$sip" --count "$I/sip/glasgow/small" "$I/sip/glasgow/large"
run "sip c3/c3c2 induced count" "$sip" --count --induced "$I/sip/glasgow/c3.csv" "$I/sip/glasgow/c3c2.csv"
for i in 0 1 2 3 4 5 6 7 8 9; do
  d=$I/sip/si2_rand_r001_200/si2_r001_m200.0$i
  run "sip si2 m200.0$i" "$sip" "$d/pattern" "$d/target"
  run "sip si2 m200.0$i induced" "$sip" --induced "$d/pattern" "$d/target"
done

{
  echo "# apps-b benchmark: tsp and sip (seq skeleton)"
  echo
  echo "- command: \`bench/apps-b/run.sh $build\` (LIMIT=$limit s per run)"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "- load at start: $(cut -d' ' -f1-3 /proc/loadavg) -- ${NOTE:-machine loaded by other engineers: times are noisy}"
  echo "- nodes = SearchStats.nodes (every node the skeleton visited); search s = the skeleton's own time;"
  echo "  wall s = the whole process (reading, greedy tour, Held-Karp penalties, search)."
  echo
  echo "| run | command | answer | nodes | search s | wall s | status |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} > "$out"
echo "wrote $out"
