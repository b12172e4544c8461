#!/usr/bin/env bash
# A three-master Redis Cluster on loopback (ports 7001-7003 unless REDIS_CLUSTER_PORTS says others),
# for the tests that run on a cluster (REDIS_CLUSTER_NODES). Idempotent: a cluster whose nodes all
# answer cluster_state:ok is left as it is; otherwise the nodes are (re)started and the cluster is
# made again from empty nodes. Nothing is persisted; files go to /tmp.
set -euo pipefail

ports=(${REDIS_CLUSTER_PORTS:-7001 7002 7003})
dir=/tmp/church-redis-cluster

state() { redis-cli -h 127.0.0.1 -p "$1" cluster info 2>/dev/null | tr -d '\r' | sed -n 's/^cluster_state://p'; }
all_ok() {
  for port in "${ports[@]}"; do [ "$(state "$port")" = ok ] || return 1; done
}

if all_ok; then
  echo "Redis Cluster already up on ports ${ports[*]}"
  exit 0
fi

mkdir -p "$dir"
for port in "${ports[@]}"; do
  if ! redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; then
    rm -f "$dir/nodes-$port.conf"
    redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes \
      --cluster-config-file "$dir/nodes-$port.conf" --cluster-node-timeout 5000 \
      --save "" --appendonly no --dir "$dir" --daemonize yes --logfile "$dir/$port.log"
  fi
done
for port in "${ports[@]}"; do
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
done

# Anything less than a healthy cluster (a node restarted, a half-made cluster) is made again from empty nodes.
for port in "${ports[@]}"; do
  redis-cli -h 127.0.0.1 -p "$port" flushall >/dev/null
  redis-cli -h 127.0.0.1 -p "$port" cluster reset hard >/dev/null
done
redis-cli --cluster create $(printf '127.0.0.1:%s ' "${ports[@]}") --cluster-replicas 0 --cluster-yes >/dev/null

for _ in $(seq 1 100); do
  if all_ok; then
    echo "Redis Cluster up on ports ${ports[*]}"
    exit 0
  fi
  sleep 0.1
done
echo "Redis Cluster on ports ${ports[*]} did not reach cluster_state:ok" >&2
exit 1
