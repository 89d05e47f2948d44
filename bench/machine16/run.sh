#!/usr/bin/env bash
# The 16-core measurements of issues 38 and 40, in one pass, for a machine lent for a few minutes:
# a release build packed by pack.sh (beside this file) is unpacked and run; every run's output
# goes to OUT/logs/NAME.txt, one line per run to OUT/runs.tsv (name, seconds by the clock,
# exit status), and --stats JSON to OUT/stats/. Blocks run in order of importance and a block is
# skipped when its estimated cost no longer fits the deadline, so a cut-short pass still returns
# whole blocks.
#
#   bench/machine16/run.sh PACK.tar.gz OUT [DEADLINE_S]
#
# Needs only bash, coreutils, tar, gzip, awk and the machine's own mpirun (Open MPI 4.1); no python.
set -u
pack=$(realpath "$1"); final=$(realpath -m "$2"); deadline=${3:-520}
blocks=",${BLOCKS:-t3l,queue,scaling,large,mc},"
start=$(date +%s)
out=$(mktemp -d /tmp/jd16out.XXXXXX)
mkdir -p "$out/logs" "$out/stats" "$final"
save() { tar -czf "$final/results.tar.gz.part" -C "$out" . && mv "$final/results.tar.gz.part" "$final/results.tar.gz"; }
want() { [[ $blocks == *",$1,"* ]]; }
d=$(mktemp -d /tmp/jd16.XXXXXX)
tar -xzf "$pack" -C "$d" || { echo "cannot unpack $pack" >&2; exit 2; }
export LD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
uts=$d/bin/uts ns=$d/bin/ns mc=$d/bin/maxclique ref=$d/ref

{ date -u; uname -a; nproc; lscpu; free -g; mpirun --version | head -1; uptime; } >"$out/machine.txt" 2>&1

left() { echo $((deadline - ($(date +%s) - start))); }
# fits EST: whether a block of EST seconds still fits before the deadline.
fits() {
  if [ "$(left)" -ge "$1" ]; then return 0; fi
  echo "skipped $2 (needs about $1 s, $(left) s left)" | tee -a "$out/skipped.txt"
  return 1
}
# run NAME TIMEOUT CMD...: one run, its output kept, its clock time and status in runs.tsv.
run() {
  local name=$1 lim=$2; shift 2
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout --kill-after=5 "$lim" "$@" >"$out/logs/$name.txt" 2>&1; rc=$?
  t1=$(date +%s.%N)
  awk -v n="$name" -v a="$t0" -v b="$t1" -v rc="$rc" 'BEGIN {printf "%s\t%.3f\t%s\n", n, b - a, rc}' >>"$out/runs.tsv"
}
# ranks R W: mpirun giving each of R ranks W cores.
ranks() { echo "mpirun -n $1 --map-by slot:PE=$2 --bind-to core"; }

declare -A REF=(
  [T3L]="-t 0 -b 2000 -q 0.200014 -m 5 -r 7"
  [T1L]="-t 1 -a 3 -d 13 -b 4 -r 29"
  [T1XL]="-t 1 -a 3 -d 15 -b 4 -r 29"
  [T3XXL]="-t 0 -b 2000 -q 0.499995 -m 2 -r 316"
)

# A tree side by side at 16: Jackdaw 1 x 16 and 16 x 1 (defaults), uts-pthread -T 16,
# uts-mpi-ws on 16 ranks; alternated, REPS rounds.
side_by_side() {
  local tree=$1 reps=$2 lim=$3 r
  for ((r = 1; r <= reps; r++)); do
    run "$tree.jd.1x16.r$r" "$lim" "$uts" --tree "$tree" --threads 16 --stats "$out/stats/$tree.jd.1x16.r$r.json"
    # shellcheck disable=SC2086
    run "$tree.ref.pthread16.r$r" "$lim" "$ref/uts-pthread" ${REF[$tree]} -T 16
    # shellcheck disable=SC2086
    run "$tree.jd.16x1.r$r" "$lim" $(ranks 16 1) "$uts" --tree "$tree" --threads 1 --stats "$out/stats/$tree.jd.16x1.r$r.json"
    # shellcheck disable=SC2086
    run "$tree.ref.mpiws16.r$r" "$lim" $(ranks 16 1) "$ref/uts-mpi-ws" ${REF[$tree]}
  done
}
# The scaling table of one search (CMD... without --threads): seq, 2/4/8/16 workers, then
# ranks x workers 1x16 (already in the workers row), 2x8, 4x4, 8x2, 16x1.
scaling() {
  local name=$1 lim=$2; shift 2
  run "$name.seq" "$lim" "$@" --skeleton seq --threads 1
  for w in 2 4 8 16; do run "$name.1x$w" "$lim" "$@" --threads "$w" --stats "$out/stats/$name.1x$w.json"; done
  for rw in 2x8 4x4 8x2 16x1; do
    # shellcheck disable=SC2046
    run "$name.$rw" "$lim" $(ranks "${rw%x*}" "${rw#*x}") "$@" --threads "${rw#*x}" --stats "$out/stats/$name.$rw.json"
  done
}

save
# 1. Issue 38: T3L at 16 workers and 16 ranks against the reference (must show >= 14x and faster).
want t3l && { run T3L.seq 60 "$uts" --tree T3L --skeleton seq --threads 1; side_by_side T3L 3 60; save; }
# 2. The queue micro-benchmark at 1, 2 and 16 threads.
want queue && fits 40 "queue bench" && run queue_bench 90 "$d/bin/queue_bench" --benchmark_min_time=0.2 \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true && save
# 3. The scaling tables (issue 38's first table).
want scaling && fits 25 "T3L scaling" && { for w in 2 4 8; do run "T3L.1x$w" 60 "$uts" --tree T3L --threads "$w" --stats "$out/stats/T3L.1x$w.json"; done
  for rw in 2x8 4x4 8x2; do
    # shellcheck disable=SC2046
    run "T3L.$rw" 60 $(ranks "${rw%x*}" "${rw#*x}") "$uts" --tree T3L --threads "${rw#*x}" --stats "$out/stats/T3L.$rw.json"
  done; save; }
want scaling && fits 40 "T1L scaling" && { scaling T1L 60 "$uts" --tree T1L; save; }
want scaling && fits 50 "NS scaling" && { scaling NS40 60 "$ns" -g 40; save; }
# 4. The large trees, one round each.
want large && fits 150 T3XXL && { side_by_side T3XXL 1 90; save; }
want large && fits 110 T1XL && { side_by_side T1XL 1 60; save; }
# 5. The machine's own ceiling: 16 one-worker seq runs at once, one per core (taskset), beside one
#    alone: a worker's node rate with every core busy, the fair baseline of a 16-worker speed-up.
allcore() {
  local name=$1; shift
  run "$name.alone" 90 taskset -c 0 "$@" --skeleton seq --threads 1
  local t0 c; t0=$(date +%s.%N)
  for c in $(seq 0 15); do
    taskset -c "$c" "$@" --skeleton seq --threads 1 >"$out/logs/$name.allcore.c$c.txt" 2>&1 &
  done
  wait
  awk -v n="$name.allcore16" -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%s\t%.3f\t0\n", n, b - a}' >>"$out/runs.tsv"
}
want allcore && fits 60 "allcore T3L" && { allcore T3L "$uts" --tree T3L; save; }
want allcore && fits 60 "allcore T1L" && { allcore T1L "$uts" --tree T1L; save; }
want allcore && fits 40 "allcore NS" && { allcore NS38 "$ns" -g 38; save; }
# 6. Issue 52: one worker of the budget skeleton against seq (CPU and search time), alternated.
if want budget1; then
  for r in 1 2 3; do
    fits 45 "budget1 round $r" || break
    run "NS38b.seq.r$r" 60 "$ns" -g 38 --skeleton seq --threads 1
    run "NS38b.budget1.r$r" 60 "$ns" -g 38 --skeleton budget -b 100000 --threads 1
    run "T1Lb.seq.r$r" 60 "$uts" --tree T1L --skeleton seq --threads 1
    run "T1Lb.budget1.r$r" 60 "$uts" --tree T1L --skeleton budget --threads 1
    save
  done
fi
# 7. Issue 52: NS against NumericMonoid and RGD on this Intel machine (seq, one thread each;
#    Jackdaw's AVX-512 and AVX2 kernels), alternated.
if want nspeers && [ -x "$ref/nm-treewalk-g38" ]; then
  for r in 1 2 3; do
    for g in 36 38 40; do
      fits 50 "nspeers genus $g round $r" || break 2
      run "nm$g.nm.r$r" 120 "$ref/nm-treewalk-g$g"
      run "nm$g.rgd.r$r" 120 "$ref/rgd" "$g"
      run "nm$g.jd512.r$r" 120 "$ns" -g "$g" --skeleton seq --threads 1 --simd avx512
      run "nm$g.jd2.r$r" 120 "$ns" -g "$g" --skeleton seq --threads 1 --simd avx2
    done
    save
  done
fi
# 8. Issue 40: MaxClique brock400_2, depth_bounded -d 2, 8 ranks x 2 workers, the four policies
#    rotated, isolated then with rank 5 three times slower; as many rounds as fit.
g="$root/instances/dimacs/brock400_2.clq"
for cond in isolated slow; do
  want mc || break
  extra=(); [ "$cond" = slow ] && extra=(--slow-ranks 5 --slowdown 3)
  for r in 1 2 3; do
    fits 60 "maxclique $cond round $r" || break
    for p in random performance proportional twochoice; do
      # shellcheck disable=SC2046
      run "mc.8x2.$cond.$p.r$r" 40 $(ranks 8 2) "$mc" "$g" --skeleton depth_bounded -d 2 --threads 2 \
        --policy "$p" "${extra[@]}" --stats "$out/stats/mc.8x2.$cond.$p.r$r.json"
    done
    save
  done
done
uptime >>"$out/machine.txt"
save
echo "done in $(( $(date +%s) - start )) s"
