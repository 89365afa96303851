import { randomUUID } from 'node:crypto';
import type { ToolCallEvent } from '../../../domain/model/tool-call-event';
import type { ContentBlock, NewTranscriptEvent, TranscriptEventType } from '../../../domain/model/transcript-event';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import type { TranscriptSink, TranscriptStore } from '../../../domain/ports/transcript-store.port';
import type { LoopData } from '../../../domain/workflow/interpolation.types';
import type { AgentMessage, RunObserver } from '../../../domain/workflow/ports/run-observer.port';
import type { RunReport, StepResult } from '../../../domain/workflow/run-report.model';
import { RelayObserver } from './relay-observer';

/**
 * Writes a run's transcript as it goes, in AWF's envelope, and passes everything on to `inner`.
 * Every string of every payload goes through the masker first (AWF writes them verbatim). The
 * tool calls of an agent step come from its audit trail, read when the agent has exited: they
 * are written before the agent's last reply and the step's `step.completed`, with their
 * arguments' shape, as the audit trail keeps them (never their values).
 */
export class TranscriptObserver extends RelayObserver {
  /** By step path: an agent's last reply, waiting for its step's tool calls. */
  private readonly replies = new Map<string, () => void>();
  /** By step path: the child runs of the call_workflow steps in flight, each with its own file. */
  private readonly children = new Map<string, { runId: string; workflow: string; transcript?: TranscriptObserver }>();

  constructor(
    private readonly sink: TranscriptSink,
    private readonly masker: SecretMasker,
    private readonly runId: string,
    inner?: RunObserver,
    /** `open`: a child run's file (without it, a child's steps are written here); `parentRunId`: a child's caller. */
    private readonly links: { open?: (runId: string) => TranscriptSink; parentRunId?: string } = {},
  ) {
    super(inner);
  }

  /** The run's transcript (none without a store), writing ahead of `inner` or else the request's observer. */
  static open(
    store: TranscriptStore | undefined,
    masker: SecretMasker,
    runId: string,
    request: { observer?: RunObserver; transcriptMirror?: string },
    inner?: RunObserver,
  ): TranscriptObserver | undefined {
    if (!store) return undefined;
    const warn = (message: string) => request.observer?.warn?.(message);
    const sink = store.open(runId, { mirror: request.transcriptMirror, warn });
    // As AWF's mirror, which follows the top run's recorder only, children are not mirrored.
    const open = (child: string) => store.open(child, { warn });
    return new TranscriptObserver(sink, masker, runId, inner ?? request.observer, { open });
  }

  override runStarted(runId: string, workflow: string): void {
    this.emit('run.started', '', undefined, { name: workflow, kind: 'workflow' });
    super.runStarted(runId, workflow);
  }

  override stepStarted(step: string, type: string, loop?: LoopData): void {
    this.emit('step.started', step, loop, { name: step, kind: type });
    super.stepStarted(step, type, loop);
  }

  /** AWF's linkage: `child_run_id` here, `parent_run_id` on every line of the child's own file. */
  override calledWorkflow(step: string, runId: string, workflow: string, loop?: LoopData): RunObserver | undefined {
    const payload = { name: step, kind: 'call_workflow' };
    this.emit('step.call_workflow.started', step, loop, payload, undefined, runId);
    const inner = super.calledWorkflow(step, runId, workflow, loop) ?? this.inner;
    const links = { open: this.links.open, parentRunId: this.runId };
    const transcript =
      this.links.open && new TranscriptObserver(this.links.open(runId), this.masker, runId, inner, links);
    transcript?.emit('run.started', '', undefined, { name: workflow, kind: 'workflow' });
    this.children.set(stepPath(step, loop), { runId, workflow, transcript });
    return transcript;
  }

  /**
   * AWF's blocks: the prompt and system prompt are awf's (`router`), a reply the agent's. A reply
   * is held until the step's tool calls are written, since they came before it.
   */
  override agentMessage(step: string, message: AgentMessage, loop?: LoopData): void {
    const path = stepPath(step, loop);
    this.release(path);
    const fidelity = message.role === 'user' ? 'router' : 'agent_emitted';
    const texts = [message.text, ...(message.systemPrompt ? [message.systemPrompt] : [])];
    const at = new Date().toISOString();
    const write = () =>
      this.emit(
        `message.${message.role}`,
        step,
        loop,
        { role: message.role, blocks: texts.map((text): ContentBlock => ({ type: 'text', fidelity, text })) },
        at,
      );
    if (message.role === 'user') write();
    else if (message.text) this.replies.set(path, write);
    super.agentMessage(step, message, loop);
  }

  override stepFinished(report: StepResult, loop?: LoopData): void {
    const step = report.name;
    for (const call of report.events ?? []) this.toolCall(step, loop, call);
    this.release(stepPath(step, loop));
    const called = this.children.get(stepPath(step, loop));
    this.children.delete(stepPath(step, loop));
    called?.transcript?.completed(called.workflow, report.status, report.error?.message);
    called?.transcript?.close();
    const payload = {
      name: step,
      kind: report.type,
      ...(report.error ? { error: report.error.message } : {}),
      result: report.output !== '',
    };
    if (called) this.emit('step.call_workflow.completed', step, loop, payload, undefined, called.runId);
    this.emit('step.completed', step, loop, payload);
    super.stepFinished(report, loop);
  }

  /** The run is over: `run.completed`. `close` follows, whatever happened. */
  finished(report: RunReport): void {
    this.completed(report.workflow, report.status, report.error?.message);
  }

  close(): void {
    for (const { transcript } of this.children.values()) transcript?.close();
    this.sink.close();
  }

  private completed(workflow: string, status: RunReport['status'], error?: string): void {
    for (const path of [...this.replies.keys()]) this.release(path);
    this.emit('run.completed', '', undefined, {
      name: workflow,
      kind: 'workflow',
      ...(error ? { error } : {}),
      result: status,
    });
  }

  private release(path: string): void {
    const write = this.replies.get(path);
    this.replies.delete(path);
    write?.();
  }

  private toolCall(step: string, loop: LoopData | undefined, call: ToolCallEvent): void {
    const base = {
      name: call.tool,
      call_id: randomUUID(),
      input: call.args_shape,
      fidelity: call.policy?.decision === 'bypassed' ? ('agent_emitted' as const) : ('router' as const),
    };
    const start = Date.parse(call.start);
    this.emit('tool.call', step, loop, { ...base, output: null }, call.start);
    const end = new Date((Number.isFinite(start) ? start : Date.now()) + call.duration_ms).toISOString();
    this.emit('tool.result', step, loop, { ...base, output: null, ...(call.error ? { error: call.error } : {}) }, end);
  }

  private emit(
    type: TranscriptEventType,
    step: string,
    loop: LoopData | undefined,
    payload: NewTranscriptEvent['payload'],
    timestamp = new Date().toISOString(),
    child?: string,
  ): void {
    this.sink.append({
      run_id: this.runId,
      ...(this.links.parentRunId ? { parent_run_id: this.links.parentRunId } : {}),
      ...(child ? { child_run_id: child } : {}),
      type,
      path: step && stepPath(step, loop),
      iteration: loop?.Index ?? 0,
      timestamp,
      payload: masked(payload, this.masker) as NewTranscriptEvent['payload'],
    });
  }
}

/** AWF's path: the enclosing loops' indices, outermost first, then the step (`loop:0/loop:2/review`). */
function stepPath(step: string, loop: LoopData | undefined): string {
  const indices: number[] = [];
  for (let l = loop; l; l = l.Parent ?? undefined) indices.unshift(l.Index);
  return [...indices.map((i) => `loop:${i}`), step].join('/');
}

function masked(value: unknown, masker: SecretMasker): unknown {
  if (typeof value === 'string') return masker.mask(value);
  if (Array.isArray(value)) return value.map((v) => masked(v, masker));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, masker)]));
  return value;
}
