import { type CompletionNode, errorCodes, SHELLS } from './completion-model';

/**
 * fish: one `complete` line per subcommand and option, each guarded by the subcommands typed
 * so far (`__fish_seen_subcommand_from`). Workflow arguments offer `awf list -f quiet` and files.
 */
export function fishCompletion(nodes: CompletionNode[]): string {
  const lines = [
    '# fish completion for awf. Load it with:  awf completion fish | source',
    '# or install it:  awf completion fish > ~/.config/fish/completions/awf.fish',
    '',
    'complete -c awf -f',
  ];
  for (const node of nodes) {
    const when = condition(node, nodes);
    for (const s of node.subcommands)
      lines.push(`complete -c awf -n ${q(when)} -a ${q(s.name)} -d ${q(s.description)}`);
    for (const o of node.options) {
      const flags = o.flags.map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`)).join(' ');
      const value = o.choices ? ` -x -a ${q(o.choices.join(' '))}` : o.takesValue ? ' -r -F' : '';
      lines.push(`complete -c awf -n ${q(when)} ${flags}${value} -d ${q(o.description)}`);
    }
    if (node.argument === 'workflow')
      lines.push(`complete -c awf -n ${q(when)} -F -a '(command awf list -f quiet 2>/dev/null)'`);
    if (node.argument === 'code') lines.push(`complete -c awf -n ${q(when)} -a ${q(errorCodes().join(' '))}`);
    if (node.argument === 'shell') lines.push(`complete -c awf -n ${q(when)} -a ${q(SHELLS.join(' '))}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The root: no subcommand yet; `plugin list`: both seen, and none of `plugin list`'s own subcommands. */
function condition(node: CompletionNode, nodes: CompletionNode[]): string {
  if (!node.path) return '__fish_use_subcommand';
  const words = node.path.split(' ');
  const seen = words.map((w) => `__fish_seen_subcommand_from ${w}`);
  const siblings = nodes
    .filter((n) => n.path.split(' ').length === words.length && n.path !== node.path)
    .filter((n) => n.path.split(' ').slice(0, -1).join(' ') === words.slice(0, -1).join(' '))
    .map((n) => n.path.split(' ').at(-1)!);
  const notSibling = siblings.length ? [`not __fish_seen_subcommand_from ${siblings.join(' ')}`] : [];
  const children = node.subcommands.map((s) => s.name);
  const notDeeper = children.length ? [`not __fish_seen_subcommand_from ${children.join(' ')}`] : [];
  return [...seen, ...notSibling, ...notDeeper].join('; and ');
}

function q(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
