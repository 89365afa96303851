/**
 * Typos are caught (AWF ignores unknown keys, so `retyr:` silently turns retries off): `awf
 * validate` warns with the key, its path and the closest known key, exit 0; `--strict` makes
 * it an error; `awf run` prints the same warning once and runs. An unknown provider is a
 * warning too, and a coded error (exit 1, listing the providers) when the step runs.
 */
import { awf, workflowProject } from './workflow-support';

const typo = `name: typo
states:
  initial: build
  build:
    type: step
    command: echo built
    retyr: {max_attempts: 3}
    on_success: done
  done: {type: terminal}
`;

const provider = `name: provider
states:
  initial: ask
  ask:
    type: agent
    provider: anthropic
    prompt: hello
    on_success: done
  done: {type: terminal}
`;

describe('unknown keys and providers', () => {
  const p = workflowProject({ 'typo.yaml': typo, 'provider.yaml': provider });
  afterAll(() => p.cleanup());
  const line =
    'warning: [WORKFLOW.PARSE.UNKNOWN_FIELD] states.build.retyr: unknown key "retyr" (did you mean "retry"?); it is ignored';

  it('validate warns of a misspelt key and exits 0', () => {
    const r = awf(['validate', 'typo.yaml'], { cwd: p.dir, env: p.env });
    expect(r.stdout).toBe("Workflow 'typo' is valid\n");
    expect(r.stderr).toContain(line);
    expect(r.status).toBe(0);
  });

  it('validate --strict makes it an error (exit 2), and -f json lists it', () => {
    const r = awf(['validate', 'typo.yaml', '--strict'], { cwd: p.dir, env: p.env });
    expect(r.stderr).toContain(
      '[WORKFLOW.PARSE.UNKNOWN_FIELD] states.build.retyr: unknown key "retyr" (did you mean "retry"?)',
    );
    expect(r.status).toBe(2);
    const json = JSON.parse(awf(['validate', 'typo.yaml', '-f', 'json'], { cwd: p.dir, env: p.env }).stdout);
    expect(json).toMatchObject({
      valid: true,
      errors: [],
      warnings: [{ code: 'WORKFLOW.PARSE.UNKNOWN_FIELD', path: 'states.build.retyr' }],
    });
  });

  it('run prints the warning once, then runs', () => {
    const r = awf(['run', 'typo.yaml'], { cwd: p.dir, env: p.env });
    expect(r.stdout).toBe('built\n');
    expect(r.stderr.split(line).length - 1).toBe(1);
    expect(r.status).toBe(0);
  });

  it('an unknown provider is a warning in validate, an error with --strict, and a coded error at run time', () => {
    const v = awf(['validate', 'provider.yaml'], { cwd: p.dir, env: p.env });
    expect(v.stderr).toMatch(
      /warning: \[USER\.AGENT\.UNKNOWN_PROVIDER\] states\.ask\.provider: unknown agent provider "anthropic" \(available: .*claude.*\)/,
    );
    expect(v.status).toBe(0);
    expect(awf(['validate', 'provider.yaml', '--strict'], { cwd: p.dir, env: p.env }).status).toBe(1);
    const r = awf(['run', 'provider.yaml', '-f', 'json'], { cwd: p.dir, env: p.env });
    const report = JSON.parse(r.stdout);
    expect(report.error).toMatchObject({
      code: 'USER.AGENT.UNKNOWN_PROVIDER',
      message: expect.stringMatching(
        /unknown agent provider "anthropic" \(available: .*claude.*codex.*gemini.*opencode.*\)/,
      ),
    });
    expect(r.status).toBe(1);
  });
});
