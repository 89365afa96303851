import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/** AWF's limit on one prompt's text; a longer one is refused as invalid params. */
export const MAX_PROMPT_BYTES = 1 << 20;

/** The parts of an ACP content block that awf reads. */
export interface PromptBlock {
  type: string;
  text?: string | null;
  uri?: string | null;
}

/** A prompt that names a workflow: `/<name> k=v --input=k=v --input k=v`. */
export interface WorkflowPrompt {
  workflow: string;
  inputs: Record<string, string>;
}

/**
 * The turn's text, as AWF joins it: text blocks and resource links (their URI), one per line.
 * An image, audio or embedded resource is refused with USER.ACP.UNSUPPORTED_BLOCK.
 */
export function promptText(blocks: readonly PromptBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text ?? '');
    else if (block.type === 'resource_link') parts.push(block.uri ?? '');
    else
      throw new AwfError(
        ErrorCodes.ACP_UNSUPPORTED_BLOCK,
        `${block.type} blocks are not supported`,
        { type: block.type },
        'Send the prompt as text.',
      );
  }
  return parts.join('\n');
}

/**
 * A first turn: `/<workflow>` then inputs, split shell-style (quotes group and are dropped).
 * Inputs are `k=v`, `--input=k=v` or `--input k=v` (the first `=` splits); other words are
 * ignored, as AWF ignores them. Anything else is USER.ACP.INVALID_PROMPT.
 */
export function parseWorkflowPrompt(text: string): WorkflowPrompt {
  const words = shellWords(text);
  const head = words[0];
  if (!head?.startsWith('/') || head.length === 1)
    throw invalidPrompt('a prompt must begin with a /<workflow> command, e.g. `/review file=main.go`');
  const workflow = head.slice(1);
  const inputs: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    let pair = words[i];
    if (pair === '--input') pair = words[++i] ?? '';
    else if (pair.startsWith('--input=')) pair = pair.slice('--input='.length);
    else if (pair.startsWith('--')) continue;
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    if (eq === 0) throw invalidPrompt(`input "${pair}" has no name before its "="`);
    inputs[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { workflow, inputs };
}

/** `cause`: the awf error beneath (an unknown workflow, an input the workflow refuses). */
export function invalidPrompt(message: string, cause?: { code: string; hint?: string }): AwfError {
  return new AwfError(
    ErrorCodes.ACP_INVALID_PROMPT,
    message,
    cause ? { cause: cause.code } : {},
    cause?.hint ?? 'Type / to list the workflows, then give their inputs as key=value.',
  );
}

/** Whitespace splits; single or double quotes group, and are removed (AWF's tokenizer). */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let open = false;
  let quote: string | undefined;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      open = true;
      continue;
    } else if (/\s/.test(ch)) {
      if (open) words.push(word);
      word = '';
      open = false;
      continue;
    } else word += ch;
    open = true;
  }
  if (open) words.push(word);
  return words;
}
