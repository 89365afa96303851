import { type CompletionNode, errorCodes, SHELLS } from './completion-model';

/**
 * bash and zsh share one body: `case` tables of the command tree (subcommands, options, options
 * that take a value, their choices, what the positional argument is) and a walk over the words
 * typed so far. Workflow arguments complete the names `awf list -f quiet` prints, and *.yaml files.
 * `cmdpath`, not `path`: in zsh `path` is tied to PATH.
 */
function tables(nodes: CompletionNode[]): string {
  const table = (fn: string, value: (n: CompletionNode) => string): string =>
    [
      `${fn}() {`,
      '  case "$1" in',
      ...nodes.map((n) => `    ${q(n.path)}) echo ${q(value(n))} ;;`),
      '  esac',
      '}',
    ].join('\n');
  const choices = new Map<string, string>();
  for (const n of nodes)
    for (const o of n.options)
      if (o.choices) o.flags.forEach((f) => choices.set(`${n.path}|${f}`, o.choices!.join(' ')));
  return [
    table('__awf_subcommands', (n) => n.subcommands.map((s) => s.name).join(' ')),
    table('__awf_options', (n) => n.options.flatMap((o) => o.flags).join(' ')),
    table('__awf_value_options', (n) =>
      n.options
        .filter((o) => o.takesValue)
        .flatMap((o) => o.flags)
        .join(' '),
    ),
    table('__awf_argument', (n) => n.argument ?? ''),
    [
      '__awf_choices() {',
      '  case "$1|$2" in',
      ...[...choices].map(([k, v]) => `    ${q(k)}) echo ${q(v)} ;;`),
      '  esac',
      '}',
    ].join('\n'),
    `__awf_codes() {\n  echo ${q(errorCodes().join(' '))}\n}`,
    `__awf_shells() {\n  echo ${q(SHELLS.join(' '))}\n}`,
  ].join('\n\n');
}

/** Sets `cmdpath` (the subcommands typed so far) and `prev`; `$1` is the index of the first word after awf. */
const WALK = `__awf_walk() {
  local first=$1 last=$2 i w
  cmdpath=""
  i=$first
  while (( i < last )); do
    w="\${__awf_words[i]}"
    if [[ " $(__awf_value_options "$cmdpath") " == *" $w "* ]]; then
      (( i += 2 ))
      continue
    fi
    if [[ "$w" != -* && " $(__awf_subcommands "$cmdpath") " == *" $w "* ]]; then
      cmdpath="\${cmdpath:+$cmdpath }$w"
    fi
    (( i += 1 ))
  done
}

# The candidates for the word being typed, one per line.
__awf_candidates() {
  local IFS=$' \t\n' cur=$1 prev=$2 choices
  if [[ " $(__awf_value_options "$cmdpath") " == *" $prev "* ]]; then
    choices="$(__awf_choices "$cmdpath" "$prev")"
    if [[ -n "$choices" ]]; then compgen -W "$choices" -- "$cur"; else compgen -f -- "$cur"; fi
    return
  fi
  if [[ "$cur" == -* ]]; then
    compgen -W "$(__awf_options "$cmdpath")" -- "$cur"
    return
  fi
  compgen -W "$(__awf_subcommands "$cmdpath")" -- "$cur"
  case "$(__awf_argument "$cmdpath")" in
    workflow)
      compgen -W "$(command awf list -f quiet 2>/dev/null)" -- "$cur"
      compgen -f -X '!*.yaml' -- "$cur"
      compgen -d -- "$cur"
      ;;
    code) compgen -W "$(__awf_codes)" -- "$cur" ;;
    shell) compgen -W "$(__awf_shells)" -- "$cur" ;;
  esac
}`;

export function bashCompletion(nodes: CompletionNode[]): string {
  return `# bash completion for awf. Load it with:  source <(awf completion bash)
# or install it:  awf completion bash > ~/.local/share/bash-completion/completions/awf

${tables(nodes)}

${WALK}

_awf() {
  local cmdpath __awf_words=("\${COMP_WORDS[@]}")
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev=""
  (( COMP_CWORD > 0 )) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  __awf_walk 1 "$COMP_CWORD"
  local IFS=$'\\n'
  COMPREPLY=($(__awf_candidates "$cur" "$prev"))
}

complete -F _awf awf
`;
}

export function zshCompletion(nodes: CompletionNode[]): string {
  return `#compdef awf
# zsh completion for awf. Load it with:  source <(awf completion zsh)
# or install it as _awf in a directory of $fpath.

autoload -Uz bashcompinit && bashcompinit

${tables(nodes)}

${WALK}

_awf() {
  local cmdpath
  local -a __awf_words candidates
  __awf_words=("\${(@)words}")
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}"
  __awf_walk 2 "$CURRENT"
  candidates=(\${(f)"$(__awf_candidates "$cur" "$prev")"})
  compadd -a candidates
}

if [[ "\${funcstack[1]}" == _awf ]]; then
  _awf "$@"
else
  compdef _awf awf
fi
`;
}

function q(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
