/**
 * The lexer of Go's text/template (package text/template/parse, lex.go), for AWF's `{{ }}`
 * delimiters: text, trim markers `{{- ` / ` -}}`, comments, and the tokens inside actions.
 * Spaces are tokens too: `.a.b` is one chain, `.a .b` is a field with an argument.
 */
export type TokenType =
  | 'text'
  | 'left'
  | 'right'
  | 'space'
  | 'field'
  | 'variable'
  | 'identifier'
  | 'keyword'
  | 'string'
  | 'raw'
  | 'char'
  | 'number'
  | 'bool'
  | 'nil'
  | 'dot'
  | 'pipe'
  | 'lparen'
  | 'rparen'
  | 'declare'
  | 'assign'
  | 'comma'
  | 'eof';

export interface Token {
  type: TokenType;
  value: string;
  /** Offset in the source, for messages. */
  pos: number;
}

export const KEYWORDS = new Set([
  'block',
  'break',
  'continue',
  'define',
  'else',
  'end',
  'if',
  'range',
  'template',
  'with',
]);

export class TemplateSyntaxError extends Error {}

const SPACE = /[ \t\r\n]/;
const ALNUM = /[\p{L}\p{Nd}_]/u;

/** Splits a template into tokens; comments vanish, trim markers are applied to the text. */
export function lex(source: string): Token[] {
  const out: Token[] = [];
  let pos = 0;
  let trimNext = false;
  while (pos < source.length) {
    const open = source.indexOf('{{', pos);
    let text = source.slice(pos, open < 0 ? source.length : open);
    if (trimNext) text = text.replace(/^[ \t\r\n]+/, ''); // every path below sets trimNext anew
    if (open < 0) {
      if (text) out.push({ type: 'text', value: text, pos });
      break;
    }
    let at = open + 2;
    if (source[at] === '-' && SPACE.test(source[at + 1] ?? '')) {
      text = text.replace(/[ \t\r\n]+$/, '');
      at += 2;
    }
    if (text) out.push({ type: 'text', value: text, pos });
    const comment = skipComment(source, at);
    if (comment !== undefined) {
      ({ pos, trimNext } = comment);
      continue;
    }
    out.push({ type: 'left', value: '{{', pos: open });
    ({ pos, trimNext } = lexAction(source, at, out));
  }
  out.push({ type: 'eof', value: '', pos: source.length });
  return out;
}

/** `{{/* … *\/}}` must be the whole action; returns where the text resumes. */
function skipComment(source: string, at: number): { pos: number; trimNext: boolean } | undefined {
  let i = at;
  while (SPACE.test(source[i] ?? '')) i++;
  if (!source.startsWith('/*', i)) return undefined;
  const end = source.indexOf('*/', i + 2);
  if (end < 0) throw new TemplateSyntaxError('unclosed comment');
  const close = rightDelim(source, end + 2);
  if (!close) throw new TemplateSyntaxError('comment ends before closing delimiter');
  return close;
}

/** ` -}}` or `}}` (after optional spaces) at `at`. */
function rightDelim(source: string, at: number): { pos: number; trimNext: boolean } | undefined {
  let i = at;
  while (SPACE.test(source[i] ?? '')) i++;
  if (i > at && source.startsWith('-}}', i)) return { pos: i + 3, trimNext: true };
  if (source.startsWith('}}', i)) return { pos: i + 2, trimNext: false };
  return undefined;
}

function lexAction(source: string, start: number, out: Token[]): { pos: number; trimNext: boolean } {
  let i = start;
  let parens = 0;
  const push = (type: TokenType, value: string, pos: number): void => void out.push({ type, value, pos });
  for (;;) {
    if (i >= source.length) throw new TemplateSyntaxError('unclosed action');
    const c = source[i];
    if (SPACE.test(c)) {
      const close = rightDelim(source, i);
      if (close && source[close.pos - 3] === '-' && close.trimNext) {
        push('right', '}}', i);
        return close;
      }
      const s = i;
      while (SPACE.test(source[i] ?? '')) i++;
      push('space', source.slice(s, i), s);
      continue;
    }
    if (source.startsWith('}}', i)) {
      if (parens > 0) throw new TemplateSyntaxError('unclosed left paren');
      push('right', '}}', i);
      return { pos: i + 2, trimNext: false };
    }
    const s = i;
    if (c === '|') push('pipe', c, i++);
    else if (c === '(') {
      push('lparen', c, i++);
      parens++;
    } else if (c === ')') {
      if (--parens < 0) throw new TemplateSyntaxError(`unexpected right paren`);
      push('rparen', c, i++);
    } else if (c === ',') push('comma', c, i++);
    else if (c === ':') {
      if (source[i + 1] !== '=') throw new TemplateSyntaxError('expected :=');
      push('declare', ':=', i);
      i += 2;
    } else if (c === '=') push('assign', c, i++);
    else if (c === '"') push('string', source.slice(s, (i = endQuoted(source, i, '"'))), s);
    else if (c === '`') {
      const end = source.indexOf('`', i + 1);
      if (end < 0) throw new TemplateSyntaxError('unterminated raw quoted string');
      push('raw', source.slice(s, (i = end + 1)), s);
    } else if (c === "'") push('char', source.slice(s, (i = endQuoted(source, i, "'"))), s);
    else if (c === '$') {
      i++;
      while (ALNUM.test(source[i] ?? '')) i++;
      push('variable', source.slice(s, i), s);
    } else if (c === '.' && !/[0-9]/.test(source[i + 1] ?? '')) {
      i++;
      while (ALNUM.test(source[i] ?? '')) i++;
      push(i === s + 1 ? 'dot' : 'field', source.slice(s, i), s);
    } else if (/[0-9+\-.]/.test(c)) {
      i = endNumber(source, i);
      push('number', source.slice(s, i), s);
    } else if (ALNUM.test(c)) {
      while (ALNUM.test(source[i] ?? '')) i++;
      const word = source.slice(s, i);
      const type: TokenType = KEYWORDS.has(word)
        ? 'keyword'
        : word === 'true' || word === 'false'
          ? 'bool'
          : word === 'nil'
            ? 'nil'
            : 'identifier';
      push(type, word, s);
    } else throw new TemplateSyntaxError(`unrecognized character in action: ${JSON.stringify(c)}`);
    if (
      ['variable', 'field', 'identifier', 'keyword', 'bool', 'nil', 'number'].includes(out[out.length - 1].type) &&
      !atTerminator(source, i)
    ) {
      throw new TemplateSyntaxError(`bad character ${JSON.stringify(source[i])}`);
    }
  }
}

function atTerminator(source: string, i: number): boolean {
  const c = source[i];
  return c === undefined || SPACE.test(c) || '.,|:)(='.includes(c) || source.startsWith('}}', i);
}

function endQuoted(source: string, start: number, quote: string): number {
  let i = start + 1;
  for (;;) {
    const c = source[i];
    if (c === undefined || c === '\n')
      throw new TemplateSyntaxError(`unterminated ${quote === '"' ? 'quoted string' : 'character constant'}`);
    if (c === '\\') i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
}

/** Go's number syntax: hex (with p exponents), binary, octal, decimal, `_` separators, an imaginary `i`. */
const NUMBER = new RegExp(
  '^[+-]?(0[xX][0-9a-fA-F_]*\\.?[0-9a-fA-F_]*([pP][+-]?[0-9_]+)?|0[bB][01_]+|0[oO][0-7_]+' +
    '|[0-9_]*\\.?[0-9_]*([eE][+-]?[0-9_]+)?)i?',
);

function endNumber(source: string, start: number): number {
  const m = NUMBER.exec(source.slice(start));
  const end = start + (m ? m[0].length : 0);
  if (end === start || /^[+-]?\.?$/.test(source.slice(start, end)) || ALNUM.test(source[end] ?? '')) {
    throw new TemplateSyntaxError(`bad number syntax: ${JSON.stringify(source.slice(start, end + 1))}`);
  }
  return end;
}
