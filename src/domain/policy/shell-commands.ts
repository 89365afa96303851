import { parseShell, type SimpleCommand } from './shell-parser';
import { ShellSyntaxError, type ShellWord } from './shell-word';

/** A command the rules see: the words a process would be started with, joined by one space. */
export interface CheckedCommand {
  text: string;
  /** The command's name is only known at run time (`$CMD`, `$(…) -rf`, `{rm,x}`). */
  dynamic: boolean;
  /** `text` from each word on: deny rules match any of them (`sudo rm -rf /` is still `rm -rf /`). */
  tails: string[];
}

/** Wrappers that run their operand unchanged: the operand is what is checked. `opts` take a value. */
const TRANSPARENT: Record<string, { valued: string[]; leading?: number }> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir'] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  nohup: { valued: [] },
  time: { valued: ['-f', '-o'] },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '-n', '-p'] },
  setsid: { valued: [] },
  stdbuf: { valued: ['-i', '-o', '-e'] },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], leading: 1 },
};

/** Programs that run a string as shell code: with `-c` (or as `eval`) the string is parsed too. */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash']);
const MAX_DEPTH = 8;

/** Every command `line` runs, or a ShellSyntaxError when it cannot be told. */
export function commandsOf(line: string, depth = 0): CheckedCommand[] {
  if (depth > MAX_DEPTH) throw new ShellSyntaxError('commands nested too deep');
  return parseShell(line).flatMap((c) => checked(c, depth));
}

function checked(command: SimpleCommand, depth: number): CheckedCommand[] {
  const words = unwrap(command.words);
  if (words.length === 0) return [];
  const [name] = words;
  const base = name.literal ? name.value.replace(/^.*\//, '') : '';
  if (name.literal && base === 'eval') {
    if (words.slice(1).some((w) => !w.literal)) throw new ShellSyntaxError('eval of a string built at run time');
    return commandsOf(
      words
        .slice(1)
        .map((w) => w.value)
        .join(' '),
      depth + 1,
    );
  }
  if (name.literal && SHELLS.has(base)) {
    const c = words.findIndex((w, i) => i > 0 && w.literal && /^-[a-z]*c[a-z]*$/.test(w.value));
    if (c > 0) {
      const script = words[c + 1];
      if (!script) throw new ShellSyntaxError(`${base} -c without a command`);
      if (!script.literal) throw new ShellSyntaxError(`${base} -c with a command built at run time`);
      return commandsOf(script.value, depth + 1);
    }
  }
  const values = words.map((w) => (w.literal ? w.value : w.raw));
  return [
    {
      text: values.join(' '),
      dynamic: !name.literal,
      tails: values.map((_, i) => values.slice(i).join(' ')),
    },
  ];
}

/** Strips transparent wrappers and their options (`env -u X Y=1 timeout 5 nice npm test` is `npm test`). */
function unwrap(words: ShellWord[]): ShellWord[] {
  let rest = words;
  for (;;) {
    const head = rest[0];
    const spec = head?.literal ? TRANSPARENT[head.value.replace(/^.*\//, '')] : undefined;
    if (!spec) return rest;
    let i = 1;
    let leading = spec.leading ?? 0;
    while (i < rest.length) {
      const w = rest[i];
      if (w.literal && w.value === '--') {
        i++;
        break;
      }
      if (w.literal && w.value.startsWith('-') && w.value.length > 1) {
        if (head.value === 'env' && /^-(S|-split-string)/.test(w.value))
          throw new ShellSyntaxError('env -S splits a string at run time');
        i += spec.valued.includes(w.value) ? 2 : 1;
      } else if (head.value.endsWith('env') && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value)) i++;
      else if (leading > 0) {
        leading--;
        i++;
      } else break;
    }
    if (i >= rest.length) return [];
    rest = rest.slice(i);
  }
}
