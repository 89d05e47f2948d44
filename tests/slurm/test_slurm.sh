#!/usr/bin/env bash
# End-to-end test on a real (private, one-host) Slurm: brings up munged/slurmctld/slurmd, submits
# the single-search script, a small policy campaign, a job that hits its time-limit signal and a
# job that checkpoints at it and is requeued until it ends; checks answers and outputs, and stops
# every daemon it started (also on failure).
#   test_slurm.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
src=$(cd "$1" && pwd); build=$(cd "$2" && pwd); work="$3"
rm -rf "$work"; mkdir -p "$work"; work=$(cd "$work" && pwd)
cluster="$src/tests/slurm/cluster.sh"
trap '"$cluster" stop "$work/cluster"' EXIT
"$cluster" start "$work/cluster" 4 >/dev/null
export SLURM_CONF="$work/cluster/slurm.conf"
export JACKDAW_HOME="$src" JACKDAW_BUILD="$build" RESULTS="$work/results"

fail() { echo "FAIL: $*" >&2; exit 1; }
# Submit a batch script; print the job id.
submit() { sbatch --parsable --chdir="$work" "$@"; }
# Wait for a job to end (polling scontrol, as sbatch --wait polls slowly); print "STATE EXITCODE".
wait_job() {
  local id="$1" polls="${2:-600}" line state
  for _ in $(seq "$polls"); do
    line=$(scontrol -o show job "$id" 2>/dev/null || true)
    state=$(grep -o 'JobState=[A-Z_]*' <<<"$line" | cut -d= -f2)
    case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|PREEMPTED)
      echo "$state $(grep -o 'ExitCode=[0-9:]*' <<<"$line" | cut -d= -f2)"; return 0 ;; esac
    sleep 0.5
  done
  echo "STUCK ?"
}
results_of() { echo "$RESULTS/$2-$1"; }

# 1. One search: 2 ranks x 1 worker, maxclique brock200_2 (omega = 12).
id=$(APP=maxclique ARGS="instances/dimacs/brock200_2.clq --skeleton depth_bounded -d 1" \
     submit --job-name=search --ntasks-per-node=2 --cpus-per-task=1 "$src/slurm/jackdaw-search.sbatch")
read -r state code < <(wait_job "$id")
out=$(results_of "$id" search)
[ "$state" = COMPLETED ] || { cat "$work"/jackdaw-search-"$id".log >&2 || true; fail "search job $id: $state $code"; }
grep -q "omega = 12" "$out/stdout" || fail "search job: wrong or missing answer: $(cat "$out/stdout")"
[ -s "$out/stats.json" ] && [ -s "$out/command" ] || fail "search job: stats.json or command missing in $out"
grep -q '"ranks": 2' "$out/stats.json" || fail "search job did not run on 2 ranks"
echo "ok: search job $id (2 ranks, omega = 12, results in $out)"

# 2. A bad input ends the job with a clear message in the job log and a failed state.
id=$(APP=maxclique ARGS="instances/dimacs/no-such-graph.clq" \
     submit --job-name=bad --ntasks-per-node=2 --cpus-per-task=1 "$src/slurm/jackdaw-search.sbatch")
read -r state code < <(wait_job "$id")
[ "$state" = FAILED ] || fail "bad-input job $id ended $state $code"
grep -q "no-such-graph.clq" "$work/jackdaw-bad-$id.log" || fail "bad-input job log lacks the message"
echo "ok: bad-input job $id failed with exit $code and the message in its log"

# 3. A small campaign: ns genus 18, 1 and 2 ranks, both policies, 2 repetitions, all modes.
id=$(APP=ns ARGS="-g 18 --skeleton budget -b 200" RANKS=1,2 REPS=2 MODES=isolated,slow,simultaneous \
     submit --job-name=campaign --ntasks-per-node=2 --cpus-per-task=1 "$src/slurm/jackdaw-campaign.sbatch")
read -r state code < <(wait_job "$id")
out=$(results_of "$id" campaign)
[ "$state" = COMPLETED ] || { cat "$work/jackdaw-campaign-$id.log" >&2 || true; fail "campaign job $id: $state $code"; }
for f in table.md table.csv plots/runtime_vs_ranks.png plots/runtime_spread.png plots/per_rank.png; do
  [ -s "$out/$f" ] || fail "campaign: $f missing"
done
grep -q "| simultaneous | 2 | performance |" "$out/table.md" || fail "campaign table lacks a row: $(cat "$out/table.md")"
grep -q "0 failed" "$out/table.md" || fail "campaign had failed runs: $(cat "$out/table.md")"
for s in $(ls "$out"/runs/*/stdout); do grep -q "^18: 13467" "$s" || fail "campaign run $s: wrong count"; done
echo "ok: campaign job $id (table and plots in $out)"

# 4. Graceful end: a search far too long for its 1-minute limit gets USR1 50 s before the end,
#    stops on every rank and reports what it has, marked partial (exit 3).
id=$(APP=ns ARGS="-g 60 --skeleton budget" \
     submit --job-name=graceful --time=1 --signal=B:USR1@50 --ntasks-per-node=2 --cpus-per-task=1 \
     "$src/slurm/jackdaw-search.sbatch")
read -r state code < <(wait_job "$id")
out=$(results_of "$id" graceful)
[ "$state" = FAILED ] && [ "${code%%:*}" = 3 ] || { cat "$work/jackdaw-graceful-$id.log" >&2 || true; fail "graceful job $id: $state $code (want FAILED 3)"; }
grep -qi "partial" "$out/stdout" || fail "graceful job: stdout not marked partial: $(cat "$out/stdout")"
grep -q "^status: interrupted$" "$out/stdout" || fail "graceful job: the summary does not say interrupted: $(cat "$out/stdout")"
grep -q '"complete": false' "$out/stats.json" || fail "graceful job: stats not marked incomplete"
echo "ok: graceful job $id stopped at its signal, partial result written"

# 5. Longer than its time limit: an ns search sized from this machine's speed to take more than
#    a minute for 2 one-worker ranks, under a 1-minute limit with USR1 30 s before it. At each
#    signal the search checkpoints and the script requeues the job; the next leg resumes; the last
#    leg prints the whole answer. A fixed genus was not enough: -g 44 took about 55 s on the 2-core
#    Intel Xeon development machine but 29 s on a Zen 5 CI machine, which ended before its signal.
#    The size: one worker's rate on genus 38 (about 2 s), then the least genus in 44..47 whose
#    node count (the cumulative column of instances/ns/genus_counts.tsv, Fromentin & Hivert's
#    table) needs 45 s of 2 workers at that rate; 2 ranks in the job run 1.5-2x slower than that.
rate=$("$build/apps/ns/ns" -g 38 --skeleton seq --threads 1 | awk '$1 == "rate:" {print $2}')
[ -n "$rate" ] || fail "could not measure ns's rate on genus 38"
genus_max=$(awk -F'\t' -v r="$rate" '$1 ~ /^[0-9]+$/ && $1 >= 44 && $1 <= 47 && !g && $3 >= 2 * r * 45 {g = $1} END {print g ? g : 47}' \
            "$src/instances/ns/genus_counts.tsv")
echo "ns: one worker at $rate nodes/s on genus 38; the requeued job searches genus $genus_max"
ck="$work/ck-long"
id=$(CHECKPOINT="$ck" APP=ns ARGS="-g $genus_max --skeleton budget" \
     submit --job-name=long --time=1 --signal=B:USR1@30 --ntasks-per-node=2 --cpus-per-task=1 \
     "$src/slurm/jackdaw-search.sbatch")
# Slurm keeps a requeued job pending for about two minutes (its eligible time is set ahead). Once
# the node is idle again (the last leg's processes are gone) and the job has waited 10 s, this
# test releases it (scontrol update StartTime=now), as an impatient user may, so a leg costs well
# under a minute here. Releasing at once races Slurm's clean-up of the last leg.
( waited=0
  for _ in $(seq 1200); do
    line=$(scontrol -o show job "$id" 2>/dev/null || true)
    grep -qE "JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT)" <<<"$line" && exit 0
    if grep -q "JobState=PENDING" <<<"$line" && grep -q "Reason=BeginTime" <<<"$line"; then
      waited=$((waited + 1))
      [ "$waited" -ge 10 ] && [ "$(sinfo -h -o %T)" = idle ] && scontrol update JobId="$id" StartTime=now 2>/dev/null && waited=0
    fi
    sleep 1
  done ) &
releaser=$!
read -r state code < <(wait_job "$id" 2400)
kill "$releaser" 2>/dev/null || true
out=$(results_of "$id" long)
log="$work/jackdaw-long-$id.log"
[ "$state" = COMPLETED ] || { cat "$log" >&2 || true; fail "requeued job $id: $state $code"; }
legs=$(ls -d "$out"/leg-* 2>/dev/null | wc -l)
[ "$legs" -ge 2 ] || { cat "$log" >&2; fail "requeued job $id ran $legs leg(s); the time limit never cut it"; }
for ((l = 0; l < legs - 1; l++)); do
  grep -q "^CHECKPOINT:" "$out/leg-$l/stdout" || fail "leg $l of job $id ended without a checkpoint: $(cat "$out/leg-$l/stdout")"
  grep -q '"complete": false' "$out/leg-$l/stats.json" || fail "leg $l of job $id is not marked partial"
done
genus=$(awk -F'\t' -v m="$genus_max" '$1 ~ /^[0-9]+$/ && $1 <= m {print $1 ": " $2}' "$src/instances/ns/genus_counts.tsv")
[ "$(grep -c . <<<"$genus")" = $((genus_max + 1)) ] || fail "instances/ns/genus_counts.tsv lacks genus 0..$genus_max"
while read -r line; do
  grep -qx "$line" "$out/stdout" || fail "requeued job $id: '$line' missing or wrong: $(cat "$out/stdout" 2>&1)"
done <<<"$genus"
grep -q "^status: complete$" "$out/stdout" || fail "requeued job $id: the final leg's summary does not say complete"
grep -q "requeueing job $id" "$log" || fail "requeued job $id: the log does not show the requeue"
echo "ok: job $id cut by its time limit, requeued and resumed over $legs legs; full answer in $out/stdout"
echo "slurm: all checks passed"
