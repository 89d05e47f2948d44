#!/usr/bin/env bash
# Runs a command with a time limit like `timeout`, but before killing a command that ran out of
# time it prints where every process of it stood: each thread's stack (gdb, when installed) or
# its kernel wait channel and state. A rare stall then says where it was. Exit 124 on timeout.
#   run_with_stacks.sh SECONDS command...
set -uo pipefail
limit="$1"; shift
"$@" &
pid=$!
for _ in $(seq 1 $((limit * 10))); do
  kill -0 "$pid" 2>/dev/null || { wait "$pid"; exit $?; }
  sleep 0.1
done
descendants() { local p; for p in $(pgrep -P "$1"); do echo "$p"; descendants "$p"; done; }
# Collect first, kill, then print: whatever happens to our output, nothing is left running.
report=$(mktemp)
procs="$pid $(descendants "$pid")"
{
  echo "run_with_stacks: '$*' still running after ${limit} s; its processes:"
  for p in $procs; do
    echo "--- pid $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-160)"
    if command -v gdb >/dev/null; then
      timeout 30 gdb -p "$p" -batch -nx -ex "set pagination off" -ex "thread apply all bt 12" 2>/dev/null |
        grep -E '^(Thread|#)'
    else
      for t in /proc/"$p"/task/*; do
        echo "  thread ${t##*/}: state $(awk '{print $3}' "$t/stat" 2>/dev/null) wchan $(cat "$t/wchan" 2>/dev/null)"
      done
    fi
  done
} >"$report" 2>&1
kill -KILL $procs 2>/dev/null
wait "$pid" 2>/dev/null
cat "$report" >&2
rm -f "$report"
exit 124
