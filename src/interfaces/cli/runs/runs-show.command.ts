import { Inject } from '@nestjs/common';
import { CommandRunner, SubCommand } from 'nest-commander';
import type { ToolCallEvent } from '../../../domain/model/tool-call-event';
import { runRecordJson, runToolCalls } from '../../../application/run-tool-calls';
import { formatToolCallSummary } from '../../../domain/model/tool-call-summary';
import type { RunHistory, RunRecord } from '../../../domain/ports/run-history.port';
import { RUN_HISTORY } from '../../../domain/ports/run-history.port';
import { RUN_INDEX, type RunIndex } from '../../../domain/ports/run-index.port';
import { globalFlags, jsonLine } from '../global-flags';

/** `awf runs show <id>`: a run's steps, each with its summary and every tool call it made. */
@SubCommand({
  name: 'show',
  arguments: '<run-id>',
  description: 'Print the tool calls of one run, step by step (a unique id prefix is enough)',
})
export class RunsShowCommand extends CommandRunner {
  constructor(
    @Inject(RUN_HISTORY) private readonly runs: RunHistory,
    @Inject(RUN_INDEX) private readonly index: RunIndex,
  ) {
    super();
  }

  async run([runId]: string[]): Promise<void> {
    const record = await runToolCalls(this.index, this.runs, runId);
    process.stdout.write(
      globalFlags(this.command).format === 'json' ? jsonLine(runRecordJson(record)) : renderText(record),
    );
  }
}

function renderText({ meta, dir, steps }: RunRecord): string {
  const facts = [
    meta.workflow && `workflow ${meta.workflow}`,
    meta.status && `status ${meta.status}`,
    meta.started_at && `started ${meta.started_at}`,
  ].filter(Boolean);
  const lines = [`run ${meta.run_id}${facts.length ? ` (${facts.join(', ')})` : ''}`, `  ${dir}`];
  if (steps.length === 0) lines.push('', 'no tool calls recorded');
  for (const step of steps) {
    lines.push('', `step ${step.step}: ${formatToolCallSummary(step.summary)}`);
    const widths = {
      tool: Math.max(...step.events.map((e) => e.tool.length)),
      source: Math.max(...step.events.map((e) => e.source.length)),
    };
    for (const event of step.events) lines.push(`  ${eventLine(event, widths)}`);
  }
  return `${lines.join('\n')}\n`;
}

function eventLine(event: ToolCallEvent, width: { tool: number; source: number }): string {
  const time = event.start.slice(11, 23);
  const shape = Object.entries(event.args_shape)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  const outcome = event.status === 'error' ? `error  ${oneLine(event.error ?? '')}` : 'ok';
  const policy =
    event.policy && event.policy.decision !== 'allowed'
      ? `  [policy ${event.policy.decision}${event.policy.rule ? `: ${oneLine(event.policy.rule)}` : ''}]`
      : '';
  return `${time}  ${event.tool.padEnd(width.tool)}  ${event.source.padEnd(width.source)}  ${`${event.duration_ms} ms`.padStart(10)}  ${outcome}${shape ? `  (${shape})` : ''}${policy}`.trimEnd();
}

/** One call, one line: line breaks inside an error or a rule (a multi-line command) are shown escaped. */
function oneLine(text: string): string {
  return text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}
