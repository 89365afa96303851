import { BASH_ANSI_C_ESCAPES, decodeEscape } from '../model/escape-sequences';

/** One shell word. `value` is after quote removal; `literal` is false when it expands at run time. */
export interface ShellWord {
  raw: string;
  value: string;
  literal: boolean;
  quoted: boolean;
  assignment: boolean;
}

/** A command line the policy parser cannot see through; with a policy set, it is refused. */
export class ShellSyntaxError extends Error {}

export function unsupported(what: string): never {
  throw new ShellSyntaxError(`${what} cannot be checked by the command policy`);
}

/**
 * Bash's `$'…'` quoting, decoded as bash does (`$'\x72m'` is `rm`), so an escape cannot
 * hide a command name from the rules. `start` is just after the opening quote.
 */
export function ansiCQuoted(src: string, start: number): { text: string; next: number } {
  let text = '';
  let i = start;
  while (i < src.length && src[i] !== "'") {
    if (src[i] !== '\\') {
      text += src[i++];
      continue;
    }
    if (i + 1 >= src.length) break; // a trailing backslash: the quote is unterminated
    const decoded = decodeEscape(src, i, BASH_ANSI_C_ESCAPES);
    if (!decoded) unsupported(`the escape ${/^\\.[0-9a-fA-F]*/.exec(src.slice(i))![0]}`);
    text += decoded.text;
    i = decoded.next;
  }
  if (i >= src.length) throw new ShellSyntaxError("unterminated $'…' quote");
  return { text, next: i + 1 };
}
