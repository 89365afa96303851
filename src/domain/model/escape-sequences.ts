/**
 * Backslash escapes as C-family languages write them (`\n`, `\x41`, `\u00e9`, `\101`), decoded
 * once for every reader that needs them: the template engine reads Go string and rune
 * literals, the command policy reads bash's `$'…'` quoting (so an escape cannot hide a
 * command name from its rules). The two differ only in the details a dialect names.
 */
export interface EscapeDialect {
  /** Single-character escapes beyond the common C set (`\a \b \f \n \r \t \v \\ \' \"`). */
  extra?: Readonly<Record<string, string>>;
  /** Go: `\x` takes exactly 2 hex digits, `\u` 4, `\U` 8, octal 3. Bash: up to that many. */
  exactDigits: boolean;
  /** Bash: `\cX` is the control character of X. */
  control?: boolean;
  /** Bash: an unknown escape stays as written (`\q` is `\q`); Go: it is a syntax error. */
  keepUnknown?: boolean;
  /** Bash keeps the low byte of an octal escape (`\777` is `\377`). */
  octalMask?: number;
}

const COMMON: Readonly<Record<string, string>> = {
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

/** Go's interpreted string and rune literals, as strconv.Unquote reads them. */
export const GO_ESCAPES: EscapeDialect = { exactDigits: true };

/** Bash's `$'…'` (ANSI-C) quoting. */
export const BASH_ANSI_C_ESCAPES: EscapeDialect = {
  extra: { e: '\x1b', E: '\x1b', '?': '?' },
  exactDigits: false,
  control: true,
  keepUnknown: true,
  octalMask: 0xff,
};

const HEX_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/**
 * The escape that starts at `src[at]` (a backslash): its text and the index just after it,
 * or undefined when the dialect does not accept it (the caller names the error).
 */
export function decodeEscape(
  src: string,
  at: number,
  dialect: EscapeDialect,
): { text: string; next: number } | undefined {
  const e = src[at + 1] ?? '';
  const simple = COMMON[e] ?? dialect.extra?.[e];
  if (simple !== undefined) return { text: simple, next: at + 2 };
  const hexMax = HEX_DIGITS[e];
  if (hexMax !== undefined) {
    const digits = /^[0-9a-fA-F]*/.exec(src.slice(at + 2, at + 2 + hexMax))![0];
    if (digits === '' || (dialect.exactDigits && digits.length !== hexMax)) return undefined;
    const code = parseInt(digits, 16);
    if (code > 0x10ffff) return undefined;
    // Go's `\x` is one byte (one UTF-16 unit here), bash's a code point: the same text below 0x100.
    const text = e === 'x' && dialect.exactDigits ? String.fromCharCode(code) : String.fromCodePoint(code);
    return { text, next: at + 2 + digits.length };
  }
  if (/^[0-7]$/.test(e)) {
    const digits = /^[0-7]{1,3}/.exec(src.slice(at + 1))![0];
    if (dialect.exactDigits && digits.length !== 3) return undefined;
    const code = parseInt(digits, 8) & (dialect.octalMask ?? 0xffff);
    return { text: String.fromCharCode(code), next: at + 1 + digits.length };
  }
  if (e === 'c' && dialect.control) {
    return { text: String.fromCharCode((src.charCodeAt(at + 2) || 0) & 0x1f), next: at + 3 };
  }
  if (dialect.keepUnknown && e !== '') return { text: `\\${e}`, next: at + 2 };
  return undefined;
}
