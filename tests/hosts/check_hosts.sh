#!/usr/bin/env bash
# Jackdaw across host boundaries: ranks on emulated hosts (tests/hosts/cluster.sh: network
# namespaces with their own hostname, /dev/shm and IPC, TCP between them), launched by mpirun from
# outside the hosts as from a login node.
#   check_hosts.sh BUILD_DIR INSTANCES_DIR WORK_DIR PART
# PART:
#   paths       the board on every one-sided path: Open MPI's default components (no window between
#               TCP hosts: the board falls back to messages), --mca osc ucx (a window), --mca osc
#               pt2pt (refuses MPI_THREAD_MULTIPLE: messages) -- each gives omega = 17 for brock200_4
#   answers     every app, parallel skeleton and victim policy at least once across 2-4 hosts,
#               --board sample, --seed-tree, decision stop and incumbent broadcast
#   faults      a host cut off for 3 s (the right answer), cut off for good, a remote rank killed,
#               a rank stopped under osc/ucx: the job ends within the watchdog plus a margin,
#               non-zero, naming the rank, and nothing is left running on the hosts
#   checkpoint  a search interrupted across two hosts, resumed on one host and on three
#   slurm       a Slurm cluster on the hosts (slurmctld outside, a slurmd in each): the search
#               script on --nodes=2 through srun --mpi=pmix, its requeue-and-resume path, and a node
#               cut off mid-job
# Exit 77 (CTest: skipped) without root, which network namespaces need.
set -uo pipefail
build=$(cd "$1" && pwd) inst=$(cd "$2" && pwd) work="$3" part="$4"
here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "SKIP: emulated hosts need root (ip netns)"; exit 77; }
mkdir -p "$work"
cluster="$work/cluster-$part"
fails=0 runs=0
cleanup() { "$here/cluster.sh" stop "$cluster" >/dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

start_hosts() {  # N
  # The hosts see the checkout, the build, the instances and the work folder, wherever they are.
  CLUSTER_SHARE="$(dirname "$here") $build $inst $work" "$here/cluster.sh" start "$cluster" "$1" >/dev/null || { echo "FAIL: cannot start $1 emulated hosts"; exit 1; }
  # shellcheck disable=SC1091
  . "$cluster/hosts.env"
  IFS=, read -r -a HOST <<<"$HOSTS"
}
hosts_of() { local IFS=,; echo "${HOST[*]:0:$1}"; }  # the first N hosts, comma-separated
on_host() { ip netns pids "${1/-/n}" 2>/dev/null; }  # the processes on a host (its namespace: cluster.sh)
# mpirun across the first H hosts, one rank per host, bounded by a timeout (-k: mpirun waiting for
# an unreachable daemon may ignore SIGTERM).
mpi_hosts() {  # H, mpirun args and command...
  local h=$1; shift
  # shellcheck disable=SC2086
  timeout -k 10 "${MPI_TIMEOUT:-150}" mpirun --allow-run-as-root --oversubscribe $MPIRUN_HOSTS_ARGS \
    --host "$(hosts_of "$h")" -n "$h" "$@"
}
ok() { runs=$((runs + 1)); echo "ok   $*"; }
bad() { runs=$((runs + 1)); fails=$((fails + 1)); echo "FAIL $*"; }
# Runs on H hosts; the output must match every regex given with -e. Stats in $work/last.json.
expect() {  # H, regex..., --, command...
  local h=$1; shift
  local want=()
  while [ "$1" != -- ]; do want+=("$1"); shift; done
  shift
  local out rc
  rm -f "$work/last.json"
  out=$(mpi_hosts "$h" "$@" --stats "$work/last.json" 2>&1); rc=$?
  if [ $rc -ne 0 ]; then bad "exit $rc on $h hosts: $*"; tail -15 <<<"$out"; return 1; fi
  for w in "${want[@]}"; do
    grep -Eq "$w" <<<"$out" || { bad "want /$w/ on $h hosts: $*"; tail -15 <<<"$out"; return 1; }
  done
  LAST_OUT=$out
  local label="$*"
  label=${label//$build\/apps\//}
  ok "$h hosts: ${label//$inst\//}"
}
# Every one of N ranks has logged a progress line: all of them are searching.
all_searching() {  # output file, N
  local r
  for ((r = 0; r < $2; r++)); do grep -q "rank $r\] \[info\] progress:" "$1" 2>/dev/null || return 1; done
}
stat_of() { /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/last.json" "$1"; }
omega() { awk -F'\t' -v g="$1" '$1 == g {print $4}' "$inst/dimacs/ANSWERS.tsv"; }
genus() { awk -F'\t' -v g="$1" '$1 == g {print $2}' "$inst/ns/genus_counts.tsv"; }
mc="$build/apps/maxclique/maxclique" ns="$build/apps/ns/ns" uts="$build/apps/uts/uts" nq="$build/apps/nqueens/nqueens"
kp="$build/apps/knapsack/knapsack" tsp="$build/apps/tsp/tsp" sip="$build/apps/sip/sip"
b4="$inst/dimacs/brock200_4.clq"
w17=$(omega brock200_4)

case "$part" in
paths)
  start_hosts 2
  # Open MPI's defaults between TCP hosts: osc/rdma claims the window and fails (MPI_ERR_WIN).
  if expect 2 "omega = $w17" "board runs on messages" -- "$mc" "$b4" --skeleton budget --threads 1; then
    [ "$(stat_of 'd["distributed"]["board"]["transport"]')" = messages ] && ok "  --stats: board transport messages" ||
      bad "  --stats board transport: $(stat_of 'd["distributed"]["board"]')"
    n=$(grep -c "board runs on messages" <<<"$LAST_OUT")
    [ "$n" = 1 ] && ok "  said once" || bad "  the fallback was announced $n times"
    # A ring on messages would reach the victim only at its own comm turn: no thief rings.
    r=$(stat_of 'd["distributed"]["totals"]["comm"]["doorbell_rings"]')
    [ "$r" = 0 ] && ok "  no doorbell on messages" || bad "  $r doorbell rings on the message transport"
  fi
  # UCX's one-sided component between the hosts (over TCP: each host has its own /dev/shm and IPC).
  if expect 2 "omega = $w17" -- --mca osc ucx "$mc" "$b4" --skeleton budget --threads 1 --policy performance; then
    t=$(stat_of 'd["distributed"]["board"]["transport"] + " " + d["distributed"]["board"].get("window", "")')
    [[ "$t" == "rma ucx window"* ]] && ok "  --stats: $t" || bad "  --stats board: $t"
  fi
  # osc/pt2pt refuses MPI_THREAD_MULTIPLE: the board's messages carry it.
  if expect 2 "omega = $w17" -- --mca osc pt2pt "$mc" "$b4" --skeleton budget --threads 1 --policy performance; then
    [ "$(stat_of 'd["distributed"]["board"]["transport"]')" = messages ] && ok "  --stats: messages" || bad "  --stats: not messages"
  fi
  # --board-transport rma where no window can be made: one clear refusal, every rank ends.
  out=$(mpi_hosts 2 "$mc" "$b4" --skeleton budget --threads 1 --board-transport rma 2>&1); rc=$?
  if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "could not create the load board's one-sided window" <<<"$out"; then
    ok "--board-transport rma without a window: exit $rc, one message"
  else
    bad "--board-transport rma without a window: exit $rc"; tail -5 <<<"$out"
  fi
  ;;
answers)
  start_hosts 4
  g=22
  expect 2 "^$g: $(genus $g)\$" -- "$ns" -g $g --skeleton depth_bounded --threads 1 --policy random
  expect 3 "^$g: $(genus $g)\$" -- "$ns" -g $g --skeleton budget --threads 2 --policy performance --board sample --board-sample 1
  expect 4 "^$g: $(genus $g)\$" -- "$ns" -g $g --skeleton stack_stealing --threads 1 --policy twochoice --seed-tree 2
  # UTS T1 (4130071 nodes, UTS 2.1 sample_trees.sh), OEIS A000170 (12 queens: 14200).
  expect 2 "tree nodes: 4130071" -- "$uts" --tree T1 --skeleton budget --threads 1 --policy proportional
  expect 3 "^solutions: 14200\$" -- "$nq" -n 12 --skeleton ordered --threads 1 --policy performance
  # Branch and bound: the incumbent travels between hosts; knapsack f8 (instances_01_KP optimum
  # 9767), TSP ulysses16 (TSPLIB 6859), MaxClique brock200_4 and hamming8-4.
  expect 2 "profit: 9767" -- "$kp" "$inst/knapsack/instances_01_KP/low-dimensional/f8_l-d_kp_23_10000" --skeleton budget --threads 1 --policy random
  expect 3 "length: 6859" -- "$tsp" "$inst/tsp/ulysses16.tsp" --skeleton depth_bounded --threads 1 --policy performance --board sample --board-sample 1
  expect 3 "omega = $(omega hamming8-4)" -- "$mc" "$inst/dimacs/hamming8-4.clq" --skeleton stack_stealing --threads 1 --policy proportional
  if expect 3 "omega = $w17" -- "$mc" "$b4" --skeleton budget --threads 1 --policy performance --no-heuristic; then
    b=$(stat_of 'sum(r["comm"]["bound_publishes"] for r in d["distributed"]["per_rank"])')
    [ "$b" -gt 0 ] && ok "  incumbents broadcast between hosts: $b" || bad "  no bound was published"
  fi
  # Decisions stop every host: found (17) and refuted (18).
  expect 3 "clique of size >= 17: found" -- "$mc" "$b4" --decision 17 --skeleton budget --threads 1 --no-heuristic
  expect 2 "clique of size >= 18: none" -- "$mc" "$b4" --decision 18 --skeleton depth_bounded --threads 1 --policy twochoice
  # SIP: 12 embeddings of the trident (Glasgow solver test); found on another host, counted across.
  expect 2 "^solutions: 12\$" -- "$sip" --count "$inst/sip/glasgow/trident.csv" "$inst/sip/glasgow/longtrident.csv" --skeleton budget --threads 1
  expect 2 "^SAT" -- "$sip" "$inst/sip/glasgow/small" "$inst/sip/glasgow/large" --skeleton depth_bounded --threads 1 --probe-nodes 0
  ;;
faults)
  start_hosts 2
  long=(--tree T1L --skeleton budget --threads 1 --watchdog 5)  # about 20 s on 2 ranks here
  t1l=102181082
  # A fault scenario: mpirun in the background; FAULT once every rank is searching (their progress
  # lines). want "answer": the job finishes with the right answer. Otherwise a regex the output
  # must show: within the watchdog plus a margin the surviving ranks print it and are gone from
  # their host. mpirun itself ends too, unless it waits for a daemon on a host it cannot reach
  # (then it is the only thing left, outside the hosts, and is killed here: docs/running.md).
  scenario() {  # name, want, extra mpirun args, fault command (may use $victim_pid, $victim_host)
    local name=$1 want=$2 extra=$3 fault=$4
    local out="$work/$name.out"
    # shellcheck disable=SC2086
    MPI_TIMEOUT=170 mpi_hosts 2 $extra "$uts" "${long[@]}" --progress 0.5 >"$out" 2>&1 &
    local job=$!
    local t=0
    until all_searching "$out" 2 || [ $t -ge 600 ]; do sleep 0.1; t=$((t + 1)); done
    victim_host=${HOST[1]}
    victim_pid=$(on_host "$victim_host" | while read -r p; do
      tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 && echo "$p"; done | head -1)
    local t0=$SECONDS
    eval "$fault"
    local rc=running secs=0
    if [ "$want" = answer ]; then
      wait "$job"; rc=$?
      secs=$((SECONDS - t0))
    else
      # The bound: --watchdog 5, 10 s for MPI_Abort to act (failure.hpp), 15 s of slack for a loaded machine.
      while [ $((SECONDS - t0)) -lt 30 ]; do
        if ! kill -0 "$job" 2>/dev/null; then wait "$job"; rc=$?; break; fi
        if grep -Eq "$want" "$out" && [ -z "$(on_host "${HOST[0]}")" ]; then break; fi
        sleep 0.2
      done
      secs=$((SECONDS - t0))
      # The ranks are gone; mpirun gets a few seconds to notice and end by itself.
      for _ in $(seq 40); do
        [ "$rc" != running ] && break
        if ! kill -0 "$job" 2>/dev/null; then wait "$job"; rc=$?; fi
        sleep 0.2
      done
    fi
    local survivors
    survivors=$(on_host "${HOST[0]}" | wc -l)
    if [ "$rc" = running ]; then
      kill -TERM "$job" 2>/dev/null; sleep 1; pkill -KILL -f "^mpirun.*--watchdog 5 --progress 0.5" 2>/dev/null
      wait "$job" 2>/dev/null
    fi
    "$here/cluster.sh" link "$cluster" "$victim_host" up 2>/dev/null
    kill -CONT "$victim_pid" 2>/dev/null
    if [ "$want" = answer ]; then
      if [ "$rc" = 0 ] && grep -q "tree nodes: $t1l" "$out"; then ok "$name: the right answer (exit 0, ${secs} s after the fault)"
      else bad "$name: exit $rc"; tail -8 "$out"; fi
    elif ! grep -Eq "$want" "$out"; then
      bad "$name: no /$want/ within ${secs} s (exit $rc)"; tail -8 "$out"
    elif [ "$survivors" -ne 0 ]; then
      bad "$name: $survivors process(es) still on the surviving host ${secs} s after the fault"; tail -8 "$out"
    elif [ "$rc" = 0 ] || [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ "$secs" -ge 160 ]; }; then
      bad "$name: exit $rc after ${secs} s"; tail -8 "$out"
    else
      local how="mpirun exit $rc"
      [ "$rc" = running ] && how="the ranks ended; mpirun waited for the lost host's daemon (killed)"
      ok "$name: ${secs} s after the fault, $how: $(grep -Eom1 "$want" "$out")"
    fi
    # Whatever is left on the hosts (the cut-off host's ranks and daemon) goes before the next one.
    for h in "${HOST[@]}"; do for p in $(on_host "$h"); do kill -KILL "$p" 2>/dev/null; done; done
  }
  for osc in ${FAULT_OSC:-default ucx}; do
    extra=""
    [ $osc = ucx ] && extra="--mca osc ucx"
    scenario "cut3s-$osc" answer "$extra" '"$here/cluster.sh" link "$cluster" "$victim_host" down; sleep 3; "$here/cluster.sh" link "$cluster" "$victim_host" up'
    scenario "cut-$osc" "rank 0: watchdog: .*rank 1 " "$extra" '"$here/cluster.sh" link "$cluster" "$victim_host" down'
    scenario "kill9-$osc" "exited on signal 9|rank 1 .*(killed|signal)|to rank 1 failed .*probably gone" "$extra" 'kill -KILL "$victim_pid"'
    scenario "stop-$osc" "rank 0: watchdog: .*rank 1 " "$extra" 'kill -STOP "$victim_pid"'
  done
  ;;
checkpoint)
  start_hosts 3
  ck="$work/ck-hosts"; rm -rf "$ck" "$ck.copy"
  # 749 M nodes, 3-4 s for 2 ranks here: the signal (once both ranks report progress) finds it
  # searching under any load (g=33 ended in 0.9 s once, before its signal). Per-genus counts:
  # OEIS A007323 and NumericMonoid's table (instances/ns/genus_counts.tsv).
  g=38
  out="$work/leg1.out"
  mpi_hosts 2 "$ns" -g $g --skeleton budget --threads 1 --checkpoint "$ck" --progress 0.2 >"$out" 2>&1 &
  job=$!
  t=0
  until all_searching "$out" 2 || [ $t -ge 600 ]; do sleep 0.1; t=$((t + 1)); done
  pkill -USR1 -f "^mpirun.* -g $g --skeleton budget --threads 1 --checkpoint $ck"
  wait "$job"; rc=$?
  if [ $rc -eq 3 ] && grep -q "CHECKPOINT: saved" "$out"; then ok "interrupted across 2 hosts: $(grep -o 'CHECKPOINT: saved[^;]*' "$out")"
  else bad "leg 1 across 2 hosts: exit $rc (want 3 and a checkpoint)"; tail -8 "$out"; fi
  cp -a "$ck" "$ck.copy"
  for h in 1 3; do
    [ $h = 3 ] && { rm -rf "$ck"; cp -a "$ck.copy" "$ck"; }
    expect "$h" "^$g: $(genus $g)\$" "^$((g - 1)): $(genus $((g - 1)))\$" "status: complete" -- \
      "$ns" -g $g --skeleton depth_bounded --threads 1 --resume "$ck"
  done
  ;;
slurm)
  start_hosts 2
  src=$(cd "$here/../.." && pwd)
  sl="$work/slurm"
  rm -rf "$sl"; mkdir -p "$sl"
  trap '"$src/tests/slurm/cluster.sh" stop "$sl/cluster" >/dev/null 2>&1; cleanup' EXIT
  HOSTS_ENV="$cluster/hosts.env" "$src/tests/slurm/cluster.sh" start "$sl/cluster" 2 >/dev/null ||
    { echo "FAIL: Slurm did not start on the hosts"; cat "$sl"/cluster/log/*.log | tail -20; exit 1; }
  export SLURM_CONF="$sl/cluster/slurm.conf" JACKDAW_HOME="$src" JACKDAW_BUILD="$build" RESULTS="$sl/results"
  wait_job() {  # id: prints "STATE EXITCODE" once the job has ended
    local line state
    for _ in $(seq 600); do
      line=$(scontrol -o show job "$1" 2>/dev/null || true)
      state=$(grep -o 'JobState=[A-Z_]*' <<<"$line" | cut -d= -f2)
      case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL)
        echo "$state $(grep -o 'ExitCode=[0-9:]*' <<<"$line" | cut -d= -f2)"; return 0 ;; esac
      sleep 0.5
    done
    echo "STUCK ?"
  }
  # Until every rank of job ID logs progress, or the job is over.
  wait_searching() {  # file, id
    for _ in $(seq 600); do
      all_searching "$1" 2 && return 0
      scontrol -o show job "$2" 2>/dev/null | grep -qE "JobState=(RUNNING|PENDING|CONFIGURING)" || return 1
      sleep 0.1
    done
    return 1
  }
  submit() { sbatch --parsable --chdir="$sl" --nodes=2 --ntasks-per-node=1 --cpus-per-task=1 "$@" "$src/slurm/jackdaw-search.sbatch"; }
  # 1. One search over two nodes.
  id=$(APP=maxclique ARGS="$b4 --skeleton budget" submit --job-name=two)
  read -r state code < <(wait_job "$id")
  out="$RESULTS/two-$id"
  if [ "$state" = COMPLETED ] && grep -q "omega = $w17" "$out/stdout" && grep -q '"ranks": 2' "$out/stats.json"; then
    ok "sbatch --nodes=2: omega = $w17 on 2 ranks ($(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["distributed"]["board"]["transport"])' "$out/stats.json") board)"
  else
    bad "sbatch --nodes=2: $state $code"; tail -20 "$sl/jackdaw-two-$id.log"
  fi
  # 2. The requeue path: USR1 (the time-limit signal) once both nodes search; the search saves,
  #    the script requeues, the next leg resumes on both nodes and prints the whole answer
  #    (UTS T1L: 102181082 nodes, UTS 2.1 sample_trees.sh).
  ck="$sl/ck"
  id=$(CHECKPOINT="$ck" APP=uts ARGS="--tree T1L --skeleton budget --progress 0.5" submit --job-name=legs)
  out="$RESULTS/legs-$id"
  wait_searching "$out/leg-0/stderr" "$id"
  scancel --signal=USR1 --batch "$id"
  # Slurm holds a requeued job about two minutes (BeginTime). Released here once it has waited 10 s
  # with both nodes idle, as an impatient user may: at once, the new leg's step can find the last
  # leg's PMIx socket not yet removed (tests/slurm/test_slurm.sh waits the same).
  pending=0
  for _ in $(seq 300); do
    line=$(scontrol -o show job "$id" 2>/dev/null || true)
    if grep -q "JobState=PENDING" <<<"$line" && [ "$(sinfo -h -o %T | sort -u)" = idle ]; then
      pending=$((pending + 1))
      [ $pending -ge 20 ] && scontrol update JobId="$id" StartTime=now 2>/dev/null && break
    fi
    grep -qE "JobState=(COMPLETED|FAILED|CANCELLED)" <<<"$line" && break
    sleep 0.5
  done
  read -r state code < <(wait_job "$id")
  legs=$(ls -d "$out"/leg-* 2>/dev/null | wc -l)
  if [ "$state" = COMPLETED ] && [ "$legs" -ge 2 ] && grep -q "^CHECKPOINT:" "$out/leg-0/stdout" &&
     grep -q "^tree nodes: 102181082$" "$out/stdout"; then
    ok "sbatch --nodes=2 with CHECKPOINT: signalled, saved, requeued, resumed over $legs legs: tree nodes 102181082"
  else
    bad "requeue across nodes: $state $code, $legs leg(s)"; tail -20 "$sl/jackdaw-legs-$id.log"
  fi
  # 3. A node cut off mid-job: the job ends (the watchdog on the node still reachable), not at its time limit.
  id=$(APP=uts ARGS="--tree T1L --skeleton budget --watchdog 5 --progress 0.5" submit --job-name=cut)
  out="$RESULTS/cut-$id"
  wait_searching "$out/stderr" "$id"
  t0=$SECONDS
  "$here/cluster.sh" link "$cluster" "${HOST[1]}" down
  ended=""
  while [ $((SECONDS - t0)) -lt 40 ]; do
    grep -q "watchdog: .*rank 1 " "$out/stderr" 2>/dev/null && [ -z "$(on_host "${HOST[0]}" | xargs -r ps -o comm= -p | grep -x uts)" ] &&
      { ended=$((SECONDS - t0)); break; }
    sleep 0.5
  done
  # The batch script ends with srun's failure; Slurm keeps the job COMPLETING until the lost node
  # answers again or is marked down.
  line=""
  while [ -n "$ended" ] && [ $((SECONDS - t0)) -lt 60 ]; do
    line=$(scontrol -o show job "$id" 2>/dev/null | grep -o 'JobState=[A-Z_]* \|ExitCode=[0-9:]*' | tr -d '\n')
    grep -q "ExitCode=1:" <<<"$line" && break
    sleep 0.5
  done
  "$here/cluster.sh" link "$cluster" "${HOST[1]}" up
  if [ -z "$ended" ]; then bad "node cut off under srun: no watchdog end within 40 s"; tail -5 "$out/stderr"
  elif ! grep -q "ExitCode=1:" <<<"$line"; then bad "node cut off under srun: the job did not end with exit 1 ($line)"
  else ok "node cut off under srun: rank named, the reachable node's rank gone ${ended} s after the cut, job $line ($(grep -om1 'rank [0-9]*: watchdog: [^;(]*' "$out/stderr"))"; fi
  scancel "$id" 2>/dev/null
  ;;
*) echo "unknown part $part"; exit 2 ;;
esac
echo "$part: $((runs - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
