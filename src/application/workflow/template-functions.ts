import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/** Characters that make AWF's `escape` wrap a value in single quotes. */
const SHELL_SPECIAL = /[\s"'\\$`!*?[\](){}<>|&;]/;

/** POSIX-shell quoting, AWF's rules: '' for empty, single quotes only when needed. */
export function shellEscape(value: string): string {
  if (value === '') return "''";
  if (!SHELL_SPECIAL.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function text(value: unknown, fn: string): string {
  if (value === undefined) throw new AwfError(ErrorCodes.WORKFLOW_TEMPLATE_SYNTAX, `${fn} needs an argument`);
  return typeof value === 'string' ? value : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The FuncMap of AWF minus `readFile` (file reads belong to steps, not templates). */
export const TEMPLATE_FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
  escape: (v) => shellEscape(text(v, 'escape')),
  json: (v) => JSON.stringify(v === undefined ? null : v),
  trimSpace: (v) => text(v, 'trimSpace').trim(),
  split: (s, sep) => text(s, 'split').split(text(sep, 'split')).map((p) => p.trim()),
  join: (list, sep) => (Array.isArray(list) ? list.map(String).join(text(sep, 'join')) : text(list, 'join')),
};
