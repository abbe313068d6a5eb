#!/usr/bin/env bash
# Boots the server exactly as `npm start` does on a fresh clone (no DATABASE_URL, new data
# directory), then registers, logs in, checks /healthz and the web front end it serves beside the
# API, and shuts it down with SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."
data_dir=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
web_port=$((port + 1))
log=$(mktemp)
cleanup() { kill "$pid" 2>/dev/null || true; rm -rf "$data_dir"; }
trap cleanup EXIT

# Exactly `npm start`: its script execs node, so the SIGTERM below (sent to npm) reaches the server.
DATA_DIR="$data_dir" PORT="$port" WEB_PORT="$web_port" HOST=127.0.0.1 WEB_HOST=127.0.0.1 LOG_LEVEL=info npm start >"$log" 2>&1 &
pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  curl -fsS "$base/healthz" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "server exited during startup"; exit 1; }
  sleep 1
done
check() { # name, expected status, curl args...
  local name=$1 expected=$2; shift 2
  local status
  status=$(curl -sS -o /tmp/smoke-body -w '%{http_code}' "$@")
  if [ "$status" != "$expected" ]; then echo "FAIL $name: $status $(cat /tmp/smoke-body)"; cat "$log"; exit 1; fi
  echo "ok   $name ($status)"
}
check healthz 200 "$base/healthz"
grep -q '"ok":true' /tmp/smoke-body
body='{"email":"smoke@example.org","password":"smoke-test-password","handle":"smoke_test"}'
check register 201 -X POST -H 'content-type: application/json' -d "$body" "$base/api/auth/register"
check login 200 -X POST -H 'content-type: application/json' -d '{"email":"smoke@example.org","password":"smoke-test-password"}' "$base/api/auth/login"
token=$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync("/tmp/smoke-body","utf8")).token)')
check me 200 -H "authorization: Bearer $token" "$base/api/me"
check openapi 200 "$base/api/openapi.json"
check docs 200 "$base/api/docs"
web="http://127.0.0.1:$web_port"
check web-start-page 200 "$web/"
check web-guard-redirects 303 "$web/app/feed"
node_pid=$(ps -o pid= --ppid "$pid" | tr -d ' ')
kill -TERM "$pid"
wait "$pid" || true
for _ in $(seq 1 20); do kill -0 "$node_pid" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$node_pid" 2>/dev/null; then echo "FAIL server (pid $node_pid) still running after SIGTERM to npm"; cat "$log"; exit 1; fi
grep -q '"msg":"stopped"' "$log" && echo "ok   graceful shutdown through npm" || { echo "FAIL no clean stop"; cat "$log"; exit 1; }
echo "1 passed, 0 failed"
