/**
 * `use_template` + `parameters` with the built CLI: a step takes a template's step from
 * .awf/templates/<name>.yaml with its parameters filled in when the workflow is loaded, so
 * `run`, `--dry-run` and `validate` all see it; a missing template or parameter is refused by
 * `validate` and `run` alike (exit 2) with a message that says what to do.
 */
import { awf, workflowProject } from './workflow-support';

const template = `name: shout
parameters:
  - {name: message, required: true}
  - {name: times, default: 2}
states:
  shout:
    type: step
    command: "for i in $(seq {{parameters.times}}); do echo '{{.parameters.message}}'; done"
    on_success: ignored_routing
`;

const uses = (params: string) => `name: uses
inputs:
  - {name: who, default: world}
states:
  initial: greet
  greet:
    use_template: shout
    parameters: ${params}
    on_success: done
  done: {type: terminal}
`;

describe('awf run / validate: use_template + parameters', () => {
  const p = workflowProject({
    '.awf/templates/shout.yaml': template,
    '.awf/workflows/uses.yaml': uses('{message: "hello {{.inputs.who}}"}'),
    '.awf/workflows/missing-param.yaml': uses('{mesage: hi}'),
    '.awf/workflows/missing-template.yaml': uses('{message: hi}').replace('shout', 'whisper'),
  });
  afterAll(() => p.cleanup());

  it('runs the template step with parameters, defaults and run-time inputs', () => {
    const r = awf(['run', 'uses', '-i', 'who=awf'], { cwd: p.dir, env: p.env });
    // No warning: the template's keys are known, and `parameters` did not stay on the step.
    expect(r.stderr).not.toContain('warning');
    expect(r.stdout).toBe('hello awf\nhello awf\n');
    expect(r.status).toBe(0);
  });

  it('--dry-run shows the expanded command', () => {
    const r = awf(['run', 'uses', '--dry-run'], { cwd: p.dir, env: p.env });
    expect(r.stdout).toContain("for i in $(seq 2); do echo 'hello world'; done");
    expect(r.status).toBe(0);
  });

  it('validate refuses a missing required parameter and names the misspelt one (exit 1: it does not load; run: 2)', () => {
    const r = awf(['validate', 'missing-param'], { cwd: p.dir, env: p.env });
    expect(r.stderr).toContain(
      '[WORKFLOW.USE_TEMPLATE.MISSING_PARAMETER] states.greet.parameters: template "shout" ' +
        `(${p.dir}/.awf/templates/shout.yaml) needs parameter "message"; add \`message: <value>\` under parameters`,
    );
    expect(r.stderr).toContain('template "shout" has no parameter "mesage" (did you mean "message"?');
    expect(r.status).toBe(1);
    expect(awf(['run', 'missing-param'], { cwd: p.dir, env: p.env }).status).toBe(2);
  });

  it('validate and run refuse a missing template, saying where to create it (validate exit 1: it does not load; run exit 2)', () => {
    const v = awf(['validate', 'missing-template'], { cwd: p.dir, env: p.env });
    expect(v.stderr).toContain(
      `[WORKFLOW.USE_TEMPLATE.NOT_FOUND] states.greet.use_template: template "whisper" not found (looked for ` +
        `whisper.yaml in: ${p.dir}/.awf/templates, ${p.dir}/data/awf/templates); create ` +
        `${p.dir}/.awf/templates/whisper.yaml, or fix the name`,
    );
    expect(v.stderr).not.toContain('MISSING_STATE');
    expect(v.status).toBe(1);
    const r = awf(['run', 'missing-template'], { cwd: p.dir, env: p.env });
    expect(r.stderr).toContain('WORKFLOW.USE_TEMPLATE.NOT_FOUND');
    expect(r.status).toBe(2);
  });
});
