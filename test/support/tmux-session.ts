import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AWF_MAIN } from './cli';
import { untilOnScreen } from './screen-wait';

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The built awf in a real terminal: a tmux server of the test's own (a private socket, killed at
 * `close`), one pane that runs `awf <args>` and stays on screen once it exits, so its exit
 * status can be read. `screen()` is what the pane shows; `keys` sends tmux key names
 * (`Enter`, `Escape`, `Tab`, `C-c`), `type` literal text.
 */
export function tmuxSession(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; cols?: number; rows?: number; main?: string },
) {
  const dir = mkdtempSync(join(tmpdir(), 'awf-tmux-'));
  const socket = join(dir, 'tmux.sock');
  const conf = join(dir, 'tmux.conf');
  writeFileSync(conf, 'set -g remain-on-exit on\nset -g status off\n');
  const tmux = (...a: string[]): string => {
    const r = spawnSync('tmux', ['-S', socket, '-f', conf, ...a], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tmux ${a.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const env = Object.entries({ AWF_LOG_LEVEL: 'warn', ...options.env }).map(([k, v]) => `${k}=${v ?? ''}`);
  // The shell waits for awf and writes its exit status down: tmux's own record of a pane's
  // status can miss a process that exits as its terminal closes.
  const statusFile = join(dir, 'status');
  const awf = ['env', ...env, process.execPath, options.main ?? AWF_MAIN, ...args].map(quote).join(' ');
  const line = `${awf}; echo $? > ${quote(statusFile)}`;
  tmux(
    'new-session',
    '-d',
    '-s',
    'awf',
    '-x',
    String(options.cols ?? 120),
    '-y',
    String(options.rows ?? 40),
    '-c',
    options.cwd,
    line,
  );
  const screen = (): string => tmux('capture-pane', '-p', '-t', 'awf');
  return {
    screen,
    until: (text: string | RegExp, ms = 60_000): Promise<string> => untilOnScreen(screen, text, ms, 100),
    /** One key at a time, at a person's pace: a terminal delivers keys typed together as one chunk. */
    async keys(...names: string[]): Promise<void> {
      for (const name of names) {
        tmux('send-keys', '-t', 'awf', name);
        await new Promise((r) => setTimeout(r, 150));
      }
    },
    async type(text: string): Promise<void> {
      for (const c of text) {
        tmux('send-keys', '-t', 'awf', '-l', c);
        await new Promise((r) => setTimeout(r, 150));
      }
    },
    /** The exit status once awf has exited (`signal N` when a signal ended it), else undefined. */
    /** Waits (up to 10 s) for awf to exit; its exit status, or undefined when it has not. */
    async exited(): Promise<number | undefined> {
      for (let i = 0; i < 100 && !existsSync(statusFile); i++) await new Promise((r) => setTimeout(r, 100));
      return existsSync(statusFile) ? Number(readFileSync(statusFile, 'utf8').trim()) : undefined;
    },
    close(): void {
      spawnSync('tmux', ['-S', socket, 'kill-server']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
