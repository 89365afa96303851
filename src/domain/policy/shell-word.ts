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

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

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
    const e = src[i + 1] ?? '';
    const hex = (max: number): string => /^[0-9a-fA-F]+/.exec(src.slice(i + 2, i + 2 + max))?.[0] ?? '';
    if (e in SIMPLE_ESCAPES) {
      text += SIMPLE_ESCAPES[e];
      i += 2;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const digits = hex(e === 'x' ? 2 : e === 'u' ? 4 : 8);
      const code = parseInt(digits, 16);
      if (!digits || code > 0x10ffff) unsupported(`the escape \\${e}${digits}`);
      text += String.fromCodePoint(code);
      i += 2 + digits.length;
    } else if (/[0-7]/.test(e)) {
      const digits = /^[0-7]{1,3}/.exec(src.slice(i + 1))![0];
      text += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += 1 + digits.length;
    } else if (e === 'c') {
      text += String.fromCharCode((src.charCodeAt(i + 2) || 0) & 0x1f);
      i += 3;
    } else {
      text += `\\${e}`;
      i += 2;
    }
  }
  if (i >= src.length) throw new ShellSyntaxError("unterminated $'…' quote");
  return { text, next: i + 1 };
}
