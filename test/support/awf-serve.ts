import { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { spawnAwf } from './cli';

export interface Served {
  url: string;
  child: ChildProcess;
  out: () => string;
  exit: Promise<number | null>;
}

/** `awf serve --port 0 …` as a user starts it; resolves once it printed where it listens. */
export async function serve(
  project: { dir: string; env: Record<string, string> },
  args: string[] = [],
  env = {},
): Promise<Served> {
  const child = spawnAwf(['serve', '--port', '0', ...args], { cwd: project.dir, env: { ...project.env, ...env } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  for (const until = Date.now() + 60_000; !/listening on (\S+)/.test(out);) {
    if (Date.now() > until || child.exitCode !== null) throw new Error(`awf serve did not start:\n${out}\n${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: /listening on (\S+)/.exec(out)![1], child, out: () => out, exit };
}
