import { commandsOf } from './shell-commands';
import { compileGlob, type CompiledGlob } from './policy-glob';
import {
  type PathAccess,
  POLICY_REFUSAL,
  type PolicyBudgets,
  type PolicyLayer,
  type PolicyRefusal,
} from './policy.model';
import { ShellSyntaxError } from './shell-word';

interface Rules {
  allow?: CompiledGlob[];
  deny: CompiledGlob[];
}

interface CompiledLayer {
  origin: string;
  tools: Rules;
  bash: Rules;
  read?: CompiledGlob[];
  write?: CompiledGlob[];
  pathDeny: CompiledGlob[];
  approve: { tool: CompiledGlob; arg?: CompiledGlob; match: string; auto: boolean }[];
}

/** An approval a call needs: the rule, and whether it may be granted with nobody to ask. */
export interface ApprovalNeed {
  rule: string;
  auto: boolean;
}

const MEMO_LIMIT = 4096;

const compile = (list: string[] | undefined, kind: 'name' | 'path' | 'command'): CompiledGlob[] | undefined =>
  list?.map((p) => compileGlob(p, kind));

/**
 * The effective policy of one step, compiled once: pure decisions over names, relative
 * paths and command lines. Every layer must allow a call (defaults first, then the step),
 * deny wins over allow inside a layer, and the first refusing rule is the one reported.
 */
export class ToolPolicy {
  readonly budgets: Readonly<PolicyBudgets>;
  readonly hasBashRules: boolean;
  readonly hasPathRules: boolean;
  readonly hasApprovals: boolean;
  private readonly layers: CompiledLayer[];
  /** Per tool name: the verdict, and the approve rules naming it (names are few; bounded anyway). */
  private readonly toolVerdicts = new Map<string, PolicyRefusal | null>();
  private readonly approvalRules = new Map<string, { rule: string; auto: boolean; arg?: CompiledGlob }[]>();

  /** The layers as given: what an exact approval's policy digest is taken of. */
  constructor(readonly given: readonly PolicyLayer[]) {
    this.layers = given.map((l) => ({
      origin: l.origin,
      tools: { allow: compile(l.tools?.allow, 'name'), deny: compile(l.tools?.deny, 'name') ?? [] },
      bash: { allow: compile(l.bash?.allow, 'command'), deny: compile(l.bash?.deny, 'command') ?? [] },
      read: compile(l.paths?.read, 'path'),
      write: compile(l.paths?.write, 'path'),
      pathDeny: compile(l.paths?.deny, 'path') ?? [],
      approve: (l.approve ?? []).map((a) => {
        const colon = a.match.indexOf(':');
        return {
          tool: compileGlob(colon < 0 ? a.match : a.match.slice(0, colon), 'name'),
          arg: colon < 0 ? undefined : compileGlob(a.match.slice(colon + 1), 'command'),
          match: a.match,
          auto: a.auto === true,
        };
      }),
    }));
    this.budgets = mergeBudgets(given);
    this.hasBashRules = this.layers.some((l) => l.bash.allow || l.bash.deny.length);
    this.hasPathRules = this.layers.some((l) => l.read || l.write || l.pathDeny.length);
    this.hasApprovals = this.layers.some((l) => l.approve.length > 0);
  }

  /** Whether a tool is offered and callable at all (tools.allow / tools.deny); kept per name, as it never changes. */
  checkTool(name: string): PolicyRefusal | undefined {
    const known = this.toolVerdicts.get(name);
    if (known !== undefined) return known ?? undefined;
    let refusal: PolicyRefusal | undefined;
    for (const layer of this.layers) {
      const rule = verdict(layer.tools, [name], `${layer.origin}: tools`);
      if (rule) {
        refusal = Object.freeze({
          code: POLICY_REFUSAL.tool,
          rule,
          message: `the tool ${name} is not allowed for this step`,
        });
        break;
      }
    }
    if (this.toolVerdicts.size < MEMO_LIMIT) this.toolVerdicts.set(name, refusal ?? null);
    return refusal;
  }

  /** Every simple command of a Bash command line against bash.allow / bash.deny, failing closed. */
  checkCommand(line: string): PolicyRefusal | undefined {
    if (!this.hasBashRules) return undefined;
    let commands;
    try {
      commands = commandsOf(line);
    } catch (err) {
      if (!(err instanceof ShellSyntaxError)) throw err;
      return {
        code: POLICY_REFUSAL.command,
        rule: 'bash: the command line must be parseable',
        message: `the command line cannot be checked: ${err.message}; run simpler commands one at a time`,
      };
    }
    for (const command of commands) {
      if (command.dynamic) {
        return {
          code: POLICY_REFUSAL.command,
          rule: 'bash: a command name must be written out',
          message: `"${command.text}" computes its command name at run time, which the command policy cannot check`,
        };
      }
      for (const layer of this.layers) {
        const rule = verdict(layer.bash, command.tails, `${layer.origin}: bash`);
        if (rule)
          return {
            code: POLICY_REFUSAL.command,
            rule,
            message: `the command "${command.text}" is not allowed for this step`,
          };
      }
    }
    return undefined;
  }

  /** A path relative to the sandbox root (`/`-separated, '' for the root itself). */
  checkPath(rel: string, access: PathAccess): PolicyRefusal | undefined {
    const shown = rel === '' ? '.' : rel;
    for (const layer of this.layers) {
      const denied = layer.pathDeny.find((g) => g.test(rel));
      const origin = `${layer.origin}: paths`;
      const list = access === 'write' ? layer.write : layer.read;
      const field = access === 'write' ? 'write' : 'read';
      const rule = denied
        ? `${origin}.deny "${denied.source}"`
        : list && rel !== '' && !list.some((g) => g.test(rel))
          ? `${origin}.${field} (no pattern matches)`
          : undefined;
      if (rule)
        return {
          code: POLICY_REFUSAL.path,
          rule,
          message: `${access === 'write' ? 'writing' : 'reading'} ${shown} is not allowed for this step`,
        };
    }
    return undefined;
  }

  /**
   * The approve rules a call matches; `subjects` are its commands (Bash) or its path, or how to
   * get them (only asked for when a rule with a `Tool:pattern` names the tool).
   */
  approvalsFor(tool: string, subjects: readonly string[] | (() => readonly string[])): ApprovalNeed[] {
    let rules = this.approvalRules.get(tool);
    if (!rules) {
      rules = this.layers.flatMap((layer) =>
        layer.approve
          .filter((a) => a.tool.test(tool))
          .map((a) => ({ rule: `${layer.origin}: approve "${a.match}"`, auto: a.auto, arg: a.arg })),
      );
      if (this.approvalRules.size < MEMO_LIMIT) this.approvalRules.set(tool, rules);
    }
    if (rules.length === 0) return [];
    let known = typeof subjects === 'function' ? undefined : subjects;
    const needs: ApprovalNeed[] = [];
    for (const { rule, auto, arg } of rules) {
      if (arg && !(known ??= (subjects as () => readonly string[])()).some((s) => arg.test(s))) continue;
      needs.push({ rule, auto });
    }
    return needs;
  }
}

/** The rule that refuses one of `subjects` in a rule pair, or undefined when they pass. */
function verdict(rules: Rules, subjects: readonly string[], origin: string): string | undefined {
  for (const g of rules.deny) if (subjects.some((s) => g.test(s))) return `${origin}.deny "${g.source}"`;
  if (rules.allow && !rules.allow.some((g) => g.test(subjects[0]))) return `${origin}.allow (no pattern matches)`;
  return undefined;
}

/** The tightest of every layer's budgets: a step can lower a default budget, never raise it. */
function mergeBudgets(layers: readonly PolicyLayer[]): PolicyBudgets {
  const out: PolicyBudgets = {};
  const min = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined ? b : b === undefined ? a : Math.min(a, b);
  for (const l of layers) {
    const b = l.budgets;
    if (!b) continue;
    for (const key of ['calls', 'write_bytes', 'bash_seconds'] as const) {
      const value = min(out[key], b[key]);
      if (value !== undefined) out[key] = value;
    }
    for (const [tool, n] of Object.entries(b.per_tool ?? {})) {
      out.per_tool = { ...out.per_tool, [tool]: min(out.per_tool?.[tool], n)! };
    }
  }
  return out;
}
