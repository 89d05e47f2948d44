#!/usr/bin/env bash
# A rank that cannot read its input makes the whole job exit non-zero with that rank's message
# (printed once), on K ranks — never a hang.
#   check_failure.sh BUILD_DIR INSTANCES_DIR RANKS FAILING_RANK
set -uo pipefail
build="$1"; inst="$2"; k="$3"; bad="$4"
out=$(timeout 60 mpirun --oversubscribe --allow-run-as-root -n "$k" "$build/apps/maxclique/maxclique" \
      "$inst/dimacs/brock200_2.clq" --skeleton depth_bounded --threads 1 --test-fail-rank "$bad" 2>&1)
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || { echo "FAIL: exit code $rc (0 = not failed, 124 = hang)"; echo "$out"; exit 1; }
n=$(grep -c "rank $bad cannot read its input" <<<"$out")
[ "$n" -eq 1 ] || { echo "FAIL: message printed $n times"; echo "$out"; exit 1; }
grep -q "omega" <<<"$out" && { echo "FAIL: a result was printed"; echo "$out"; exit 1; }
echo "ok: $k ranks, rank $bad failed: exit $rc, one message"
