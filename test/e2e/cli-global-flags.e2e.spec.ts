import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AWF_MAIN, runAwf, scratchDir } from '../support/cli';

const WORKFLOW = `name: hello
inputs:
  - name: who
    type: string
    default: world
states:
  initial: greet
  greet:
    type: step
    command: echo "hello {{.inputs.who}}"
    on_success: done
  done:
    type: terminal
    status: success
`;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** Runs awf under a pseudo-terminal (util-linux `script`), as a user at a terminal would. */
function onTty(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const line = [process.execPath, AWF_MAIN, ...args].map((a) => `'${a}'`).join(' ');
  const r = spawnSync('script', ['-qfec', line, '/dev/null'], {
    cwd,
    env: { ...process.env, AWF_LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return r.stdout;
}

describe('global flags, in any position', () => {
  const project = scratchDir({ 'wf.yaml': WORKFLOW, '.awf/workflows/hello.yaml': WORKFLOW });
  // Unset, not empty: Node 22 warns on stderr when both are set, even empty.
  const env = { AWF_STORAGE: join(project.dir, 'store'), NO_COLOR: undefined, FORCE_COLOR: undefined };
  afterAll(() => project.cleanup());
  const awf = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    runAwf(args, { cwd: project.dir, env: { ...env, ...extra } });

  it('prints the run id at the start in text mode, before or after the command name', () => {
    const r = awf(['run', 'wf.yaml', '-i', 'who=you']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('hello you\n');
    expect(r.stderr).toMatch(new RegExp(`^Workflow started: hello\\nWorkflow ID: ${UUID.source}\\n`));
  });

  it.each([[['-q', 'run', 'wf.yaml']], [['run', 'wf.yaml', '--quiet']]])(
    '-q %p keeps stderr free of progress',
    (args) => {
      const r = awf(args);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('hello world\n');
      expect(r.stderr).toBe('');
    },
  );

  it.each([
    [['--format', 'json', 'run', 'wf.yaml']],
    [['run', 'wf.yaml', '-f', 'json']],
    [['run', '--format=json', 'wf.yaml']],
  ])('-f json %p prints one report with schema_version', (args) => {
    const r = awf(args);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      schema_version: 1,
      workflow: 'hello',
      status: 'success',
      run_id: expect.stringMatching(UUID),
    });
  });

  it('puts an error before the run as one JSON object on stderr with -f json, stdout empty (as AWF)', () => {
    const r = awf(['--format', 'json', 'run', 'missing-workflow']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toMatchObject({
      schema_version: 1,
      status: 'error',
      exit_code: 1,
      error: { code: 'USER.WORKFLOW.NOT_FOUND' },
    });
  });

  it('refuses an unknown format with exit 1 and a coded line', () => {
    const r = awf(['-f', 'xml', 'list']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^\[USER\.CLI\.INVALID_ARGS\] invalid output format "xml"/);
  });

  it('--no-hints drops the hint line; text errors carry one otherwise', () => {
    expect(awf(['run', 'missing-workflow']).stderr).toContain('  hint: ');
    expect(awf(['run', 'missing-workflow', '--no-hints']).stderr).not.toContain('hint:');
  });

  it('colours only where asked: FORCE_COLOR in a pipe, --no-color and NO_COLOR beat it', () => {
    expect(awf(['run', 'missing-workflow']).stderr).not.toContain('\x1b[');
    expect(awf(['run', 'missing-workflow'], { FORCE_COLOR: '1' }).stderr).toContain(
      '\x1b[31m[USER.WORKFLOW.NOT_FOUND]\x1b[0m',
    );
    expect(awf(['run', 'missing-workflow', '--no-color'], { FORCE_COLOR: '1' }).stderr).not.toContain('\x1b[');
    expect(awf(['run', 'missing-workflow'], { FORCE_COLOR: '1', NO_COLOR: '1' }).stderr).not.toContain('\x1b[');
  });

  it('colours on a terminal, but not for TERM=dumb', () => {
    expect(onTty(['run', 'missing-workflow'], project.dir, { ...env, TERM: 'xterm' })).toContain('\x1b[31m');
    expect(onTty(['run', 'missing-workflow'], project.dir, { ...env, TERM: 'dumb' })).not.toContain('\x1b[');
  });

  it('--storage decides where the run is kept', () => {
    const store = join(project.dir, 'elsewhere');
    const r = awf(['run', 'hello', '--storage', store, '-f', 'json']);
    expect(r.status).toBe(0);
    expect(existsSync(join(store, 'history.db'))).toBe(true);
    expect(readdirSync(join(store, 'runs'))).toContain(JSON.parse(r.stdout).run_id);
  });

  it('--verbose and --log-level debug turn on debug logs on stderr, in human form', () => {
    for (const flag of [['--verbose'], ['--log-level', 'debug']]) {
      const r = awf(['run', 'wf.yaml', ...flag], { AWF_LOG_LEVEL: '' });
      expect(r.stderr).toMatch(/^debug: /m);
      expect(r.stderr).not.toMatch(/"level":20/);
    }
    expect(awf(['--log-level', 'loud', 'list']).stderr).toMatch(
      /^\[USER\.CLI\.INVALID_ARGS\] invalid log level "loud"/,
    );
  });

  it('-f table draws a box, -f quiet prints names only', () => {
    expect(awf(['list', '-f', 'table']).stdout).toMatch(/^┌─+┬/);
    expect(awf(['-f', 'quiet', 'list']).stdout).toBe('hello\n');
  });
});
