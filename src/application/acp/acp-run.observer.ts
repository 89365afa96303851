import type { AcpEditor, AcpMeta, AcpToolKind, AcpUpdate } from '../../domain/ports/acp-editor.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { AgentMessage, RunObserver } from '../../domain/workflow/ports/run-observer.port';
import type { StepResult } from '../../domain/workflow/run-report.model';

const KINDS: Record<string, AcpToolKind> = {
  Read: 'read',
  Write: 'edit',
  Edit: 'edit',
  Bash: 'execute',
  Glob: 'search',
  Grep: 'search',
};

/** The ACP kind of a tool, by awf's built-in names; any other tool is `other`. */
export function toolKind(tool: string): AcpToolKind {
  return KINDS[tool] ?? 'other';
}

/**
 * A run as the editor sees it, in one session: step output as message chunks while it comes,
 * an agent's replies, the step's tool calls as `tool_call` + `tool_call_update` (read from the
 * step's audit trail when the step ends, as every other view of a run reads them; the trail keeps
 * the arguments' shape, not their values, so none are shown), progress as
 * thought chunks. Every text is masked. Updates leave in order; `drained` resolves once they
 * are all handed to the editor, so the turn's answer never overtakes them.
 */
export class AcpRunObserver implements RunObserver {
  /** True once the run's own output reached the editor (AWF's "streamed"). */
  streamed = false;
  private queue: Promise<void> = Promise.resolve();
  private calls = 0;
  private readonly replied = new Set<string>();

  constructor(
    private readonly sessionId: string,
    private readonly editor: AcpEditor,
    private readonly masker: SecretMasker,
    private readonly onRunId: (runId: string) => void,
  ) {}

  runStarted(runId: string): void {
    this.onRunId(runId);
  }

  stepStarted(step: string, type: string): void {
    this.thought(`${type === 'agent' ? 'Agent step' : 'Step'} ${step} started\n`);
  }

  stepOutput(_step: string, _stream: 'stdout' | 'stderr', text: string): void {
    this.message(text);
  }

  /** A conversation's replies are shown as they come; any other step's output when it ends. */
  agentMessage(step: string, { role, text, conversation }: AgentMessage): void {
    if (role !== 'assistant' || !conversation) return;
    this.replied.add(step);
    if (text.trim()) this.message(text.endsWith('\n') ? text : `${text}\n`);
  }

  stepFinished(report: StepResult): void {
    for (const call of report.events ?? []) {
      const toolCallId = `${this.sessionId}/call-${++this.calls}`;
      this.send({
        sessionUpdate: 'tool_call',
        toolCallId,
        title: call.tool,
        kind: toolKind(call.tool),
        status: 'in_progress',
      });
      const failed = call.status === 'error';
      this.send({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: failed ? 'failed' : 'completed',
        ...(failed && call.error ? { content: [textContent(this.masker.mask(call.error))] } : {}),
      });
    }
    if (report.type === 'agent' && !this.replied.has(report.name) && report.output.trim())
      this.message(report.output.endsWith('\n') ? report.output : `${report.output}\n`);
    if (report.status === 'failure' && report.error)
      this.thought(`Step ${report.name} failed: [${report.error.code}] ${report.error.message}\n`);
  }

  warn(message: string): void {
    this.thought(`warning: ${message}\n`);
  }

  info(message: string): void {
    this.thought(`${message}\n`);
  }

  log(message: string): void {
    this.thought(`${message}\n`);
  }

  /** A message of awf's own (the run's end, a question, a refusal); not the run's output. */
  say(text: string, meta?: AcpMeta): void {
    this.send({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: this.masker.mask(text) },
      ...(meta ? { _meta: meta } : {}),
    });
  }

  drained(): Promise<void> {
    return this.queue;
  }

  private message(text: string): void {
    this.streamed = true;
    this.say(text);
  }

  private thought(text: string): void {
    this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: this.masker.mask(text) } });
  }

  private send(update: AcpUpdate): void {
    this.queue = this.queue.then(() => this.editor.update(this.sessionId, update)).catch(() => undefined);
  }
}

function textContent(text: string): { type: 'content'; content: { type: 'text'; text: string } } {
  return { type: 'content', content: { type: 'text', text } };
}
