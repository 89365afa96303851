import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  const line = ['exec', 'env', ...env, process.execPath, options.main ?? AWF_MAIN, ...args]
    .map((a, i) => (i ? quote(a) : a))
    .join(' ');
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
    /** The pane's process (awf itself: the shell exec'd it). */
    pid: Number(tmux('display-message', '-p', '-t', 'awf', '#{pane_pid}').trim()),
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
    /** The exit status once awf has exited, else undefined. */
    exitStatus(): number | undefined {
      const [dead, status] = tmux('display-message', '-p', '-t', 'awf', '#{pane_dead} #{pane_dead_status}')
        .trim()
        .split(' ');
      return dead === '1' ? Number(status) : undefined;
    },
    /** Waits (up to 10 s) for awf to exit; its status, or undefined when it has not. */
    async exited(): Promise<number | undefined> {
      for (let i = 0; i < 100 && this.exitStatus() === undefined; i++) await new Promise((r) => setTimeout(r, 100));
      return this.exitStatus();
    },
    close(): void {
      spawnSync('tmux', ['-S', socket, 'kill-server']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
