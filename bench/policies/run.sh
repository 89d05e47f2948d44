#!/usr/bin/env bash
# The policy comparison at this machine's scale (the dissertation's method, docs/policies.md): 4 ranks x 1 worker,
# MaxClique depth_bounded -d 2 and NS budget, policies alternating run by run, isolated and
# contended (slow ranks; simultaneous runs). Writes bench/results/policies.md and its plots.
#   bench/policies/run.sh [BUILD_DIR]      env: REPS (default 10), RANKS (default 4),
#                                            POLICIES (default random,performance,proportional),
#                                            MC_GRAPH (brock400_4), NS_GENUS (40);
#                                            FROM=results/policies-<stamp>: no runs, re-report those
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"
reps="${REPS:-10}"; ranks="${RANKS:-4}"; policies="${POLICIES:-random,performance,proportional}"
graph="${MC_GRAPH:-brock400_4}"; genus="${NS_GENUS:-40}"
out="${FROM:-results/policies-$(date -u +%Y%m%dT%H%M%SZ)}"
py=/usr/bin/python3
mkdir -p "$out"
# Which code the runs measured, kept beside them so a re-report (FROM=) still says it.
[[ -n ${FROM:-} ]] || echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/results' || echo ' plus uncommitted changes')" > "$out/binary.txt"

run() {  # name, reps, app args...
  local name="$1" n="$2"; shift 2
  [[ -n ${FROM:-} ]] || $py slurm/campaign.py run --out "$out/$name" --ranks "$ranks" --threads 1 --reps "$n" \
    --policies "$policies" --modes isolated,slow,simultaneous --launcher mpirun -- "$@"
  $py slurm/campaign.py report "$out/$name" >/dev/null
}
run maxclique "${MC_REPS:-$reps}" "$build/apps/maxclique/maxclique" "instances/dimacs/$graph.clq" --skeleton depth_bounded -d 2
run ns "${NS_REPS:-$reps}" "$build/apps/ns/ns" -g "$genus" --skeleton budget -b 1000000

dest=bench/results/policies
mkdir -p "$dest"
# The hand-written reading of a run sits between analysis markers; a new run keeps it (to re-check).
analysis="$(sed -n '/^<!-- analysis:begin/,/^<!-- analysis:end -->/p' bench/results/policies.md 2>/dev/null || true)"
{
  echo "# Victim policies compared: random vs performance vs proportional"
  echo
  echo "- command: \`bench/policies/run.sh $build\`${FROM:+ (tables re-made from $FROM)} (REPS=$reps MC_REPS=${MC_REPS:-$reps} NS_REPS=${NS_REPS:-$reps} RANKS=$ranks POLICIES=$policies MC_GRAPH=$graph NS_GENUS=$genus)"
  echo "- machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; Open MPI $(mpirun --version | head -1 | awk '{print $NF}')"
  echo "- date: $(date -u -r "$out/ns/runs.tsv" '+%Y-%m-%d %H:%M UTC') (last run ended)"
  echo "- layout: $ranks ranks x 1 worker on $(nproc) cores (oversubscribed), policies alternating run by run;"
  echo "  slow = --slow-ranks 1 --slowdown 3; simultaneous = one run per policy started together"
  [[ ! -f $out/binary.txt ]] || echo "- binary: $(cat "$out/binary.txt"); policy order rotated per repetition"
  [[ -z $analysis ]] || printf '%s\n' "$analysis"
  echo
  for name in maxclique ns; do
    echo "## $name"
    echo
    sed -n 1p "$out/$name/runs.tsv" >/dev/null
    echo "App command (per run, plus --policy/--threads/--seed/--stats): \`$(sed -n 2p "$out/$name/runs.tsv" | cut -f10 | sed 's/ --policy.*//')\`"
    echo
    cat "$out/$name/table.md"
    echo
    cp "$out/$name/plots/runtime_spread.png" "$dest/${name}_runtime_spread.png"
    cp "$out/$name/plots/per_rank.png" "$dest/${name}_per_rank.png"
    cp "$out/$name/plots/runtime_vs_ranks.png" "$dest/${name}_runtime_vs_ranks.png"
    cp "$out/$name/plots/speedup.png" "$dest/${name}_speedup.png"
    cp "$out/$name/report.html" "$dest/${name}_report.html"
    echo "One page with these tables and every plot, viewable offline: [policies/${name}_report.html](policies/${name}_report.html)"
    echo
    echo "![$name: paired speedup over random with 95 % intervals](policies/${name}_speedup.png)"
    echo "![$name: run time spread](policies/${name}_runtime_spread.png)"
    echo "![$name: per-rank idle time and steals](policies/${name}_per_rank.png)"
    echo
  done
} > bench/results/policies.md
echo "wrote bench/results/policies.md (raw runs in $out)"
