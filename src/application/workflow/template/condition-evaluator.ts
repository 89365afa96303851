import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';

/** The parsed expression: a literal, a dotted path into the data, a negation, an operator, a call. */
type Expr =
  | { kind: 'literal'; value: unknown }
  | { kind: 'path'; keys: string[] }
  | { kind: 'not'; operand: Expr }
  | { kind: 'binary'; op: string; left: Expr; right: Expr }
  | { kind: 'call'; fn: string; args: Expr[] };

const COMPARE = new Set(['==', '!=', '<', '>', '<=', '>=', 'contains', 'startsWith', 'endsWith', 'in', 'matches']);
const FUNCS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'has_prefix',
  'has_suffix',
  'len',
  'trim',
  'lower',
  'upper',
]);

/**
 * The `when:` expressions of transitions: the expr-lang subset AWF users write, without
 * `{{ }}` — comparisons, and/or/not, contains/startsWith/endsWith, parentheses, and paths
 * into inputs/states/env/workflow. A path that resolves to nothing makes its comparison
 * false instead of failing the run, as in AWF.
 */
export class Condition {
  private constructor(private readonly ast: Expr) {}

  static compile(source: string): Condition {
    const tokens = tokenize(source);
    const parser = new Parser(tokens, source);
    const ast = parser.parseOr();
    if (!parser.done()) throw invalid(source, `unexpected "${tokens[parser.pos]}"`);
    return new Condition(ast);
  }

  /** Roots of every path read, e.g. ['states', 'build', 'ExitCode']. */
  paths(): string[][] {
    const out: string[][] = [];
    const visit = (e: Expr): void => {
      if (e.kind === 'path') out.push(e.keys);
      else if (e.kind === 'not') visit(e.operand);
      else if (e.kind === 'binary') [e.left, e.right].forEach(visit);
      else if (e.kind === 'call') e.args.forEach(visit);
    };
    visit(this.ast);
    return out;
  }

  evaluate(env: Record<string, unknown>): boolean {
    return truthy(evaluate(this.ast, env));
  }
}

function tokenize(src: string): string[] {
  const re =
    /\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|==|!=|<=|>=|&&|\|\||[<>!(),[\]]|-?\d+(?:\.\d+)?|[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*)/y;
  const out: string[] = [];
  let pos = 0;
  for (;;) {
    re.lastIndex = pos;
    const m = re.exec(src);
    if (!m) break;
    out.push(m[1]);
    pos = re.lastIndex;
  }
  if (src.slice(pos).trim()) throw invalid(src, `cannot read "${src.slice(pos).trim()}"`);
  return out;
}

class Parser {
  pos = 0;
  constructor(
    private readonly tokens: string[],
    private readonly src: string,
  ) {}
  done(): boolean {
    return this.pos >= this.tokens.length;
  }
  private peek(): string | undefined {
    return this.tokens[this.pos];
  }
  private eat(tok: string): boolean {
    if (this.peek() !== tok) return false;
    this.pos++;
    return true;
  }
  parseOr(): Expr {
    let left = this.parseAnd();
    while (this.eat('or') || this.eat('||')) left = { kind: 'binary', op: 'or', left, right: this.parseAnd() };
    return left;
  }
  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.eat('and') || this.eat('&&')) left = { kind: 'binary', op: 'and', left, right: this.parseNot() };
    return left;
  }
  private parseNot(): Expr {
    if (this.eat('not') || this.eat('!')) return { kind: 'not', operand: this.parseNot() };
    const left = this.parsePrimary();
    const op = this.peek();
    if (op && COMPARE.has(op)) {
      this.pos++;
      return { kind: 'binary', op, left, right: this.parsePrimary() };
    }
    return left;
  }
  private parsePrimary(): Expr {
    const tok = this.tokens[this.pos++];
    if (tok === undefined) throw invalid(this.src, 'unexpected end of expression');
    if (tok === '(') {
      const e = this.parseOr();
      if (!this.eat(')')) throw invalid(this.src, 'missing ")"');
      return e;
    }
    if (tok.startsWith("'") || tok.startsWith('"'))
      return { kind: 'literal', value: tok.slice(1, -1).replace(/\\(.)/g, '$1') };
    if (/^-?\d/.test(tok)) return { kind: 'literal', value: Number(tok) };
    if (tok === 'true' || tok === 'false') return { kind: 'literal', value: tok === 'true' };
    if (tok === 'nil' || tok === 'null') return { kind: 'literal', value: undefined };
    if (/^[A-Za-z_$]/.test(tok)) {
      if (this.eat('(')) {
        if (!FUNCS.has(tok)) throw invalid(this.src, `unknown function ${tok}()`);
        const args: Expr[] = [];
        while (!this.eat(')')) {
          args.push(this.parseOr());
          this.eat(',');
          if (this.done()) throw invalid(this.src, 'missing ")"');
        }
        return { kind: 'call', fn: tok, args };
      }
      if (COMPARE.has(tok) || tok === 'and' || tok === 'or')
        throw invalid(this.src, `"${tok}" needs a value before it`);
      return { kind: 'path', keys: tok.split('.') };
    }
    throw invalid(this.src, `unexpected "${tok}"`);
  }
}

function evaluate(e: Expr, env: Record<string, unknown>): unknown {
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'path':
      return e.keys.reduce<unknown>(
        (v, key) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined),
        env,
      );
    case 'not':
      return !truthy(evaluate(e.operand, env));
    case 'call':
      return call(
        e.fn,
        e.args.map((a) => evaluate(a, env)),
      );
    case 'binary': {
      if (e.op === 'and') return truthy(evaluate(e.left, env)) && truthy(evaluate(e.right, env));
      if (e.op === 'or') return truthy(evaluate(e.left, env)) || truthy(evaluate(e.right, env));
      return compare(e.op, evaluate(e.left, env), evaluate(e.right, env));
    }
  }
}

function call(fn: string, args: unknown[]): unknown {
  const [a, b] = args;
  if (fn === 'len') return typeof a === 'string' || Array.isArray(a) ? a.length : 0;
  if (fn === 'trim') return String(a ?? '').trim();
  if (fn === 'lower') return String(a ?? '').toLowerCase();
  if (fn === 'upper') return String(a ?? '').toUpperCase();
  const op = fn === 'has_prefix' ? 'startsWith' : fn === 'has_suffix' ? 'endsWith' : fn;
  return compare(op, a, b);
}

function compare(op: string, left: unknown, right: unknown): boolean {
  if (left === undefined || right === undefined) return false;
  switch (op) {
    case '==':
      return loose(left) === loose(right);
    case '!=':
      return loose(left) !== loose(right);
    case '<':
      return Number(left) < Number(right);
    case '>':
      return Number(left) > Number(right);
    case '<=':
      return Number(left) <= Number(right);
    case '>=':
      return Number(left) >= Number(right);
    case 'contains':
      return Array.isArray(left) ? left.map(loose).includes(loose(right)) : String(left).includes(String(right));
    case 'startsWith':
      return String(left).startsWith(String(right));
    case 'endsWith':
      return String(left).endsWith(String(right));
    case 'in':
      return Array.isArray(right) ? right.map(loose).includes(loose(left)) : String(right).includes(String(left));
    case 'matches':
      return new RegExp(String(right)).test(String(left));
  }
  return false;
}

/** Inputs arrive as strings; `inputs.count > 2` and `inputs.dry == true` should still work. */
function loose(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return v;
}

function truthy(v: unknown): boolean {
  const x = loose(v);
  return x !== undefined && x !== null && x !== false && x !== 0 && x !== '';
}

function invalid(source: string, why: string): AwfError {
  return new AwfError(ErrorCodes.WORKFLOW_INVALID_CONDITION, `invalid condition "${source}": ${why}`);
}
