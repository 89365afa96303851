import type { Arg, Command, Node, ParsedTemplate, Pipeline } from './template-ast';
import { lex, type Token, TemplateSyntaxError } from './template-lexer';
import { parseCharLiteral, parseNumberLiteral, parseStringLiteral } from './template-literals';

type End = 'end' | 'else';

/**
 * Go's text/template parser (parse.go) over the lexer's tokens: actions, pipelines with
 * declarations, if/else if/with/else with/range/break/continue, define/template/block, and
 * Go's parse-time checks (unknown functions, undefined variables, break outside range).
 */
export function parseTemplate(source: string, functions: ReadonlySet<string>): ParsedTemplate {
  return new Parser(lex(source), functions).parse();
}

class Parser {
  private i = 0;
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  private readonly defines = new Map<string, Node[]>();

  constructor(
    private readonly tokens: Token[],
    private readonly functions: ReadonlySet<string>,
  ) {}

  parse(): ParsedTemplate {
    const { list, end } = this.list(true);
    if (end) throw new TemplateSyntaxError(`unexpected {{${end}}}`);
    return { root: list, defines: this.defines };
  }

  private peek(skipSpace = false): Token {
    let j = this.i;
    while (skipSpace && this.tokens[j].type === 'space') j++;
    return this.tokens[j];
  }

  private next(skipSpace = false): Token {
    while (skipSpace && this.tokens[this.i].type === 'space') this.i++;
    return this.tokens[this.i++];
  }

  private expect(type: Token['type'], context: string): Token {
    const t = this.next(true);
    if (t.type !== type) throw new TemplateSyntaxError(`unexpected ${describe(t)} in ${context}`);
    return t;
  }

  /** Nodes until EOF (top level) or an `{{end}}` / `{{else}}`, which is consumed up to its keyword. */
  private list(top = false): { list: Node[]; end?: End } {
    const list: Node[] = [];
    for (;;) {
      const t = this.next();
      if (t.type === 'eof') {
        if (!top) throw new TemplateSyntaxError('unexpected EOF');
        return { list };
      }
      if (t.type === 'text') {
        list.push({ kind: 'text', text: t.value });
        continue;
      }
      const word = this.peek(true);
      if (word.type === 'keyword' && (word.value === 'end' || word.value === 'else')) {
        this.next(true);
        return { list, end: word.value };
      }
      const node = this.action(top);
      if (node) list.push(node);
    }
  }

  private action(top: boolean): Node | undefined {
    const word = this.peek(true);
    if (word.type === 'keyword') {
      this.next(true);
      switch (word.value) {
        case 'if':
        case 'with':
          return this.control(word.value);
        case 'range':
          return this.control('range');
        case 'break':
        case 'continue':
          if (this.rangeDepth === 0) throw new TemplateSyntaxError(`{{${word.value}}} outside {{range}}`);
          this.expect('right', `{{${word.value}}}`);
          return { kind: word.value };
        case 'template':
          return this.templateCall();
        case 'define':
        case 'block':
          if (word.value === 'define' && !top) throw new TemplateSyntaxError('{{define}} not at top level');
          return this.define(word.value === 'block');
      }
    }
    return { kind: 'action', pipe: this.pipeline('command', 'right') };
  }

  private control(kind: 'if' | 'with' | 'range'): Node {
    const mark = this.vars.length;
    const pipe = this.pipeline(kind, 'right');
    if (kind === 'range') this.rangeDepth++;
    const body = this.list();
    const list = body.list;
    let end = body.end;
    if (kind === 'range') this.rangeDepth--;
    let elseList: Node[] | undefined;
    if (end === 'else') {
      const chained = this.peek(true);
      if (kind !== 'range' && chained.type === 'keyword' && chained.value === kind) {
        // `{{else if …}}` is `{{else}}{{if …}}…{{end}}{{end}}`: the inner control takes the shared {{end}}.
        this.next(true);
        elseList = [this.control(kind)];
      } else {
        this.expect('right', `{{else}}`);
        ({ list: elseList, end } = this.list());
        if (end !== 'end') throw new TemplateSyntaxError(`expected end; found {{else}}`);
        this.expect('right', '{{end}}');
      }
    } else {
      this.expect('right', '{{end}}');
    }
    this.vars.length = mark;
    return { kind, pipe, list, ...(elseList ? { elseList } : {}) };
  }

  private templateCall(): Node {
    const name = this.templateName('template');
    if (this.peek(true).type === 'right') {
      this.next(true);
      return { kind: 'template', name };
    }
    return { kind: 'template', name, pipe: this.pipeline('template', 'right') };
  }

  private define(block: boolean): Node | undefined {
    const name = this.templateName(block ? 'block' : 'define');
    const pipe = block ? this.pipeline('block', 'right') : (this.expect('right', 'define clause'), undefined);
    const saved = { vars: this.vars, rangeDepth: this.rangeDepth };
    this.vars = ['$'];
    this.rangeDepth = 0;
    const { list, end } = this.list();
    if (end !== 'end') throw new TemplateSyntaxError(`unexpected {{else}} in ${block ? 'block' : 'define'} clause`);
    this.expect('right', '{{end}}');
    ({ vars: this.vars, rangeDepth: this.rangeDepth } = saved);
    if (this.defines.has(name) && !block)
      throw new TemplateSyntaxError(`template: multiple definition of template "${name}"`);
    this.defines.set(name, list);
    return block ? { kind: 'template', name, pipe } : undefined;
  }

  private templateName(context: string): string {
    const t = this.next(true);
    if (t.type === 'string') return parseStringLiteral(t.value);
    if (t.type === 'raw') return t.value.slice(1, -1);
    throw new TemplateSyntaxError(`unexpected ${describe(t)} in ${context} clause`);
  }

  private pipeline(context: string, end: 'right' | 'rparen'): Pipeline {
    const start = this.i;
    const pipe: Pipeline = { decl: [], isAssign: false, cmds: [], source: '' };
    this.declarations(pipe, context);
    for (;;) {
      const t = this.peek(true);
      if (t.type === end) {
        this.next(true);
        break;
      }
      if (t.type === 'right' || t.type === 'rparen' || t.type === 'eof')
        throw new TemplateSyntaxError(`unexpected ${describe(t)} in ${context}`);
      pipe.cmds.push(this.command());
      if (this.peek(true).type === 'pipe') this.next(true);
    }
    pipe.source = this.tokens
      .slice(start, this.i - 1)
      .map((t) => t.value)
      .join('')
      .trim();
    if (pipe.cmds.length === 0) throw new TemplateSyntaxError(`missing value for ${context}`);
    pipe.cmds.slice(1).forEach((c, n) => {
      const first = c.args[0];
      if (first.kind === 'literal' || first.kind === 'nil' || first.kind === 'dot') {
        throw new TemplateSyntaxError(`non executable command in pipeline stage ${n + 2}`);
      }
    });
    return pipe;
  }

  /** `$x :=`, `$x =`, and for range `$i, $e :=`; anything else is left for the commands. */
  private declarations(pipe: Pipeline, context: string): void {
    const save = this.i;
    const first = this.next(true);
    if (first.type !== 'variable') {
      this.i = save;
      return;
    }
    const names = [first.value];
    let op = this.next(true);
    if (op.type === 'comma' && context === 'range') {
      const second = this.expect('variable', 'range declaration');
      names.push(second.value);
      op = this.next(true);
      if (op.type !== 'declare' && op.type !== 'assign')
        throw new TemplateSyntaxError('range can only initialize variables');
    }
    if (op.type !== 'declare' && op.type !== 'assign') {
      this.i = save;
      return;
    }
    if (op.type === 'assign') {
      for (const n of names) if (!this.vars.includes(n)) throw new TemplateSyntaxError(`undefined variable "${n}"`);
    } else this.vars.push(...names);
    pipe.decl = names;
    pipe.isAssign = op.type === 'assign';
  }

  private command(): Command {
    const args: Arg[] = [];
    for (;;) {
      args.push(this.operand());
      const t = this.peek();
      if (t.type === 'space') {
        this.next();
        const after = this.peek();
        if (after.type === 'right' || after.type === 'rparen' || after.type === 'pipe') return { args };
        continue;
      }
      if (t.type === 'right' || t.type === 'rparen' || t.type === 'pipe') return { args };
      throw new TemplateSyntaxError(`unexpected ${describe(t)} in operand`);
    }
  }

  private operand(): Arg {
    const term = this.term();
    if (this.peek().type !== 'field') return term;
    const path: string[] = [];
    while (this.peek().type === 'field') path.push(this.next().value.slice(1));
    if (term.kind === 'field') return { kind: 'field', path: [...term.path, ...path] };
    if (term.kind === 'variable') return { kind: 'variable', name: term.name, path: [...term.path, ...path] };
    if (term.kind === 'literal' || term.kind === 'nil' || term.kind === 'dot') {
      throw new TemplateSyntaxError(
        `unexpected . after term ${term.kind === 'literal' ? JSON.stringify(term.source) : term.kind}`,
      );
    }
    return { kind: 'chain', node: term, path };
  }

  private term(): Arg {
    const t = this.next(true);
    switch (t.type) {
      case 'identifier':
        if (!this.functions.has(t.value)) throw new TemplateSyntaxError(`function "${t.value}" not defined`);
        return { kind: 'identifier', name: t.value };
      case 'dot':
        return { kind: 'dot' };
      case 'nil':
        return { kind: 'nil' };
      case 'variable':
        if (!this.vars.includes(t.value)) throw new TemplateSyntaxError(`undefined variable "${t.value}"`);
        return { kind: 'variable', name: t.value, path: [] };
      case 'field':
        return { kind: 'field', path: [t.value.slice(1)] };
      case 'bool':
        return { kind: 'literal', value: t.value === 'true', source: t.value };
      case 'number':
        return { kind: 'literal', value: parseNumberLiteral(t.value), source: t.value };
      case 'char':
        return { kind: 'literal', value: parseCharLiteral(t.value), source: t.value };
      case 'string':
        return { kind: 'literal', value: parseStringLiteral(t.value), source: t.value };
      case 'raw':
        return { kind: 'literal', value: t.value.slice(1, -1), source: t.value };
      case 'lparen':
        return { kind: 'pipe', pipe: this.pipeline('parenthesized pipeline', 'rparen') };
      default:
        throw new TemplateSyntaxError(`unexpected ${describe(t)} in operand`);
    }
  }
}

function describe(t: Token): string {
  if (t.type === 'eof') return 'EOF';
  if (t.type === 'right') return '"}}"';
  return `${JSON.stringify(t.value)}`;
}
