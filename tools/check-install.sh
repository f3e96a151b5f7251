#!/usr/bin/env bash
# A fresh clone as a new operator gets it: the README's install command leaves the checkout clean
# (the lock file is complete), `npm ci` works too, and `npm start` then SIGTERM to the npm process
# leaves nothing running within the drain period + 2 s.
#   tools/check-install.sh [commit]      (default: HEAD of this checkout; nothing here is changed)
set -euo pipefail
source_repo="$(cd "$(dirname "$0")/.." && pwd)"
commit="${1:-HEAD}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAILED: $*"; exit 1; }

step "fresh clone of $commit"
git clone --quiet --no-checkout "$source_repo" "$work/parley"
cd "$work/parley"
git checkout --quiet --detach "$(git -C "$source_repo" rev-parse "$commit")"

step "the README's install command: npm install"
npm install --no-audit --no-fund --prefer-offline > "$work/install.log" 2>&1 || { tail -20 "$work/install.log"; fail "npm install"; }
[ -f dist/src/main.js ] || fail "npm install did not build the server (dist/src/main.js missing)"
changes="$(git status --porcelain)"
[ -z "$changes" ] || { echo "$changes"; git diff --stat; fail "the checkout changed after npm install"; }
echo "clean after npm install; the server is built"

step "npm ci"
npm ci --no-audit --no-fund --prefer-offline > "$work/ci.log" 2>&1 || { tail -20 "$work/ci.log"; fail "npm ci"; }
changes="$(git status --porcelain)"
[ -z "$changes" ] || { echo "$changes"; fail "the checkout changed after npm ci"; }
echo "npm ci works; still clean"

step "npm start in its own session, then SIGTERM to npm"
drain=1
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
PARLEY_DATA_DIR="$work/data" PARLEY_PORT="$port" PARLEY_DEMO=1 PARLEY_DRAIN_SECONDS="$drain" \
  setsid npm start > "$work/start.log" 2>&1 < /dev/null &
npm_pid=$!
for _ in $(seq 600); do grep -q 'Parley listening on' "$work/start.log" && break; sleep 0.1; done
grep -q 'Parley listening on' "$work/start.log" || { cat "$work/start.log"; fail "the server did not start"; }
server_pid="$(pgrep -g "$npm_pid" -f 'dist/src/main.js')"
echo "npm $npm_pid, server $server_pid"
kill -TERM "$npm_pid"
start=$(date +%s%N)
limit=$(( (drain + 2) * 1000 ))
while kill -0 "$server_pid" 2>/dev/null; do
  elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
  [ "$elapsed" -le "$limit" ] || { kill -KILL -- "-$npm_pid" 2>/dev/null; fail "the server still runs ${elapsed} ms after SIGTERM to npm"; }
  sleep 0.05
done
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
sleep 0.5
if pgrep -g "$npm_pid" > /dev/null; then kill -KILL -- "-$npm_pid"; fail "something of npm start is left running"; fi
echo "the server is gone ${elapsed} ms after SIGTERM to npm (drain ${drain} s + 2 s allowed)"
grep -q '"signal":"SIGTERM"' "$work/start.log" || fail "the server did not log the signal"

step "all good"
