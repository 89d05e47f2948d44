#!/usr/bin/env bash
# Sequential NS throughput per SIMD variant: counts semigroups of genus <= G with `ns`, alternating
# the variants run by run, and writes the median nodes/s per variant to a markdown table.
# A node is one semigroup of genus <= G (the tree's nodes, root N included), as Fromentin-Hivert count.
#
#   bench/ns/run_seq.sh                       # genus 35 and 40, 3 runs each, every variant the CPU has
#   GENERA="35" REPS=5 VARIANTS="avx2 sse2" bench/ns/run_seq.sh
#   NS=/path/to/ns OUT=ns-seq.md APPEND=1 bench/ns/run_seq.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
NS=${NS:-$root/build/apps/ns/ns}
GENERA=${GENERA:-"35 40"}
REPS=${REPS:-3}
OUT=${OUT:-$root/bench/results/ns-seq.md}
NOTE=${NOTE:-}
[[ -x "$NS" ]] || { echo "run_seq.sh: no ns binary at '$NS' (build it: ninja -C build ns, or set NS=)" >&2; exit 2; }

if [[ -z "${VARIANTS:-}" ]]; then
  VARIANTS=""
  for v in avx512 avx2 sse2 scalar; do "$NS" -g 1 --simd "$v" --skeleton seq >/dev/null 2>&1 && VARIANTS="$VARIANTS $v"; done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

{
  if [[ "${APPEND:-0}" != 1 ]]; then
    echo "# NS sequential throughput (seq skeleton)"
    echo
    echo "- command: \`GENERA=\"$GENERA\" REPS=$REPS VARIANTS=\"${VARIANTS# }\" bench/ns/run_seq.sh\` (NS=$NS)"
    echo "- machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), nproc $(nproc), $(uname -r)"
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    [[ -n "$NOTE" ]] && echo "- note: $NOTE"
    echo "- wall = search seconds from --stats; CPU = user seconds of the whole process (startup included)"
    echo "- node = one semigroup of genus <= G (root N included); nodes/s = nodes / search seconds (from --stats)"
    echo "- anchors: Fromentin-Hivert genus <= 40 in 14 s on one 3.4 GHz core (~143 M nodes/s); YewPar ~30 M nodes/s"
    echo
  fi
  for g in $GENERA; do
    for ((r = 1; r <= REPS; r++)); do
      for v in $VARIANTS; do  # alternate the variants so load changes hit them alike
        # CPU seconds next to wall seconds: on a shared machine the former is the steadier figure.
        TIMEFORMAT=%U; { time "$NS" -g "$g" --simd "$v" --skeleton seq --stats "$tmp/s.json" >/dev/null; } 2>"$tmp/cpu"
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["stats"]["nodes"], d["seconds"], open(sys.argv[2]).read().strip())' \
          "$tmp/s.json" "$tmp/cpu" >>"$tmp/$g.$v"
      done
    done
    echo "## genus <= $g ($REPS runs per variant, median)"
    echo
    echo "| variant | nodes | median wall s | median M nodes/s (wall) | median user-CPU s | M nodes/s (CPU) | runs wall s |"
    echo "|---|---|---|---|---|---|---|"
    for v in $VARIANTS; do
      nodes=$(head -1 "$tmp/$g.$v" | cut -d' ' -f1)
      med=$(cut -d' ' -f2 "$tmp/$g.$v" | median)
      cpu=$(cut -d' ' -f3 "$tmp/$g.$v" | median)
      runs=$(cut -d' ' -f2 "$tmp/$g.$v" | awk '{printf "%s%.2f", (NR>1?" ":""), $1}')
      rate() { awk -v n="$nodes" -v s="$1" 'BEGIN{printf "%.1f", n/s/1e6}'; }
      echo "| $v | $nodes | $(printf %.3f "$med") | $(rate "$med") | $(printf %.3f "$cpu") | $(rate "$cpu") | $runs |"
    done
    echo
  done
} > "$tmp/out.md"
if [[ "${APPEND:-0}" == 1 ]]; then cat "$tmp/out.md" >>"$OUT"; else cp "$tmp/out.md" "$OUT"; fi
cat "$tmp/out.md"
