#!/usr/bin/env bash
# Runs the examples against a fresh Parley server (demo organization, temporary data directory)
# with Zulip's Python client: the vendored copy, or PYTHON_ZULIP_API=<python-zulip-api>/zulip.
# Needs Debian's python3 with python3-requests, python3-distro, python3-typing-extensions, python3-yaml;
# PARLEY_OPENAPI names Zulip's OpenAPI document if it is not at ../shared/reference/zulip-openapi.yaml.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
openapi="${PARLEY_OPENAPI:-$repo/../shared/reference/zulip-openapi.yaml}"
[ -f "$openapi" ] || openapi="$repo/../../shared/reference/zulip-openapi.yaml"
data="$(mktemp -d)"
port="${PARLEY_EXAMPLES_PORT:-9391}"
cd "$repo"
PARLEY_DATA_DIR="$data" PARLEY_PORT="$port" PARLEY_DEMO=1 PARLEY_RATE_LIMIT=0 \
  PARLEY_BIG_BLUE_BUTTON_URL=https://bbb.example.com/bigbluebutton/ PARLEY_BIG_BLUE_BUTTON_SECRET=examples-secret \
  node dist/src/main.js >"$data/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/api/v1/server_settings" >/dev/null && break
  sleep 0.3
done
PYTHONPATH="${PYTHON_ZULIP_API:-$here/vendor}" "${PYTHON:-/usr/bin/python3}" "$here/examples.py" "http://127.0.0.1:$port" "$openapi"
