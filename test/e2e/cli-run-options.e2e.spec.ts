import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, runAwf, scratchDir } from '../support/cli';

// Real processes on a shared machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

const WORKFLOW = `name: opts
description: Shows run's options
inputs:
  - name: who
    type: string
    description: whom to greet
    default: world
  - name: token
    type: string
    secret: true
    default: t0ps3cret
states:
  initial: first
  first:
    type: step
    command: 'echo "one {{.inputs.who}}"; echo "warn $token" >&2; echo two; touch ran-first'
    on_success: second
  second:
    type: step
    command: echo "got $(echo '{{.states.first.Output}}' | head -n 1)"; touch ran-second
    on_success: done
  done:
    type: terminal
    status: success
`;

const PLUGIN_WF = `name: uses-plugin
states:
  initial: clock
  clock:
    type: operation
    operation: time.now
    on_success: done
  done:
    type: terminal
    status: success
`;

describe('awf run: -o, --dry-run, -s/-m, --skip-plugins, <wf> --help', () => {
  const project = scratchDir({ 'wf.yaml': WORKFLOW, 'plugin.yaml': PLUGIN_WF, 'lib/found.yaml': WORKFLOW });
  const env = {
    AWF_STORAGE: join(project.dir, 'store'),
    AWF_PLUGINS_PATH: resolve(REPO_ROOT, 'examples/plugins'),
    XDG_DATA_HOME: join(project.dir, 'xdg'),
    AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000',
    NO_COLOR: '1',
  };
  afterAll(() => project.cleanup());
  const awf = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    runAwf(args, { cwd: project.dir, env: { ...env, ...extra }, timeout: 120_000 });
  const clean = () =>
    ['ran-first', 'ran-second'].forEach((f) => require('node:fs').rmSync(join(project.dir, f), { force: true }));

  it('-o streaming prints each line of each step as [OUT] on stdout and [ERR] on stderr, secrets masked', () => {
    const r = awf(['run', 'wf.yaml', '-o', 'streaming', '-i', 'who=you']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('[OUT] one you\n[OUT] two\n[OUT] got one you\n');
    expect(r.stderr).toContain('[ERR] warn ***\n');
    expect(r.stderr).not.toContain('t0ps3cret');
  });

  it('-o buffered prints the same lines once each step is done; silent (default) only the output', () => {
    const buffered = awf(['run', 'wf.yaml', '--output=buffered']);
    expect(buffered.status).toBe(0);
    expect(buffered.stdout).toBe('[OUT] one world\n[OUT] two\n[OUT] got one world\n');
    const silent = awf(['run', 'wf.yaml', '-o', 'silent']);
    expect(silent.stdout).toBe('got one world\n');
    expect(silent.stderr).not.toContain('[ERR]');
  });

  it('-o streaming with -f json keeps stdout to the one report and the lines on stderr', () => {
    const r = awf(['run', 'wf.yaml', '-o', 'streaming', '-f', 'json']);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ schema_version: 1, status: 'success', workflow: 'opts' });
    expect(r.stderr).toContain('[OUT] one world\n');
  });

  it('refuses an unknown output mode with a coded usage error', () => {
    const r = awf(['run', 'wf.yaml', '-o', 'loud']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('[USER.CLI.INVALID_ARGS] invalid output mode "loud"');
  });

  it('--dry-run prints the plan with interpolated commands and runs nothing, starts no proxy, keeps no record', () => {
    clean();
    const dry = { AWF_STORAGE: join(project.dir, 'dry-store') };
    const r = awf(['run', 'wf.yaml', '--dry-run', '-i', 'who=you'], dry);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Dry Run: opts\n=============\n');
    expect(r.stdout).toContain('Inputs:\n  token: *** (default)\n  who: you\n');
    expect(r.stdout).toContain(
      '[1] first\n    Command: echo "one you"; echo "warn $token" >&2; echo two; touch ran-first\n    -> on_success → second',
    );
    expect(r.stdout).toContain(
      `[2] second\n    Command: echo "got $(echo '{{.states.first.Output}}' | head -n 1)"; touch ran-second`,
    );
    expect(r.stdout).toContain('[T] done (success)');
    expect(r.stdout).toContain('OK No commands will be executed (dry-run mode).');
    expect(existsSync(join(project.dir, 'ran-first'))).toBe(false);
    expect(existsSync(join(project.dir, 'dry-store', 'runs'))).toBe(false);
    const json = JSON.parse(awf(['run', 'wf.yaml', '--dry-run', '-f', 'json']).stdout);
    expect(json).toMatchObject({ schema_version: 1, dry_run: true, workflow: 'opts' });
    expect(json.steps.map((s: { name: string }) => s.name)).toEqual(['first', 'second', 'done']);
    expect(awf(['history', '-f', 'json'], dry).stdout).toContain('"runs":[]');
  });

  it('-s runs one step with -m mocked states; the others do not run', () => {
    clean();
    const r = awf(['run', 'wf.yaml', '-s', 'second', '-m', 'states.first.Output=cached data']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('got cached data\n');
    expect(r.stderr).toContain('Running single step: second from workflow: wf.yaml');
    expect(existsSync(join(project.dir, 'ran-first'))).toBe(false);
    expect(existsSync(join(project.dir, 'ran-second'))).toBe(true);
    const bad = awf(['run', 'wf.yaml', '--step=nope']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('[USER.CLI.INVALID_ARGS] --step "nope" is not a step of opts');
    expect(awf(['run', 'wf.yaml', '-m', 'states.first.Output=x']).stderr).toContain('--mock needs --step');
    expect(awf(['run', 'wf.yaml', '-s', 'second', '-m', 'first=x']).status).toBe(1);
  });

  it('--skip-plugins: no plugin is looked for, so a step that needs one warns first, then fails', () => {
    const withPlugins = awf(['run', 'plugin.yaml', '-f', 'json']);
    expect(withPlugins.status).toBe(0);
    const skipped = awf(['run', 'plugin.yaml', '--skip-plugins']);
    expect(skipped.status).toBe(1);
    expect(skipped.stderr).toContain('warning: [WORKFLOW.VALIDATION.UNKNOWN_OPERATION] states.');
    expect(skipped.stderr).toContain('unknown operation "time.now"');
    expect(skipped.stderr).toContain('[USER.MCP_PROXY.UNKNOWN_PLUGIN] plugin "time" is not installed');
    expect(awf(['run', 'wf.yaml', '--skip-plugins']).status).toBe(0);
  });

  it("`awf run <wf> --help` lists that workflow's inputs, then run's options; -f json gives them as data", () => {
    const r = awf(['run', 'wf.yaml', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Workflow: opts\nDescription: Shows run's options\n\nInput Parameters:\n");
    expect(r.stdout).toMatch(
      / {2}NAME +TYPE +REQUIRED +DEFAULT +DESCRIPTION\n {2}who +string +no +world +whom to greet\n/,
    );
    expect(r.stdout).toContain('--dry-run');
    expect(r.stdout.match(/-h, --help/g)).toHaveLength(1);
    const json = JSON.parse(awf(['run', 'wf.yaml', '-h', '-f', 'json']).stdout);
    expect(json.inputs[0]).toEqual({
      name: 'who',
      type: 'string',
      required: false,
      default: 'world',
      description: 'whom to greet',
      secret: false,
    });
    const plain = awf(['run', '--help']);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('Usage: awf run [options] [workflow]');
    const none = awf(['run']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('[USER.CLI.INVALID_ARGS] awf run needs a workflow');
  });

  it('finds <name>.yaml through AWF_WORKFLOWS_PATH when it is not in the working directory', () => {
    const r = awf(['run', 'found.yaml', '-q'], { AWF_WORKFLOWS_PATH: join(project.dir, 'lib') });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('got one world\n');
    expect(awf(['run', 'found', '-q'], { AWF_WORKFLOWS_PATH: join(project.dir, 'lib') }).status).toBe(0);
  });

  it('--interactive without a terminal is refused with a hint, and nothing runs', () => {
    clean();
    const r = awf(['run', 'wf.yaml', '--interactive']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('[USER.CLI.INVALID_ARGS] --interactive and --breakpoint need a terminal on stdin');
    expect(awf(['run', 'wf.yaml', '-b', 'second']).status).toBe(1);
    expect(awf(['run', 'wf.yaml', '--dry-run', '--interactive']).stderr).toContain('cannot be combined');
    expect(readdirSync(project.dir)).not.toContain('ran-first');
  });
});
