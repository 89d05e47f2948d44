#!/usr/bin/env bash
# The one-file policy end to end: on RANKS ranks the search gives the known answer, and --stats
# carries the policy's name, its constant and its own counters, which agree with the comm layer's.
#   check_fourth.sh BINARY RANKS WORKDIR
set -euo pipefail
bin="$1"; ranks="$2"; work="$3"
mkdir -p "$work"
stats="$work/fourth_np$ranks.json"
rm -f "$stats"
out=$(timeout 120 mpirun --oversubscribe --allow-run-as-root -n "$ranks" "$bin" -n 10 --skeleton budget -b 20 \
      --threads 1 --policy round_robin --rr-stride 1 --stats "$stats" 2>&1)
grep -q "^solutions: 724$" <<<"$out" || { echo "wrong or missing answer (OEIS A000170: 724)"; echo "$out"; exit 1; }
python3 - "$stats" "$ranks" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1])); ranks = int(sys.argv[2])
fails, checks = [], []
def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    checks.append(what)
    if not cond: fails.append(what)
check(doc["options"]["policy"] == "round_robin", "options.policy is round_robin")
check(doc["options"]["constants"].get("rr-stride") == 1.0, "options.constants records rr-stride")
d = doc["distributed"]
check(d["policy_name"] == "round_robin", "distributed.policy_name")
per = d["policy"]["ranks"]
check(len(per) == ranks, "one policy record per rank")
check(all("rr_asked" in p and p["rr_stride_used"] == 1 for p in per), "every rank reports the policy's own counters")
asked = sum(p["rr_asked"] for p in per)
check(d["policy"]["totals"]["rr_asked"] == asked, "totals add the policy's counters up")
check(asked == d["totals"]["steal_requests"], f"every choice became a steal request ({asked} = {d['totals']['steal_requests']})")
check(asked > 0, "the thieves asked somebody")
print(f"{len(checks) - len(fails)} passed, {len(fails)} failed")
sys.exit(1 if fails else 0)
PY
