import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { RunTelemetry } from '../../../src/application/run-telemetry.service';
import type { AgentStepExecutor } from '../../../src/application/workflow/steps/agent-step.executor';
import { CommandStepExecutor } from '../../../src/application/workflow/steps/command-step.executor';
import { HookRunner } from '../../../src/application/workflow/steps/hook-runner';
import { WorkflowRunner } from '../../../src/application/workflow/run/workflow-runner.service';
import type { StartSpanOptions, TraceSpan, Tracer } from '../../../src/domain/ports/tracer.port';
import { parseWorkflow } from '../../../src/domain/workflow/workflow.parser';
import { ShellCommandExecutor } from '../../../src/infrastructure/workflow/shell-command.executor';

/** Records each span's name and its parent's name: the tree a trace backend would draw. */
class TreeTracer implements Tracer {
  readonly enabled = true;
  readonly edges: string[] = [];
  startSpan(name: string, options: StartSpanOptions = {}): TraceSpan {
    const parent =
      typeof options.parent === 'object' ? (options.parent as TraceSpan & { name: string }).name : '(root)';
    this.edges.push(`${parent} > ${name}`);
    return { name, traceparent: undefined, setAttributes: () => {}, fail: () => {}, end: () => {} } as TraceSpan;
  }
}

describe('spans of parallel branches and loop bodies', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'awf-spans-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('branch spans are siblings under the parallel step; body spans hang under their loop', async () => {
    const { workflow } = parseWorkflow(
      parse(`
name: spans
states:
  initial: fan
  fan: {type: parallel, parallel: [a, b, l], on_success: done}
  a: {type: step, command: 'true'}
  b: {type: step, command: 'true'}
  l: {type: for_each, items: '[1, 2]', body: [c]}
  c: {type: step, command: 'true'}
  done: {type: terminal}
`),
      'spans',
    );
    const tracer = new TreeTracer();
    const exec = new ShellCommandExecutor();
    const runner = new WorkflowRunner(
      {
        commands: new CommandStepExecutor(exec),
        agents: undefined as unknown as AgentStepExecutor,
        hooks: new HookRunner(exec),
      },
      new RunTelemetry(tracer, {}),
    );
    const report = await runner.run(workflow!, {
      inputs: {},
      env: { PATH: process.env.PATH ?? '' },
      signal: new AbortController().signal,
      cwd: dir,
      runsDir: join(dir, 'runs'),
    });
    expect(report.status).toBe('success');
    expect([...tracer.edges].sort()).toEqual([
      '(root) > workflow.run',
      'step fan > step a',
      'step fan > step b',
      'step fan > step l',
      'step l > step c',
      'step l > step c',
      'workflow.run > step fan',
    ]);
  });
});
