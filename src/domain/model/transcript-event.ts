/**
 * One line of a run's transcript (`<storage>/transcripts/<run_id>.jsonl`), in AWF's envelope
 * and closed vocabulary of event and block types, so that AWF's readers (and `jq` recipes) work.
 */
export const TRANSCRIPT_EVENT_TYPES = [
  'run.started',
  'run.completed',
  'step.started',
  'step.completed',
  'step.call_workflow.started',
  'step.call_workflow.completed',
  'message.user',
  'message.assistant',
  'tool.call',
  'tool.result',
] as const;

export type TranscriptEventType = (typeof TRANSCRIPT_EVENT_TYPES)[number];

/** `router`: recorded by awf (its proxy, its prompt); `agent_emitted`: reported by the agent. */
export type Fidelity = 'router' | 'agent_emitted';

/** `step.*` and `run.*`: `name` is the step's (the workflow's for `run.*`), `kind` its type. */
export interface StepPayload {
  name: string;
  kind: string;
  error?: string;
  /** As AWF's code writes it on `*.completed`: whether the step printed anything. */
  result?: unknown;
}

export interface ContentBlock {
  type: 'text' | 'thinking' | 'tool_use' | 'tool_result' | 'command' | 'stream';
  fidelity: Fidelity;
  text?: string;
  thinking?: string;
  tool_name?: string;
  tool_id?: string;
  tool_input?: unknown;
  tool_content?: unknown;
  command?: string;
}

export interface MessagePayload {
  role: 'user' | 'assistant';
  blocks: ContentBlock[];
}

export interface ToolPayload {
  name: string;
  call_id: string;
  input: unknown;
  output: unknown;
  error?: string;
  fidelity: Fidelity;
}

export interface TranscriptEvent {
  /** From 1, strictly increasing within one file. */
  seq: number;
  run_id: string;
  parent_run_id?: string;
  child_run_id?: string;
  type: TranscriptEventType;
  /** The step's path (`review`, `loop:0/review`); empty for `run.*`. */
  path: string;
  /** The innermost loop's index; 0 outside loops. */
  iteration: number;
  timestamp: string;
  payload: StepPayload | MessagePayload | ToolPayload | null;
}

/** What a writer hands over: the sink numbers it. */
export type NewTranscriptEvent = Omit<TranscriptEvent, 'seq'>;
