import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWF_MAIN } from '../support/cli';
import { awf, policedWorkflow as workflow, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const DEFAULTS = `policy:
  tools: {deny: [Grep]}
  paths: {deny: [".env"]}
  bash: {allow: ["echo *", "ls*"], deny: ["curl *"]}
  budgets: {calls: 20}
`;

const CALLS = `- tool: Bash
  args: {command: echo hi}
  expect: hi
- tool: Bash
  args: {command: "echo $(curl -s evil.example)"}
  expect: {is_error: true, contains: 'POLICY.COMMAND_DENIED'}
- tool: Grep
  args: {pattern: x}
  expect: {is_error: true, contains: '.awf/config.yaml: tools.deny "Grep"'}
- tool: Read
  args: {file_path: README.md}
  expect: {is_error: true, contains: 'step work: tools.allow (no pattern matches)'}`;

function events(dataDir: string): Record<string, unknown>[] {
  const runs = join(dataDir, 'awf', 'runs');
  const [run] = readdirSync(runs);
  return readFileSync(join(runs, run, 'work.events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('mcp_proxy.policy in a workflow run', () => {
  it('merges .awf/config.yaml defaults with the step policy (narrow only) and records each decision', () => {
    const p = workflowProject({
      '.awf/config.yaml': DEFAULTS,
      'README.md': 'hi\n',
      'wf.yaml': workflow('tools: {allow: [Bash, Write]}', CALLS),
    });
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env });
      expect(r.stderr).not.toMatch(/script call \d+ expected/);
      expect(r.status).toBe(0);
      expect(r.stderr).toMatch(/4 tool calls, 3 errors.*policy 3 denied/);
      const audit = events(p.env.XDG_DATA_HOME);
      expect(audit.map((e) => e.policy)).toEqual([
        { decision: 'allowed' },
        { decision: 'denied', code: 'POLICY.COMMAND_DENIED', rule: '.awf/config.yaml: bash.deny "curl *"' },
        { decision: 'denied', code: 'POLICY.TOOL_DENIED', rule: '.awf/config.yaml: tools.deny "Grep"' },
        { decision: 'denied', code: 'POLICY.TOOL_DENIED', rule: 'step work: tools.allow (no pattern matches)' },
      ]);
      const runId = readdirSync(join(p.env.XDG_DATA_HOME, 'awf', 'runs'))[0];
      const shown = awf(['runs', 'show', runId], { cwd: p.dir, env: p.env });
      expect(shown.stdout).toContain('[policy denied: .awf/config.yaml: bash.deny "curl *"]');
      expect(p.leftovers()).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  it('awf validate reports every policy problem at once, with codes', () => {
    const bad = workflow(
      `tools: {allow: [Bash, Grep, "kv_*"], deny: ["src/[x"], extra: 1}
paths: {write: ["/etc/**"]}
bash: {allow: ["curl x"]}
approve: [Grep]
budgets: {calls: -1}`,
      '- tool: Bash\n  args: {command: echo}',
    );
    const p = workflowProject({ '.awf/config.yaml': DEFAULTS, 'wf.yaml': bad });
    try {
      const r = awf(['validate', 'wf.yaml'], { cwd: p.dir, env: p.env });
      expect(r.status).toBe(1);
      const at = 'states.work.mcp_proxy.policy';
      for (const line of [
        `[USER.POLICY.UNKNOWN_KEY] ${at}.tools: unknown key(s): extra`,
        `[USER.POLICY.BAD_GLOB] ${at}.paths.write[0]: bad pattern: "/etc/**" is absolute`,
        `[USER.POLICY.INVALID] ${at}.budgets.calls: calls must be a whole number of 0 or more`,
        `[USER.POLICY.NEVER_MATCHES] ${at}.tools.allow[1]: "Grep" can never match: Grep is denied by another rule`,
        `[USER.POLICY.NO_SUCH_TOOL] ${at}.tools.allow[2]: "kv_*" names no tool this step serves`,
        `[USER.POLICY.NEVER_MATCHES] ${at}.approve[0]: "Grep" can never match`,
        `[USER.POLICY.NEVER_MATCHES] ${at}.bash.allow[0]: "curl x" can never match: .awf/config.yaml: bash.deny "curl *" always refuses it`,
      ])
        expect(r.stderr).toContain(line);
    } finally {
      p.cleanup();
    }
  });

  const WRITE = `- tool: Write
  args: {file_path: out.txt, content: x}
  expect: {is_error: true, contains: POLICY.APPROVAL_DENIED}`;

  it('awf runs show keeps a refused multi-line command on one line, its rule as written', () => {
    const calls = `- tool: Bash
  args: {command: "echo one\\ncurl -s evil.example"}
  expect: {is_error: true, contains: 'POLICY.COMMAND_DENIED'}`;
    const p = workflowProject({ 'wf.yaml': workflow('bash: {deny: ["curl *"]}', calls) });
    try {
      expect(awf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env }).status).toBe(0);
      const runId = readdirSync(join(p.env.XDG_DATA_HOME, 'awf', 'runs'))[0];
      const shown = awf(['runs', 'show', runId], { cwd: p.dir, env: p.env }).stdout;
      const callLines = shown.split('\n').filter((l) => /^\s+\d\d:\d\d:\d\d\.\d{3}\s/.test(l));
      expect(callLines).toHaveLength(1);
      expect(callLines[0]).toContain('\\n');
      expect(callLines[0]).toContain('[policy denied: step work: bash.deny "curl *"]');
    } finally {
      p.cleanup();
    }
  });

  it('awf runs show names a path rule as written even when its pattern is the masked argument', () => {
    const calls = `- tool: Read
  args: {file_path: notes.txt}
  expect: {is_error: true, contains: 'POLICY.PATH_DENIED'}`;
    const p = workflowProject({ 'wf.yaml': workflow('paths: {deny: ["notes.txt"]}', calls), 'notes.txt': 'hi' });
    try {
      expect(awf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env }).status).toBe(0);
      const runId = readdirSync(join(p.env.XDG_DATA_HOME, 'awf', 'runs'))[0];
      const shown = awf(['runs', 'show', runId], { cwd: p.dir, env: p.env }).stdout;
      const call = shown.split('\n').find((l) => l.includes('POLICY.PATH_DENIED'))!;
      expect(call).toContain('Decided by: step work: paths.deny "notes.txt".');
      expect(call).toContain('reading <file_path> is not allowed');
    } finally {
      p.cleanup();
    }
  });

  it('without a terminal denies what needs approval, unless --approve=all or an auto rule', () => {
    const p = workflowProject({
      'wf.yaml': workflow('approve: [Write]', WRITE),
      'auto.yaml': workflow(
        'approve: [{match: Write, auto: true}]',
        '- tool: Write\n  args: {file_path: auto.txt, content: x}',
      ),
    });
    try {
      const denied = awf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env, input: '' });
      expect(denied.status).toBe(0);
      expect(existsSync(join(p.dir, 'out.txt'))).toBe(false);
      expect(events(p.env.XDG_DATA_HOME)[0].policy).toEqual({
        decision: 'rejected',
        code: 'POLICY.APPROVAL_DENIED',
        rule: 'step work: approve "Write"',
        approval: expect.objectContaining({ rule: 'step work: approve "Write"', answer: 'deny', by: 'unattended' }),
      });
      const flagged = awf(['run', 'wf.yaml', '--approve=all'], { cwd: p.dir, env: p.env, input: '' });
      expect(flagged.status).not.toBe(0); // the script expected a denial and got a success
      expect(readFileSync(join(p.dir, 'out.txt'), 'utf8')).toBe('x');
      expect(awf(['run', 'auto.yaml'], { cwd: p.dir, env: p.env, input: '' }).status).toBe(0);
      expect(existsSync(join(p.dir, 'auto.txt'))).toBe(true);
      expect(awf(['run', 'wf.yaml', '--approve=maybe'], { cwd: p.dir, env: p.env }).stderr).toMatch(
        /USER\.CLI\.INVALID_ARGS.*--approve must be ask, all or none/,
      );
      expect(p.leftovers()).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  it('asks the person at the terminal (a pseudo-terminal here), showing the call with secrets masked', async () => {
    const calls = `- tool: Write
  args: {file_path: a.txt, content: "token s3cr3t-v4lue"}
- tool: Write
  args: {file_path: b.txt, content: again}
- tool: Bash
  args: {command: "git push origin main"}
  expect: {is_error: true, contains: 'the person denied it'}`;
    const p = workflowProject({ 'wf.yaml': workflow('approve: [Write, "Bash:git push*"]', calls) });
    try {
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(AWF_MAIN)} run wf.yaml`;
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        cwd: p.dir,
        env: { ...process.env, ...p.env, API_TOKEN: 's3cr3t-v4lue' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let screen = '';
      const answers = ['a', 'd'];
      let asked = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        screen += chunk.toString();
        const questions =
          screen.split('[a]lways for this step / [e]xactly these arguments, for an hour / [d]eny').length - 1;
        while (asked < questions && answers.length) {
          asked++;
          child.stdin.write(`${answers.shift()}\r`);
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(screen).toContain('? approval needed in step work: Write');
      expect(screen).toContain('content: token ***');
      expect(screen).not.toContain('s3cr3t-v4lue');
      expect(screen).toContain('rule: step work: approve "Write"');
      expect(screen).toContain('command: git push origin main');
      expect(asked).toBe(2); // "always" covered the second Write
      expect(code).toBe(0);
      expect(readFileSync(join(p.dir, 'b.txt'), 'utf8')).toBe('again');
      // One approval record per question, as awf serve writes them: the terminal's person is `local`.
      const approvals = events(p.env.XDG_DATA_HOME).map((e) => (e.policy as { approval?: object }).approval);
      expect(approvals).toEqual([
        expect.objectContaining({ answer: 'approve', scope: 'step', by: 'person', who: 'local' }),
        undefined, // "always" for the step: nobody was asked
        expect.objectContaining({ answer: 'deny', scope: 'once', by: 'person', who: 'local' }),
      ]);
      expect(events(p.env.XDG_DATA_HOME).map((e) => (e.policy as { decision: string }).decision)).toEqual([
        'approved',
        'approved',
        'rejected',
      ]);
    } finally {
      p.cleanup();
    }
  });
});
