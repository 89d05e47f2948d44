#!/usr/bin/env bash
# A private Slurm cluster for tests: munged + slurmctld + slurmd under one directory.
#   cluster.sh start DIR [CPUS]   install munge/Slurm if missing, write config, start daemons, wait for 'idle'
#   cluster.sh stop DIR           stop every daemon this script started (by PID file), then wait for them
# Clients need SLURM_CONF=DIR/slurm.conf (printed by start).
# One host by default. With HOSTS_ENV set to the hosts.env of emulated hosts (tests/hosts/cluster.sh),
# one slurmd per host runs inside that host (its own name and address: a NodeName each) and
# slurmctld listens on the hosts' bridge, outside them, like a head node.
set -euo pipefail
cmd="${1:?usage: cluster.sh start|stop DIR [CPUS]}"
dir="${2:?usage: cluster.sh start|stop DIR [CPUS]}"

stop_pidfile() {
  local f="$1" pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f" 2>/dev/null || true)
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

if [ "$cmd" = stop ]; then
  for f in "$dir"/slurmd.*.pid; do stop_pidfile "$f"; done
  stop_pidfile "$dir/slurmd.pid"
  stop_pidfile "$dir/slurmctld.pid"
  stop_pidfile "$dir/munged.pid"
  exit 0
fi
[ "$cmd" = start ] || { echo "cluster.sh: unknown command $cmd" >&2; exit 2; }

cpus="${3:-$(nproc)}"
need=()
for p in slurmctld slurmd slurm-client munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if ((${#need[@]})); then
  echo "cluster.sh: installing ${need[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

mkdir -p "$dir"/{munge,spool,state,log}
dir=$(cd "$dir" && pwd)
# munge refuses sockets under directories that are not world-executable.
d="$dir"; while [ "$d" != / ]; do chmod o+x "$d" 2>/dev/null || true; d=$(dirname "$d"); done
chmod 755 "$dir" "$dir/munge"

[ -f "$dir/munge/munge.key" ] || mungekey -c -k "$dir/munge/munge.key" >/dev/null
chmod 600 "$dir/munge/munge.key"
munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munge.seed" --force

host=$(hostname -s)
port_base=$((17000 + RANDOM % 2000 * 2))
ctld_addr=127.0.0.1
nodes="NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} State=UNKNOWN"
partition_nodes=${host}
emulated=()
if [ -n "${HOSTS_ENV:-}" ]; then
  # shellcheck disable=SC1090
  . "$HOSTS_ENV"
  IFS=, read -r -a emulated <<<"$HOSTS"
  ctld_addr="${SUBNET%.0/24}.1"
  nodes=""
  for h in "${emulated[@]}"; do
    nodes+="NodeName=${h} NodeAddr=$(getent hosts "$h" | awk '{print $1}') CPUs=${cpus} State=UNKNOWN"$'\n'
  done
  partition_nodes=$(IFS=,; echo "${emulated[*]}")
fi
cat > "$dir/slurm.conf" <<CONF
ClusterName=jackdawtest
SlurmctldHost=${host}(${ctld_addr})
SlurmctldPort=${port_base}
SlurmdPort=$((port_base + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${dir}/munge/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=${dir}/state
SlurmdSpoolDir=${dir}/spool/%n
SlurmctldPidFile=${dir}/slurmctld.pid
SlurmdPidFile=${dir}/slurmd.%n.pid
SlurmctldLogFile=${dir}/log/slurmctld.log
SlurmdLogFile=${dir}/log/slurmd.%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
ReturnToService=2
EnforcePartLimits=ALL
SlurmdParameters=config_overrides
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=${dir}/log/jobcomp.txt
MailProg=/bin/true
KillWait=5
${nodes}
PartitionName=debug Nodes=${partition_nodes} Default=YES MaxTime=60 State=UP OverSubscribe=NO
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" -i
if ((${#emulated[@]})); then
  # Each slurmd inside its host: it finds its NodeName by the host's hostname.
  for h in "${emulated[@]}"; do "$AGENT" "$h" "SLURM_CONF=$SLURM_CONF slurmd -f $SLURM_CONF"; done
else
  slurmd -f "$SLURM_CONF"
fi
for _ in $(seq 150); do
  state=$(sinfo -h -o %T 2>/dev/null | sort -u | tr '\n' ' ' || true)
  [ "$state" = "idle " ] && { echo "SLURM_CONF=$SLURM_CONF"; exit 0; }
  sleep 0.2
done
echo "cluster.sh: node did not become idle (state '${state:-?}'); logs in $dir/log" >&2
exit 1
