#!/usr/bin/env bash
# The official MCP conformance suite against awf, both sides (docs/mcp-gateway.md#conformance):
# - server scenarios against `awf serve`'s /mcp, in a scratch project whose one upstream server
#   (test/fixtures/upstreams/conformance-tools.server.cjs) has the tools the scenarios call, served
#   unprefixed: what passes measures what awf's gateway carries between a client and an upstream;
# - client scenarios against awf's upstream client, through the built `awf mcp-serve`
#   (test/conformance/awf-client.mjs).
# What awf does not do yet is listed, with why, in test/conformance/baseline.yml: a scenario that
# fails and is not listed fails this script, and so does one that is listed and passes.
# The suite needs Node 22 (scripts/ci/node22.sh); awf itself runs on this machine's node.
set -uo pipefail
# (not -e: every scenario runs, the exit status says whether any failed)
cd "$(dirname "$0")/../.."
ROOT="$PWD"
VERSION=0.1.16
NODE22="$(bash scripts/ci/node22.sh)/bin/node"
SUITE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/awf-ci/conformance-$VERSION"
SUITE="$SUITE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -f "$SUITE" ]; then
  mkdir -p "$SUITE_DIR"
  npm install --prefix "$SUITE_DIR" --no-save --no-package-lock --no-audit --no-fund \
    "@modelcontextprotocol/conformance@$VERSION" >&2
fi
[ -f dist/main.js ] || npm run build
BASELINE="$ROOT/test/conformance/baseline.yml"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/awf-conformance-XXXXXX")"
SERVE_PID=
cleanup() {
  if [ -n "$SERVE_PID" ]; then kill "$SERVE_PID" 2>/dev/null || true; wait "$SERVE_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/project/.awf"
cat >"$WORK/project/.awf/config.yaml" <<EOF
mcp_servers:
  conformance:
    command: node
    args: ["$ROOT/test/fixtures/upstreams/conformance-tools.server.cjs"]
    prefix: ""
EOF
(cd "$WORK/project" && XDG_DATA_HOME="$WORK/data" exec node "$ROOT/dist/main.js" serve --port 0 >"$WORK/serve.out" 2>&1) &
SERVE_PID=$!
for _ in $(seq 1 200); do
  grep -q 'MCP endpoint' "$WORK/serve.out" && break
  kill -0 "$SERVE_PID" 2>/dev/null || { cat "$WORK/serve.out"; exit 1; }
  sleep 0.1
done
URL="$(grep -o 'http://[^ ]*/mcp' "$WORK/serve.out")"
status=0
echo "== server scenarios against awf serve ($URL)"
"$NODE22" "$SUITE" server --url "$URL" --expected-failures "$BASELINE" || status=1

echo "== client scenarios against awf's upstream client (awf mcp-serve)"
# Every client scenario the suite lists (OAuth ones included; a stand-in browser signs in).
scenarios="$("$NODE22" "$SUITE" list | sed -n '/^Client scenarios/,$p' | sed -n 's/^  - \([^ ]*\).*/\1/p')"
for scenario in $scenarios; do
  "$NODE22" "$SUITE" client --command "node $ROOT/test/conformance/awf-client.mjs" \
    --scenario "$scenario" --expected-failures "$BASELINE" 2>&1 | tee "$WORK/client.out" || status=1
  # The suite counts a scenario with no checks as passed even when the client crashed.
  if grep -q 'CLIENT EXITED WITH ERROR' "$WORK/client.out" && ! grep -q "^  - $scenario\b" "$BASELINE"; then
    echo "awf's client exited with an error in $scenario"
    status=1
  fi
done
exit "$status"
