/**
 * `awf mcp-config --client <cli> --write` registers the proxy in the real CLI's own user config
 * (next to what is there already), and that CLI, started by hand with nothing but that config,
 * lists awf's tools to the (scripted) model and calls one through `awf mcp-serve`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientConfigFile } from '../../src/infrastructure/agents/mcp-client-entry';
import { serve } from '../support/awf-serve';
import { runAwf } from '../support/cli';
import { agentWorld, cliBin, type CliName } from './agent-cli.harness';
import { startScriptedModel, type ScriptedModel } from './scripted-model.server';

const PROMPT = 'Read hello.txt with the awf tool.';

/** The clients `awf mcp-config` writes for (Copilot is driven through the proxy only, as in AWF). */
type Client = Exclude<CliName, 'copilot'>;

/** How a user runs each CLI headless with the servers of its own config (docs/agents.md). */
const HEADLESS: Record<Client, string[]> = {
  claude: ['-p', PROMPT, '--allowedTools', 'mcp__awf', '--output-format', 'json'],
  codex: [
    'exec',
    '--skip-git-repo-check',
    '--json',
    '--dangerously-bypass-approvals-and-sandbox',
    '--model',
    'gpt-5',
    PROMPT,
  ],
  gemini: ['-p', PROMPT, '--approval-mode', 'yolo', '--output-format', 'json', '--model', 'gemini-2.5-flash'],
  opencode: ['run', '--format', 'json', PROMPT],
};

function runCli(cli: Client, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cliBin(cli), HEADLESS[cli], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 200_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe.each(['claude', 'codex', 'gemini', 'opencode'] as Client[])(
  'awf mcp-config --client %s --write, then the real CLI',
  (cli) => {
    let model: ScriptedModel;
    beforeAll(async () => {
      model = await startScriptedModel();
    });
    afterAll(() => model.close());

    it('keeps the user’s config, and the CLI lists and calls an awf tool through the written entry', async () => {
      const world = agentWorld(cli, model.url, { files: { 'hello.txt': `hello from ${cli} via mcp-config\n` } });
      try {
        const file = clientConfigFile(cli, world.project, world.env);
        // The harness has written the CLI's own settings (model server, auth) there already, but for Claude.
        const before = existsSync(file) ? readFileSync(file, 'utf8') : '{}';
        if (cli !== 'codex')
          writeFileSync(file, JSON.stringify({ ...(JSON.parse(before) as object), theirs: { kept: true } }));
        const made = runAwf(['mcp-config', '--client', cli, '--write', '--root', world.project], {
          env: world.env,
          timeout: 120_000,
        });
        expect(made.stderr).toContain(`added MCP server "awf" to ${file}`);
        expect(made.status).toBe(0);
        const after = readFileSync(file, 'utf8');
        if (cli === 'codex') expect(after.startsWith(before.trimEnd())).toBe(true);
        else expect(JSON.parse(after)).toMatchObject({ ...(JSON.parse(before) as object), theirs: { kept: true } });

        model.reset([{ tool: 'Read', args: { file_path: join(world.project, 'hello.txt') } }], 'FINAL');
        const run = await runCli(cli, world.project, world.env);
        const offered = model.requests.filter((r) => r.tools.some((t) => t.endsWith('Read') && t.includes('awf')));
        expect({ code: run.code, offered: offered.length > 0 }).toEqual({ code: 0, offered: true });
        expect(offered.at(-1)?.toolResults.join('\n')).toContain(`hello from ${cli} via mcp-config`);
      } finally {
        world.cleanup();
      }
    });
  },
);

describe('awf mcp-config --client claude --url, then the real Claude Code over HTTP', () => {
  let model: ScriptedModel;
  beforeAll(async () => {
    model = await startScriptedModel();
  });
  afterAll(() => model.close());

  it("registers awf serve's /mcp by URL (the token an env reference) and Claude Code calls Read through it", async () => {
    const world = agentWorld('claude', model.url, { files: { 'hello.txt': 'hello from claude over /mcp\n' } });
    const token = 'agnt'.repeat(10);
    const server = await serve({ dir: world.project, env: world.env }, [], { AWF_API_TOKEN: token });
    try {
      const made = runAwf(['mcp-config', '--client', 'claude', '--write', '--url', server.url], {
        cwd: world.project,
        env: world.env,
        timeout: 120_000,
      });
      expect(made.status).toBe(0);
      expect(readFileSync(clientConfigFile('claude', world.project, world.env), 'utf8')).not.toContain(token);
      model.reset([{ tool: 'Read', args: { file_path: 'hello.txt' } }], 'FINAL');
      const run = await runCli('claude', world.project, { ...world.env, AWF_API_TOKEN: token });
      const offered = model.requests.filter((r) => r.tools.some((t) => t.endsWith('Read') && t.includes('awf')));
      expect({ code: run.code, offered: offered.length > 0 }).toEqual({ code: 0, offered: true });
      expect(offered.at(-1)?.toolResults.join('\n')).toContain('hello from claude over /mcp');
    } finally {
      server.child.kill('SIGTERM');
      await server.exit;
      world.cleanup();
    }
  });
});
