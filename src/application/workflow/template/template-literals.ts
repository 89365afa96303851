import { TemplateSyntaxError } from './template-lexer';

const SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

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
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') {
      out += body[i];
      continue;
    }
    const c = body[++i];
    if (c in SIMPLE) out += SIMPLE[c];
    else if (c === 'x' || c === 'u' || c === 'U') {
      const n = c === 'x' ? 2 : c === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) throw new TemplateSyntaxError(`invalid syntax in ${quoted}`);
      out += c === 'x' ? String.fromCharCode(parseInt(hex, 16)) : String.fromCodePoint(parseInt(hex, 16));
      i += n;
    } else if (/[0-7]/.test(c)) {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) throw new TemplateSyntaxError(`invalid syntax in ${quoted}`);
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else throw new TemplateSyntaxError(`invalid syntax in ${quoted}`);
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
