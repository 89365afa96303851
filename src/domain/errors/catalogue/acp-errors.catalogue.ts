import { ErrorCodes as C } from '../error-codes';
import { type CatalogueText, type CodesOf, entry } from './catalogue-entry';

/**
 * USER.ACP codes (exit 1 for the one that stops `awf acp-serve`): what an editor sent over the
 * Agent Client Protocol. The others reach the editor, never an exit code: a JSON-RPC error's
 * `data`, or the `_meta.awf.code` of the message that ends the turn (docs/acp.md).
 */
export const ACP_ERRORS: Record<CodesOf<'USER.ACP'>, CatalogueText> = {
  [C.ACP_INVALID_PROMPT]: entry(
    'The first message of a turn must name a workflow and its inputs: `/<workflow> key=value …`. It did not, named a workflow awf cannot find, or gave inputs the workflow refuses.',
    'Type `/` in the editor to pick one of the workflows it lists, then give its required inputs as key=value (quote values with spaces).',
  ),
  [C.ACP_UNSUPPORTED_BLOCK]: entry(
    'The prompt held an image, audio or embedded resource: awf reads only text and resource links.',
    'Send the prompt as text.',
  ),
  [C.ACP_PROMPT_IN_FLIGHT]: entry(
    'The session got a second prompt while the first one was still running (JSON-RPC -32602).',
    'Wait for the turn to end, or cancel it, before sending the next message.',
  ),
  [C.ACP_UNKNOWN_SESSION]: entry(
    'A prompt or cancel named a session this `awf acp-serve` process did not create (JSON-RPC -32602); sessions last as long as the process.',
    'Start a new session (session/new) and prompt in it.',
  ),
  [C.ACP_CONFIG_INVALID]: entry(
    '`awf acp-serve --config FILE` cannot use the file: it is missing or unreadable, not YAML or JSON, or its `workflows_dir` is not a directory.',
    'Point --config at a YAML or JSON file; `workflows_dir`, when given, must name an existing directory.',
  ),
};
