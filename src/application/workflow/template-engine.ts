import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { NAMESPACES } from '../../domain/workflow/interpolation.types';
import { TEMPLATE_FUNCTIONS } from './template-functions';

type Operand =
  | { kind: 'field'; path: string[] }
  | { kind: 'fn'; name: string }
  | { kind: 'lit'; value: string | number | boolean }
  | { kind: 'group'; pipeline: Pipeline };
type Pipeline = Operand[][];
type Node = { kind: 'text'; text: string } | { kind: 'action'; pipeline: Pipeline; source: string };

const UNSUPPORTED = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue']);

/**
 * The subset of Go's text/template that AWF workflows use: field paths (`.states.a.Output`),
 * the namespace function form (`inputs.x`), pipes, parentheses, literals, and the helpers
 * escape/json/trimSpace/split/join. Missing keys are errors (Go's missingkey=error); values
 * are pasted unescaped, as in AWF.
 */
export class Template {
  private constructor(private readonly nodes: Node[]) {}

  static parse(source: string): Template {
    return new Template(parseNodes(source));
  }

  /** Every data path the template reads, e.g. ['states', 'build', 'Output']. */
  references(): string[][] {
    const out: string[][] = [];
    const visit = (p: Pipeline): void =>
      p.forEach((cmd) =>
        cmd.forEach((op) => {
          if (op.kind === 'field') out.push(op.path);
          if (op.kind === 'group') visit(op.pipeline);
        }),
      );
    this.nodes.forEach((n) => n.kind === 'action' && visit(n.pipeline));
    return out;
  }

  render(data: Record<string, unknown>): string {
    return this.nodes.map((n) => (n.kind === 'text' ? n.text : stringify(evalPipeline(n.pipeline, data)))).join('');
  }
}

export function renderTemplate(source: string, data: Record<string, unknown>): string {
  return source.includes('{{') ? Template.parse(source).render(data) : source;
}

function parseNodes(source: string): Node[] {
  const nodes: Node[] = [];
  let pos = 0;
  while (pos < source.length) {
    const open = source.indexOf('{{', pos);
    if (open < 0) {
      nodes.push({ kind: 'text', text: source.slice(pos) });
      break;
    }
    let text = source.slice(pos, open);
    const close = source.indexOf('}}', open + 2);
    if (close < 0) throw syntax(`unclosed action starting at "${source.slice(open, open + 20)}"`);
    let inner = source.slice(open + 2, close);
    if (/^-\s/.test(inner)) {
      text = text.replace(/\s+$/, '');
      inner = inner.slice(1);
    }
    let next = close + 2;
    if (/\s-$/.test(inner)) {
      inner = inner.slice(0, -1);
      while (next < source.length && /\s/.test(source[next])) next++;
    }
    if (text) nodes.push({ kind: 'text', text });
    const trimmed = inner.trim();
    if (!(trimmed.startsWith('/*') && trimmed.endsWith('*/'))) {
      nodes.push({ kind: 'action', pipeline: parsePipeline(tokenize(trimmed), trimmed), source: trimmed });
    }
    pos = next;
  }
  return nodes;
}

function tokenize(src: string): string[] {
  const tokens: string[] = [];
  const re = /\s*("(?:[^"\\]|\\.)*"|`[^`]*`|\(|\)|\||[^\s()|]+)/y;
  let pos = 0;
  for (;;) {
    re.lastIndex = pos;
    const m = re.exec(src);
    if (!m) break;
    tokens.push(m[1]);
    pos = re.lastIndex;
  }
  if (src.slice(pos).trim()) throw syntax(`cannot parse "${src}" at "${src.slice(pos).trim()}"`);
  return tokens;
}

function parsePipeline(tokens: string[], source: string): Pipeline {
  let i = 0;
  const pipeline = (): Pipeline => {
    const cmds: Operand[][] = [[]];
    while (i < tokens.length && tokens[i] !== ')') {
      const t = tokens[i++];
      if (t === '|') cmds.push([]);
      else if (t === '(') {
        const inner = pipeline();
        if (tokens[i++] !== ')') throw syntax(`missing ")" in {{${source}}}`);
        cmds[cmds.length - 1].push({ kind: 'group', pipeline: inner });
      } else cmds[cmds.length - 1].push(operand(t, source));
    }
    if (cmds.some((c) => c.length === 0)) throw syntax(`empty command in {{${source}}}`);
    return cmds;
  };
  const result = pipeline();
  if (i < tokens.length) throw syntax(`unexpected ")" in {{${source}}}`);
  return result;
}

function operand(t: string, source: string): Operand {
  if (t.startsWith('"')) return { kind: 'lit', value: JSON.parse(t) as string };
  if (t.startsWith('`')) return { kind: 'lit', value: t.slice(1, -1) };
  if (/^-?\d+(\.\d+)?$/.test(t)) return { kind: 'lit', value: Number(t) };
  if (t === 'true' || t === 'false') return { kind: 'lit', value: t === 'true' };
  if (t === '.') return { kind: 'field', path: [] };
  if (t.startsWith('.')) return { kind: 'field', path: t.slice(1).split('.') };
  const [head, ...rest] = t.split('.');
  if ((NAMESPACES as readonly string[]).includes(head)) return { kind: 'field', path: [head, ...rest] };
  if (UNSUPPORTED.has(head)) throw syntax(`{{${source}}}: "${head}" is not supported; awf templates take fields, pipes and the functions ${Object.keys(TEMPLATE_FUNCTIONS).join(', ')}`);
  if (head in TEMPLATE_FUNCTIONS && rest.length === 0) return { kind: 'fn', name: head };
  throw syntax(`{{${source}}}: unknown function or namespace "${head}"`);
}

function evalPipeline(pipeline: Pipeline, data: Record<string, unknown>): unknown {
  let piped: unknown;
  pipeline.forEach((cmd, index) => {
    const [head, ...args] = cmd;
    const values = args.map((a) => evalOperand(a, data));
    if (index > 0) values.push(piped);
    if (head.kind === 'fn') {
      piped = TEMPLATE_FUNCTIONS[head.name](...values);
    } else {
      if (values.length > 0) throw syntax('only a function can take arguments');
      piped = evalOperand(head, data);
    }
  });
  return piped;
}

function evalOperand(op: Operand, data: Record<string, unknown>): unknown {
  if (op.kind === 'lit') return op.value;
  if (op.kind === 'group') return evalPipeline(op.pipeline, data);
  if (op.kind === 'fn') return TEMPLATE_FUNCTIONS[op.name]();
  let value: unknown = data;
  op.path.forEach((key, i) => {
    if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, key) || (value as Record<string, unknown>)[key] === undefined) {
      throw undefinedReference(op.path.slice(0, i + 1));
    }
    value = (value as Record<string, unknown>)[key];
  });
  return value;
}

function stringify(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function syntax(message: string): AwfError {
  return new AwfError(ErrorCodes.WORKFLOW_TEMPLATE_SYNTAX, message);
}

export function undefinedReference(path: string[]): AwfError {
  const ref = `.${path.join('.')}`;
  return new AwfError(ErrorCodes.WORKFLOW_UNDEFINED_REFERENCE, `undefined reference ${ref}`, { reference: ref });
}
