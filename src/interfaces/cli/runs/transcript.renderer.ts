import type {
  ContentBlock,
  MessagePayload,
  StepPayload,
  ToolPayload,
  TranscriptEvent,
} from '../../../domain/model/transcript-event';

const INDENT = '      ';

/**
 * `awf runs transcript <id>` in text: one line per event (its time, the step's path, what
 * happened); a message's text follows on indented lines, whole.
 */
export function renderTranscript(runId: string, file: string, events: readonly TranscriptEvent[]): string {
  const lines = [`transcript of run ${runId} (${events.length} events)`, `  ${file}`, ''];
  const width = Math.max(0, ...events.map((e) => e.path.length));
  for (const event of events) {
    const [head, ...body] = describe(event);
    lines.push(`${event.timestamp.slice(11, 23)}  ${event.path.padEnd(width)}  ${head}`.trimEnd());
    for (const text of body) lines.push(...text.split('\n').map((l) => `${INDENT}${l}`.trimEnd()));
  }
  return `${lines.join('\n')}\n`;
}

function describe(event: TranscriptEvent): string[] {
  switch (event.type) {
    case 'run.started':
    case 'run.completed':
    case 'step.started':
    case 'step.completed':
    case 'step.call_workflow.started':
    case 'step.call_workflow.completed':
      return [lifecycle(event.type, event.payload as StepPayload | null, event.child_run_id)];
    case 'message.user':
    case 'message.assistant':
      return message(event.payload as MessagePayload | null);
    case 'tool.call':
    case 'tool.result':
      return [tool(event.type, event.payload as ToolPayload | null)];
    default:
      // A type this awf does not know (a newer writer): shown as it is, not dropped.
      return [`${String(event.type)} ${JSON.stringify(event.payload)}`];
  }
}

function lifecycle(type: string, p: StepPayload | null, child?: string): string {
  const [scope, ...rest] = type.split('.');
  const what = `${scope === 'run' ? 'run' : rest.length > 1 ? 'call_workflow' : 'step'} ${type.split('.').at(-1)}`;
  const facts = [
    p?.kind && (scope === 'run' ? p.name : `(${p.kind})`),
    scope === 'run' && typeof p?.result === 'string' ? p.result : undefined,
    child && `child run ${child}`,
  ].filter(Boolean);
  return `${what}${facts.length ? ` ${facts.join(' ')}` : ''}${p?.error ? `: ${oneLine(p.error)}` : ''}`;
}

function message(p: MessagePayload | null): string[] {
  const blocks = p?.blocks ?? [];
  return [`${p?.role ?? 'message'}:`, ...blocks.map(blockText)];
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
    case 'stream':
      return block.text ?? '';
    case 'thinking':
      return `(thinking) ${block.thinking ?? ''}`;
    case 'command':
      return `$ ${block.command ?? ''}`;
    case 'tool_use':
      return `(tool use ${block.tool_name ?? ''}) ${JSON.stringify(block.tool_input ?? null)}`;
    default:
      return `(${block.type}) ${JSON.stringify(block.tool_content ?? null)}`;
  }
}

function tool(type: string, p: ToolPayload | null): string {
  if (!p) return type;
  const via = p.fidelity === 'agent_emitted' ? ' [agent]' : '';
  if (type === 'tool.call') return `tool ${p.name}${argsText(p.input)}${via}`;
  return `tool ${p.name} ${p.error ? `error: ${oneLine(p.error)}` : 'ok'}${via}`;
}

/** The arguments as awf records them (name=size), or AWF's values, compact. */
function argsText(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const parts = Object.entries(input).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length ? ` (${parts.join(' ')})` : '';
}

function oneLine(text: string): string {
  return text.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}
