import { parse } from 'yaml';
import { expandStepTemplates, type StepTemplateSource } from './step-templates';
import { parseWorkflow } from './workflow.parser';
import type { AgentStep, CommandStep } from './workflow.model';

/** Templates kept in memory, as a directory of `<name>.yaml` files would give them. */
function source(files: Record<string, string>): StepTemplateSource {
  return {
    find: (name) =>
      name in files
        ? { file: `/tpl/${name}.yaml`, doc: parse(files[name]) }
        : { searched: ['/project/.awf/templates', '/storage/templates'] },
  };
}

const ECHO = `
name: echo
parameters:
  - {name: message, required: true}
  - {name: prefix, default: "[info]"}
  - {name: seconds, default: 30}
states:
  initial: echo
  echo:
    type: step
    command: "echo '{{parameters.prefix}} {{ .parameters.message }}'"
    timeout: "{{.parameters.seconds}}"
    on_success: elsewhere
`;

const workflow = (step: string) => `
name: uses
states:
  initial: greet
  greet:
${step
  .trim()
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
  done: {type: terminal}
  failed: {type: terminal, status: failure}
`;

const expand = (yaml: string, files: Record<string, string>) => parseWorkflow(parse(yaml), 'uses', source(files));
const lines = (issues: { severity: string; code: string; path: string; message: string }[]) =>
  issues.map((i) => `${i.severity} ${i.code} ${i.path}: ${i.message}`);

describe('use_template + parameters (step templates, expanded when the workflow is loaded)', () => {
  it("fills the template's primary step with the parameters and defaults; the step's own keys win", () => {
    const { workflow: wf, issues } = expand(
      workflow(`
use_template: echo
parameters: {message: "hi {{.inputs.who}}"}
on_success: done
on_failure: failed
`),
      { echo: ECHO },
    );
    expect(lines(issues)).toEqual([]);
    const step = wf!.steps.find((s) => s.name === 'greet') as CommandStep;
    expect(step.type).toBe('step');
    // Run-time templates in a parameter's value stay for the run to render.
    expect(step.command).toBe("echo '[info] hi {{.inputs.who}}'");
    // A field that is exactly one parameter takes the value itself (30, a number: 30 s).
    expect(step.timeoutMs).toBe(30_000);
    // The template's own routing is not copied (its states are not the workflow's).
    expect(step.onSuccess).toBe('done');
    expect(step.onFailure).toBe('failed');
  });

  it('expands an agent template too, and a template used by a template', () => {
    const { workflow: wf, issues } = expand(
      workflow(`
use_template: review
parameters: {what: the diff}
on_success: done
`),
      {
        review: `
name: review
parameters: [{name: what, required: true}]
states:
  review: {use_template: ask, parameters: {question: "Review {{parameters.what}}"}}
`,
        ask: `
name: ask
parameters: [{name: question, required: true}, {name: provider, default: script}]
states:
  ask: {type: agent, provider: "{{parameters.provider}}", prompt: "{{parameters.question}}", options: {calls: []}}
`,
      },
    );
    expect(lines(issues)).toEqual([]);
    const step = wf!.steps.find((s) => s.name === 'greet') as AgentStep;
    expect(step).toMatchObject({ type: 'agent', provider: 'script', prompt: 'Review the diff', onSuccess: 'done' });
  });

  it('refuses a missing template, naming where it looked and what to do, with nothing else reported', () => {
    const { issues } = expand(workflow(`use_template: nope\non_success: done`), { echo: ECHO });
    expect(lines(issues)).toEqual([
      'error WORKFLOW.USE_TEMPLATE.NOT_FOUND states.greet.use_template: template "nope" not found ' +
        '(looked for nope.yaml in: /project/.awf/templates, /storage/templates); create ' +
        '/project/.awf/templates/nope.yaml, or fix the name',
    ]);
  });

  it('refuses a missing required parameter and warns about one the template does not declare', () => {
    const { issues } = expand(workflow(`use_template: echo\nparameters: {mesage: hi}\non_success: done`), {
      echo: ECHO,
    });
    expect(lines(issues)).toEqual([
      'warning WORKFLOW.PARSE.UNKNOWN_FIELD states.greet.parameters.mesage: template "echo" has no parameter ' +
        '"mesage" (did you mean "message"?; it declares: message, prefix, seconds); it is ignored',
      'error WORKFLOW.USE_TEMPLATE.MISSING_PARAMETER states.greet.parameters: template "echo" (/tpl/echo.yaml) ' +
        'needs parameter "message"; add `message: <value>` under parameters',
    ]);
  });

  it('refuses circular templates, undeclared parameters and malformed template files', () => {
    const circular = {
      a: 'name: a\nstates: {a: {use_template: b}}',
      b: 'name: b\nstates: {b: {use_template: a}}',
    };
    expect(lines(expand(workflow('use_template: a\non_success: done'), circular).issues)).toEqual([
      'error WORKFLOW.USE_TEMPLATE.INVALID states.greet.use_template: circular template reference: a -> b -> a',
    ]);
    const undeclared = { u: 'name: u\nstates: {u: {type: step, command: "echo {{parameters.who}}"}}' };
    expect(lines(expand(workflow('use_template: u\non_success: done'), undeclared).issues)).toEqual([
      'error WORKFLOW.USE_TEMPLATE.INVALID states.greet.use_template: template "u" (/tpl/u.yaml) uses ' +
        '{{parameters.who}} but does not declare it; add {name: who} to its parameters',
    ]);
    const broken = { x: 'parameters: {a: 1}\nstates: {}' };
    expect(lines(expand(workflow('use_template: x\non_success: done'), broken).issues)).toEqual([
      'error WORKFLOW.USE_TEMPLATE.INVALID states.greet.use_template: template "x" (/tpl/x.yaml): ' +
        'needs a name, parameters as a list of {name, required, default}, and states with at least one step',
    ]);
    expect(lines(expand(workflow('use_template: ../x\non_success: done'), broken).issues)).toEqual([
      'error WORKFLOW.USE_TEMPLATE.INVALID states.greet.use_template: "../x" is not a template name ' +
        '(a file name without .yaml, with no / or ..)',
    ]);
  });

  it('without template directories, a use_template step is refused (never silently dropped)', () => {
    const { issues } = parseWorkflow(parse(workflow('use_template: echo\non_success: done')), 'uses');
    expect(issues.map((i) => i.code)).toEqual(['WORKFLOW.USE_TEMPLATE.NOT_FOUND']);
  });

  it('leaves a workflow without use_template as it is', () => {
    const doc = parse(workflow('type: step\ncommand: ls\non_success: done'));
    const out = expandStepTemplates(doc, source({}));
    expect(out).toEqual({ doc, issues: [] });
  });
});
