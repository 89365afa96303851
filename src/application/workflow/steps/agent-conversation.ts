import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type {
  AgentConversation,
  AgentProvider,
  AgentRunResult,
  ConversationTurn,
} from '../../../domain/ports/agent-provider.port';
import type { AgentStep } from '../../../domain/workflow/workflow.model';

/** What a finished agent step leaves for a later `continue_from`. */
export interface ConversationRecord {
  provider: string;
  sessionId?: string;
  turns: ConversationTurn[];
  systemPrompt?: string;
}

/**
 * One step's side of a conversation: where it starts (fresh, or the `continue_from` step's
 * session and turns), what each turn sends the provider, and the record it leaves. Every
 * agent step keeps a record, so any earlier agent step can be continued.
 */
export class StepConversation {
  private sessionId?: string;
  private readonly turns: ConversationTurn[];
  private readonly systemPrompt?: string;
  private first = true;

  constructor(
    private readonly step: AgentStep,
    private readonly provider: AgentProvider,
    providerName: string,
    prior?: ConversationRecord,
    /** The step's own system prompt (its role, then `system_prompt`), used when it does not resume. */
    private readonly ownSystemPrompt: string | undefined = step.systemPrompt,
  ) {
    if (step.continueFrom !== undefined && provider.resumes) {
      if (!prior) {
        throw new AwfError(
          ErrorCodes.EXECUTION_AGENT_FAILED,
          `states.${step.name}.conversation.continue_from: step "${step.continueFrom}" has not run (or has no conversation) yet`,
          { step: step.name, continue_from: step.continueFrom },
          'continue_from must name an agent step that runs before this one.',
        );
      }
      if (provider.resumes === 'session' && prior.provider !== providerName) {
        throw new AwfError(
          ErrorCodes.EXECUTION_AGENT_FAILED,
          `states.${step.name}.conversation.continue_from: a ${prior.provider} session cannot be resumed by ${providerName}`,
          { step: step.name, continue_from: step.continueFrom },
          'Use the same provider as the step it continues.',
        );
      }
    }
    const resumed = step.continueFrom !== undefined && provider.resumes ? prior : undefined;
    this.sessionId = resumed?.sessionId;
    this.turns = [...(resumed?.turns ?? [])];
    this.systemPrompt = resumed ? resumed.systemPrompt : ownSystemPrompt;
    this.first = !resumed;
  }

  /** The conversation part of the next request: a session to resume, turns to resend, a first turn's system prompt. */
  request(): AgentConversation | undefined {
    const wanted =
      this.step.mode === 'conversation' ||
      this.step.continueFrom !== undefined ||
      this.ownSystemPrompt !== undefined ||
      !this.first;
    if (!wanted || (!this.provider.resumes && this.first && !this.ownSystemPrompt)) return undefined;
    const history = this.provider.resumes === 'history';
    return {
      ...(this.sessionId ? { sessionId: this.sessionId } : {}),
      turns: [...this.turns],
      ...(this.systemPrompt && (this.first || history) ? { systemPrompt: this.systemPrompt } : {}),
    };
  }

  /** After a turn: the session to resume next, and the turn pair. */
  answered(prompt: string, result: AgentRunResult): void {
    this.sessionId = result.sessionId ?? this.sessionId;
    this.turns.push({ role: 'user', content: prompt }, { role: 'assistant', content: result.output });
    this.first = false;
  }

  record(providerName: string): ConversationRecord {
    return {
      provider: providerName,
      sessionId: this.sessionId,
      turns: [...this.turns],
      systemPrompt: this.systemPrompt,
    };
  }
}
