#!/usr/bin/env bash
# A Parley cluster on loopback from Debian packages (docs/cluster.md): three nats-servers (one
# JetStream cluster), a seed data directory made by an embedded Parley, and three Parley nodes
# started from copies of it. Public ports 9001-9003 (any of them serves every organization).
# Usage: tools/cluster-local.sh DIR   (after `npm install`; stop with: kill $(cat DIR/*.pid))
set -euo pipefail
dir=${1:?usage: tools/cluster-local.sh DIR}
cd "$(dirname "$0")/.."
mkdir -p "$dir"
routes="nats-route://127.0.0.1:6222, nats-route://127.0.0.1:6223, nats-route://127.0.0.1:6224"
for i in 0 1 2; do
  mkdir -p "$dir/nats$i"
  cat > "$dir/nats$i.conf" <<CONF
server_name: n$i
listen: 127.0.0.1:$((4222 + i))
jetstream { store_dir: "$dir/nats$i" }
cluster { name: parley, listen: 127.0.0.1:$((6222 + i)), routes: [$routes] }
CONF
  nats-server -c "$dir/nats$i.conf" > "$dir/nats$i.log" 2>&1 &
  echo $! > "$dir/nats$i.pid"
done

# The seed: an embedded server's first start creates the organization (its owner's credentials
# are printed once, into seed.log), then it stops. Every node starts from a copy.
export PARLEY_EXTERNAL_URL=${PARLEY_EXTERNAL_URL:-http://localhost:9000}
if [ ! -d "$dir/seed" ]; then
  PARLEY_DATA_DIR="$dir/seed" PARLEY_PORT=9100 PARLEY_DRAIN_SECONDS=0 node dist/src/main.js > "$dir/seed.log" 2>&1 &
  seed=$!
  until grep -q 'listening' "$dir/seed.log"; do sleep 0.2; done
  kill -TERM "$seed"; wait "$seed" || true
  grep -A3 'Created' "$dir/seed.log" || true
fi

for i in 1 2 3; do
  [ -d "$dir/p$i" ] || cp -r "$dir/seed" "$dir/p$i"
  PARLEY_DATA_DIR="$dir/p$i" PARLEY_PORT=$((9100 + i)) PARLEY_NODE_URL=http://127.0.0.1:$((9100 + i)) \
  PARLEY_CLUSTER_PORT=$((9000 + i)) PARLEY_NODE_NAME=p$i \
  PARLEY_CLUSTER_NATS=nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224 \
    node dist/src/main.js > "$dir/p$i.log" 2>&1 &
  echo $! > "$dir/p$i.pid"
done
echo "Parley nodes on http://127.0.0.1:9001, :9002, :9003 (logs and pids in $dir)"
