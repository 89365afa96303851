/**
 * The three glob dialects of a policy, compiled once to anchored regular expressions:
 * - `name`: tool names; `*` is any run of characters, `?` one character.
 * - `path`: paths relative to the sandbox root, `/`-separated. `**` as a whole segment is any
 *   number of segments (none included), `*` and `?` stay inside one segment, `[a-z]`/`[!x]`
 *   are classes, `{a,b}` alternatives. `dir/**` also matches `dir` itself, so a denied
 *   directory cannot be searched or listed either.
 * - `command`: a simple command as its words joined by one space; `*` is anything.
 */
export type GlobKind = 'name' | 'path' | 'command';

export interface CompiledGlob {
  readonly source: string;
  test(subject: string): boolean;
}

export class GlobSyntaxError extends Error {}

const SPECIAL = /[.+^$()|\\/]/;

export function compileGlob(pattern: string, kind: GlobKind): CompiledGlob {
  if (typeof pattern !== 'string' || pattern.length === 0)
    throw new GlobSyntaxError('a pattern must be a non-empty string');
  if (pattern.includes('\0')) throw new GlobSyntaxError(`"${pattern}" contains a NUL byte`);
  if (kind === 'path' && pattern.startsWith('/')) {
    throw new GlobSyntaxError(
      `"${pattern}" is absolute; path patterns are relative to the sandbox root (drop the leading /)`,
    );
  }
  const body = kind === 'path' ? pathRegex(pattern) : flatRegex(pattern, kind === 'name' ? '.' : '[\\s\\S]');
  const re = new RegExp(`^(?:${body})$`, 'u');
  return { source: pattern, test: (subject) => re.test(subject) };
}

/** True when the pattern has no wildcard at all: it names exactly one thing. */
export function isLiteralGlob(pattern: string): boolean {
  return !/[*?[\]{}]/.test(pattern);
}

function flatRegex(pattern: string, any: string): string {
  let out = '';
  for (const ch of pattern) {
    if (ch === '*') out += `${any}*`;
    else if (ch === '?') out += any;
    else out += escape(ch);
  }
  return out;
}

function pathRegex(pattern: string): string {
  const trimmed = pattern.replace(/\/+$/, '');
  const segments = trimmed.split('/');
  if (segments.some((s) => s === '')) throw new GlobSyntaxError(`"${pattern}" has an empty path segment (//)`);
  if (segments.some((s) => s === '.' || s === '..'))
    throw new GlobSyntaxError(`"${pattern}" has a . or .. segment; write the path from the sandbox root`);
  let out = '';
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '**') {
      // `a/**/b`: zero or more whole segments between; a trailing `**` is "this and below".
      if (last) out = i === 0 ? '[\\s\\S]*' : `${out.slice(0, -1)}(?:/[\\s\\S]*)?`;
      else out += '(?:[^/]+/)*';
      return;
    }
    if (segment.includes('**')) throw new GlobSyntaxError(`"${pattern}": ** must be a whole path segment`);
    out += segmentRegex(segment, pattern) + (last ? '' : '/');
  });
  return out;
}

function segmentRegex(segment: string, pattern: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i];
    if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) throw new GlobSyntaxError(`"${pattern}" has an unclosed [`);
      let inner = segment.slice(i + 1, end);
      const negate = inner.startsWith('!') || inner.startsWith('^');
      if (negate) inner = inner.slice(1);
      if (inner.length === 0) throw new GlobSyntaxError(`"${pattern}" has an empty [] class`);
      out += `[${negate ? '^/' : ''}${inner.replace(/[\\\]^]/g, (c) => `\\${c}`)}]`;
      i = end;
    } else if (ch === '{') {
      depth++;
      out += '(?:';
    } else if (ch === ',' && depth > 0) out += '|';
    else if (ch === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (ch === ']' || ch === '}') throw new GlobSyntaxError(`"${pattern}" has an unmatched ${ch}`);
    else out += escape(ch);
  }
  if (depth > 0) throw new GlobSyntaxError(`"${pattern}" has an unclosed {`);
  return out;
}

function escape(ch: string): string {
  return SPECIAL.test(ch) || ch === '[' || ch === ']' || ch === '{' || ch === '}' || ch === '*' || ch === '?'
    ? `\\${ch}`
    : ch;
}
