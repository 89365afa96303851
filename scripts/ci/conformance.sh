#!/usr/bin/env bash
# The official MCP conformance suite against awf, both sides (docs/mcp-gateway.md#conformance):
# - server scenarios against `awf serve`'s /mcp, in a scratch project whose one upstream server
#   (test/fixtures/upstreams/conformance-tools.server.cjs) has the tools the scenarios call, served
#   unprefixed: what passes measures what awf's gateway carries between a client and an upstream;
# - client scenarios against awf's upstream client, through the built `awf mcp-serve`
#   (test/conformance/awf-client.mjs);
# - server scenarios against @modelcontextprotocol/server-everything direct and through /mcp, whose
#   results must be the same (scripts/ci/conformance-compare.sh).
# What awf does not do yet is listed, with why, in test/conformance/baseline.yml: a scenario that
# fails and is not listed fails this script, and so does one that is listed and passes.
# The suite needs Node 22 (scripts/ci/node22.sh); awf itself runs on this machine's node.
set -uo pipefail
# (not -e: every scenario runs, the exit status says whether any failed)
cd "$(dirname "$0")/../.."
ROOT="$PWD"
VERSION=0.1.16
# The pre-release with MCP 2026-07-28's scenarios (stateless HTTP, server/discover, _meta, headers).
NEXT_VERSION=0.2.0-alpha.12
NODE22="$(bash scripts/ci/node22.sh)/bin/node"
suite() {
  local dir="${XDG_CACHE_HOME:-$HOME/.cache}/awf-ci/conformance-$1"
  if [ ! -f "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund \
      "@modelcontextprotocol/conformance@$1" >&2
  fi
  echo "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
}
SUITE="$(suite "$VERSION")"
NEXT_SUITE="$(suite "$NEXT_VERSION")"
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

# Every client scenario a suite lists (OAuth ones included; a stand-in browser signs in), against
# awf's upstream client: $1 the suite, $2 the baseline, then the suite's own filter flags.
client_scenarios() {
  local suite="$1" baseline="$2"
  shift 2
  local scenarios
  scenarios="$("$NODE22" "$suite" list "$@" | sed -n '/^Client scenarios/,/^[A-Z]/p' | sed -n 's/^  - \([^ ]*\).*/\1/p')"
  for scenario in $scenarios; do
    "$NODE22" "$suite" client --command "node $ROOT/test/conformance/awf-client.mjs" "$@" \
      --scenario "$scenario" --expected-failures "$baseline" 2>&1 | tee "$WORK/client.out" || status=1
    # The suite counts a scenario with no checks as passed even when the client crashed.
    if grep -q 'CLIENT EXITED WITH ERROR' "$WORK/client.out" && ! grep -q "^  - $scenario\b" "$baseline"; then
      echo "awf's client exited with an error in $scenario"
      status=1
    fi
  done
}
echo "== client scenarios ($VERSION) against awf's upstream client (awf mcp-serve)"
client_scenarios "$SUITE" "$BASELINE"
echo "== client scenarios of MCP 2026-07-28 ($NEXT_VERSION) against awf's upstream client"
client_scenarios "$NEXT_SUITE" "$ROOT/test/conformance/baseline-2026-07-28.yml" --spec-version 2026-07-28
echo "== server scenarios: server-everything direct vs through awf's /mcp"
bash scripts/ci/conformance-compare.sh "$NODE22" "$SUITE" "$NEXT_SUITE" || status=1
exit "$status"
