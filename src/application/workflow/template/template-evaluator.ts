import type { Arg, Command, Node, ParsedTemplate, Pipeline } from './template-ast';
import { isTrue, TemplateExecError, type TemplateFunction } from './go-builtins';
import { goTypeName, printValue } from './go-format';

/** A missing map key, a field on nil, or a field the value does not have (Go's missingkey=error). */
export class UndefinedReferenceError extends Error {
  constructor(
    readonly reference: string,
    why: string,
  ) {
    super(why);
  }
}

const BREAK = Symbol('break');
const CONTINUE = Symbol('continue');
const MAX_DEPTH = 1000;

interface Variable {
  name: string;
  value: unknown;
}

/**
 * Executes a parsed template the way Go's text/template/exec.go does: the dot, variables and
 * their scopes, pipelines passing the previous value as the last argument, Go's truth for
 * if/with, range over lists, maps (sorted keys) and integers, break/continue, and templates
 * invoked by name. Function-valued fields are called like Go methods.
 */
export class Evaluator {
  private out = '';
  private vars: Variable[] = [];
  private depth = 0;

  constructor(
    private readonly tree: ParsedTemplate,
    private readonly funcs: Record<string, TemplateFunction>,
  ) {}

  run(data: unknown): string {
    this.vars = [{ name: '$', value: data }];
    this.walkList(data, this.tree.root);
    return this.out;
  }

  private walkList(dot: unknown, list: Node[]): void {
    for (const node of list) this.walk(dot, node);
  }

  private walk(dot: unknown, node: Node): void {
    switch (node.kind) {
      case 'text':
        this.out += node.text;
        return;
      case 'action': {
        const value = this.pipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.out += printValue(value);
        return;
      }
      case 'if':
      case 'with': {
        const mark = this.vars.length;
        const value = this.pipeline(dot, node.pipe);
        if (isTrue(value)) this.walkList(node.kind === 'with' ? value : dot, node.list);
        else if (node.elseList) this.walkList(dot, node.elseList);
        this.vars.length = mark;
        return;
      }
      case 'range':
        return this.range(dot, node);
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'template':
        return this.template(dot, node.name, node.pipe);
    }
  }

  private range(dot: unknown, node: Extract<Node, { kind: 'range' }>): void {
    const mark = this.vars.length;
    const value = this.pipeline(dot, node.pipe);
    const body = mark + node.pipe.decl.length;
    const entries: [unknown, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : typeof value === 'number' && Number.isInteger(value)
        ? Array.from({ length: Math.max(0, value) }, (_, i) => [i, i])
        : value !== null && typeof value === 'object'
          ? Object.keys(value)
              .sort()
              .map((k) => [k, (value as Record<string, unknown>)[k]])
          : value === null || value === undefined
            ? []
            : this.fail(`range can't iterate over ${printValue(value)}`);
    if (typeof value === 'number' && node.pipe.decl.length > 1)
      this.fail(`can't use ${value} to iterate over more than one variable`);
    for (const [key, elem] of entries) {
      const assign = (offset: number, v: unknown): void => {
        const name = node.pipe.decl[node.pipe.decl.length - offset];
        if (node.pipe.isAssign) this.setVar(name, v);
        else this.vars[body - offset].value = v;
      };
      if (node.pipe.decl.length > 0) assign(1, typeof value === 'number' ? key : elem);
      if (node.pipe.decl.length > 1) assign(2, key);
      try {
        this.walkList(elem, node.list);
      } catch (signal) {
        if (signal === BREAK) break;
        if (signal !== CONTINUE) throw signal;
      } finally {
        this.vars.length = body;
      }
    }
    if (entries.length === 0 && node.elseList) this.walkList(dot, node.elseList);
    this.vars.length = mark;
  }

  private template(dot: unknown, name: string, pipe?: Pipeline): void {
    const body = this.tree.defines.get(name);
    if (!body) this.fail(`no such template "${name}"`);
    const next = pipe ? this.pipeline(dot, pipe) : null;
    if (++this.depth > MAX_DEPTH) this.fail(`exceeded maximum template depth (${MAX_DEPTH})`);
    const saved = this.vars;
    this.vars = [{ name: '$', value: next }];
    try {
      this.walkList(next, body!);
    } finally {
      this.vars = saved;
      this.depth--;
    }
  }

  private pipeline(dot: unknown, pipe: Pipeline): unknown {
    let value: unknown;
    let first = true;
    for (const cmd of pipe.cmds) {
      value = this.command(dot, cmd, first ? NONE : value);
      first = false;
    }
    for (const name of pipe.decl) {
      if (pipe.isAssign) this.setVar(name, value);
      else this.vars.push({ name, value });
    }
    return value;
  }

  private command(dot: unknown, cmd: Command, final: unknown): unknown {
    const [head] = cmd.args;
    switch (head.kind) {
      case 'field':
        return this.fieldChain(dot, dot, head.path, '', cmd.args, final);
      case 'variable':
        return this.fieldChain(dot, this.variable(head.name), head.path, head.name, cmd.args, final);
      case 'chain': {
        const base = this.notAFunction(cmd.args, final) && this.arg(dot, head.node);
        return this.fieldChain(dot, base, head.path, chainLabel(head.node), cmd.args, final);
      }
      case 'identifier':
        return this.call(dot, head.name, cmd.args.slice(1), final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.pipeline(dot, head.pipe);
      case 'nil':
        return this.fail('nil is not a command');
      default:
        this.notAFunction(cmd.args, final);
        return this.arg(dot, head);
    }
  }

  private notAFunction(args: Arg[], final: unknown): true {
    if (args.length > 1 || final !== NONE) this.fail(`can't give argument to non-function ${describeArg(args[0])}`);
    return true;
  }

  private call(dot: unknown, name: string, argNodes: Arg[], final: unknown): unknown {
    const fn = this.funcs[name];
    if (!fn) return this.fail(`"${name}" is not a defined function`);
    const count = argNodes.length + (final === NONE ? 0 : 1);
    if (count < fn.min || (fn.max !== undefined && count > fn.max)) {
      const want =
        fn.max === undefined ? `at least ${fn.min}` : fn.min === fn.max ? `${fn.min}` : `${fn.min} to ${fn.max}`;
      this.fail(`wrong number of args for ${name}: want ${want} got ${count}`);
    }
    const args: unknown[] = argNodes.map((a) => (fn.lazy ? () => this.arg(dot, a) : this.arg(dot, a)));
    if (final !== NONE) args.push(fn.lazy ? () => final : final);
    try {
      return fn.call(...args);
    } catch (err) {
      if (err instanceof TemplateExecError) throw new TemplateExecError(`error calling ${name}: ${err.message}`);
      throw err;
    }
  }

  /** An argument of a function: fields, variables and pipelines evaluate; literals are themselves. */
  private arg(dot: unknown, a: Arg): unknown {
    switch (a.kind) {
      case 'dot':
        return dot;
      case 'nil':
        return null;
      case 'literal':
        return a.value;
      case 'field':
        return this.fieldChain(dot, dot, a.path, '', [a], NONE);
      case 'variable':
        return this.fieldChain(dot, this.variable(a.name), a.path, a.name, [a], NONE);
      case 'chain':
        return this.fieldChain(dot, this.arg(dot, a.node), a.path, chainLabel(a.node), [a], NONE);
      case 'identifier':
        return this.call(dot, a.name, [], NONE);
      case 'pipe':
        return this.pipeline(dot, a.pipe);
    }
  }

  /** `.a.b.c` on a receiver; only the last field may take arguments (a method call). */
  private fieldChain(
    dot: unknown,
    receiver: unknown,
    path: string[],
    label: string,
    args: Arg[],
    final: unknown,
  ): unknown {
    let value = receiver;
    path.forEach((name, i) => {
      const last = i === path.length - 1;
      const ref = `${label}.${path.slice(0, i + 1).join('.')}`;
      const extra = last ? args.slice(1) : [];
      value = this.field(dot, value, name, ref, extra, last ? final : NONE);
    });
    if (path.length === 0 && (args.length > 1 || final !== NONE)) this.notAFunction(args, final);
    return value;
  }

  private field(dot: unknown, receiver: unknown, name: string, ref: string, args: Arg[], final: unknown): unknown {
    if (receiver === undefined) throw new UndefinedReferenceError(ref, `nil data; no entry for key "${name}"`);
    if (receiver === null) throw new UndefinedReferenceError(ref, `nil pointer evaluating interface {}.${name}`);
    if (typeof receiver !== 'object' || Array.isArray(receiver)) {
      throw new UndefinedReferenceError(ref, `can't evaluate field ${name} in type ${goTypeName(receiver)}`);
    }
    const map = receiver as Record<string, unknown>;
    const value = Object.prototype.hasOwnProperty.call(map, name) ? map[name] : undefined;
    if (value === undefined) throw new UndefinedReferenceError(ref, `map has no entry for key "${name}"`);
    if (typeof value === 'function') {
      const values = args.map((a) => this.arg(dot, a));
      if (final !== NONE) values.push(final);
      return (value as (...a: unknown[]) => unknown)(...values);
    }
    if (args.length > 0 || final !== NONE) this.fail(`${name} is not a method but has arguments`);
    return value;
  }

  private variable(name: string): unknown {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i].name === name) return this.vars[i].value;
    return this.fail(`undefined variable: ${name}`);
  }

  private setVar(name: string, value: unknown): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i].name === name) {
        this.vars[i].value = value;
        return;
      }
    }
    this.fail(`undefined variable: ${name}`);
  }

  private fail(message: string): never {
    throw new TemplateExecError(message);
  }
}

/** "No final value": distinct from a pipeline stage that produced nil. */
const NONE: unknown = Symbol('none');

function chainLabel(node: Arg): string {
  return node.kind === 'identifier' ? node.name : '';
}

function describeArg(a: Arg): string {
  if (a.kind === 'literal') return a.source;
  if (a.kind === 'field') return `.${a.path.join('.')}`;
  if (a.kind === 'variable') return a.name + (a.path.length ? `.${a.path.join('.')}` : '');
  return a.kind;
}
