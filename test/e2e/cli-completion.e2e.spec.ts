import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWF_MAIN, scratchDir } from '../support/cli';
import { itUnless } from '../support/skip';
import { awf } from './workflow-support';

const GREET = 'name: greet\nstates:\n  initial: done\n  done:\n    type: terminal\n';

/** A project whose PATH has an `awf` (the built CLI), as a user's shell would, for the scripts' `awf list` call. */
function shellProject() {
  const project = scratchDir({ '.awf/workflows/greet.yaml': GREET, 'local.yaml': GREET, 'notes.txt': '' });
  const bin = join(project.dir, 'bin');
  writeFileSync(join(project.dir, 'bin-awf'), `#!/bin/sh\nexec "${process.execPath}" "${AWF_MAIN}" "$@"\n`);
  spawnSync('mkdir', [bin]);
  spawnSync('mv', [join(project.dir, 'bin-awf'), join(bin, 'awf')]);
  chmodSync(join(bin, 'awf'), 0o755);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, AWF_LOG_LEVEL: 'warn', AWF_WORKFLOWS_PATH: '' };
  return { ...project, env };
}

/** Why a shell's test cannot run here (it is not installed), or undefined when it can. */
function missing(shell: string): string | undefined {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0
    ? undefined
    : `${shell} is not installed here (apt-get install ${shell} runs it)`;
}

function sh(shell: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync(shell, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${shell} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

describe('awf completion', () => {
  const project = shellProject();
  afterAll(() => project.cleanup());

  it('prints a bash script that bash sources and that completes commands, options, values and workflows', () => {
    const script = join(project.dir, 'awf.bash');
    writeFileSync(script, awf(['completion', 'bash']).stdout);
    const probe = `source ${JSON.stringify(script)}
t() { COMP_WORDS=("$@"); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _awf; echo "$* => \${COMPREPLY[*]}"; }
t awf pl
t awf plugins l
t awf list ''
t awf -f ''
t awf diagram x --format ''
t awf --storage /tmp plu
t awf run gr
t awf validate lo
t awf error WORKFLOW.PARSE.
t awf completion ''
complete -p awf`;
    const out = sh('bash', ['-c', probe], project.dir, project.env).split('\n');
    expect(out).toEqual([
      'awf pl => plugin plugins',
      'awf plugins l => list ls',
      'awf list  => prompts p',
      'awf -f  => text json table quiet',
      'awf diagram x --format  => text json table quiet dot mermaid',
      'awf --storage /tmp plu => plugin plugins',
      'awf run gr => greet',
      'awf validate lo => local.yaml',
      'awf error WORKFLOW.PARSE. => WORKFLOW.PARSE.INVALID_FIELD WORKFLOW.PARSE.NO_EFFECT WORKFLOW.PARSE.UNKNOWN_FIELD WORKFLOW.PARSE.YAML_SYNTAX',
      'awf completion  => bash zsh fish powershell',
      'complete -F _awf awf',
      '',
    ]);
  });

  itUnless(missing('zsh'), 'prints a zsh script that zsh sources and registers for awf', () => {
    const script = join(project.dir, '_awf');
    writeFileSync(script, awf(['completion', 'zsh']).stdout);
    const probe = `autoload -Uz compinit && compinit -u -D
source ${JSON.stringify(script)}
print -r -- "registered: \${_comps[awf]}"
__awf_words=(awf plugins l); __awf_walk 2 3; print -r -- "path: $cmdpath"
print -r -- "$(__awf_candidates l '' | tr '\\n' ' ')"`;
    // zsh's compadd narrows the candidates to the typed prefix itself; the walk found `plugins`' words.
    expect(sh('zsh', ['-f', '-c', probe], project.dir, project.env)).toBe(
      'registered: _awf\npath: plugins\nlist ls enable disable init install remove \n',
    );
  });

  itUnless(missing('fish'), 'prints a fish script whose completions fish offers', () => {
    const script = join(project.dir, 'awf.fish');
    writeFileSync(script, awf(['completion', 'fish']).stdout);
    const names = (line: string): string[] =>
      sh(
        'fish',
        ['--no-config', '-c', `source ${JSON.stringify(script)}; complete -C '${line}'`],
        project.dir,
        project.env,
      )
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[0]);
    expect(names('awf pl')).toEqual(['plugin', 'plugins']);
    expect(names('awf plugin l')).toEqual(['list', 'ls']);
    expect(names('awf diagram x --direction ')).toEqual(['BT', 'LR', 'RL', 'TB']);
    expect(names('awf run gr')).toContain('greet');
  });

  it('prints a PowerShell script whose tables are the command tree', () => {
    const script = awf(['completion', 'powershell']).stdout;
    expect(script).toMatch(/^# PowerShell completion for awf/);
    expect(script).toContain('Register-ArgumentCompleter -Native -CommandName awf -ScriptBlock {');
    const entry = (path: string): string => new RegExp(`^    '${path}' = @\\{ (.*) \\}$`, 'm').exec(script)?.[1] ?? '';
    expect(entry('')).toMatch(/^sub = @\('run', 'worker', 'resume', .*'completion'\); opt = @\('-V', /);
    expect(entry('runs')).toContain("sub = @('list', 'ls', 'show', 'transcript', 'prune', 'follow', 'cancel')");
    expect(entry('history')).toContain("'--stats'");
    expect(entry('validate')).toMatch(/val = @\('--dir', '--pack', '--validator-timeout', /);
    expect(entry('workflow')).toContain("sub = @('install', 'list', 'ls', 'info', 'update', 'remove', 'rm', 'search')");
    expect(entry('plugin')).toContain("'update', 'verify', 'search')");
    expect(entry('run')).toMatch(/arg = 'workflow'$/);
    expect(script).toContain("'diagram|--direction' = @('TB', 'LR', 'BT', 'RL')");
    expect(script).toContain("shell = @('bash', 'zsh', 'fish', 'powershell')");
  });

  // PowerShell is no Debian package: CI machines without Microsoft's packages skip this one.
  itUnless(
    missing('pwsh')?.replace(/\(.*\)/, '(no Debian package has it)'),
    'PowerShell loads the script and completes from it',
    () => {
      const script = join(project.dir, 'awf.ps1');
      writeFileSync(script, awf(['completion', 'powershell']).stdout);
      const complete = (line: string): string =>
        `(TabExpansion2 -inputScript '${line}' -cursorColumn ${line.length}).CompletionMatches.CompletionText -join ' '`;
      const probe = `. ${JSON.stringify(script)}; ${['awf pl', 'awf runs t', 'awf diagram x --direction ', 'awf run gr'].map(complete).join('; ')}`;
      expect(sh('pwsh', ['-NoProfile', '-Command', probe], project.dir, project.env).trim().split('\n')).toEqual([
        'plugin plugins',
        'transcript',
        'TB LR BT RL',
        'greet',
      ]);
    },
  );

  it('refuses a shell it has no script for', () => {
    const r = awf(['completion', 'tcsh']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('[USER.CLI.INVALID_ARGS] no completion for shell "tcsh"');
    expect(r.stderr).toContain('awf completion powershell');
  });
});
