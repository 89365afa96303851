#!/usr/bin/env bash
# `npm test` on Node 22, in a clone of this checkout so that the native addon (better-sqlite3)
# is built against Node 22's headers without touching the Node 20 build in ./node_modules.
set -euo pipefail
cd "$(dirname "$0")/../.."
NODE22="$(bash scripts/ci/node22.sh)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/awf-node22-XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
git clone --quiet . "$WORK/awf"
cd "$WORK/awf"
export PATH="$NODE22/bin:$PATH" npm_config_nodedir="$NODE22"
echo "node $(node --version), npm $(npm --version) in $WORK/awf"
npm ci --no-audit --no-fund
npm test
