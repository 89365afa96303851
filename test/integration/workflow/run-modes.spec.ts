import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GateDecision, StepGate, StepPreview } from '../../../src/domain/workflow/ports/step-gate.port';
import { wiredWorkflowService } from '../../support/wired-workflow-service';

const WF = `
name: modes
inputs: [{name: who, default: world}]
states:
  initial: a
  a: {type: step, command: 'echo "a $who" >> trace; printf A', on_success: b}
  b: {type: step, command: 'echo "b {{.states.a.Output}}" >> trace; printf B', on_success: c}
  c: {type: step, command: 'echo "c {{.inputs.who}}" >> trace', on_success: done}
  done: {type: terminal, status: success}
`;

/** A gate that answers from a script and records what it was shown. */
function scripted(answers: GateDecision[], edits: Record<string, string> = {}): StepGate & { seen: StepPreview[] } {
  const seen: StepPreview[] = [];
  return {
    seen,
    pausesAt: () => true,
    before: async (p) => {
      seen.push(p);
      for (const [k, v] of Object.entries(edits)) p.setInput(k, v);
      return answers.shift() ?? 'continue';
    },
  };
}

describe('run modes, Nest-wired, real shell: --interactive gate, -s, --dry-run', () => {
  let dir: string;
  const wired = wiredWorkflowService();
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'awf-modes-'));
    writeFileSync(join(dir, 'wf.yaml'), WF);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const base = () => ({
    target: join(dir, 'wf.yaml'),
    inputs: {},
    signal: new AbortController().signal,
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    runsDir: join(dir, 'runs'),
  });
  const trace = () => require('node:fs').readFileSync(join(dir, 'trace'), 'utf8') as string;

  it('shows each step with its command interpolated by the states so far; skip and retry route the run', async () => {
    const gate = scripted(['continue', 'retry', 'continue', 'continue', 'skip']);
    const report = await wired.service.run({ ...base(), gate });
    expect(report.status).toBe('success');
    // a, then at b: retry a, then b, then c skipped.
    expect(trace()).toBe('a world\na world\nb A\n');
    expect(gate.seen.map((p) => `${p.index}/${p.total} ${p.name}`)).toEqual([
      '1/3 a',
      '2/3 b',
      '1/3 a',
      '2/3 b',
      '3/3 c',
    ]);
    expect(gate.seen[3].command).toBe('echo "b A" >> trace; printf B');
    expect(gate.seen[1].previous).toBe('a');
    expect(gate.seen[0].transitions).toEqual(['on_success → b']);
  });

  it('abort cancels the run before the step; edit changes an input for the steps after', async () => {
    expect((await wired.service.run({ ...base(), gate: scripted(['continue', 'abort']) })).status).toBe('cancelled');
    expect(trace()).toBe('a world\n');
    rmSync(join(dir, 'trace'));
    await wired.service.run({ ...base(), gate: scripted([], { who: 'you' }) });
    expect(trace()).toBe('a you\nb A\nc you\n');
  });

  it('-s runs one step on mocked states, with no routing and no workflow hooks', async () => {
    const mocks = { a: { Output: 'mocked', Stderr: '', ExitCode: 0, Status: 'success' as const } };
    const report = await wired.service.runStep({ ...base(), step: 'b', mocks });
    expect(report).toMatchObject({ status: 'success', output: 'B' });
    expect(report.steps.map((s) => s.name)).toEqual(['b']);
    expect(trace()).toBe('b mocked\n');
    await expect(wired.service.runStep({ ...base(), step: 'done', mocks: {} })).rejects.toMatchObject({
      code: 'USER.CLI.INVALID_ARGS',
    });
  });

  it('--dry-run lists the plan breadth-first with what can be interpolated, and runs nothing', async () => {
    const plan = await wired.service.dryRun({ ...base(), inputs: { who: 'you' } });
    expect(plan.inputs).toEqual([{ name: 'who', value: 'you', default: false }]);
    expect(plan.steps.map((s) => s.name)).toEqual(['a', 'b', 'c', 'done']);
    expect(plan.steps[0].command).toBe('echo "a $who" >> trace; printf A');
    // A state that has not run stays as written; inputs are filled in.
    expect(plan.steps[1].command).toBe('echo "b {{.states.a.Output}}" >> trace; printf B');
    expect(plan.steps[2].command).toBe('echo "c you" >> trace');
    expect(require('node:fs').existsSync(join(dir, 'trace'))).toBe(false);
  });

  it('asks for a required input that has no value, when a prompt is given', async () => {
    writeFileSync(join(dir, 'req.yaml'), WF.replace('{name: who, default: world}', '{name: who, required: true}'));
    const asked: string[] = [];
    await wired.service.run({
      ...base(),
      target: join(dir, 'req.yaml'),
      askInput: async (def) => (asked.push(def.name), 'typed'),
    });
    expect(asked).toEqual(['who']);
    expect(trace()).toBe('a typed\nb A\nc typed\n');
  });
});
