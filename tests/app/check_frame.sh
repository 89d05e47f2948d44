#!/usr/bin/env bash
# The app frame has no silent traps: an app that writes no --stats still gets the file; the setup
# lambda is optional; an app's own defaults for -b / -d hold unless the command line says otherwise;
# an app ending with finish prints its answer and the common summary and writes --stats.
# Answers: 8 queens 92, 9 queens 352 (OEIS A000170).
#   check_frame.sh MINIMAL_APP DEFAULTS_APP WORKDIR
set -uo pipefail
minimal="$1"; defaults="$2"; work="$3"
mkdir -p "$work"
fails=0
check() { if eval "$1"; then echo "ok   $2"; else echo "FAIL $2"; fails=$((fails + 1)); fi; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

s="$work/minimal.json"; rm -f "$s"
out=$("$minimal" --skeleton budget --threads 2 --stats "$s"); rc=$?
check '[ $rc -eq 0 ] && [ "$out" = "solutions: 92" ]' "minimal app: 92 solutions, exit 0 (got $rc)"
check '[ -s "$s" ]' "minimal app: --stats written by the frame"
check '[ "$(json "$s" "d[\"status\"], d[\"app\"], d[\"stats\"][\"nodes\"] > 0")" = "complete minimal True" ]' \
  "minimal app: the document has the status, the app and the node count"
help=$("$minimal" --help)
check 'grep -q -- "--skeleton" <<<"$help"' "minimal app: --help works without a setup lambda"

s="$work/defaults.json"; rm -f "$s"
"$defaults" --skeleton budget --stats "$s" >/dev/null
check '[ "$(json "$s" "d[\"options\"][\"budget\"], d[\"options\"][\"spawn_depth\"]")" = "1234 3" ]' "app defaults -b 1234 -d 3 hold"
out=$("$defaults" -n 9 --skeleton budget -b 77 -d 1 --stats "$s")
check '[ "$(head -1 <<<"$out")" = "solutions: 352" ] && [ "$(json "$s" "d[\"options\"][\"budget\"], d[\"options\"][\"spawn_depth\"]")" = "77 1" ]' \
  "the command line overrides them (-b 77 -d 1), 9 queens: 352"
# finish: the app's line, then the summary every app prints, then --stats with the app's fields.
summary='^solutions: 352
status: complete
nodes: [0-9]+
time: [0-9]+\.[0-9]{6} s
rate: [0-9.e+]+ nodes/s$'
check '[[ $out =~ $summary ]]' "finish prints the answer, then status, nodes, time and rate"
nodes=$(sed -n 's/^nodes: //p' <<<"$out")
check '[ "$(json "$s" "d[\"app\"], d[\"n\"], d[\"result\"][\"solutions\"], d[\"status\"], d[\"stats\"][\"nodes\"]")" = "defaults 9 352 complete $nodes" ]' \
  "finish writes --stats: the app, its field, its result, and the node count stdout shows"
help=$("$defaults" --help)
check 'grep -q -- "--budget .*=1234" <<<"$help"' "--help shows the app's default"
# Without -b / -d (and no app default): auto where it applies, the fixed value elsewhere and under
# --trace (a trace records a tree timing does not change). 8 queens: 92 under every setting.
opts() { json "$1" "d[\"options\"][\"budget\"], d[\"options\"][\"spawn_depth\"]"; }
for sk in budget depth_bounded ordered stack_stealing; do
  ms="$work/minimal_$sk.json"; rm -f "$ms"
  mout=$("$minimal" --skeleton $sk --threads 2 --stats "$ms"); rc=$?
  case $sk in budget) want="auto 2" ;; depth_bounded) want="100000 auto" ;; *) want="100000 2" ;; esac
  check '[ $rc -eq 0 ] && [ "$mout" = "solutions: 92" ] && [ "$(opts "$ms")" = "$want" ]' \
    "minimal app --skeleton $sk: default -b -d = $want, 92 solutions"
done
ms="$work/minimal_trace.json"; rm -f "$ms"
mout=$("$minimal" --skeleton depth_bounded --threads 1 --trace "$work/minimal.jdtrace" --stats "$ms"); rc=$?
check '[ $rc -eq 0 ] && [ "$mout" = "solutions: 92" ] && [ "$(opts "$ms")" = "100000 2" ]' \
  "under --trace the default -d is the fixed 2, 92 solutions"
mout=$("$minimal" --skeleton depth_bounded -b auto 2>&1); rc=$?
check '[ $rc -ne 0 ] && grep -q -- "--budget auto applies only to --skeleton budget" <<<"$mout"' \
  "-b auto typed with another skeleton is still refused"

# --skeleton auto (the default): seq on one worker of one rank, a parallel skeleton on two workers
# and, on one worker, when --checkpoint needs one; --stats records the skeleton that ran.
skel() { json "$1" "d[\"options\"][\"skeleton\"], d[\"options\"][\"skeleton_auto\"]"; }
run_auto() {  # run_auto NAME ARGS...: 8 queens with ARGS, its --stats in $work/NAME.json
  ms="$work/$1.json"; rm -f "$ms"; shift
  mout=$("$minimal" "$@" --stats "$ms"); rc=$?
}
run_auto auto1 --threads 1
check '[ $rc -eq 0 ] && [ "$mout" = "solutions: 92" ] && [ "$(skel "$ms")" = "seq True" ]' "auto on one worker: seq, 92 solutions"
run_auto auto2 --threads 2
check '[ $rc -eq 0 ] && [ "$mout" = "solutions: 92" ] && [[ "$(skel "$ms")" =~ ^(depth_bounded|budget|stack_stealing|ordered)\ True$ ]]' \
  "auto on two workers: a parallel skeleton ($(skel "$ms")), 92 solutions"
run_auto autock --threads 1 --checkpoint "$work/ck"
check '[ $rc -eq 0 ] && [ "$mout" = "solutions: 92" ] && [[ "$(skel "$ms")" =~ ^(depth_bounded|budget|stack_stealing|ordered)\ True$ ]]' \
  "auto on one worker with --checkpoint: a parallel skeleton ($(skel "$ms"))"
run_auto seq --skeleton seq
check '[ $rc -eq 0 ] && [ "$(skel "$ms")" = "seq False" ]' "--skeleton seq stays available"

echo "$((19 - fails)) passed, $fails failed"
[ $fails -eq 0 ]
