import { scratchDir } from '../support/cli';
import { awf } from './workflow-support';

const GOOD = `name: good
states:
  initial: hello
  hello:
    type: step
    command: echo hi
    on_success: done
  done:
    type: terminal
`;
const BAD = 'name: bad\nstates:\n  initial: nowhere\n  done:\n    type: terminal\n';

describe('awf validate --dir, and validate without a target', () => {
  const project = scratchDir({
    'wf/good.yaml': GOOD,
    'wf/bad.yaml': BAD,
    'wf/notes.txt': 'x',
    'wf/sub/deep.yaml': BAD,
    'empty/notes.txt': 'x',
  });
  afterAll(() => project.cleanup());

  it('checks every *.yaml directly in the dir: an OK or FAIL line each, then the count, exit 1 (bad does not load)', () => {
    const r = awf(['validate', '--dir', 'wf'], { cwd: project.dir });
    expect(r.status).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ {2}FAIL {2}bad: \[WORKFLOW\.VALIDATION\.MISSING_STATE\] /);
    expect(lines[1]).toBe('  OK    good');
    expect(r.stderr).toContain('1 of 2 workflow(s) failed validation');
  });

  it('says All N workflow(s) valid and exits 0 when they are; -f json carries every report', () => {
    const ok = scratchDir({ 'a.yaml': GOOD, 'b.yaml': GOOD.replace('name: good', 'name: other') });
    try {
      const r = awf(['validate', '--dir', ok.dir]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('  OK    good\n  OK    other\nAll 2 workflow(s) valid\n');
    } finally {
      ok.cleanup();
    }
    const json = awf(['validate', '--dir', 'wf', '-f', 'json'], { cwd: project.dir });
    expect(json.status).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ schema_version: 1, valid: false });
    expect(report.workflows.map((w: { workflow: string; valid: boolean }) => [w.workflow, w.valid])).toEqual([
      ['bad', false],
      ['good', true],
    ]);
  });

  it('refuses no target at all with a coded error and a hint, and a --dir that does not exist', () => {
    const none = awf(['validate'], { cwd: project.dir });
    expect(none.status).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(
      '[USER.CLI.INVALID_ARGS] provide a workflow name, --pack or --dir\n' +
        '  hint: For example: awf validate my-workflow, awf validate wf.yaml, awf validate --dir .awf/workflows\n',
    );
    const missing = awf(['validate', '--dir', 'nope'], { cwd: project.dir });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^\[USER\.INPUT\.MISSING_FILE\] cannot read --dir .*nope: ENOENT/);
  });

  it('refuses a --dir with no *.yaml directly in it instead of calling nothing valid', () => {
    const empty = awf(['validate', '--dir', 'empty'], { cwd: project.dir });
    expect(empty.status).toBe(1);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toMatch(/^\[USER\.INPUT\.MISSING_FILE\] no \*\.yaml file directly in --dir \/.*\/empty\n/);
    expect(empty.stderr).toContain('hint: Point --dir at the directory that holds the workflows');
  });
});

describe('commands that explain or set up, in a project whose .awf/config.yaml is broken', () => {
  const broken = scratchDir({ '.awf/config.yaml': 'policy: [\n' });
  afterAll(() => broken.cleanup());

  it('still answer: error, completion, --version and --help; a command that needs the project reports the file', () => {
    for (const args of [['error', 'USER.CONFIG.INVALID'], ['completion', 'bash'], ['--version'], ['--help']]) {
      const r = awf(args, { cwd: broken.dir });
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: 0, stderr: '' });
    }
    expect(awf(['error', 'USER.CONFIG.INVALID'], { cwd: broken.dir }).stdout).toContain('Exit code: 1');
    const list = awf(['list'], { cwd: broken.dir });
    expect(list.status).toBe(1);
    expect(list.stderr).toMatch(/^\[USER\.CONFIG\.INVALID\] .*config\.yaml is not valid YAML/);
  });
});

describe('awf error', () => {
  it('explains one code: its exit code, what it means and what to do', () => {
    const r = awf(['error', 'USER.INPUT.VALIDATION_FAILED']);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual([
      'Error Code: USER.INPUT.VALIDATION_FAILED',
      'Exit code: 1',
      '',
      'Description:',
    ]);
    expect(r.stdout).toContain('\nResolution:\n  Pass it with `-i name=value`');
    expect(r.stdout).toContain('\nRelated Codes:\n  - USER.INPUT.INVALID_FORMAT\n');
  });

  it('lists every code, or those under a prefix, each with its exit code; -f json and quiet for scripts', () => {
    const all = awf(['error', '-f', 'json']);
    const codes = JSON.parse(all.stdout).codes as { code: string; exit_code: number | null; resolution: string }[];
    expect(codes.length).toBeGreaterThan(80);
    expect(codes.every((c) => c.resolution.length > 0)).toBe(true);
    expect(codes.find((c) => c.code === 'EXECUTION.STEP.TIMEOUT')?.exit_code).toBe(3);
    expect(codes.find((c) => c.code === 'POLICY.TOOL_DENIED')?.exit_code).toBeNull();
    const quiet = awf(['error', '-f', 'quiet']).stdout.trim().split('\n');
    expect(quiet).toEqual(codes.map((c) => c.code));
    const prefix = awf(['error', 'system.history']);
    expect(prefix.stdout).toMatch(
      /^SYSTEM\.HISTORY\.FAILED \(exit 4\)\n {2}.+\n {2}Resolution: .+\n\nSYSTEM\.HISTORY\./,
    );
    const listed = prefix.stdout.split('\n').filter((l) => /^\S/.test(l));
    expect(listed.every((l) => l.startsWith('SYSTEM.HISTORY.'))).toBe(true);
    expect(listed).toContain('SYSTEM.HISTORY.UNAVAILABLE (exit 4)');
  });

  it('refuses an unknown code with a coded error, suggesting the nearest one', () => {
    const r = awf(['error', 'USER.INPUT.VALIDATION_FAILD']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      '[USER.ERROR.UNKNOWN_CODE] error code not found: USER.INPUT.VALIDATION_FAILD\n' +
        '  hint: Did you mean USER.INPUT.VALIDATION_FAILED? Run `awf error` for every code, or `awf error USER` for one category.\n',
    );
    const json = awf(['error', 'NOPE', '-f', 'json']);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toMatchObject({
      status: 'error',
      exit_code: 1,
      error: { code: 'USER.ERROR.UNKNOWN_CODE' },
    });
  });
});

describe('awf plugins (alias of awf plugin)', () => {
  it('runs the same subcommands', () => {
    const env = { AWF_PLUGINS_PATH: '/nonexistent-awf-plugins' };
    const alias = awf(['plugins', 'list', '-f', 'json'], { env });
    expect(alias.status).toBe(0);
    expect(alias.stdout).toBe(awf(['plugin', 'list', '-f', 'json'], { env }).stdout);
    expect(JSON.parse(alias.stdout)).toEqual({ schema_version: 1, plugins: [] });
  });
});

describe('typos: did-you-mean, and YAML syntax errors shown where they are', () => {
  const project = scratchDir({
    '.awf/workflows/three.yaml': GOOD.replace('name: good', 'name: three'),
    '.awf/workflows/deploy-prod.yaml': GOOD.replace('name: good', 'name: deploy-prod'),
    'broken.yaml': 'name: broken\nstates:\n  initial: a\n  a:\n    type: step\n   command: echo\n',
  });
  afterAll(() => project.cleanup());
  const run = (args: string[]) => awf(args, { cwd: project.dir, env: { AWF_WORKFLOWS_PATH: '' } });

  it('suggests the nearest workflow name for a typo, and says nothing when none is near', () => {
    const typo = run(['run', 'thre']);
    expect(typo.status).toBe(1);
    expect(typo.stderr).toMatch(/^\[USER\.WORKFLOW\.NOT_FOUND\] workflow "thre" not found; did you mean "three"\?/);
    expect(run(['validate', 'deploy-prd']).stderr).toContain('did you mean "deploy-prod"?');
    expect(run(['run', 'zzzzzz']).stderr).not.toContain('did you mean');
  });

  it('refuses an unknown subcommand with the nearest one instead of printing help and exiting 0', () => {
    const runs = run(['runs', 'shw', 'x']);
    expect(runs.status).toBe(1);
    expect(runs.stderr).toContain('[USER.CLI.INVALID_ARGS] unknown command "shw" for awf runs; did you mean "show"?');
    expect(run(['plugin', 'lst']).stderr).toContain('did you mean "list"?');
    expect(run(['config', 'shwo']).stderr).toContain('did you mean "show"?');
    expect(run(['runs']).status).toBe(0);
  });

  it('shows a YAML syntax error as file:line:col with the line and a caret under the column', () => {
    const r = run(['validate', 'broken.yaml']);
    expect(r.status).toBe(1); // a file that does not load: USER.WORKFLOW.INVALID, as AWF's validate (ADR 242)
    expect(r.stderr).toContain(
      [
        '[WORKFLOW.PARSE.YAML_SYNTAX] broken.yaml:6:4: All mapping items must start at the same column',
        '     5 |     type: step',
        '     6 |    command: echo',
        '       |    ^',
      ].join('\n'),
    );
    const json = JSON.parse(run(['validate', 'broken.yaml', '-f', 'json']).stdout);
    expect(json.errors[0]).toMatchObject({ code: 'WORKFLOW.PARSE.YAML_SYNTAX', line: 6, column: 4 });
  });
});
