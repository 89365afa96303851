import type { DryRunPlan, DryRunStep } from '../../../application/workflow/run/dry-run-plan';
import { jsonLine, type OutputFormat } from '../global-flags';

/** `awf run --dry-run`: AWF's plan layout in text, or `{schema_version, dry_run, …plan}`. */
export function renderDryRun(plan: DryRunPlan, format: OutputFormat, mask: (s: string) => string): string {
  if (format === 'json') return mask(jsonLine({ dry_run: true, ...plan }));
  if (format === 'quiet') return mask(plan.steps.map((s) => `${s.name}\n`).join(''));
  const title = `Dry Run: ${plan.workflow}`;
  const lines = [title, '='.repeat(title.length)];
  if (plan.description) lines.push('', plan.description);
  if (plan.inputs.length) {
    lines.push('', 'Inputs:');
    for (const i of plan.inputs) lines.push(`  ${i.name}: ${i.value}${i.default ? ' (default)' : ''}`);
  }
  lines.push('', 'Execution Plan:', '-'.repeat(15));
  let n = 0;
  for (const step of plan.steps) lines.push('', ...stepLines(step, step.type === 'terminal' ? 0 : ++n));
  lines.push('', 'OK No commands will be executed (dry-run mode).');
  return mask(`${lines.join('\n')}\n`);
}

const LABEL: Partial<Record<DryRunStep['type'], string>> = {
  agent: '[AGENT]',
  parallel: '[PARALLEL]',
  for_each: '[LOOP:for_each]',
  while: '[LOOP:while]',
  call_workflow: '[CALL]',
  operation: '[OPERATION]',
};

function stepLines(s: DryRunStep, n: number): string[] {
  if (s.type === 'terminal') return [`[T] ${s.name} (${s.status})`, ...field('Message', s.message)];
  return [
    `[${n}] ${s.name}${LABEL[s.type] ? ` ${LABEL[s.type]}` : ''}`,
    ...(s.description ? [`    ${s.description}`] : []),
    ...field('Provider', s.provider),
    ...field(s.type === 'agent' ? 'Prompt' : 'Command', s.command),
    ...field('MCP proxy', s.mcp_proxy === undefined ? undefined : s.mcp_proxy ? 'yes' : 'no'),
    ...field('Operation', s.operation),
    ...field('Workflow', s.workflow),
    ...field('Branches', s.branches?.join(', ')),
    ...field('Items', s.items),
    ...field('Condition', s.condition),
    ...field('Body', s.body?.join(', ')),
    ...field('Dir', s.dir),
    ...field('Timeout', s.timeout_ms === undefined ? undefined : `${s.timeout_ms / 1000}s`),
    ...field('Retry', s.retry_attempts === undefined ? undefined : `${s.retry_attempts} attempts`),
    ...field('Continue on error', s.continue_on_error ? 'yes' : undefined),
    ...s.transitions.map((t) => `    -> ${t}`),
  ];
}

function field(name: string, value: string | undefined): string[] {
  return value === undefined || value === '' ? [] : [`    ${name}: ${value}`];
}
