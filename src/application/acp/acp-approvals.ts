import { randomUUID } from 'node:crypto';
import type { AcpEditor, AcpPermissionChoice } from '../../domain/ports/acp-editor.port';
import type { ApprovalAnswer, ApprovalRequest } from '../../domain/ports/approval-gate.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import { toolKind } from './acp-run.observer';
import type { AcpSession } from './acp-session';

const ANSWERS: Record<Exclude<AcpPermissionChoice, 'cancelled'>, ApprovalAnswer['answer']> = {
  allow_once: 'once',
  allow_always: 'always',
  reject_once: 'deny',
};

/**
 * A policy `approve` rule's question, asked of the editor whose session runs the step, through
 * `session/request_permission` (AWF's docs promise it; AWF's code never asks). The question shows
 * as a pending tool call that the answer settles. The answer is the approval desk's, recorded in
 * the call's `policy.approval` as every path records it: `by: person`, `who`: the editor's name.
 * No answer within the desk's timeout denies (`timeout`); a cancelled turn, a run that is not one
 * of this process's sessions, or an editor that cannot answer deny (`no channel`).
 */
export class AcpApprovals {
  constructor(
    private readonly editor: AcpEditor,
    private readonly masker: SecretMasker,
    private readonly timeoutMs: number,
    private readonly sessionOf: (runId: string) => AcpSession | undefined,
  ) {}

  readonly ask = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    const session = request.runId ? this.sessionOf(request.runId) : undefined;
    if (!session) return { answer: 'deny', by: 'no channel' };
    const id = randomUUID();
    const toolCallId = `approval-${id}`;
    const rule = request.rules[0] ?? '';
    const title = `${request.tool} needs your approval${request.step ? ` (step ${request.step})` : ''}: ${rule}`;
    const rawInput = JSON.parse(this.masker.mask(JSON.stringify(request.args))) as Record<string, unknown>;
    const kind = toolKind(request.tool);
    await this.editor
      .update(session.id, { sessionUpdate: 'tool_call', toolCallId, title, kind, status: 'pending', rawInput })
      .catch(() => undefined);
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = AbortSignal.any([timeout, ...(session.signal ? [session.signal] : [])]);
    const answer = await this.editor
      .requestPermission(
        {
          sessionId: session.id,
          toolCallId,
          title,
          kind,
          rawInput,
          alwaysLabel: `Allow for the rest of step ${request.step ?? 'this step'}`,
        },
        signal,
      )
      .then(
        (choice): ApprovalAnswer =>
          choice === 'cancelled'
            ? { answer: 'deny', by: 'no channel', id }
            : { answer: ANSWERS[choice], by: 'person', who: this.editor.name ?? 'editor', id },
        (): ApprovalAnswer => ({ answer: 'deny', by: timeout.aborted ? 'timeout' : 'no channel', id }),
      );
    const verdict = answer.answer === 'deny' ? `denied (${answer.by})` : `approved ${answer.answer}`;
    await this.editor
      .update(session.id, {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: answer.answer === 'deny' ? 'failed' : 'completed',
        content: [{ type: 'content', content: { type: 'text', text: verdict } }],
      })
      .catch(() => undefined);
    return answer;
  };
}
