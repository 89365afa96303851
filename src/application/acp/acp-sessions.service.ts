import { randomUUID } from 'node:crypto';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { AcpCommand, AcpEditor } from '../../domain/ports/acp-editor.port';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { WorkflowSummary } from '../../domain/workflow/ports/workflow-repository.port';
import type { RunRequest, WorkflowService } from '../workflow/workflow.service';
import { AcpApprovals } from './acp-approvals';
import { invalidPrompt, MAX_PROMPT_BYTES, parseWorkflowPrompt, type PromptBlock, promptText } from './acp-prompt';
import { AcpRunObserver } from './acp-run.observer';
import { AcpSession } from './acp-session';
import { type AcpStopReason, closingMessage } from './closing-message';
import { slashCommand } from './slash-commands';

export interface AcpSessionsDeps {
  workflows: WorkflowService;
  editor: AcpEditor;
  masker: SecretMasker;
  logger: AppLogger;
  /** The workflows the editor may run (all of awf's, or only those of the config's `workflows_dir`). */
  catalog: () => Promise<WorkflowSummary[]>;
  defaults: () => Pick<RunRequest, 'env' | 'runsDir' | 'projectInputs'>;
  approvalTimeoutMs: number;
}

/**
 * `awf acp-serve`'s use case: the editor's sessions, each running the workflows its prompts
 * name (`/<workflow> k=v`) through the one WorkflowService, its questions answered by the next
 * prompt, its run stopped by `session/cancel`. Errors the editor caused are AwfErrors with
 * USER.ACP codes (the edge makes them JSON-RPC errors); a prompt it got wrong ends the turn
 * with a message saying why, as AWF does.
 */
export class AcpSessions {
  private readonly sessions = new Map<string, AcpSession>();
  private readonly observers = new Map<AcpSession, AcpRunObserver>();
  private readonly running = new Set<Promise<unknown>>();
  /** Where the runs' `approve` questions go (the approval desk's `person`). */
  readonly approvals: AcpApprovals;

  constructor(private readonly deps: AcpSessionsDeps) {
    this.approvals = new AcpApprovals(deps.editor, deps.masker, deps.approvalTimeoutMs, (runId) =>
      [...this.sessions.values()].find((s) => s.runId === runId),
    );
  }

  /** A new session; the workflows it may run are announced to the editor right after. */
  open(cwd: string): string {
    const id = `sess_${randomUUID()}`;
    this.sessions.set(id, new AcpSession(id, cwd));
    // After the answer that names the session: an editor drops updates for a session it does not know yet.
    setImmediate(() => void this.announce(id));
    return id;
  }

  async prompt(sessionId: string, blocks: readonly PromptBlock[]): Promise<AcpStopReason> {
    const session = this.session(sessionId);
    if (session.inFlight)
      throw new AwfError(
        ErrorCodes.ACP_PROMPT_IN_FLIGHT,
        'a prompt is already in flight for this session; wait for it to end (or cancel it) before sending another',
        { session: sessionId },
      );
    session.inFlight = true;
    try {
      return await this.turn(session, blocks);
    } finally {
      session.inFlight = false;
    }
  }

  /** `session/cancel`: stops the session's run and what it started; the session stays usable. */
  cancel(sessionId: string): void {
    this.session(sessionId).cancel('cancelled from the editor');
  }

  /** Cancels every run and waits (within `graceMs`) for them to clean up. */
  async stop(graceMs = 10_000): Promise<void> {
    for (const s of this.sessions.values()) s.cancel('awf acp-serve is stopping');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
  }

  private async turn(session: AcpSession, blocks: readonly PromptBlock[]): Promise<AcpStopReason> {
    const early = new AcpRunObserver(session.id, this.deps.editor, this.deps.masker, () => undefined);
    let text: string;
    try {
      text = promptText(blocks);
    } catch (err) {
      if (!(err instanceof AwfError)) throw err;
      early.say(`Unsupported content: ${err.message}\n`, { awf: { code: err.code } });
      return this.ended(early, 'end_turn');
    }
    if (Buffer.byteLength(text) > MAX_PROMPT_BYTES)
      throw invalidPrompt(`the prompt is larger than ${MAX_PROMPT_BYTES} bytes`);
    const waiting = session.waitingWorkflow;
    const observer = this.observers.get(session);
    if (waiting && observer) {
      session.answer(text);
      return this.finish(session, observer, waiting);
    }
    try {
      const { workflow, inputs } = parseWorkflowPrompt(text);
      const file = await this.locate(workflow);
      return await this.start(session, workflow, file, inputs);
    } catch (err) {
      if (!(err instanceof AwfError) || err.code !== ErrorCodes.ACP_INVALID_PROMPT) throw err;
      const cause = typeof err.details.cause === 'string' ? err.details.cause : undefined;
      early.say(`Invalid prompt: ${err.message}\n`, { awf: { code: err.code, ...(cause ? { cause } : {}) } });
      return this.ended(early, 'end_turn');
    }
  }

  private start(session: AcpSession, workflow: string, file: string, inputs: Record<string, string>) {
    const observer = new AcpRunObserver(session.id, this.deps.editor, this.deps.masker, (id) => session.started(id));
    this.observers.set(session, observer);
    session.begin(workflow, (signal, ask) => {
      const run = this.deps.workflows.run({
        ...this.deps.defaults(),
        cwd: session.cwd,
        target: file,
        inputs,
        signal,
        observer,
        userInput: ask,
      });
      this.running.add(run);
      void run.catch(() => undefined).finally(() => this.running.delete(run));
      return run;
    });
    return this.finish(session, observer, workflow);
  }

  /** Waits for the run to ask or end, and tells the editor which. */
  private async finish(session: AcpSession, observer: AcpRunObserver, workflow: string): Promise<AcpStopReason> {
    const reason = closingMessage(await session.nextTurnEnd(), observer, workflow);
    return this.ended(observer, reason);
  }

  private async ended(observer: AcpRunObserver, reason: AcpStopReason): Promise<AcpStopReason> {
    await observer.drained();
    return reason;
  }

  private async locate(workflow: string): Promise<string> {
    const list = await this.deps.catalog();
    const found = list.find((w) => w.name === workflow);
    if (found) return found.file;
    const names = list.map((w) => w.name).join(', ') || 'none';
    throw invalidPrompt(`no workflow "${workflow}" (workflows: ${names})`, {
      code: ErrorCodes.WORKFLOW_NOT_FOUND,
    });
  }

  private async announce(sessionId: string): Promise<void> {
    try {
      const commands: AcpCommand[] = await Promise.all(
        (await this.deps.catalog()).map((w) =>
          this.deps.workflows.describe(w.file).then(
            (wf) => slashCommand(w, wf),
            () => slashCommand(w),
          ),
        ),
      );
      await this.deps.editor.update(sessionId, {
        sessionUpdate: 'available_commands_update',
        availableCommands: commands,
      });
    } catch (err) {
      this.deps.logger.warn({ err: String(err) }, 'acp-serve: the workflow list could not be sent');
    }
  }

  private session(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId);
    if (session) return session;
    throw new AwfError(
      ErrorCodes.ACP_UNKNOWN_SESSION,
      `unknown session "${sessionId}"; send a session/new request first`,
      { session: sessionId },
    );
  }
}
