#!/usr/bin/env node
// Stands in for an agent CLI in unit specs: records how it was started (argv, the
// environment and config files a provider hands over) into FAKE_PROBE_FILE, then behaves as
// FAKE_BEHAVIOUR says: print FAKE_STDOUT and exit FAKE_EXIT, or hang, leaving a grandchild.
const { writeFileSync, readFileSync, existsSync } = require('node:fs');
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const argv = process.argv.slice(2);
const read = (file) => (file && existsSync(file) ? readFileSync(file, 'utf8') : null);
const after = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
if (process.env.FAKE_PROBE_FILE) {
  writeFileSync(process.env.FAKE_PROBE_FILE, JSON.stringify({
    argv, cwd: process.cwd(), pwd: process.env.PWD,
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(MCP_|ENABLE_TOOL_SEARCH|AWF_|TRACEPARENT|OPENCODE_CONFIG|GEMINI_CLI_HOME|VIBE_HOME)/.test(k))),
    files: {
      mcpConfig: read(after('--mcp-config')),
      opencode: read(process.env.OPENCODE_CONFIG),
      gemini: read(process.env.GEMINI_CLI_HOME && join(process.env.GEMINI_CLI_HOME, '.gemini', 'settings.json')),
      geminiLinked: process.env.GEMINI_CLI_HOME ? read(join(process.env.GEMINI_CLI_HOME, '.gemini', 'oauth_creds.json')) : null,
      copilotMcp: read(after('--additional-mcp-config')?.replace(/^@/, '')),
      vibeConfig: read(process.env.VIBE_HOME && join(process.env.VIBE_HOME, 'config.toml')),
      vibeEnv: read(process.env.VIBE_HOME && join(process.env.VIBE_HOME, '.env')),
    },
  }));
}
const behaviour = process.env.FAKE_BEHAVIOUR ?? 'print';
if (behaviour === 'hang') {
  const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  if (process.env.FAKE_PROBE_FILE) writeFileSync(`${process.env.FAKE_PROBE_FILE}.grandchild`, String(grandchild.pid));
  process.stderr.write('working...\n');
  setInterval(() => {}, 1000);
} else {
  process.stdout.write(process.env.FAKE_STDOUT ?? '');
  process.stderr.write(process.env.FAKE_STDERR ?? '');
  process.exitCode = Number(process.env.FAKE_EXIT ?? 0);
}
