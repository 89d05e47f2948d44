#!/bin/bash
# What --trace costs: the same search without (A) and with (B) --trace, alternated A B A B, PAIRS
# pairs; prints each pair's search times ("time:" of the app) and the median B/A ratio.
#   bench/trace_overhead.sh                      # NS genus 35, budget, 2 workers, 5 pairs
#   PAIRS=11 bench/trace_overhead.sh build/apps/ns/ns -g 36 --skeleton budget -b 100000 --threads 2
set -euo pipefail
PAIRS=${PAIRS:-5}
TRACE=${TRACE:-$(mktemp --suffix=.jdtrace)}
if [ $# -eq 0 ]; then set -- build/apps/ns/ns -g 35 --skeleton budget -b 100000 --threads 2; fi
searchTime() { "$@" | awk '/^time:/ {print $2}'; }
for i in $(seq "$PAIRS"); do
  a=$(searchTime "$@")
  b=$(searchTime "$@" --trace "$TRACE")
  echo "$i $a $b"
done | python3 -c '
import statistics, sys
rows = [l.split() for l in sys.stdin if l.strip()]
print("pair  without_s  with_s  ratio")
ratios = []
for i, a, b in rows:
    r = float(b) / float(a)
    ratios.append(r)
    print(f"{i:>4}  {float(a):9.4f}  {float(b):6.4f}  {r:.4f}")
print(f"median ratio (with / without): {statistics.median(ratios):.4f}")
print(f"median without: {statistics.median(float(r[1]) for r in rows):.4f} s, with: {statistics.median(float(r[2]) for r in rows):.4f} s")
'
