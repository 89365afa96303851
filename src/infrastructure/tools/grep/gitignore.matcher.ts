import picomatch from 'picomatch';

interface Rule {
  negate: boolean;
  dirOnly: boolean;
  test: (path: string) => boolean;
}

/**
 * The rules of one `.gitignore`, with git's semantics for the common cases: comments,
 * blank lines, `!` negation, a trailing `/` for directories only, and a pattern holding a
 * `/` anchored to the file's own directory, otherwise matching a name at any depth.
 */
export class GitignoreRules {
  private constructor(
    readonly dir: string,
    private readonly rules: Rule[],
  ) {}

  /** `dir` is the `.gitignore`'s directory relative to the walk base (`''` for the base). */
  static parse(text: string, dir: string): GitignoreRules {
    const rules: Rule[] = [];
    for (const raw of text.split('\n')) {
      let line = raw.replace(/\r$/, '').replace(/(?<!\\)\s+$/, '');
      if (line === '' || line.startsWith('#')) continue;
      const negate = line.startsWith('!');
      if (negate) line = line.slice(1);
      else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
      const dirOnly = line.endsWith('/');
      line = line.replace(/\/+$/, '');
      if (line === '') continue;
      const anchored = line.includes('/');
      const glob = anchored ? line.replace(/^\//, '') : `**/${line}`;
      rules.push({ negate, dirOnly, test: picomatch(glob, { dot: true }) });
    }
    return new GitignoreRules(dir, rules);
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** undefined when no rule speaks about the path; otherwise whether the last matching rule ignores it. */
  verdict(pathFromBase: string, isDir: boolean): boolean | undefined {
    if (this.dir !== '' && !pathFromBase.startsWith(`${this.dir}/`)) return undefined;
    const path = this.dir === '' ? pathFromBase : pathFromBase.slice(this.dir.length + 1);
    let verdict: boolean | undefined;
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.test(path)) verdict = !rule.negate;
    }
    return verdict;
  }
}

/** Outer files first, inner last: the deepest `.gitignore` that speaks wins, as in git. */
export function isIgnored(stack: readonly GitignoreRules[], pathFromBase: string, isDir: boolean): boolean {
  let ignored = false;
  for (const rules of stack) {
    const verdict = rules.verdict(pathFromBase, isDir);
    if (verdict !== undefined) ignored = verdict;
  }
  return ignored;
}
