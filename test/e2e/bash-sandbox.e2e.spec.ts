import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { callBuiltin, isRunning, snapshotTree, type CallOutcome } from '../support/builtin-e2e';
import { AWF_MAIN } from '../support/cli';
import { describeEach, PLAIN } from '../support/launch-paths';
import { connectMcpServe, type McpSession } from '../support/mcp-client';
import { BUBBLEWRAP, reportMissing } from '../support/optional-tools';
import { findExecutable } from '../../src/infrastructure/tools/executable.lookup';
import { awf, policedWorkflow, workflowProject } from './workflow-support';

/**
 * Issue 21 item 5: `limits.bash_sandbox` runs every Bash call under bubblewrap. The "present"
 * cases use the bwrap the pinned codex package ships (AWF_BWRAP), never a system install; the
 * "absent" cases hide every bwrap and expect the coded refusal, never an unconfined shell.
 */
reportMissing('bubblewrap', BUBBLEWRAP);
const SECRET = 'bwrap-sentinel-5150';
const NO_BWRAP_PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => dir && !findExecutable('bwrap', dir))
  .join(delimiter);
const presentSkip = BUBBLEWRAP
  ? undefined
  : 'no bubblewrap: none on PATH and the pinned codex package is not installed (npm run test:agents installs it)';

function processWith(marker: string): number | undefined {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`sleep\0${marker}`) && isRunning(Number(pid)))
        return Number(pid);
    } catch {
      // raced with an exit
    }
  }
  return undefined;
}

describeEach(
  [PLAIN].map((launch) => ({ name: launch.name, launch, skip: presentSkip })),
  'Bash under bubblewrap (limits.bash_sandbox)',
  ({ launch }) => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'awf-bwrap-')));
    const root = join(base, 'proj');
    const outside = join(base, 'outside');
    const home = join(base, 'home');
    let session: McpSession;
    let before: Record<string, string>;
    const call = (args: Record<string, unknown>): Promise<CallOutcome> => callBuiltin(session, 'Bash', args);
    const start = (limits: Record<string, unknown>): Promise<McpSession> =>
      connectMcpServe(
        root,
        { root_dir: root, limits: { bash_sandbox: true, ...limits } },
        {
          launch,
          env: { AWF_BWRAP: BUBBLEWRAP!, HOME: home, AWS_SECRET_ACCESS_KEY: SECRET, GITHUB_TOKEN: SECRET },
        },
      );

    beforeAll(async () => {
      for (const dir of [root, outside, home]) mkdirSync(dir, { recursive: true });
      writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
      writeFileSync(join(home, '.netrc'), `machine example password ${SECRET}\n`);
      before = snapshotTree(outside);
      session = await start({});
    }, 60_000);
    afterAll(async () => {
      await session?.close();
      rmSync(base, { recursive: true, force: true });
    });

    it('lets the command write in the root and nowhere else: the system is read-only, the rest of /tmp is not there', async () => {
      expect(await call({ command: 'echo made > made.txt && cat made.txt' })).toEqual({
        isError: false,
        text: 'made\n',
      });
      expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('made\n');
      const etc = await call({ command: 'touch /etc/awf-bwrap-probe' });
      expect(etc.isError).toBe(true);
      expect(etc.text).toContain('Read-only file system');
      expect(existsSync('/etc/awf-bwrap-probe')).toBe(false);
      const out = await call({ command: `cat ${outside}/secret.txt; touch ${outside}/x` });
      expect(out.isError).toBe(true);
      expect(out.text).not.toContain(SECRET);
      // Root in the sandbox has no capabilities: it cannot make the system writable again.
      expect((await call({ command: 'mount -o remount,rw / && echo remounted' })).text).not.toContain('remounted');
      expect(snapshotTree(outside)).toEqual(before);
    });

    it('shows no home files: $HOME, /root and /home are empty', async () => {
      expect(await call({ command: 'find "$HOME" /root /home -mindepth 1 | wc -l' })).toEqual({
        isError: false,
        text: '0\n',
      });
      const secret = await call({ command: 'cat "$HOME/.netrc"' });
      expect(secret.isError).toBe(true);
      expect(secret.text).not.toContain(SECRET);
    });

    it('shows nothing of awf in /proc: /proc/$PPID/environ holds only the allowlisted environment', async () => {
      const seen = await call({
        command: 'base64 -w0 /proc/$PPID/environ; echo; cat /proc/[0-9]*/environ | base64 -w0',
      });
      expect(seen.isError).toBe(false);
      const decoded = seen.text
        .split('\n')
        .map((b) => Buffer.from(b, 'base64').toString('utf8'))
        .join('\n');
      expect(decoded).toContain('PATH=');
      expect(decoded).not.toContain(SECRET);
      expect(decoded).not.toContain('AWS_SECRET_ACCESS_KEY');
      // Its own PID namespace: bwrap's reaper, the shell and what it runs, never mcp-serve.
      const pids = (await call({ command: 'ls /proc | grep -c "^[0-9]"' })).text;
      expect(Number(pids)).toBeLessThan(6);
    });

    it('has no network unless allowed', async () => {
      let connections = 0;
      const server: Server = createServer((s) => (connections++, s.destroy()));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as { port: number }).port;
      const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;
      try {
        const denied = await call({ command: probe });
        expect(denied.isError).toBe(true);
        expect(denied.text).not.toContain('connected');
        const open = await start({ bash_sandbox_network: true });
        try {
          expect(await callBuiltin(open, 'Bash', { command: probe })).toEqual({ isError: false, text: 'connected\n' });
        } finally {
          await open.close();
        }
        expect(connections).toBe(1);
      } finally {
        server.close();
      }
    });

    it('leaves nothing behind: setsid children end with the call, and the timeout answers on time', async () => {
      const marker = `${700 + Math.floor(Math.random() * 99)}.${process.pid}`;
      expect(await call({ command: `setsid sleep ${marker} & echo spawned` })).toEqual({
        isError: false,
        text: 'spawned\n',
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(processWith(marker)).toBeUndefined();
      const started = Date.now();
      const timed = await call({ command: `setsid sleep ${marker}1 & sleep 30`, timeout: 1500 });
      expect(timed.text).toMatch(/^Command timed out after 1500 ms/);
      expect(Date.now() - started).toBeLessThan(20_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(processWith(`${marker}1`)).toBeUndefined();
    });

    it('dies with its parent: SIGKILL of mcp-serve ends the sandboxed command', async () => {
      const doomed = await start({});
      const marker = `${800 + Math.floor(Math.random() * 99)}.${process.pid}`;
      void callBuiltin(doomed, 'Bash', { command: `sleep ${marker}`, timeout: 600_000 }).catch(() => undefined);
      const deadline = Date.now() + 20_000;
      while (!processWith(marker) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(processWith(marker)).toBeDefined();
      process.kill(doomed.transport.pid!, 'SIGKILL');
      const gone = Date.now() + 10_000;
      while (processWith(marker) && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
      expect(processWith(marker)).toBeUndefined();
      await doomed.close().catch(() => undefined);
    });
  },
);

describe('Bash sandbox asked for where bubblewrap is missing or cannot run', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'awf-nobwrap-')));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const serve = (env: Record<string, string>, extra: Record<string, unknown> = { limits: { bash_sandbox: true } }) => {
    const config = join(dir, `c-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(
      config,
      JSON.stringify({ version: 1, intercept_builtins: true, plugin_tools: [], root_dir: dir, ...extra }),
    );
    const { AWF_BWRAP: _unset, ...inherited } = process.env;
    return spawnSync(process.execPath, [AWF_MAIN, 'mcp-serve', `--config=${config}`], {
      env: { ...inherited, PATH: NO_BWRAP_PATH, ...env },
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
    });
  };

  it('mcp-serve refuses to start with a coded error that says how to install it (no silent fallback)', () => {
    const r = serve({});
    expect(r.status).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('[SYSTEM.BASH.SANDBOX_UNAVAILABLE]');
    expect(r.stderr).toContain('bubblewrap (bwrap) is not on PATH and AWF_BWRAP is not set');
    expect(r.stderr).toContain('apt-get install bubblewrap');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('the policy key bash_sandbox asks for it as well', () => {
    const layers = [{ origin: 'step work', bash_sandbox: { network: true } }];
    const r = serve({}, { policy: { layers } });
    expect(r.status).toBe(4);
    expect(r.stderr).toContain('[SYSTEM.BASH.SANDBOX_UNAVAILABLE]');
  });

  it('names an AWF_BWRAP that does not exist, and a bwrap that cannot make a sandbox', () => {
    expect(serve({ AWF_BWRAP: join(dir, 'no-such-bwrap') }).stderr).toContain(
      `AWF_BWRAP names ${join(dir, 'no-such-bwrap')}, which does not exist`,
    );
    const broken = join(dir, 'bin');
    mkdirSync(broken, { recursive: true });
    writeFileSync(
      join(broken, 'bwrap'),
      '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
      {
        mode: 0o755,
      },
    );
    const r = serve({ PATH: `${broken}${delimiter}${NO_BWRAP_PATH}` });
    expect(r.status).toBe(4);
    expect(r.stderr).toContain(
      `${join(broken, 'bwrap')} cannot make a sandbox here: bwrap: No permissions to create new namespace`,
    );
  });
});

/** A script-agent step whose policy turns the sandbox on: what a workflow author writes. */
const SANDBOXED_STEP = policedWorkflow(
  'bash_sandbox: true',
  `- tool: Bash
  args: {command: "touch /etc/awf-bwrap-run || echo refused; ls /proc | grep -c '^[0-9]'"}
  expect: refused`,
);

describe('awf run with the policy key bash_sandbox', () => {
  it('fails the step before the agent starts when bubblewrap is missing, with the code and how to install it', () => {
    const p = workflowProject({ 'wf.yaml': SANDBOXED_STEP });
    try {
      const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: { ...p.env, PATH: NO_BWRAP_PATH, AWF_BWRAP: '' } });
      expect(r.status).toBe(4);
      expect(r.stderr).toContain('[SYSTEM.BASH.SANDBOX_UNAVAILABLE]');
      expect(r.stderr).toContain('apt-get install bubblewrap');
      expect(p.leftovers()).toEqual([]);
    } finally {
      p.cleanup();
    }
  });

  (presentSkip ? it.skip : it)(
    `runs the step's Bash under bubblewrap when it is there${presentSkip ? ` — SKIPPED: ${presentSkip}` : ''}`,
    () => {
      const p = workflowProject({ 'wf.yaml': SANDBOXED_STEP });
      try {
        const r = awf(['run', 'wf.yaml'], { cwd: p.dir, env: { ...p.env, AWF_BWRAP: BUBBLEWRAP! } });
        expect(r.stderr).not.toMatch(/script call \d+ expected/);
        expect(r.status).toBe(0);
        expect(existsSync('/etc/awf-bwrap-run')).toBe(false);
      } finally {
        p.cleanup();
      }
    },
  );
});
