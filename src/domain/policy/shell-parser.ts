import { ansiCQuoted, ShellSyntaxError, type ShellWord, unsupported } from './shell-word';

/** One simple command as the shell would run it: its words, assignments and redirections aside. */
export interface SimpleCommand {
  words: ShellWord[];
}

const RESERVED_AT_START = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '!',
  '{',
  '}',
  'time',
]);
const REFUSED_KEYWORDS = new Set(['case', 'esac', 'function', 'coproc', 'select']);
const MAX_NESTING = 64;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/**
 * A bash command line parsed into every simple command it runs — across `;`, `&&`, `||`,
 * `|`, `&`, newlines, subshells, `{ }` groups, `if`/`while`/`for` bodies, `$(…)`, backticks,
 * `<(…)`/`>(…)` and here-documents — the way bash itself would split them. What it does not
 * model (`case`, function definitions, `((…))` …) raises ShellSyntaxError: with a policy set,
 * a line the policy cannot see through is refused, never guessed at.
 */
export function parseShell(line: string): SimpleCommand[] {
  const parser = new ShellParser(line);
  try {
    parser.list(undefined);
  } catch (err) {
    if (err instanceof RangeError) unsupported('a line nested this deeply'); // backticks inside backticks…
    throw err;
  }
  if (parser.pos < line.length) throw new ShellSyntaxError(`unexpected "${line[parser.pos]}" at ${parser.pos}`);
  return parser.commands;
}

class ShellParser {
  pos = 0;
  readonly commands: SimpleCommand[] = [];
  private depth = 0;
  private heredocs: { delimiter: string; strip: boolean; quoted: boolean }[] = [];

  constructor(private readonly src: string) {}

  /** Commands until `end` (`)` of a subshell/substitution) or the end of input. */
  list(end: ')' | undefined): void {
    if (++this.depth > MAX_NESTING) unsupported(`nesting deeper than ${MAX_NESTING} levels`);
    let words: ShellWord[] = [];
    let forHeader = false;
    const finish = (): void => {
      const first = words.findIndex((w) => !w.assignment);
      if (first >= 0) this.commands.push({ words: words.slice(first) });
      words = [];
      forHeader = false;
    };
    for (;;) {
      this.skipBlanks();
      if (this.pos >= this.src.length) {
        if (end) throw new ShellSyntaxError('missing ")"');
        finish();
        this.depth--;
        return;
      }
      const ch = this.src[this.pos];
      const two = this.src.slice(this.pos, this.pos + 2);
      if (ch === '#') {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
        continue;
      }
      if (ch === '\n') {
        this.pos++;
        finish();
        this.readHeredocBodies();
        continue;
      }
      if (two === ';;' || two === ';&') unsupported('case clauses');
      if (two === '&&' || two === '||' || two === '|&') {
        this.pos += 2;
        finish();
        continue;
      }
      if (this.redirection()) continue;
      if (ch === ';' || ch === '&' || ch === '|') {
        this.pos++;
        finish();
        continue;
      }
      if (ch === ')') {
        if (end !== ')') throw new ShellSyntaxError(`unexpected ")" at ${this.pos}`);
        this.pos++;
        finish();
        this.depth--;
        return;
      }
      if (ch === '(') {
        if (two === '((') unsupported('arithmetic commands ((…))');
        if (words.some((w) => !w.assignment)) unsupported('function definitions');
        this.pos++;
        finish();
        this.list(')');
        continue;
      }
      const word = this.word();
      if (forHeader) continue; // the loop's name and its word list run nothing themselves

      const atStart = words.every((w) => w.assignment);
      if (atStart && word.literal && !word.quoted) {
        if (RESERVED_AT_START.has(word.value)) {
          finish();
          continue;
        }
        if (REFUSED_KEYWORDS.has(word.value)) unsupported(`"${word.value}"`);
        if (word.value === 'for') {
          finish();
          forHeader = true;
          continue;
        }
      }
      if (atStart && ASSIGNMENT.test(word.raw)) word.assignment = true;
      words.push(word);
    }
  }

  private skipBlanks(): void {
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos];
      if (ch === ' ' || ch === '\t') this.pos++;
      else if (ch === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else return;
    }
  }

  /** `[n]>`, `>>`, `<`, `<<`, `<<-`, `<<<`, `<>`, `>|`, `&>`, `>&`, `<&` and their target word. */
  private redirection(): boolean {
    const m = /^(\d*|\{[A-Za-z_][A-Za-z0-9_]*\})(<<<|<<-|<<|<>|<&|>&|>>|>\||&>>|&>|<|>)/.exec(
      this.src.slice(this.pos, this.pos + 24),
    );
    if (!m || (m[1] === '' && this.src[this.pos] === '&' && !m[2].startsWith('&'))) return false;
    if (this.src[this.pos + m[0].length] === '(' && (m[2] === '<' || m[2] === '>')) return false; // process substitution
    this.pos += m[0].length;
    this.skipBlanks();
    const target = this.word();
    if (m[2] === '<<' || m[2] === '<<-') {
      this.heredocs.push({ delimiter: target.value, strip: m[2] === '<<-', quoted: target.quoted });
    }
    return true;
  }

  private readHeredocBodies(): void {
    for (const doc of this.heredocs) {
      let body = '';
      for (;;) {
        if (this.pos >= this.src.length)
          throw new ShellSyntaxError(`here-document "${doc.delimiter}" is not terminated`);
        const nl = this.src.indexOf('\n', this.pos);
        const lineEnd = nl < 0 ? this.src.length : nl;
        const text = this.src.slice(this.pos, lineEnd);
        this.pos = nl < 0 ? lineEnd : lineEnd + 1;
        if ((doc.strip ? text.replace(/^\t+/, '') : text) === doc.delimiter) break;
        body += `${text}\n`;
      }
      // An unquoted delimiter expands the body: a substitution inside runs a command.
      if (!doc.quoted && /\$\(|`/.test(body)) unsupported('command substitution inside an unquoted here-document');
    }
    this.heredocs = [];
  }

  /** One word, with quote removal; substitutions inside are parsed as commands of their own. */
  private word(): ShellWord {
    const start = this.pos;
    let value = '';
    let literal = true;
    let quoted = false;
    const src = this.src;
    while (this.pos < src.length) {
      const ch = src[this.pos];
      if (' \t\n;&|()<>'.includes(ch)) {
        if ((ch === '<' || ch === '>') && src[this.pos + 1] === '(' && this.pos === start) {
          this.pos += 2;
          this.list(')');
          literal = false;
          continue;
        }
        break;
      }
      if (ch === '\\') {
        if (src[this.pos + 1] === '\n') this.pos += 2;
        else {
          value += src[this.pos + 1] ?? '';
          quoted = true;
          this.pos += 2;
        }
      } else if (ch === "'") {
        const close = src.indexOf("'", this.pos + 1);
        if (close < 0) throw new ShellSyntaxError('unterminated single quote');
        value += src.slice(this.pos + 1, close);
        quoted = true;
        this.pos = close + 1;
      } else if (ch === '$' && src[this.pos + 1] === "'") {
        const { text, next } = ansiCQuoted(src, this.pos + 2);
        value += text;
        quoted = true;
        this.pos = next;
      } else if (ch === '"' || (ch === '$' && src[this.pos + 1] === '"')) {
        this.pos += ch === '$' ? 2 : 1;
        const part = this.doubleQuoted();
        value += part.value;
        literal &&= part.literal;
        quoted = true;
      } else if (ch === '$' || ch === '`') {
        if (this.expansion()) literal = false;
        else {
          value += ch;
          this.pos++;
        }
      } else {
        if ('*?['.includes(ch) || (ch === '{' && /^\{[^}\s]*(,|\.\.)[^}\s]*\}/.test(src.slice(this.pos))))
          literal = false;
        value += ch;
        this.pos++;
      }
    }
    return { raw: src.slice(start, this.pos), value, literal, quoted, assignment: false };
  }

  private doubleQuoted(): { value: string; literal: boolean } {
    let value = '';
    let literal = true;
    const src = this.src;
    for (;;) {
      if (this.pos >= src.length) throw new ShellSyntaxError('unterminated double quote');
      const ch = src[this.pos];
      if (ch === '"') {
        this.pos++;
        return { value, literal };
      }
      if (ch === '\\' && '$`"\\\n'.includes(src[this.pos + 1] ?? '')) {
        if (src[this.pos + 1] !== '\n') value += src[this.pos + 1];
        this.pos += 2;
      } else if ((ch === '$' || ch === '`') && this.expansion()) literal = false;
      else {
        value += ch;
        this.pos++;
      }
    }
  }

  /** `$(…)`, backticks, `${…}`, `$name`, `$((…))`: false when the `$` is a plain character. */
  private expansion(): boolean {
    const src = this.src;
    const next = src[this.pos + 1] ?? '';
    if (src[this.pos] === '`') {
      let inner = '';
      let i = this.pos + 1;
      for (; i < src.length && src[i] !== '`'; i++) {
        if (src[i] === '\\' && '$`\\'.includes(src[i + 1] ?? '')) inner += src[++i];
        else inner += src[i];
      }
      if (i >= src.length) throw new ShellSyntaxError('unterminated backquote');
      this.commands.push(...parseShell(inner));
      this.pos = i + 1;
      return true;
    }
    if (next === '(') {
      if (src[this.pos + 2] === '(') unsupported('arithmetic expansion $((…))');
      this.pos += 2;
      this.list(')');
      return true;
    }
    if (next === '{') {
      const close = src.indexOf('}', this.pos + 2);
      if (close < 0) throw new ShellSyntaxError('unterminated ${');
      const inner = src.slice(this.pos + 2, close);
      if (/[$`'"{]|[<>]\(/.test(inner)) unsupported('nested expansions inside ${…}');
      this.pos = close + 1;
      return true;
    }
    const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(this.pos + 1));
    if (!name) return false;
    this.pos += 1 + name[0].length;
    return true;
  }
}
