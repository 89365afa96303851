/**
 * Per-test worlds for the real agent CLIs: a project dir, a private HOME/XDG so no personal
 * config leaks in, each CLI pointed at the scripted model, a hand-written proxy config for
 * the built `awf mcp-serve`, and probes for leftovers (temp dirs, processes).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProxyInjection } from '../../src/domain/ports/agent-provider.port';
import type { AppLogger } from '../../src/domain/ports/app-logger.port';
import { AWF_MAIN } from '../support/cli';

export type CliName = 'claude' | 'codex' | 'copilot' | 'gemini' | 'opencode';

/** The `provider:` that drives each CLI. */
export const PROVIDER_OF: Readonly<Record<CliName, string>> = {
  claude: 'claude',
  codex: 'codex',
  copilot: 'github_copilot',
  gemini: 'gemini',
  opencode: 'opencode',
};

export function cliBin(name: CliName): string {
  const dir = process.env.AWF_AGENT_CLI_BIN;
  if (!dir)
    throw new Error(
      'AWF_AGENT_CLI_BIN is unset: run through `npm run test:agents` (its global setup installs the CLIs)',
    );
  return join(dir, name);
}

export interface AgentWorld {
  project: string;
  home: string;
  /** Environment for the CLI: private home, model server URL, telemetry off. */
  env: Record<string, string>;
  /** Step options the CLI needs against the scripted model. */
  options: Record<string, unknown>;
  proxyConfigPath: string;
  injection(interceptBuiltins: boolean, extra?: Record<string, unknown>): ProxyInjection;
  cleanup(): void;
}

/** A project with `files`, whose `.awf/config.yaml` loads `extensions`, set up for `cli` against `modelUrl`. */
export function agentWorld(
  cli: CliName,
  modelUrl: string,
  opts: { extensions?: string[]; files?: Record<string, string> } = {},
): AgentWorld {
  const root = mkdtempSync(join(tmpdir(), `awf-agents-test-${cli}-`));
  const project = join(root, 'project');
  const home = join(root, 'home');
  const xdg = (d: string) => join(home, d);
  for (const d of [
    project,
    join(project, '.awf'),
    xdg('.config'),
    xdg('.local/share'),
    xdg('.cache'),
    xdg('.local/state'),
  ])
    mkdirSync(d, { recursive: true });
  if (opts.extensions?.length) {
    writeFileSync(
      join(project, '.awf', 'config.yaml'),
      `extensions:\n${opts.extensions.map((e) => `  - ${JSON.stringify(e)}`).join('\n')}\n`,
    );
  }
  for (const [name, content] of Object.entries(opts.files ?? {})) {
    mkdirSync(join(project, name, '..'), { recursive: true });
    writeFileSync(join(project, name), content);
  }
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: xdg('.config'),
    XDG_DATA_HOME: xdg('.local/share'),
    XDG_CACHE_HOME: xdg('.cache'),
    XDG_STATE_HOME: xdg('.local/state'),
    AWF_LOG_LEVEL: 'warn',
    NO_COLOR: '1',
  };
  const options: Record<string, unknown> = { binary: cliBin(cli) };
  setUpCli(cli, modelUrl, home, env, options);
  const proxyConfigPath = join(root, 'proxy-config.json');
  return {
    project,
    home,
    env,
    options,
    proxyConfigPath,
    injection(interceptBuiltins, extra = {}) {
      writeFileSync(
        proxyConfigPath,
        JSON.stringify({
          version: 1,
          intercept_builtins: interceptBuiltins,
          plugin_tools: [],
          root_dir: project,
          ...extra,
        }),
      );
      return {
        serverName: 'awf-proxy',
        command: process.execPath,
        args: [AWF_MAIN, 'mcp-serve', `--config=${proxyConfigPath}`],
        env: { AWF_LOG_LEVEL: 'warn' },
        configPath: proxyConfigPath,
        interceptBuiltins,
      };
    },
    cleanup: () => (process.env.AGENTS_KEEP ? undefined : rmSync(root, { recursive: true, force: true })),
  };
}

function setUpCli(
  cli: CliName,
  url: string,
  home: string,
  env: Record<string, string>,
  options: Record<string, unknown>,
): void {
  switch (cli) {
    case 'claude':
      Object.assign(env, {
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_API_KEY: 'scripted',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
      });
      return;
    case 'codex': {
      const codexHome = join(home, '.codex');
      mkdirSync(codexHome);
      writeFileSync(
        join(codexHome, 'config.toml'),
        [
          'model_provider = "scripted"',
          'check_for_update_on_startup = false',
          '[analytics]',
          'enabled = false',
          '[features]',
          'plugins = false',
          'remote_plugin = false',
          'apps = false',
          '[model_providers.scripted]',
          'name = "scripted"',
          `base_url = "${url}/v1"`,
          'env_key = "SCRIPTED_API_KEY"',
          'wire_api = "responses"',
          '',
        ].join('\n'),
      );
      Object.assign(env, { CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'scripted' });
      options.model = 'gpt-5';
      return;
    }
    case 'copilot':
      // BYOK against the scripted model's Chat Completions; offline: no GitHub login, no telemetry.
      Object.assign(env, {
        COPILOT_OFFLINE: 'true',
        COPILOT_AUTO_UPDATE: 'false',
        COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
        COPILOT_PROVIDER_API_KEY: 'scripted',
        COPILOT_MODEL: 'gpt-4o',
      });
      return;
    case 'gemini':
      mkdirSync(join(home, '.gemini'));
      writeFileSync(
        join(home, '.gemini', 'settings.json'),
        JSON.stringify({
          general: { enableAutoUpdate: false },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        }),
      );
      Object.assign(env, { GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'scripted' });
      options.model = 'gemini-2.5-flash';
      return;
    case 'opencode':
      mkdirSync(join(home, '.config', 'opencode'), { recursive: true });
      writeFileSync(
        join(home, '.config', 'opencode', 'opencode.json'),
        JSON.stringify({
          model: 'scripted/scripted-model',
          autoupdate: false,
          share: 'disabled',
          provider: {
            scripted: {
              npm: '@ai-sdk/openai-compatible',
              options: { baseURL: `${url}/v1`, apiKey: 'scripted' },
              models: { 'scripted-model': { tool_call: true } },
            },
          },
        }),
      );
      Object.assign(env, {
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_SHARE: '1',
      });
      return;
  }
}

/** Processes whose command line mentions `needle` (a unique config path): what a run must not leave behind. */
export function processesMentioning(needle: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmd.includes(needle) && Number(pid) !== process.pid) found.push(`${pid} ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The provider temp dirs (`awf-<provider>-*`) currently in the temp dir. */
export function providerTempDirs(provider: string): string[] {
  return readdirSync(tmpdir())
    .filter((e) => e.startsWith(`awf-${provider}-`))
    .sort();
}

export interface RecordingLogger extends AppLogger {
  lines: Array<{ level: string; fields: object; msg: string }>;
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = [];
  const at = (level: string) => (fields: object, msg: string) => void lines.push({ level, fields, msg });
  const logger: RecordingLogger = {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return logger;
}

/** Async on purpose: the scripted model answers from this process's event loop. */
export function awfRun(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [AWF_MAIN, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface WorldRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The world's root: the run's TMPDIR (`tmp/`) and storage (`storage/`) are in it. */
  root: string;
  storage: string;
  tmp: string;
}

/**
 * `awf run <wf> -f json` of `workflowYaml` in `world`, from its project: TMPDIR and
 * AWF_STORAGE private to the run, so every temp file awf makes (proxy config, agent config)
 * and the run's record land under the world, where the checks below read them.
 */
export async function runWorkflowIn(world: AgentWorld, workflowYaml: string): Promise<WorldRun> {
  const root = join(world.project, '..');
  const tmp = join(root, 'tmp');
  const storage = join(root, 'storage');
  mkdirSync(tmp, { recursive: true });
  writeFileSync(join(root, 'wf.yaml'), workflowYaml);
  const run = await awfRun(['run', join(root, 'wf.yaml'), '-f', 'json'], world.project, {
    ...world.env,
    TMPDIR: tmp,
    AWF_STORAGE: storage,
  });
  return { ...run, root, storage, tmp };
}

/** The audit events of `step` in the run's record (the world holds one run). */
export function stepEvents(run: WorldRun, step: string): Array<Record<string, unknown>> {
  const runs = readdirSync(join(run.storage, 'runs'));
  if (runs.length !== 1) throw new Error(`expected one run in ${run.storage}, found ${runs.length}`);
  return readFileSync(join(run.storage, 'runs', runs[0], `${step}.events.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** What a finished run must not leave: awf's temp files in its TMPDIR, processes naming its world. */
export function worldLeftovers(run: WorldRun): { tempFiles: string[]; processes: string[] } {
  return {
    tempFiles: readdirSync(run.tmp).filter((entry) => entry.startsWith('awf-')),
    processes: processesMentioning(run.root),
  };
}
