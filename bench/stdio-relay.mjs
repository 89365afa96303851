#!/usr/bin/env node
// The floor of the upstream row (bench/lib/upstream-bench.mjs): one more process between an MCP
// client and its server that does nothing but forward. `node stdio-relay.mjs <command> [args…]`
// spawns the server and copies bytes both ways (`--lines`: splits, parses and re-serialises each
// JSON-RPC line, the least any proxy that reads messages does). Whatever this adds is the cost
// of the extra hop itself (two more pipe writes and process wake-ups per call), not of awf.
import { spawn } from 'node:child_process';

const lines = process.argv[2] === '--lines';
const [command, ...args] = process.argv.slice(lines ? 3 : 2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const forward = (from, to) => {
  if (!lines) return from.pipe(to);
  let rest = '';
  from.on('data', (chunk) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop();
    for (const part of parts) if (part) to.write(`${JSON.stringify(JSON.parse(part))}\n`);
  });
};
forward(process.stdin, child.stdin);
forward(child.stdout, process.stdout);
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 1));
