import { Inject } from '@nestjs/common';
import { CommandRunner, Option, SubCommand } from 'nest-commander';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import { formatToolCallSummary } from '../../domain/model/tool-call-summary';
import type { RunHistory, RunRecord } from '../../domain/ports/run-history.port';
import { RUN_HISTORY } from '../../domain/ports/run-history.port';

/** `awf runs show <id>`: a run's steps, each with its summary and every tool call it made. */
@SubCommand({ name: 'show', arguments: '<run-id>', description: 'Print the tool calls of one run, step by step' })
export class RunsShowCommand extends CommandRunner {
  constructor(@Inject(RUN_HISTORY) private readonly runs: RunHistory) {
    super();
  }

  async run([runId]: string[], options: { format?: 'text' | 'json' }): Promise<void> {
    const record = this.runs.load(runId);
    process.stdout.write(options.format === 'json' ? `${JSON.stringify(asJson(record))}\n` : renderText(record));
  }

  @Option({ flags: '-f, --format <format>', description: 'text (default) or json' })
  parseFormat(value: string): 'text' | 'json' {
    if (value === 'text' || value === 'json') return value;
    throw new AwfError(ErrorCodes.CLI_INVALID_ARGS, `unknown format "${value}"`, { format: value }, 'Use -f text or -f json.');
  }
}

function asJson(record: RunRecord): Record<string, unknown> {
  return { ...record.meta, dir: record.dir, steps: record.steps };
}

function renderText({ meta, dir, steps }: RunRecord): string {
  const facts = [meta.workflow && `workflow ${meta.workflow}`, meta.status && `status ${meta.status}`, meta.started_at && `started ${meta.started_at}`].filter(Boolean);
  const lines = [`run ${meta.run_id}${facts.length ? ` (${facts.join(', ')})` : ''}`, `  ${dir}`];
  if (steps.length === 0) lines.push('', 'no tool calls recorded');
  for (const step of steps) {
    lines.push('', `step ${step.step}: ${formatToolCallSummary(step.summary)}`);
    const widths = { tool: Math.max(...step.events.map((e) => e.tool.length)), source: Math.max(...step.events.map((e) => e.source.length)) };
    for (const event of step.events) lines.push(`  ${eventLine(event, widths)}`);
  }
  return `${lines.join('\n')}\n`;
}

function eventLine(event: ToolCallEvent, width: { tool: number; source: number }): string {
  const time = event.start.slice(11, 23);
  const shape = Object.entries(event.args_shape).map(([k, v]) => `${k}=${v}`).join(' ');
  const outcome = event.status === 'error' ? `error  ${event.error ?? ''}` : 'ok';
  const policy = event.policy && event.policy.decision !== 'allowed' ? `  [policy ${event.policy.decision}${event.policy.rule ? `: ${event.policy.rule}` : ''}]` : '';
  return `${time}  ${event.tool.padEnd(width.tool)}  ${event.source.padEnd(width.source)}  ${`${event.duration_ms} ms`.padStart(10)}  ${outcome}${shape ? `  (${shape})` : ''}${policy}`.trimEnd();
}
