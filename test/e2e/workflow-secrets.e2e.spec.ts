/**
 * AWF's secret inputs (ADR 011): inputs whose names start with SECRET_, API_KEY, PASSWORD or
 * TOKEN (any case) are masked like `secret: true` ones, in everything awf writes: the run's
 * output, progress and error text, the -f json report, spans, and the run's record. The match
 * is a prefix, as in AWF: `OPENAI_API_KEY` as an input name is not secret.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { awf, workflowProject } from './workflow-support';

const KEY = 'ak-7d1e9f3b22';
const TOKEN = 'tk-55aa01cc';
const NOTE = 'sn-0b0e7aa2';
const PASSWORD = 'pw-c0ffee99';
const DECLARED = 'dc-31415926';
const PLAIN = 'not-a-secret-42';

const workflow = `name: secrets
inputs:
  - {name: API_KEY_PROD}
  - {name: token_x}
  - {name: Secret_Note}
  - {name: PASSWORD}
  - {name: vault, secret: true}
  - {name: OPENAI_API_KEY}
states:
  initial: show
  show:
    type: step
    command: 'echo "{{.inputs.API_KEY_PROD}} {{.inputs.token_x}} {{.inputs.Secret_Note}} $PASSWORD {{.inputs.vault}} {{.inputs.OPENAI_API_KEY}}"'
    on_success: fail
  fail:
    type: step
    command: 'echo "refused key $API_KEY_PROD" >&2; exit 4'
    on_success: done
    on_failure: {message: "deploy failed with {{.inputs.token_x}}: {{.states.fail.Stderr}}"}
  done: {type: terminal}
`;

/** The same steps, ending on a success terminal whose message (the run's output) quotes both. */
const succeeding =
  workflow.replace(/on_failure: \{message:.*\n/, 'on_failure: report\n') +
  '  report: {type: terminal, message: "{{.states.show.Output}} / {{.states.fail.Stderr}}"}\n';

describe('awf run masks inputs named like AWF secrets', () => {
  const p = workflowProject({ 'secrets.yaml': workflow, 'succeeding.yaml': succeeding });
  const inputs = [
    `API_KEY_PROD=${KEY}`,
    `token_x=${TOKEN}`,
    `Secret_Note=${NOTE}`,
    `PASSWORD=${PASSWORD}`,
    `vault=${DECLARED}`,
    `OPENAI_API_KEY=${PLAIN}`,
  ].flatMap((i) => ['-i', i]);
  afterAll(() => p.cleanup());

  it('in the output and the progress lines', () => {
    const r = awf(['run', 'succeeding.yaml', ...inputs], { cwd: p.dir, env: p.env });
    expect(r.stdout).toContain(`*** *** *** *** *** ${PLAIN}\n / refused key ***`);
    for (const secret of [KEY, TOKEN, NOTE, PASSWORD, DECLARED]) expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.status).toBe(0);
  });

  it('in the failure message on stderr', () => {
    const r = awf(['run', 'secrets.yaml', ...inputs], { cwd: p.dir, env: p.env });
    expect(r.stderr).toContain('deploy failed with ***: refused key ***');
    for (const secret of [KEY, TOKEN, NOTE, PASSWORD, DECLARED]) expect(r.stdout + r.stderr).not.toContain(secret);
    expect(r.status).toBe(3);
  });

  it('in the -f json report, the spans and the run record', () => {
    const r = awf(['run', 'secrets.yaml', ...inputs, '-f', 'json', '--otel-exporter', 'file'], {
      cwd: p.dir,
      env: p.env,
    });
    const report = JSON.parse(r.stdout);
    expect(report.steps[0].output).toBe(`*** *** *** *** *** ${PLAIN}\n`);
    expect(report.error.message).toContain('deploy failed with ***');
    const traces = readFileSync(join(p.dir, '.awf', 'traces.jsonl'), 'utf8');
    expect(traces).toContain('workflow.run');
    const written = [r.stdout, r.stderr, traces];
    const runs = join(p.env.XDG_DATA_HOME, 'awf', 'runs');
    for (const id of readdirSync(runs)) written.push(readFileSync(join(runs, id, 'run.json'), 'utf8'));
    expect(written.join('\n')).toContain('deploy failed');
    for (const secret of [KEY, TOKEN, NOTE, PASSWORD, DECLARED]) expect(written.join('\n')).not.toContain(secret);
  });
});
