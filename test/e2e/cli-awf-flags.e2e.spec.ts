import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(180_000);

/** Passes or fails on the file `ok`; sleeps long enough that durations are not zero. */
const FLAKY = `name: flaky
states:
  initial: check
  check:
    type: step
    command: sleep 0.05; test -f ok
    on_success: done
  done: {type: terminal}
`;

/** A proxied step exposing a plugin's tools, and a plugin that never completes its handshake. */
const USES_PLUGIN = `name: uses-plugin
states:
  initial: look
  look:
    type: agent
    provider: script
    prompt: x
    mcp_proxy:
      enable: true
      plugin_tools: [{plugin: mute}]
    options: {calls: []}
    on_success: done
  done: {type: terminal}
`;

describe("AWF's remaining command-line flags", () => {
  const p = workflowProject({
    'flaky.yaml': FLAKY,
    'uses-plugin.yaml': USES_PLUGIN,
    'plugins/mute/plugin.yaml': 'name: mute\nversion: 0.0.1\ncapabilities: [operations]\ncommand: [sleep, "30"]\n',
  });
  afterAll(() => p.cleanup());
  const run = (args: string[], env: Record<string, string> = {}) =>
    awf(args, { cwd: p.dir, env: { ...p.env, AWF_PLUGINS_PATH: join(p.dir, 'plugins'), ...env } });

  it("history --stats counts the runs the filters select, as AWF does; -s takes AWF's status words", () => {
    expect(run(['history', '--stats']).stdout).toBe(
      'Execution Statistics\n====================\nTotal Executions: 0\nSuccess: 0\nFailed: 0\nCancelled: 0\n',
    );
    expect(run(['run', 'flaky.yaml']).status).toBe(3);
    expect(run(['run', 'flaky.yaml']).status).toBe(3);
    require('node:fs').writeFileSync(join(p.dir, 'ok'), '');
    expect(run(['run', 'flaky.yaml']).status).toBe(0);
    const text = run(['history', '--stats']).stdout.split('\n');
    expect(text.slice(0, 6)).toEqual([
      'Execution Statistics',
      '====================',
      'Total Executions: 3',
      'Success: 1',
      'Failed: 2',
      'Cancelled: 0',
    ]);
    expect(text[6]).toMatch(/^Average Duration: [1-9]\d*ms$/);
    const json = JSON.parse(run(['-f', 'json', 'history', '--stats', '-n', '2']).stdout);
    expect(json).toMatchObject({ total_executions: 2, success_count: 1, failed_count: 1, cancelled_count: 0 });
    const failed = JSON.parse(run(['-f', 'json', 'history', '-s', 'failed']).stdout).runs;
    expect(failed.map((r: { status: string }) => r.status)).toEqual(['failure', 'failure']);
  });

  it('resume -l lists the runs resume can continue, as resume-list does', () => {
    const listed = run(['resume', '-l', '-f', 'quiet']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toBe(run(['resume-list', '-f', 'quiet']).stdout);
    expect(listed.stdout.trim().split('\n')).toHaveLength(2);
    expect(run(['resume', '--list', 'whatever', '-f', 'quiet']).stdout).toBe(listed.stdout);
  });

  it('validate --skip-plugins starts no plugin and leaves plugin_tools unchecked; --validator-timeout bounds a start', () => {
    const bounded = run(['validate', 'uses-plugin.yaml', '--validator-timeout', '300ms']);
    expect(bounded.status).toBe(1);
    expect(bounded.stderr).toContain(
      'plugin "mute" cannot start: plugin mute did not complete the handshake within 0.3 s',
    );
    const skipped = run(['validate', 'uses-plugin.yaml', '--skip-plugins'], {
      AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '60000',
    });
    expect([skipped.status, skipped.stdout]).toEqual([0, expect.stringContaining('valid')]);
    const bad = run(['validate', 'uses-plugin.yaml', '--validator-timeout', 'soon']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^\[USER\.CLI\.INVALID_ARGS\] --validator-timeout "soon" is not a duration/);
  });

  it('init --global writes the shared prompts/ and scripts/, keeps what exists, and a workflow runs the script', () => {
    const config = join(p.env.XDG_CONFIG_HOME, 'awf');
    const first = run(['init', '--global']);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(`Created ${config}/prompts/example.md\nCreated ${config}/scripts/example.sh\n`);
    expect(statSync(join(config, 'scripts/example.sh')).mode & 0o777).toBe(0o755);
    require('node:fs').writeFileSync(join(config, 'prompts/example.md'), 'mine\n');
    const again = run(['init', '--global']);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`Kept ${config}/prompts/example.md (it exists; --force writes it again)`);
    expect(readFileSync(join(config, 'prompts/example.md'), 'utf8')).toBe('mine\n');
    const forced = JSON.parse(run(['-f', 'json', 'init', '--global', '--force']).stdout);
    expect(forced).toMatchObject({ root: config, created: [], replaced: ['prompts/example.md', 'scripts/example.sh'] });
    expect(existsSync(join(p.dir, '.awf'))).toBe(false);
    require('node:fs').writeFileSync(
      join(p.dir, 'script.yaml'),
      'name: script\nstates:\n  initial: hello\n  hello:\n    type: step\n    script_file: "{{.awf.scripts_dir}}/example.sh"\n    on_success: done\n  done: {type: terminal}\n',
    );
    const ran = run(['run', 'script.yaml', '-q']);
    expect([ran.status, ran.stdout]).toEqual([0, 'Hello from an awf script\n']);
  });
});
