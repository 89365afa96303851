import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, runAwf, scratchDir } from '../support/cli';

// Real processes on a shared machine: generous bounds, never timing assertions.
jest.setTimeout(600_000);

const WORKFLOW = `name: contract
inputs:
  - name: who
    type: string
    default: world
states:
  initial: ask
  ask:
    type: agent
    provider: script
    prompt: unused
    mcp_proxy:
      enable: true
    options:
      calls:
        - tool: Bash
          args: {command: echo hi}
          expect: hi
    on_success: greet
  greet:
    type: step
    command: echo "hello {{.inputs.who}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

/** One JSON object on one line, with the schema version: what a script may rely on. */
function oneObject(stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  const value = JSON.parse(lines[0]) as Record<string, unknown>;
  expect(value.schema_version).toBe(1);
  return value;
}

describe('the command line contract: global flags anywhere, JSON on every -f json, runs show from history.db', () => {
  const project = scratchDir({ 'wf.yaml': WORKFLOW });
  const store = join(project.dir, 'store');
  const env = {
    AWF_STORAGE: store,
    XDG_DATA_HOME: join(project.dir, 'xdg'),
    XDG_CONFIG_HOME: join(project.dir, 'config'),
    AWF_PLUGINS_PATH: resolve(REPO_ROOT, 'examples/plugins'),
    AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000',
    // Unset, not empty: Node 22 warns on stderr when both are defined, and stderr is checked here.
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
  };
  afterAll(() => project.cleanup());
  const awf = (args: string[]) => runAwf(args, { cwd: project.dir, env, timeout: 120_000 });
  let runId = '';

  beforeAll(() => {
    const r = awf(['run', 'wf.yaml', '-f', 'json']);
    expect(r.status).toBe(0);
    runId = String(oneObject(r.stdout).run_id);
  });

  it.each([
    ['-q'],
    ['--quiet'],
    ['--verbose'],
    ['--no-color'],
    ['--no-hints'],
    ['--log-level', 'warn'],
    ['--storage', 'store'],
    ['-f', 'text'],
    ['--format=text'],
  ])('global flag %p works before the command, after it, and after its argument', (...flag) => {
    for (const args of [
      [...flag, 'validate', 'wf.yaml'],
      ['validate', ...flag, 'wf.yaml'],
      ['validate', 'wf.yaml', ...flag],
    ]) {
      const r = awf(args);
      expect([args.join(' '), r.status]).toEqual([args.join(' '), 0]);
    }
  });

  it('every -f json output is one object with schema_version', () => {
    const outputs: Array<[string[], (v: Record<string, unknown>) => void]> = [
      [['run', 'wf.yaml', '-q', '-f', 'json'], (v) => expect(v.status).toBe('success')],
      [['run', 'wf.yaml', '--dry-run', '-f', 'json'], (v) => expect(v.dry_run).toBe(true)],
      [['run', 'wf.yaml', '--help', '-f', 'json'], (v) => expect(v.workflow).toBe('contract')],
      [['run', 'wf.yaml', '-s', 'greet', '-f', 'json'], (v) => expect(v.status).toBe('success')],
      [['validate', 'wf.yaml', '-f', 'json'], (v) => expect(v).toMatchObject({ valid: true, workflow: 'contract' })],
      [['validate', '--dir', '.', '-f', 'json'], (v) => expect(v.valid).toBe(true)],
      [['list', '-f', 'json'], (v) => expect(v.workflows).toEqual([])],
      [['history', '-f', 'json'], (v) => expect((v.runs as unknown[]).length).toBeGreaterThan(0)],
      [['runs', 'list', '-f', 'json'], (v) => expect(v.runs).toBeDefined()],
      [['resume-list', '-f', 'json'], (v) => expect(v.runs).toEqual([])],
      [['resume', '-f', 'json'], (v) => expect(v.runs).toEqual([])],
      [['status', runId.slice(0, 8), '-f', 'json'], (v) => expect(v.run_id).toBe(runId)],
      [['runs', 'show', runId, '-f', 'json'], (v) => expect(v.run_id).toBe(runId)],
      [['runs', 'prune', '--older-than', '30d', '-f', 'json'], (v) => expect(v.removed).toEqual([])],
      [['plugin', 'list', '-f', 'json'], (v) => expect(v.plugins).toBeDefined()],
      [['plugin', 'disable', 'time', '-f', 'json'], (v) => expect(v).toMatchObject({ plugin: 'time', enabled: false })],
      [['plugin', 'enable', 'time', '-f', 'json'], (v) => expect(v).toMatchObject({ plugin: 'time', enabled: true })],
      [
        ['plugin', 'init', 'demo', '-o', join(project.dir, 'demo-plugin'), '-f', 'json'],
        (v) => expect(v.plugin).toBe('demo'),
      ],
    ];
    for (const [args, check] of outputs) {
      const r = awf(args);
      expect([args.join(' '), r.status]).toEqual([args.join(' '), 0]);
      check(oneObject(r.stdout));
    }
  });

  it('an error before any result is one JSON object on stderr with -f json, stdout empty (as AWF), with its exit code', () => {
    const errors: Array<[string[], string, number]> = [
      [['frobnicate', '-f', 'json'], 'USER.CLI.INVALID_ARGS', 1],
      [['-f', 'json', 'run', 'wf.yaml', '--frobnicate'], 'USER.CLI.INVALID_ARGS', 1],
      [['run', 'wf.yaml', '-o', 'loud', '-f', 'json'], 'USER.CLI.INVALID_ARGS', 1],
      [['run', 'nowhere', '-f', 'json'], 'USER.WORKFLOW.NOT_FOUND', 1],
      [['run', 'wf.yaml', '-i', 'nope=1', '-f', 'json'], 'USER.INPUT.VALIDATION_FAILED', 1],
      [['run', 'wf.yaml', '-s', 'done', '-f', 'json'], 'USER.CLI.INVALID_ARGS', 1],
      [['status', 'ffffffff', '-f', 'json'], 'USER.RUN.NOT_FOUND', 1],
      [['resume', 'ffffffff', '-f', 'json'], 'USER.RUN.NOT_FOUND', 1],
      [['resume', runId, '-f', 'json'], 'USER.RUN.NOT_RESUMABLE', 1],
      [['history', '--since', 'soon', '-f', 'json'], 'USER.CLI.INVALID_ARGS', 1],
    ];
    for (const [args, code, exit] of errors) {
      const r = awf(args);
      const v = oneObject(r.stderr);
      expect([args.join(' '), r.status, r.stdout, v.status, (v.error as { code: string }).code]).toEqual([
        args.join(' '),
        exit,
        '',
        'error',
        code,
      ]);
    }
  });

  it('awf runs show reads history.db: the tool calls are there with the run directory gone', () => {
    rmSync(join(store, 'runs', runId), { recursive: true, force: true });
    const r = awf(['runs', 'show', runId.slice(0, 8)]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`run ${runId} (workflow contract, status success`);
    expect(r.stdout).toMatch(/step ask: 1 tool call\b/);
    expect(r.stdout).toMatch(/Bash\s+builtin\s+[\d.]+ ms\s+ok\s+\(command=7\)/);
    const json = oneObject(awf(['runs', 'show', runId, '-f', 'json']).stdout);
    expect((json.steps as Array<{ step: string; events: unknown[] }>).map((s) => [s.step, s.events.length])).toEqual([
      ['ask', 1],
    ]);
    expect(existsSync(join(store, 'runs', runId))).toBe(false);
  });
});
