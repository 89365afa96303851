/**
 * Installs the pinned agent CLIs into a cache directory outside the repository, once per set of versions.
 * The directory name hashes the pins, so bumping a version installs next to the old set instead of over it.
 * Used by the test:agents global setup and runnable alone: `npx ts-node`-free via `node -r ts-node`? No:
 * jest's globalSetup calls installAgentClis(); `node test/agents/install-agent-clis.js` does the same from a shell.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The versions proven to run offline against the scripted model server (see docs/agents.md). */
export const AGENT_CLI_PINS: Readonly<Record<string, string>> = {
  '@anthropic-ai/claude-code': '2.1.197',
  '@github/copilot': '1.0.102',
  '@google/gemini-cli': '0.61.0',
  '@openai/codex': '0.171.0',
  'opencode-ai': '1.18.33',
};

/**
 * The pinned CLIs whose install scripts must run: npm 11 skips dependency install scripts unless
 * the project's `allowScripts` lists them (`npm help install-scripts`). Claude Code's and
 * OpenCode's postinstall copy their native binary over a placeholder `bin/*.exe`; without it
 * neither CLI starts. Gemini CLI, Codex and Copilot (its binary is an optional dependency) have none.
 */
export const AGENT_CLI_ALLOW_SCRIPTS: Readonly<Record<string, true>> = Object.fromEntries(
  ['@anthropic-ai/claude-code', 'opencode-ai'].map((name) => [`${name}@${AGENT_CLI_PINS[name]}`, true]),
);

export function agentCliCacheDir(): string {
  const base =
    process.env.AWF_AGENT_CLI_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'awf-agent-clis');
  // The allow list is part of the key: a set installed without the scripts is never reused.
  const key = createHash('sha256')
    .update(JSON.stringify({ pins: AGENT_CLI_PINS, allowScripts: AGENT_CLI_ALLOW_SCRIPTS }))
    .digest('hex')
    .slice(0, 12);
  return join(base, key);
}

/** Returns the `node_modules/.bin` directory holding claude, copilot, gemini, codex and opencode. */
export function installAgentClis(log: (line: string) => void = () => undefined): string {
  const dir = agentCliCacheDir();
  const bin = join(dir, 'node_modules', '.bin');
  if (existsSync(join(dir, '.complete'))) return bin;
  // Install into a sibling and rename, so an interrupted install never looks complete.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(
    join(staging, 'package.json'),
    JSON.stringify({ name: 'awf-agent-clis', private: true, allowScripts: AGENT_CLI_ALLOW_SCRIPTS }),
  );
  const specs = Object.entries(AGENT_CLI_PINS).map(([name, version]) => `${name}@${version}`);
  log(`installing ${specs.join(' ')} into ${dir} (first use only)`);
  execFileSync('npm', ['install', '--prefix', staging, '--no-audit', '--no-fund', '--save-exact', ...specs], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 15 * 60_000,
  });
  writeFileSync(join(staging, '.complete'), `${specs.join('\n')}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return bin;
}
