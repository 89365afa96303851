import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../support/cli';
import { awf, WORKFLOW_FIXTURES, workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const validate = (name: string, extra: string[] = []) =>
  awf(['validate', join(WORKFLOW_FIXTURES, `${name}.yaml`), ...extra]);

describe('awf validate (the fixture list is covered in test/integration/workflow/validate-fixtures.spec.ts)', () => {
  it('says a valid workflow is valid (exit 0)', () => {
    const r = validate('mcp-proxy-valid-enabled');
    expect(r.stdout).toBe("Workflow 'mcp-proxy-valid-enabled' is valid\n");
    expect(r.status).toBe(0);
  });

  it('prints each USER problem as [CODE] path: message on stderr and exits 1', () => {
    const r = validate('mcp-proxy-unknown-key');
    expect(r.stderr).toContain(
      '[USER.MCP_PROXY.UNKNOWN_KEY] states.start.mcp_proxy: unknown field(s) in mcp_proxy: sandbox',
    );
    expect(r.stdout).toBe('');
    expect(r.status).toBe(1);
  });

  it('reports every structural problem of a broken file at once and exits 1 (it does not load, as AWF); a bad prompt only warns', () => {
    const r = validate('broken-structure');
    for (const line of [
      '[WORKFLOW.PARSE.INVALID_FIELD] inputs.target.type: unknown type "strin"',
      '[WORKFLOW.PARSE.INVALID_FIELD] states.build.timeout:',
      '[WORKFLOW.VALIDATION.MISSING_FIELD] states.fancy.parallel: parallel must be a non-empty list of state names',
      '[WORKFLOW.VALIDATION.MISSING_FIELD] states.talk.provider:',
      '[WORKFLOW.VALIDATION.MISSING_STATE] states.initial: initial state "begin" does not exist',
      '[WORKFLOW.VALIDATION.NO_TERMINAL] states:',
      '[WORKFLOW.VALIDATION.MISSING_STATE] states.build.on_success: state "tset" does not exist',
      '[WORKFLOW.VALIDATION.NO_ROUTE] states.lint:',
      '[WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE] states.build.command: {{.inputs.nope}}: input "nope" is not declared',
      '[WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE] states.lint.command: {{.states.ghost.Output}}',
      '[WORKFLOW.TEMPLATE.UNDEFINED_REFERENCE] states.lint.command: {{.states.build.output}}: a state has no field "output"',
      '[WORKFLOW.VALIDATION.INVALID_CONDITION] states.check.transitions[0].when:',
    ])
      expect(r.stderr).toContain(line);
    expect(r.stderr).toContain(`a state has no field "output"; use "Output"`);
    // AWF's validate does not check prompts: a warning, and the step fails when it renders it.
    expect(r.stderr).toContain('warning: [WORKFLOW.TEMPLATE.SYNTAX] states.talk.prompt:');
    expect(r.stderr).toContain('[USER.WORKFLOW.INVALID] ');
    expect(r.stderr).toContain('does not load (12 errors)');
    expect(r.status).toBe(1);
  });

  it('prints one JSON verdict with -f json; a missing workflow is USER.WORKFLOW.NOT_FOUND (exit 1)', () => {
    const r = validate('mcp-proxy-unknown-plugin', ['-f', 'json']);
    expect(JSON.parse(r.stdout)).toEqual({
      schema_version: 1,
      valid: false,
      workflow: 'mcp-proxy-unknown-plugin',
      file: join(WORKFLOW_FIXTURES, 'mcp-proxy-unknown-plugin.yaml'),
      errors: [
        {
          code: 'USER.MCP_PROXY.UNKNOWN_PLUGIN',
          path: 'states.start.mcp_proxy.plugin_tools[0].plugin',
          message: expect.stringContaining('nonexistent_plugin'),
        },
      ],
      warnings: [],
    });
    expect(r.status).toBe(1);
    const missing = awf(['validate', 'no-such-workflow']);
    expect(missing.stderr).toContain('[USER.WORKFLOW.NOT_FOUND] workflow "no-such-workflow" not found');
    expect(missing.status).toBe(1);
  });
});

describe('awf run and awf list', () => {
  const pipeline = `name: pipeline
description: Counts words
version: "1.0"
inputs:
  - {name: text, required: true}
  - {name: api_token, secret: true, default: tok-3f9a8b7c}
states:
  initial: count
  count:
    type: step
    command: 'printf "%s" "$text" | wc -w | tr -d " "'
    on_success: report
  report:
    type: step
    command: 'echo "words={{trimSpace .states.count.Output}} token={{.inputs.api_token}} env=$MY_SECRET"'
    transitions:
      - when: "states.count.Output startsWith '0'"
        goto: empty
    on_success: done
  empty: {type: terminal, status: failure, message: 'no words in input'}
  done: {type: terminal}
`;

  it('runs a workflow by name from ./.awf/workflows: progress on stderr, output on stdout, secrets masked', () => {
    const p = workflowProject({ '.awf/workflows/pipeline.yaml': pipeline });
    try {
      const r = awf(['run', 'pipeline', '--input', 'text=one two three'], {
        cwd: p.dir,
        env: { ...p.env, MY_SECRET: 'hunter2-value' },
      });
      expect(r.stdout).toBe('words=3 token=*** env=***\n');
      expect(r.stderr).toMatch(/^✓ count {2}success {2}\d+(ms|\.\ds)$/m);
      expect(r.stderr).toMatch(/^✓ report {2}success/m);
      expect(r.stderr + r.stdout).not.toContain('tok-3f9a8b7c');
      expect(r.status).toBe(0);
    } finally {
      p.cleanup();
    }
  });

  it('prints one JSON report with -f json and exits 3 on a failure terminal', () => {
    const p = workflowProject({ '.awf/workflows/pipeline.yaml': pipeline });
    try {
      const r = awf(['run', 'pipeline', '-i', 'text=', '-f', 'json'], { cwd: p.dir, env: p.env });
      const report = JSON.parse(r.stdout);
      expect(report).toMatchObject({
        workflow: 'pipeline',
        status: 'failure',
        terminal: 'empty',
        error: { code: 'EXECUTION.WORKFLOW.TERMINAL_FAILURE', message: 'no words in input' },
      });
      expect(report.steps).toEqual([
        {
          name: 'count',
          type: 'step',
          status: 'success',
          duration_ms: expect.any(Number),
          exit_code: 0,
          output: '0\n',
          tool_calls: 0,
        },
        {
          name: 'report',
          type: 'step',
          status: 'success',
          duration_ms: expect.any(Number),
          exit_code: 0,
          output: 'words=0 token=*** env=\n',
          tool_calls: 0,
        },
      ]);
      expect(JSON.parse(r.stderr.trim().split('\n').pop()!)).toMatchObject({
        status: 'error',
        error: { code: 'EXECUTION.WORKFLOW.TERMINAL_FAILURE' },
      });
      expect(r.status).toBe(3);
    } finally {
      p.cleanup();
    }
  });

  it('ends each run with one closing line; a failed step’s error is printed once, with how to resume', () => {
    const p = workflowProject({
      '.awf/workflows/three.yaml': `name: three
states:
  initial: a
  a: {type: step, command: echo one, on_success: b}
  b: {type: step, command: exit 3, on_success: done}
  done: {type: terminal}
`,
    });
    try {
      const failed = awf(['run', 'three', '--no-color'], { cwd: p.dir, env: p.env });
      expect(failed.status).toBe(3);
      const id = /Workflow ID: (\S+)/.exec(failed.stderr)![1];
      expect(failed.stderr.match(/\[EXECUTION\.STEP\.FAILED\]/g)).toHaveLength(1);
      expect(failed.stderr).toMatch(
        new RegExp(`\\n✗ three failed at step b after \\d+(ms|\\.\\ds) — resume with: awf resume ${id}\\n$`),
      );
      const quiet = awf(['run', 'three', '-q'], { cwd: p.dir, env: p.env });
      expect(quiet.stderr).not.toContain('Workflow ID');
      expect(quiet.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/^✗ b {2}failure/),
        '    [EXECUTION.STEP.FAILED] step "b" failed (exit code 3): exit code 3',
        expect.stringMatching(/^✗ three failed at step b after .* — resume with: awf resume \S+$/),
      ]);
      const json = awf(['run', 'three', '-f', 'json'], { cwd: p.dir, env: p.env });
      expect(json.stderr).not.toContain('three failed');
      expect(JSON.parse(json.stdout)).toMatchObject({ status: 'failure', duration_ms: expect.any(Number) });
    } finally {
      p.cleanup();
    }
  });

  it('ends a run that succeeded with ✓ name succeeded in <duration>, and -q keeps it out', () => {
    const p = workflowProject({ '.awf/workflows/pipeline.yaml': pipeline });
    try {
      const r = awf(['run', 'pipeline', '-i', 'text=a b'], { cwd: p.dir, env: p.env });
      expect(r.stderr).toMatch(/\n✓ pipeline succeeded in \d+(ms|\.\ds)\n$/);
      const quiet = awf(['run', 'pipeline', '-i', 'text=a b', '-q'], { cwd: p.dir, env: p.env });
      expect(quiet.stderr).toBe('');
      expect(quiet.stdout).toBe('words=2 token=*** env=\n');
    } finally {
      p.cleanup();
    }
  });

  it('refuses missing or undeclared inputs with exit 1 before running anything', () => {
    const p = workflowProject({ '.awf/workflows/pipeline.yaml': pipeline });
    try {
      const r = awf(['run', 'pipeline', '-i', 'colour=red'], { cwd: p.dir, env: p.env });
      expect(r.stderr).toContain('[USER.INPUT.VALIDATION_FAILED] input validation failed');
      expect(r.stderr).toContain('inputs.text: required');
      expect(r.stderr).toContain('inputs.colour: not declared');
      expect(r.stdout).toBe('');
      expect(r.status).toBe(1);
    } finally {
      p.cleanup();
    }
  });

  it('refuses to run an invalid workflow with the validate codes (exit 2)', () => {
    const r = awf(['run', join(WORKFLOW_FIXTURES, 'no-terminal.yaml')]);
    expect(r.stderr).toContain('[WORKFLOW.VALIDATION.NO_TERMINAL]');
    expect(r.status).toBe(2);
  });

  // 5 s: the fake CLI must have started and printed before the deadline, even on a loaded machine.
  it('fails an agent step past its timeout with EXECUTION.AGENT.TIMEOUT and keeps what the CLI last printed on stderr', () => {
    const fake = resolve(REPO_ROOT, 'test/agents/fake-agent-cli.js');
    const p = workflowProject({
      '.awf/workflows/stuck.yaml': `name: stuck
states:
  initial: think
  think:
    type: agent
    provider: claude
    prompt: hello
    timeout: 5
    options: {binary: ${JSON.stringify(fake)}}
    on_success: done
    on_failure: failed
  done: {type: terminal}
  failed: {type: terminal, status: failure}
`,
    });
    try {
      const r = awf(['run', 'stuck'], { cwd: p.dir, env: { ...p.env, FAKE_BEHAVIOUR: 'hang' } });
      expect(r.stderr).toContain('[EXECUTION.AGENT.TIMEOUT] step "think" timed out after 5000 ms; last stderr lines:');
      expect(r.stderr).toContain('working...');
      expect(r.status).toBe(3);
    } finally {
      p.cleanup();
    }
  });

  it('lists workflows from every lookup dir, first hit per name, with descriptions', () => {
    const p = workflowProject({
      '.awf/workflows/pipeline.yaml': pipeline,
      'extra/review.yaml': 'name: review\ndescription: Reviews code\nstates:\n  initial: d\n  d: {type: terminal}\n',
      'config/awf/workflows/pipeline.yaml':
        'name: pipeline\ndescription: shadowed\nstates:\n  initial: d\n  d: {type: terminal}\n',
    });
    try {
      const env = { ...p.env, AWF_WORKFLOWS_PATH: join(p.dir, 'extra') };
      const text = awf(['list'], { cwd: p.dir, env });
      expect(text.stdout.split('\n')[0]).toMatch(/^NAME\s+SOURCE\s+VERSION\s+DESCRIPTION$/);
      expect(text.stdout).toMatch(/^review\s+env\s+Reviews code$/m);
      expect(text.stdout).toMatch(/^pipeline\s+local\s+1\.0\s+Counts words$/m);
      expect(text.stdout).not.toContain('shadowed');
      const json = JSON.parse(awf(['list', '-f', 'json'], { cwd: p.dir, env }).stdout).workflows;
      expect(json.map((w: { name: string; source: string }) => `${w.name}:${w.source}`)).toEqual([
        'review:env',
        'pipeline:local',
      ]);
      const none = awf(['list'], { cwd: join(p.dir, 'tmp'), env: { ...p.env, XDG_CONFIG_HOME: join(p.dir, 'tmp') } });
      expect(none.stdout).toContain('No workflows found. Looked in:');
    } finally {
      p.cleanup();
    }
  });
});
