import { BASH_ANSI_C_ESCAPES, decodeEscape, GO_ESCAPES } from './escape-sequences';

/** Decodes every escape of `src` in `dialect`; null where one is refused. */
function decodeAll(src: string, dialect = GO_ESCAPES): string | null {
  let out = '';
  for (let i = 0; i < src.length;) {
    if (src[i] !== '\\') {
      out += src[i++];
      continue;
    }
    const decoded = decodeEscape(src, i, dialect);
    if (!decoded) return null;
    out += decoded.text;
    i = decoded.next;
  }
  return out;
}

describe('escape sequences', () => {
  it.each([
    ['a\\tb\\n', 'a\tb\n'],
    ['\\x41\\u00e9\\U0001F600', 'Aé😀'],
    ['\\101\\\\\\"', 'A\\"'],
  ])('Go reads %s as strconv.Unquote does', (src, text) => {
    expect(decodeAll(src)).toBe(text);
  });

  it.each(['\\x4', '\\u00e', '\\18', '\\q', '\\e', '\\U00110000', '\\'])('Go refuses %s', (src) => {
    expect(decodeAll(src)).toBeNull();
  });

  it.each([
    ['\\x72m', 'rm'],
    ['\\162m', 'rm'],
    ['\\7', '\x07'],
    ['\\u72m', 'rm'],
    ['\\e[0m', '\x1b[0m'],
    ['\\cA', '\x01'],
    ['\\q', '\\q'],
    ['\\777', '\xff'],
  ])('bash reads $%j as bash does', (src, text) => {
    expect(decodeAll(src, BASH_ANSI_C_ESCAPES)).toBe(text);
  });

  it.each(['\\x', '\\U110000'])('bash cannot read %s', (src) => {
    expect(decodeAll(src, BASH_ANSI_C_ESCAPES)).toBeNull();
  });
});
