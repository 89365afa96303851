import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

type Expr =
  | { k: 'lit'; v: unknown }
  | { k: 'path'; p: string[] }
  | { k: 'not'; e: Expr }
  | { k: 'bin'; op: string; l: Expr; r: Expr }
  | { k: 'call'; fn: string; args: Expr[] };

const COMPARE = new Set(['==', '!=', '<', '>', '<=', '>=', 'contains', 'startsWith', 'endsWith', 'in', 'matches']);
const FUNCS = new Set(['contains', 'startsWith', 'endsWith', 'has_prefix', 'has_suffix', 'len', 'trim', 'lower', 'upper']);

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
      if (e.k === 'path') out.push(e.p);
      else if (e.k === 'not') visit(e.e);
      else if (e.k === 'bin') (visit(e.l), visit(e.r));
      else if (e.k === 'call') e.args.forEach(visit);
    };
    visit(this.ast);
    return out;
  }

  evaluate(env: Record<string, unknown>): boolean {
    return truthy(evaluate(this.ast, env));
  }
}

function tokenize(src: string): string[] {
  const re = /\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|==|!=|<=|>=|&&|\|\||[<>!(),[\]]|-?\d+(?:\.\d+)?|[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*)/y;
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
  constructor(private readonly t: string[], private readonly src: string) {}
  done(): boolean {
    return this.pos >= this.t.length;
  }
  private peek(): string | undefined {
    return this.t[this.pos];
  }
  private eat(tok: string): boolean {
    if (this.peek() !== tok) return false;
    this.pos++;
    return true;
  }
  parseOr(): Expr {
    let l = this.parseAnd();
    while (this.eat('or') || this.eat('||')) l = { k: 'bin', op: 'or', l, r: this.parseAnd() };
    return l;
  }
  private parseAnd(): Expr {
    let l = this.parseNot();
    while (this.eat('and') || this.eat('&&')) l = { k: 'bin', op: 'and', l, r: this.parseNot() };
    return l;
  }
  private parseNot(): Expr {
    if (this.eat('not') || this.eat('!')) return { k: 'not', e: this.parseNot() };
    const l = this.parsePrimary();
    const op = this.peek();
    if (op && COMPARE.has(op)) {
      this.pos++;
      return { k: 'bin', op, l, r: this.parsePrimary() };
    }
    return l;
  }
  private parsePrimary(): Expr {
    const tok = this.t[this.pos++];
    if (tok === undefined) throw invalid(this.src, 'unexpected end of expression');
    if (tok === '(') {
      const e = this.parseOr();
      if (!this.eat(')')) throw invalid(this.src, 'missing ")"');
      return e;
    }
    if (tok.startsWith("'") || tok.startsWith('"')) return { k: 'lit', v: tok.slice(1, -1).replace(/\\(.)/g, '$1') };
    if (/^-?\d/.test(tok)) return { k: 'lit', v: Number(tok) };
    if (tok === 'true' || tok === 'false') return { k: 'lit', v: tok === 'true' };
    if (tok === 'nil' || tok === 'null') return { k: 'lit', v: undefined };
    if (/^[A-Za-z_$]/.test(tok)) {
      if (this.eat('(')) {
        if (!FUNCS.has(tok)) throw invalid(this.src, `unknown function ${tok}()`);
        const args: Expr[] = [];
        while (!this.eat(')')) {
          args.push(this.parseOr());
          this.eat(',');
          if (this.done()) throw invalid(this.src, 'missing ")"');
        }
        return { k: 'call', fn: tok, args };
      }
      if (COMPARE.has(tok) || tok === 'and' || tok === 'or') throw invalid(this.src, `"${tok}" needs a value before it`);
      return { k: 'path', p: tok.split('.') };
    }
    throw invalid(this.src, `unexpected "${tok}"`);
  }
}

function evaluate(e: Expr, env: Record<string, unknown>): unknown {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'path':
      return e.p.reduce<unknown>((v, key) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined), env);
    case 'not':
      return !truthy(evaluate(e.e, env));
    case 'call':
      return call(e.fn, e.args.map((a) => evaluate(a, env)));
    case 'bin': {
      if (e.op === 'and') return truthy(evaluate(e.l, env)) && truthy(evaluate(e.r, env));
      if (e.op === 'or') return truthy(evaluate(e.l, env)) || truthy(evaluate(e.r, env));
      return compare(e.op, evaluate(e.l, env), evaluate(e.r, env));
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

function compare(op: string, l: unknown, r: unknown): boolean {
  if (l === undefined || r === undefined) return false;
  switch (op) {
    case '==':
      return loose(l) === loose(r);
    case '!=':
      return loose(l) !== loose(r);
    case '<':
      return Number(l) < Number(r);
    case '>':
      return Number(l) > Number(r);
    case '<=':
      return Number(l) <= Number(r);
    case '>=':
      return Number(l) >= Number(r);
    case 'contains':
      return Array.isArray(l) ? l.map(loose).includes(loose(r)) : String(l).includes(String(r));
    case 'startsWith':
      return String(l).startsWith(String(r));
    case 'endsWith':
      return String(l).endsWith(String(r));
    case 'in':
      return Array.isArray(r) ? r.map(loose).includes(loose(l)) : String(r).includes(String(l));
    case 'matches':
      return new RegExp(String(r)).test(String(l));
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
