#!/usr/bin/env bash
# Runs an app with --timeline and --stats, checks its printed answer, then the timeline.
#   run_and_check.sh WORKDIR ANSWER_REGEX "CHECKER ARGS" -- COMMAND...
# The command gets --timeline WORKDIR/timeline.json --stats WORKDIR/stats.json appended.
set -euo pipefail
dir=$1 answer=$2 checks=$3
shift 3
[ "$1" = "--" ] && shift
rm -rf "$dir" && mkdir -p "$dir"
out=$("$@" --timeline "$dir/timeline.json" --stats "$dir/stats.json" 2>&1) || { echo "$out"; echo "the run failed"; exit 1; }
echo "$out" | tail -n 8
if ! grep -Eq "$answer" <<<"$out"; then echo "the answer does not match /$answer/"; exit 1; fi
# shellcheck disable=SC2086
/usr/bin/python3 "$(dirname "$0")/check_timeline.py" "$dir/timeline.json" "$dir/stats.json" $checks
