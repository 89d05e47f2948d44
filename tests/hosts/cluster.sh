#!/usr/bin/env bash
# A private cluster of emulated hosts for tests: N network namespaces on one machine, each a host
# with its own hostname (a UTS namespace), loopback, /dev/shm, /tmp and System V IPC (a mount and an
# IPC namespace per host), and an address on a private bridge. Everything else on the file system is
# shared, as on a cluster with a shared file system (folders under /tmp: see CLUSTER_SHARE). Open MPI sees N nodes and talks TCP
# between them; nothing crosses through shared memory.
#
#   cluster.sh start DIR N      create hosts DIR's-prefix-1..N; prints the variables below
#   cluster.sh stop DIR         remove everything start made (namespaces, links, bridge, /etc/hosts
#                               lines, processes left in the namespaces); safe to repeat
#   cluster.sh run DIR HOST CMD...   run CMD on HOST (as the rsh agent does)
#   cluster.sh link DIR HOST up|down      cut a host off the network, or bring it back
#   cluster.sh limit DIR HOST RATE|none   a bandwidth limit on the host's link (tc tbf), e.g. 1mbit
#
# start writes DIR/hosts.env (sourced by tests) with HOSTS (comma-separated names), SUBNET,
# AGENT (DIR/agent: the rsh agent for `mpirun --mca plm_rsh_agent`) and MPIRUN_HOSTS_ARGS (the
# mpirun flags that launch on the hosts and keep Open MPI's traffic on the bridge). mpirun itself
# runs outside the hosts, like a login node: `mpirun $MPIRUN_HOSTS_ARGS -n 2 --host h1,h2 app …`.
#
# Every name it creates carries a prefix derived from DIR, so two clusters can coexist and a
# stop always finds what its start made. Needs root (ip netns, mount).
set -euo pipefail
cmd="${1:?usage: cluster.sh start|stop|run|link|limit DIR ...}"
dir="${2:?usage: cluster.sh start|stop|run|link|limit DIR ...}"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# Names: a 4-hex prefix from the folder's path keeps interface names under 15 characters.
tag=$(printf '%s' "$dir" | sha1sum | cut -c1-4)
prefix="jd${tag}"
bridge="${prefix}br"
marker="# jackdaw-test-hosts ${dir}"

nsOf() { echo "${prefix}n${1##*-}"; }  # host jd1a2b-3 -> namespace jd1a2bn3
vethOf() { echo "${prefix}v${1##*-}"; }

stop() {
  local hosts=()
  if [ -f "$dir/hosts.env" ]; then
    # shellcheck disable=SC1091
    IFS=, read -r -a hosts <<<"$(. "$dir/hosts.env"; echo "$HOSTS")"
  fi
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${prefix}n" || true); do
    # Processes still inside a host (orted, ranks, slurmd): a test that failed or was killed.
    for pid in $(ip netns pids "$ns" 2>/dev/null || true); do kill -KILL "$pid" 2>/dev/null || true; done
    ip netns del "$ns" 2>/dev/null || true
  done
  for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 | grep "^${prefix}" || true); do
    ip link del "$link" 2>/dev/null || true
  done
  if grep -qF "$marker" /etc/hosts 2>/dev/null; then
    # /etc/hosts may be a bind mount: rewrite it in place rather than replace it.
    local keep
    keep=$(grep -vF "$marker" /etc/hosts)
    printf '%s\n' "$keep" >/etc/hosts
  fi
  rm -f "$dir/hosts.env"
}

case "$cmd" in
  stop) stop; exit 0 ;;
  run)
    host="${3:?usage: cluster.sh run DIR HOST CMD...}"
    shift 3
    exec "$dir/agent" "$host" "$@"
    ;;
  link)
    host="${3:?}" state="${4:?up|down}"
    ip link set "$(vethOf "$host")b" "$state"
    [ "$state" = up ] || exit 0
    # Back up: addresses that failed to resolve while it was cut off would make connections fail
    # with "no route to host" for a while (a daemon started now would give up). Forget them, and
    # return once the host answers.
    ip -n "$(nsOf "$host")" neigh flush all 2>/dev/null || true
    ip neigh flush dev "$bridge" 2>/dev/null || true
    # shellcheck disable=SC1091
    bridgeAddr=$(. "$dir/hosts.env"; echo "${SUBNET%.0/24}.1")
    for _ in $(seq 50); do
      ip netns exec "$(nsOf "$host")" ping -c1 -W1 "$bridgeAddr" >/dev/null 2>&1 && exit 0
      sleep 0.1
    done
    echo "cluster.sh: host $host does not answer after its link came back" >&2
    exit 1
    ;;
  limit)
    host="${3:?}" rate="${4:?RATE|none}"
    dev="$(vethOf "$host")b"
    tc qdisc del dev "$dev" root 2>/dev/null || true
    [ "$rate" = none ] && exit 0
    exec tc qdisc add dev "$dev" root tbf rate "$rate" burst 32kbit latency 400ms
    ;;
  start) ;;
  *) echo "cluster.sh: unknown command $cmd" >&2; exit 2 ;;
esac

n="${3:?usage: cluster.sh start DIR N}"
case "$dir/" in
  /dev/shm/*)
    echo "cluster.sh: $dir is under /dev/shm, which each emulated host replaces with its own; use a folder elsewhere" >&2
    exit 2 ;;
esac
# Every host mounts a /tmp of its own. Folders under the machine's /tmp that the hosts need (this
# cluster's folder, and CLUSTER_SHARE: e.g. a checkout, its build and the tests' work folders) are
# bound back in at the same paths, as a shared file system would show them.
keep=""
for p in "$dir" ${CLUSTER_SHARE:-}; do
  case "$p/" in
    /tmp/?*) top="/tmp/$(cut -d/ -f3 <<<"$p")"; case " $keep " in *" $top "*) ;; *) keep="$keep $top" ;; esac ;;
  esac
done
[[ "$n" =~ ^[1-8]$ ]] || { echo "cluster.sh: N must be 1..8" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "cluster.sh: needs root (ip netns)" >&2; exit 2; }
# The tools the hosts need, installed if missing (as tests/slurm/cluster.sh does for Slurm): a fresh
# Debian 12 has no ping.
need=()
for tool in ip:iproute2 tc:iproute2 ping:iputils-ping unshare:util-linux; do
  command -v "${tool%%:*}" >/dev/null || case " ${need[*]} " in *" ${tool#*:} "*) ;; *) need+=("${tool#*:}") ;; esac
done
if ((${#need[@]})); then
  echo "cluster.sh: installing ${need[*]}" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; } ||
    { echo "cluster.sh: cannot install ${need[*]}" >&2; exit 2; }
fi
stop  # whatever an earlier run with this folder left

# A /24 of 10.0.0.0/8 that no interface here uses.
for _ in $(seq 50); do
  third=$((RANDOM % 250 + 2)) second=$((RANDOM % 200 + 20))
  subnet="10.${second}.${third}"
  ip -4 addr | grep -q " ${subnet}\." || break
done
ip link add "$bridge" type bridge
ip addr add "${subnet}.1/24" dev "$bridge"
ip link set "$bridge" up

names=()
hostsLines=""
for i in $(seq "$n"); do
  host="${prefix}-${i}"
  ns=$(nsOf "$host") veth=$(vethOf "$host")
  ip netns add "$ns"
  ip link add "${veth}h" type veth peer name "${veth}b"
  ip link set "${veth}h" netns "$ns"
  ip link set "${veth}b" master "$bridge" up
  ip -n "$ns" link set lo up
  ip -n "$ns" link set "${veth}h" name eth0
  ip -n "$ns" addr add "${subnet}.$((i + 1))/24" dev eth0
  ip -n "$ns" link set eth0 up
  names+=("$host")
  hostsLines+="${subnet}.$((i + 1)) ${host} ${marker}"$'\n'
done
printf '%s' "$hostsLines" >>/etc/hosts

# `ip netns exec` mounts a /sys of the namespace's own, without the cgroup file systems under it;
# daemons that need them (slurmd) get the machine's cgroup mounts again, replayed in the host's
# mount namespace.
awk '$2 ~ "^/sys/fs/cgroup" {printf "mkdir -p %s && mount -t %s -o %s %s %s\n", $2, $3, $4, $1, $2}' /proc/mounts \
  >"$dir/cgroup-mounts.sh"

# The rsh agent: `agent HOST [ssh options] COMMAND...` runs COMMAND on HOST, in its namespaces, with
# its hostname, a /dev/shm and a /tmp of its own (as a real node has: Slurm's PMIx and Open MPI keep
# per-job folders there; the kept folders above bound back in) and the machine's cgroup file systems.
mkdir -p /run/jackdaw-hosts-tmp  # where a host's mount namespace keeps the machine's /tmp in view
cat >"$dir/agent" <<AGENT
#!/usr/bin/env bash
host="\$1"; shift
while [ \$# -gt 0 ] && [ "\${1#-}" != "\$1" ]; do shift; done
case "\$host" in ${prefix}-[0-9]*) ;; *) echo "agent: unknown host \$host" >&2; exit 255 ;; esac
exec ip netns exec "${prefix}n\${host##*-}" unshare --uts --mount --ipc --propagation private \\
  bash -c 'hostname "\$0" && mount -t tmpfs -o size=512m,mode=1777 tmpfs /dev/shm && mount --rbind /tmp /run/jackdaw-hosts-tmp && mount -t tmpfs -o mode=1777 tmpfs /tmp && for k in ${keep}; do mkdir -p "\$k" && mount --rbind "/run/jackdaw-hosts-tmp/\${k#/tmp/}" "\$k" || exit 1; done && { bash "\$2" 2>/dev/null; exec bash -c "\$1"; }' \
  "\$host" "\$*" "${dir}/cgroup-mounts.sh"
AGENT
chmod +x "$dir/agent"

hostsCsv=$(IFS=,; echo "${names[*]}")
cat >"$dir/hosts.env" <<ENV
HOSTS=${hostsCsv}
SUBNET=${subnet}.0/24
AGENT=${dir}/agent
MPIRUN_HOSTS_ARGS="--mca plm_rsh_agent ${dir}/agent --mca oob_tcp_if_include ${subnet}.0/24 --mca btl_tcp_if_include ${subnet}.0/24 --mca plm_rsh_no_tree_spawn 1 --mca orte_startup_timeout 60"
ENV
# Each host answers on the bridge before anyone uses it.
for i in $(seq "$n"); do
  ip netns exec "$(nsOf "${prefix}-${i}")" ping -c1 -W2 "${subnet}.1" >/dev/null ||
    { echo "cluster.sh: host ${prefix}-${i} cannot reach the bridge" >&2; stop; exit 1; }
done
cat "$dir/hosts.env"
