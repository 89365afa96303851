#!/usr/bin/env bash
# The conformance suite's server scenarios against @modelcontextprotocol/server-everything served
# directly (its Streamable HTTP entry) and through awf's /mcp fronting it (the same server over
# stdio, unprefixed), compared scenario by scenario (test/conformance/compare-servers.mjs): awf's
# gateway should change nothing a client can see. The differences there are, each with why, are in
# test/conformance/server-everything-differences.yml (docs/mcp-gateway.md#conformance).
# usage: conformance-compare.sh <node 22> <suite 0.1.16> <suite 0.2.0-alpha.12>   (from conformance.sh)
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
NODE22="$1" SUITE="$2" NEXT_SUITE="$3"
EVERYTHING="$ROOT/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
DIFFERENCES="$ROOT/test/conformance/server-everything-differences.yml"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/awf-conformance-compare-XXXXXX")"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# $1 the log to wait in for $2 (a line the server prints once it listens), $3 its pid.
wait_for() {
  for _ in $(seq 1 200); do
    grep -q "$2" "$1" && return 0
    kill -0 "$3" 2>/dev/null || { cat "$1"; return 1; }
    sleep 0.1
  done
  cat "$1"
  return 1
}

PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
PORT="$PORT" node "$EVERYTHING" streamableHttp >"$WORK/everything.out" 2>&1 &
PIDS+=($!)
wait_for "$WORK/everything.out" 'listening on port' "$!" || exit 1
DIRECT="http://127.0.0.1:$PORT/mcp"

mkdir -p "$WORK/project/.awf"
cat >"$WORK/project/.awf/config.yaml" <<YAML
mcp_servers:
  everything:
    command: node
    args: ["$EVERYTHING", "stdio"]
    prefix: ""
YAML
(cd "$WORK/project" && XDG_DATA_HOME="$WORK/data" exec node "$ROOT/dist/main.js" serve --port 0 >"$WORK/serve.out" 2>&1) &
PIDS+=($!)
wait_for "$WORK/serve.out" 'MCP endpoint' "$!" || exit 1
AWF="$(grep -o 'http://[^ ]*/mcp' "$WORK/serve.out")"

status=0
# $1 the run's name (its key in the differences file), then the suite and its flags.
both() {
  local name="$1"
  shift
  "$NODE22" "$@" --url "$DIRECT" >"$WORK/$name.direct" 2>&1
  "$NODE22" "$@" --url "$AWF" >"$WORK/$name.awf" 2>&1
}
echo "== server scenarios: server-everything direct ($DIRECT) vs through awf ($AWF)"
both server "$SUITE" server
node test/conformance/compare-servers.mjs "$WORK/server.direct" "$WORK/server.awf" "$DIFFERENCES" server || status=1
both server-2025-11-25 "$NEXT_SUITE" server --spec-version 2025-11-25
node test/conformance/compare-servers.mjs "$WORK/server-2025-11-25.direct" "$WORK/server-2025-11-25.awf" \
  "$DIFFERENCES" server-2025-11-25 || status=1
# server-everything is built on the v1 SDK and speaks no 2026-07-28 (it answers every request of
# that run "Server not initialized"): awf's 2026-07-28 answers are compared with its own 2025-11-25
# ones, scenario by scenario, passed or failed.
both server-2026-07-28 "$NEXT_SUITE" server --spec-version 2026-07-28
grep -h '^Total' "$WORK/server-2026-07-28.direct" | sed 's/^/  server-everything direct at 2026-07-28: /'
node test/conformance/compare-servers.mjs --status "$WORK/server-2025-11-25.direct" "$WORK/server-2026-07-28.awf" \
  "$DIFFERENCES" server-2026-07-28 || status=1
exit "$status"
