#!/usr/bin/env bash
# Runs examples.py against a fresh Parley server (demo organization, temporary data directory).
# Needs the python-zulip-api checkout's `zulip` package: PYTHON_ZULIP_API=<checkout>/zulip, and
# Debian's python3 with python3-requests, python3-distro and python3-typing-extensions.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
: "${PYTHON_ZULIP_API:?set PYTHON_ZULIP_API to the zulip/ folder of a python-zulip-api checkout}"
data="$(mktemp -d)"
port="${PARLEY_EXAMPLES_PORT:-9391}"
cd "$repo"
PARLEY_DATA_DIR="$data" PARLEY_PORT="$port" PARLEY_DEMO=1 PARLEY_RATE_LIMIT=0 node dist/src/main.js >"$data/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/api/v1/server_settings" >/dev/null && break
  sleep 0.3
done
PYTHONPATH="$PYTHON_ZULIP_API" "${PYTHON:-/usr/bin/python3}" "$here/examples.py" "http://127.0.0.1:$port"
