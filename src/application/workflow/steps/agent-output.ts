import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { StepStateData } from '../../../domain/workflow/interpolation.types';
import type { AgentStep } from '../../../domain/workflow/workflow.model';

const FENCE = /^\s*```[\w-]*[^\S\n]*\n([\s\S]*?)\n?```\s*$/;
const JSON_BLOCK = /```json[^\S\n]*\n([\s\S]*?)\n?```/;

/**
 * AWF's `output_format` (pkg/output): `text` keeps only the inside of a fenced answer; `json`
 * does the same, parses it (or else the first ```json block in the answer) into `JSON`, and
 * fails the run when neither parses. Without it the answer is kept as is.
 */
export function formatOutput(step: AgentStep, output: string): Pick<StepStateData, 'Output' | 'JSON'> {
  if (!step.outputFormat) return { Output: output };
  const inner = FENCE.exec(output)?.[1] ?? output;
  if (step.outputFormat === 'text') return { Output: inner };
  for (const candidate of [inner, JSON_BLOCK.exec(output)?.[1]]) {
    if (candidate === undefined) continue;
    try {
      return { Output: candidate.trim(), JSON: JSON.parse(candidate) as unknown };
    } catch {
      // try the next candidate
    }
  }
  throw new AwfError(
    ErrorCodes.EXECUTION_AGENT_FAILED,
    `step "${step.name}": output_format is json but the answer is not JSON: ${output.slice(0, 200)}`,
    { step: step.name, output_format: 'json' },
    'Ask the agent for a JSON answer only (no prose around it), or drop output_format.',
  );
}

/** The Tokens* fields: the provider's counts, else AWF's estimate (a token per four characters). */
export function tokenFields(
  tokens: { input?: number; output?: number } | undefined,
  prompt: string,
  output: string,
): Pick<StepStateData, 'TokensUsed' | 'TokensInput' | 'TokensOutput' | 'TokensEstimated'> {
  if (tokens && (tokens.input !== undefined || tokens.output !== undefined)) {
    const input = tokens.input ?? 0;
    const out = tokens.output ?? 0;
    return { TokensInput: input, TokensOutput: out, TokensUsed: input + out, TokensEstimated: false };
  }
  const input = Math.ceil(prompt.length / 4);
  const out = Math.ceil(output.length / 4);
  return { TokensInput: input, TokensOutput: out, TokensUsed: input + out, TokensEstimated: true };
}

type TokenFields = ReturnType<typeof tokenFields>;

/** The Tokens* fields of two turns together: estimated when either turn's were. */
export function addTokens(a: TokenFields, b: TokenFields): TokenFields {
  return {
    TokensInput: a.TokensInput! + b.TokensInput!,
    TokensOutput: a.TokensOutput! + b.TokensOutput!,
    TokensUsed: a.TokensUsed! + b.TokensUsed!,
    TokensEstimated: a.TokensEstimated || b.TokensEstimated,
  };
}

/** `Response`: the answer parsed, when it is a JSON object or array; undefined otherwise. */
export function parsedResponse(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}
