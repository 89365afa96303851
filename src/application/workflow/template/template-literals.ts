import { decodeEscape, GO_ESCAPES } from '../../../domain/model/escape-sequences';
import { TemplateSyntaxError } from './template-lexer';

/** A Go interpreted string literal (`"a\tb\u00e9"`), as strconv.Unquote reads it. */
export function parseStringLiteral(quoted: string): string {
  return unescape(quoted.slice(1, -1), quoted);
}

/** A Go rune literal (`'a'`, `'\n'`): its code point, a number as in Go. */
export function parseCharLiteral(quoted: string): number {
  const text = unescape(quoted.slice(1, -1), quoted);
  const cp = text.codePointAt(0);
  if (cp === undefined || String.fromCodePoint(cp) !== text)
    throw new TemplateSyntaxError(`malformed character constant: ${quoted}`);
  return cp;
}

function unescape(body: string, quoted: string): string {
  let out = '';
  for (let i = 0; i < body.length;) {
    if (body[i] !== '\\') {
      out += body[i++];
      continue;
    }
    const decoded = decodeEscape(body, i, GO_ESCAPES);
    if (!decoded) throw new TemplateSyntaxError(`invalid syntax in ${quoted}`);
    out += decoded.text;
    i = decoded.next;
  }
  return out;
}

/** Go number syntax: decimal, 0x/0o/0b, a leading-0 octal, `_` separators, exponents. */
export function parseNumberLiteral(text: string): number {
  if (text.endsWith('i')) throw new TemplateSyntaxError(`complex constants are not supported: ${text}`);
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[+-]/, '').replace(/_/g, '');
  let value: number;
  if (/^0[0-7]+$/.test(body)) value = parseInt(body, 8);
  else if (/^0[xX][0-9a-fA-F]+$/.test(body)) value = parseInt(body.slice(2), 16);
  else value = Number(body);
  if (!Number.isFinite(value)) throw new TemplateSyntaxError(`illegal number syntax: ${JSON.stringify(text)}`);
  return sign * value;
}
