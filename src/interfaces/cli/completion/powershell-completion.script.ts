import { type CompletionNode, errorCodes, SHELLS } from './completion-model';

/**
 * PowerShell: the command tree as hashtables and one native argument completer that walks the
 * words typed before the cursor, as the bash script does. AWF's (cobra's) script asks the binary
 * at every key press; this one asks it only for workflow names (`awf list -f quiet`). When it
 * offers nothing (an option that takes a file), PowerShell completes paths itself.
 */
export function powershellCompletion(nodes: CompletionNode[]): string {
  const tree = nodes.map((n) => {
    const fields = [
      `sub = ${list(n.subcommands.map((s) => s.name))}`,
      `opt = ${list(n.options.flatMap((o) => o.flags))}`,
      `val = ${list(n.options.filter((o) => o.takesValue).flatMap((o) => o.flags))}`,
      `arg = ${q(n.argument ?? '')}`,
    ];
    return `    ${q(n.path)} = @{ ${fields.join('; ')} }`;
  });
  const choices = nodes.flatMap((n) =>
    n.options.flatMap((o) => (o.choices ? o.flags.map((f) => `    ${q(`${n.path}|${f}`)} = ${list(o.choices!)}`) : [])),
  );
  // The tables live in the completer itself: it runs in the scope it was made in, wherever the
  // script was loaded (a profile, a function, Invoke-Expression).
  return `# PowerShell completion for awf. Load it with:  awf completion powershell | Out-String | Invoke-Expression
# or add that line to your profile ($PROFILE).

Register-ArgumentCompleter -Native -CommandName awf -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $tree = @{
${tree.join('\n')}
  }
  $choices = @{
${choices.join('\n')}
  }
  $values = @{
    code = ${list(errorCodes())}
    shell = ${list(SHELLS)}
  }
  $typed = @($commandAst.CommandElements | Select-Object -Skip 1 |
    Where-Object { $_.Extent.EndOffset -lt $cursorPosition } | ForEach-Object { $_.Extent.Text })
  $cmdpath = ''
  for ($i = 0; $i -lt $typed.Count; $i++) {
    $w = $typed[$i]
    if ($tree[$cmdpath].val -ccontains $w) { $i++; continue }
    if (-not $w.StartsWith('-') -and $tree[$cmdpath].sub -ccontains $w) { $cmdpath = ($cmdpath + ' ' + $w).Trim() }
  }
  $node = $tree[$cmdpath]
  $prev = if ($typed.Count -gt 0) { $typed[-1] } else { '' }
  $candidates = @()
  if ($node.val -ccontains $prev) {
    $candidates = @($choices[$cmdpath + '|' + $prev])
  } elseif ($wordToComplete.StartsWith('-')) {
    $candidates = $node.opt
  } else {
    $candidates = @($node.sub)
    if ($node.arg -eq 'workflow') { $candidates += @(& awf list -f quiet 2>$null) }
    elseif ($node.arg) { $candidates += $values[$node.arg] }
  }
  $candidates | Where-Object { $_ -and $_ -clike "$wordToComplete*" } | ForEach-Object {
    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
  }
}
`;
}

function list(values: readonly string[]): string {
  return `@(${values.map(q).join(', ')})`;
}

/** A single-quoted PowerShell string: nothing inside is expanded; a quote is doubled. */
function q(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
