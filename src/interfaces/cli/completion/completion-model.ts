import type { Command as Commander } from 'commander';
import { DIRECTIONS } from '../../../application/diagram/dot-diagram.renderer';
import { ERROR_CATALOGUE } from '../../../domain/errors/error-catalogue';
import { COMMAND_FORMATS, FORMATS, LEVELS } from '../global-flags';

/** What the shell scripts complete: the visible command tree, read from commander itself. */
export interface CompletionNode {
  /** Words from the root, e.g. `plugin list`; '' for the root. */
  path: string;
  subcommands: { name: string; description: string }[];
  options: { flags: string[]; description: string; takesValue: boolean; choices?: readonly string[] }[];
  /** What the first positional argument is, when the scripts can offer values for it. */
  argument?: 'workflow' | 'code' | 'shell';
}

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

const ARGUMENT_KINDS: Record<string, CompletionNode['argument']> = {
  workflow: 'workflow',
  code: 'code',
  shell: 'shell',
};

/** Option values the scripts can list; any other value-taking option completes file names. */
function choicesOf(path: string, long?: string): readonly string[] | undefined {
  if (long === '--format') return [...FORMATS, ...(COMMAND_FORMATS[path] ?? [])];
  if (long === '--log-level') return LEVELS;
  if (long === '--direction') return DIRECTIONS;
  return undefined;
}

export function completionTree(program: Commander): CompletionNode[] {
  const globals = program.options.filter((o) => !o.hidden);
  const nodes: CompletionNode[] = [];
  const visit = (cmd: Commander, path: string): void => {
    const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden) as Commander[];
    const own = cmd === program ? [] : cmd.options.filter((o) => !o.hidden);
    const argument = cmd.registeredArguments[0]?.name();
    nodes.push({
      path,
      subcommands: visible.flatMap((c) =>
        [c.name(), ...c.aliases()].map((name) => ({ name, description: c.description() })),
      ),
      options: [...own, ...globals].map((o) => ({
        flags: [o.short, o.long].filter((f): f is string => Boolean(f)),
        description: o.description,
        takesValue: o.required || o.optional,
        ...(choicesOf(path, o.long) ? { choices: choicesOf(path, o.long) } : {}),
      })),
      ...(argument && ARGUMENT_KINDS[argument] ? { argument: ARGUMENT_KINDS[argument] } : {}),
    });
    // An alias (`plugins`, `ls`) leads to the same subtree under its own words.
    for (const c of visible) for (const name of [c.name(), ...c.aliases()]) visit(c, path ? `${path} ${name}` : name);
  };
  visit(program, '');
  return nodes;
}

export function errorCodes(): string[] {
  return ERROR_CATALOGUE.map((e) => e.code);
}
