/**
 * What `awf run` says besides the steps' lines: once what is worth saying (a project-wide policy
 * warning, issue #34 item 8), nothing where all is well (a valid depends_on, item 12), and a line
 * where the run would otherwise pass something in silence (a while loop that ran 0 times, item 14).
 */
import { awf, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const readOnlyStep = (name: string, next: string) => `  ${name}:
    type: agent
    provider: script
    prompt: look
    mcp_proxy: {enable: true, policy: {tools: {allow: [Read]}}}
    options:
      calls:
        - tool: Read
          args: {file_path: wf.yaml}
    on_success: ${next}
`;

describe('awf run: messages said once, or not at all when all is well', () => {
  it('prints a project-wide policy warning once per run, naming the steps, not once per step', () => {
    const p = workflowProject({
      '.awf/config.yaml': 'policy:\n  bash: {deny: ["curl *"]}\n  budgets: {per_tool: {Bash: 20}}\n',
      'wf.yaml': `name: looks\nstates:\n  initial: one\n${readOnlyStep('one', 'two')}${readOnlyStep('two', 'done')}  done: {type: terminal}\n`,
    });
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env });
      expect(r.status).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
      expect(warnings).toEqual([
        'warning: [USER.POLICY.NEVER_MATCHES] .awf/config.yaml: policy.budgets.per_tool.Bash: Bash is not offered to steps one, two',
        'warning: [USER.POLICY.NEVER_MATCHES] .awf/config.yaml: policy.bash: bash rules can never match: Bash is not offered to steps one, two',
      ]);
    } finally {
      p.cleanup();
    }
  });

  it('says nothing of a depends_on the routes already honour, and warns of one a path skips', () => {
    const wf = (first: string) => `name: chain
states:
  initial: ${first}
  probe: {type: step, command: 'true', on_success: deploy}
  build: {type: step, command: 'echo built', on_success: deploy}
  deploy: {type: step, command: 'echo deployed', depends_on: [build], on_success: done}
  done: {type: terminal}
`;
    const p = workflowProject({ 'ok.yaml': wf('build'), 'skips.yaml': wf('probe') });
    try {
      const ok = awf(['run', 'ok.yaml'], { cwd: p.dir, env: p.env });
      expect(ok.status).toBe(0);
      expect(ok.stderr).not.toContain('warning');
      const skips = awf(['run', 'skips.yaml'], { cwd: p.dir, env: p.env });
      expect(skips.stderr).toContain(
        'warning: [WORKFLOW.PARSE.NO_EFFECT] states.deploy.depends_on: "build" does not always run before "deploy" (probe → deploy skips it)',
      );
    } finally {
      p.cleanup();
    }
  });

  it('says when a while loop ran 0 times because its condition was false from the start (not with -q)', () => {
    const p = workflowProject({
      'wf.yaml': `name: polls
states:
  initial: poll
  poll:
    type: while
    while: "inputs.go == 'yes'"
    max_iterations: 3
    body: [tick]
    on_complete: done
  tick: {type: step, command: 'echo tick', on_success: poll}
  done: {type: terminal}
inputs: [{name: go, default: 'no'}]
`,
    });
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: p.env });
      expect(r.status).toBe(0);
      expect(r.stderr).toContain('\nloop poll: condition false, 0 iterations\n');
      expect(awf(['run', 'wf.yaml', '-q'], { cwd: p.dir, env: p.env }).stderr).toBe('');
      const ran = awf(['run', 'wf.yaml', '-i', 'go=yes'], { cwd: p.dir, env: p.env });
      expect(ran.stderr).not.toContain('0 iterations');
    } finally {
      p.cleanup();
    }
  });
});

describe('awf run: a hook that reads an unset environment variable', () => {
  it('names the file that holds the hook, the hook, and the variable, with what to do', () => {
    const p = workflowProject({
      '.awf/workflows/child.yaml': `name: child
states:
  initial: work
  work:
    type: step
    command: echo working
    hooks:
      pre:
        - command: echo "to {{.env.STEP_TARGET}}"
    on_success: done
  done: {type: terminal}
`,
      'deploy.yaml': `name: deploy
hooks:
  workflow_start:
    - log: "deploying to {{.env.DEPLOY_TARGET}}"
states:
  initial: call
  call: {type: call_workflow, workflow: child, on_success: done}
  done: {type: terminal}
`,
    });
    try {
      const stopped = awf(['run', 'deploy.yaml', '--no-color'], { cwd: p.dir, env: p.env });
      expect(stopped.status).toBe(3);
      expect(stopped.stderr).toContain(
        '[EXECUTION.HOOK.FAILED] deploy.yaml: hooks.workflow_start[0].log: environment variable DEPLOY_TARGET is not set',
      );
      expect(stopped.stderr).toContain('hint: Set DEPLOY_TARGET for the run (DEPLOY_TARGET=… awf run …)');
      expect(stopped.stderr).not.toContain('states.call');
      const warned = awf(['run', 'deploy.yaml'], { cwd: p.dir, env: { ...p.env, DEPLOY_TARGET: 'prod' } });
      expect(warned.status).toBe(0);
      expect(warned.stderr).toContain(
        'warning: .awf/workflows/child.yaml: states.work.hooks.pre[0].command: environment variable STEP_TARGET is not set',
      );
    } finally {
      p.cleanup();
    }
  });
});
