import { spawn } from 'node:child_process';
import { AWF_MAIN } from './cli';

/**
 * awf on a real pseudo-terminal (util-linux `script`), driven as a user would: wait for a
 * prompt, type a line. What the terminal shows (stdout and stderr, with the echo of what was
 * typed) is `screen()`.
 */
export function ttySession(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const line = [process.execPath, AWF_MAIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', line, '/dev/null'], {
    cwd: options.cwd,
    env: { ...process.env, AWF_LOG_LEVEL: 'warn', TERM: 'dumb', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let seen = 0;
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (c: Buffer) => {
    screen += c.toString('utf8');
    waiters.splice(0).forEach((w) => w());
  });
  const exited = new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? -1)));
  return {
    screen: () => screen,
    /** Resolves once `text` appears after what earlier waits consumed; rejects after `ms`. */
    waitFor(text: string, ms = 90_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${JSON.stringify(text)}:\n${screen}`)),
          ms,
        );
        const check = (): void => {
          const at = screen.indexOf(text, seen);
          if (at >= 0) {
            seen = at + text.length;
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
    type(text: string): void {
      child.stdin.write(`${text}\r`);
    },
    async done(ms = 90_000): Promise<number> {
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
