import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  readdirSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  ftruncateSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callBuiltin, isRunning, snapshotTree, type CallOutcome } from '../support/builtin-e2e';
import { describeEach, launchPaths } from '../support/launch-paths';
import { connectMcpServe, type McpSession } from '../support/mcp-client';
import { itUnless } from '../support/skip';
import { pathWith, reportMissing, RIPGREP } from '../support/optional-tools';

// peers.md §5.4, items 1–14 and 17–24 (Linux): every attack goes through `awf mcp-serve`
// and the SDK client, and must be refused or capped with nothing outside the root read,
// created or changed.
const SENTINEL = 'SECRET-SENTINEL';
reportMissing('ripgrep', RIPGREP);
const JS_TIMEOUT_ADVICE =
  'narrow the path or simplify the pattern, or install ripgrep (rg), whose regex engine cannot backtrack';
const SIBLINGS = ['outside', 'proj2', 'proj-old', 'projectile', 'proj.bak'];

const base = realpathSync(mkdtempSync(join(tmpdir(), 'awf-attack-')));
const root = join(base, 'proj');
const outside = join(base, 'outside');

function buildLayout(): void {
  mkdirSync(join(root, 'sub'), { recursive: true });
  for (const sibling of SIBLINGS) {
    mkdirSync(join(base, sibling), { recursive: true });
    writeFileSync(join(base, sibling, 'secret.txt'), `${SENTINEL} of ${sibling}\n`);
  }
  writeFileSync(join(root, 'inside.txt'), 'inside content\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'file-link'));
  symlinkSync(outside, join(root, 'dir-link'));
  symlinkSync(join(outside, 'created-by-attack.txt'), join(root, 'dangling'));
  symlinkSync(join(root, 'chain-b'), join(root, 'chain-a'));
  symlinkSync(join(root, 'chain-c'), join(root, 'chain-b'));
  symlinkSync(outside, join(root, 'chain-c'));
  symlinkSync('/', join(root, 'slash-link'));
  symlinkSync('/dev/zero', join(root, 'zero-link'));
  symlinkSync(root, join(base, 'root-link'));
}

function refused(outcome: CallOutcome): void {
  expect(outcome.isError).toBe(true);
  expect(outcome.text).not.toContain(SENTINEL);
}

/** Every tool aimed at one hostile path: read it, overwrite it, edit it, walk it, grep it, run in it. */
function allTools(path: string): Array<[string, Record<string, unknown>]> {
  return [
    ['Read', { file_path: path }],
    ['Write', { file_path: path, content: 'PWNED' }],
    ['Write', { file_path: `${path}/pwned.txt`, content: 'PWNED' }],
    ['Edit', { file_path: path, old_string: SENTINEL, new_string: 'PWNED' }],
    ['Glob', { pattern: '**/*', path }],
    ['Grep', { pattern: SENTINEL, path, output_mode: 'content' }],
    ['Bash', { command: 'cat secret.txt; touch pwned', cwd: path }],
  ];
}

const HOSTILE_PATHS: Array<[string, string]> = [
  ['1 ../ escape', '../outside/secret.txt'],
  ['1 a/../../x', 'sub/../../outside/secret.txt'],
  ['1 ./../x', './../outside/secret.txt'],
  ['1 trailing /..', 'sub/../..'],
  ['1 absolute with ..', `${root}/../outside/secret.txt`],
  ['1 bare ..', '..'],
  ['2 sibling proj2', join(base, 'proj2', 'secret.txt')],
  ['2 sibling proj-old', join(base, 'proj-old', 'secret.txt')],
  ['2 sibling projectile', join(base, 'projectile', 'secret.txt')],
  ['2 sibling proj.bak', join(base, 'proj.bak', 'secret.txt')],
  ['2 sibling, relative', '../proj2'],
  ['3 absolute outside', '/etc/passwd'],
  ['3 absolute outside dir', outside],
  ['3 ~ expansion', '~/.bashrc'],
  ['3 ~user expansion', '~root/.bashrc'],
  ['3 empty path', ''],
  ['4 NUL byte', 'inside.txt\0/../../outside/secret.txt'],
  ['4 NUL byte at the end', `${outside}/secret.txt\0`],
  ['5 file symlink out', 'file-link'],
  ['6 dir symlink out', 'dir-link'],
  ['6 file under a dir symlink out', 'dir-link/secret.txt'],
  ['7 dangling symlink out', 'dangling'],
  ['8 missing parents under a dir symlink out', 'dir-link/new/dir/file.txt'],
  ['9 symlink chain, last hop out', 'chain-a/secret.txt'],
  ['12 symlink to /dev/zero', 'zero-link'],
  ['12 /dev/zero', '/dev/zero'],
  ['13 symlink to /', 'slash-link/etc'],
];

/** One hostile path per item: what the installed launch runs (the plain one runs all). */
const CORE_PATHS = HOSTILE_PATHS.filter(
  ([item], i) => HOSTILE_PATHS.findIndex(([other]) => other.split(' ')[0] === item.split(' ')[0]) === i,
);
const ONLY_ON_PLAIN =
  'on the plain launch only (the one awf run hands agents); the core of this suite runs on every launch';

beforeAll(() => {
  buildLayout();
  execFileSync('mkfifo', [join(root, 'fifo')]);
}, 60_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describeEach(launchPaths(), 'sandbox attacks through awf mcp-serve', (launch) => {
  const full = launch.name === 'plain' ? undefined : ONLY_ON_PLAIN;
  let session: McpSession;
  let jsSession: McpSession;
  let socket: Server;
  let before: Record<string, Record<string, string>>;
  const specials = ['fifo', 'sock'];
  const call = (name: string, args: Record<string, unknown>) => callBuiltin(session, name, args);
  const env = { AWF_SENTINEL_PLAIN: 'plain-sentinel-4242', DEPLOY_TOKEN: 'tok-sentinel-9876' };

  beforeAll(async () => {
    before = Object.fromEntries(SIBLINGS.map((s) => [s, snapshotTree(join(base, s))]));
    try {
      execFileSync('mknod', [join(root, 'zero-dev'), 'c', '1', '5'], { stdio: 'ignore' });
      specials.push('zero-dev');
    } catch {
      // creating a device needs CAP_MKNOD (or it exists from the previous launch);
      // FIFO and socket still cover the check
      if (existsSync(join(root, 'zero-dev'))) specials.push('zero-dev');
    }
    socket = createServer().listen(join(root, 'sock'));
    const limits = { read_max_bytes: 1_000_000, grep_max_results: 50 };
    // `session` is ripgrep's when one can be had (test/support/optional-tools.ts), `jsSession` the JS walker's.
    session = await connectMcpServe(
      base,
      { root_dir: root, limits },
      { env: { ...env, ...(RIPGREP ? { PATH: pathWith(RIPGREP) } : {}) }, launch },
    );
    jsSession = await connectMcpServe(
      base,
      { root_dir: root, limits },
      { env: { ...env, AWF_GREP_ENGINE: 'js' }, launch },
    );
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    await jsSession?.close();
    await new Promise((r) => (socket ? socket.close(r) : r(undefined)));
  });

  describe.each(full ? CORE_PATHS : HOSTILE_PATHS)('item %s: %j', (_item, path) => {
    it.each(allTools(path))('%s refuses it', async (tool, args) => {
      refused(await call(tool, args));
    });
  });

  it('item 3: "." is the root itself, never a file to read or overwrite', async () => {
    expect((await call('Read', { file_path: '.' })).text).toMatch(/is a directory/);
    expect((await call('Write', { file_path: '.', content: 'x' })).text).toMatch(/is a directory/);
  });

  it('items 7 and 8: writes through links created nothing outside', () => {
    expect(existsSync(join(outside, 'created-by-attack.txt'))).toBe(false);
    expect(existsSync(join(outside, 'new'))).toBe(false);
    expect(existsSync(join(outside, 'pwned.txt'))).toBe(false);
  });

  it('item 10: a validated file later replaced by a symlink out is refused on the next write', async () => {
    const validated = `validated-${launch.name}.txt`;
    expect((await call('Write', { file_path: validated, content: 'v1' })).isError).toBe(false);
    unlinkSync(join(root, validated));
    symlinkSync(join(outside, 'secret.txt'), join(root, validated));
    refused(await call('Write', { file_path: validated, content: 'PWNED' }));
    refused(await call('Edit', { file_path: validated, old_string: SENTINEL, new_string: 'PWNED' }));
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SENTINEL} of outside\n`);
  });

  it('item 11: a symlinked root accepts both spellings and still refuses escapes', async () => {
    const linked = await connectMcpServe(base, { root_dir: join(base, 'root-link') }, { launch });
    try {
      expect((await callBuiltin(linked, 'Read', { file_path: join(base, 'root-link', 'inside.txt') })).text).toBe(
        '     1\tinside content',
      );
      expect((await callBuiltin(linked, 'Read', { file_path: join(root, 'inside.txt') })).text).toBe(
        '     1\tinside content',
      );
      refused(await callBuiltin(linked, 'Read', { file_path: join(base, 'root-link', '..', 'outside', 'secret.txt') }));
      expect((await callBuiltin(linked, 'Bash', { command: 'pwd' })).text).toBe(`${root}\n`);
    } finally {
      await linked.close();
    }
  }, 60_000);

  it('item 12: FIFOs, sockets and devices inside the root are refused without hanging', async () => {
    for (const special of specials) {
      expect((await call('Read', { file_path: special })).text).toMatch(/not a regular file/);
      expect((await call('Edit', { file_path: special, old_string: 'a', new_string: 'b' })).text).toMatch(
        /not a regular file/,
      );
      expect((await call('Write', { file_path: special, content: 'x' })).text).toMatch(/not a regular file/);
      expect((await call('Grep', { pattern: 'x', path: special })).text).toMatch(/not a regular file/);
    }
    expect((await call('Grep', { pattern: 'inside' })).text).toBe(`Found 1 file\n${join(root, 'inside.txt')}`);
    expect((await callBuiltin(jsSession, 'Grep', { pattern: 'inside' })).text).toBe(
      `Found 1 file\n${join(root, 'inside.txt')}`,
    );
  });

  it('item 12: a huge sparse file is capped, not read whole', async () => {
    const fd = openSync(join(root, 'sparse.log'), 'w');
    ftruncateSync(fd, 20 * 1024 * 1024 * 1024);
    closeSync(fd);
    try {
      expect((await call('Read', { file_path: 'sparse.log' })).text).toMatch(/binary file/);
      expect((await call('Edit', { file_path: 'sparse.log', old_string: 'a', new_string: 'b' })).text).toMatch(
        /above the 1000000-byte read limit/,
      );
      for (const s of [session, jsSession]) {
        expect((await callBuiltin(s, 'Grep', { pattern: 'x', path: 'sparse.log' })).text).toMatch(
          /above the 67108864-byte limit for one file/,
        );
        expect((await callBuiltin(s, 'Grep', { pattern: 'inside' })).text).toBe(
          `Found 1 file\n${join(root, 'inside.txt')}`,
        );
      }
    } finally {
      unlinkSync(join(root, 'sparse.log'));
    }
  });

  it('item 13: Glob refuses absolute and ".." patterns', async () => {
    for (const pattern of ['/etc/*', '/**/*', '../*', '../outside/**', 'sub/../../*', '{..,sub}/*', '~/*'])
      refused(await call('Glob', { pattern }));
  });

  it('item 13: Glob and Grep never walk a directory symlink out of the root, even one to /', async () => {
    for (const s of [session, jsSession]) {
      const glob = await callBuiltin(s, 'Glob', { pattern: '**/*' });
      for (const line of glob.text.split('\n')) expect(line.startsWith(`${root}/`)).toBe(true);
      expect(glob.text).not.toContain('passwd');
      const grep = await callBuiltin(s, 'Grep', { pattern: `root:|${SENTINEL}`, output_mode: 'content' });
      expect(grep.text).toBe('No matches found');
    }
  });

  it('item 14: a catastrophically backtracking regex is stopped by the timeout and the server keeps serving', async () => {
    writeFileSync(join(root, 'redos.txt'), `${'a'.repeat(40)}!\n`);
    const bounded = await connectMcpServe(
      base,
      { root_dir: root },
      { env: { AWF_GREP_ENGINE: 'js', AWF_GREP_TIMEOUT_MS: '3000' }, launch },
    );
    try {
      const started = Date.now();
      const slow = await callBuiltin(bounded, 'Grep', { pattern: '^(a+)+$', path: 'redos.txt' });
      expect(slow).toEqual({
        isError: true,
        text: `Grep: the search took longer than 3000 ms and was stopped; ${JS_TIMEOUT_ADVICE}`,
      });
      expect(Date.now() - started).toBeLessThan(30_000);
      expect((await callBuiltin(bounded, 'Grep', { pattern: 'inside', path: 'inside.txt' })).isError).toBe(false);
      // The default engine with the default limit: ripgrep's regex cannot backtrack; without it
      // the JS walker is stopped well before the client's own 60 s request timeout.
      if (!full) {
        const byDefault = await call('Grep', { pattern: '^(a+)+$', path: 'redos.txt' });
        if (RIPGREP) expect(byDefault).toEqual({ isError: false, text: 'No matches found' });
        else
          expect(byDefault).toEqual({
            isError: true,
            text: `Grep: the search took longer than 20000 ms and was stopped; ${JS_TIMEOUT_ADVICE}`,
          });
      }
    } finally {
      await bounded.close();
      unlinkSync(join(root, 'redos.txt'));
    }
  }, 90_000);

  it('item 14: binary files are skipped, a 10 MB line is cut, and the result cap holds', async () => {
    writeFileSync(join(root, 'blob.bin'), Buffer.from('needle\0binary\n'));
    writeFileSync(join(root, 'one-line.txt'), `needle ${'x'.repeat(10 * 1024 * 1024)}`);
    writeFileSync(join(root, 'many.txt'), 'needle\n'.repeat(200));
    try {
      for (const s of [session, jsSession]) {
        const files = await callBuiltin(s, 'Grep', { pattern: 'needle' });
        expect(files.text).toBe(`Found 2 files\n${join(root, 'many.txt')}\n${join(root, 'one-line.txt')}`);
        const line = await callBuiltin(s, 'Grep', { pattern: 'needle', path: 'one-line.txt', output_mode: 'content' });
        expect(line.text).toMatch(/:1:needle x+… \[line truncated: \d+ more characters\]$/);
        expect(line.text.length).toBeLessThan(3000);
        const many = await callBuiltin(s, 'Grep', { pattern: 'needle', path: 'many.txt', output_mode: 'content' });
        expect(many.text.split('\n')).toHaveLength(51);
        expect(many.text).toMatch(/\[Results truncated: showing 50 lines/);
      }
    } finally {
      for (const f of ['blob.bin', 'one-line.txt', 'many.txt']) unlinkSync(join(root, f));
    }
  }, 90_000);

  it('items 17–19: Edit refuses 0 and 2+ matches and files over the read cap, leaving them unchanged; CRLF survives', async () => {
    writeFileSync(join(root, 'edit.txt'), 'foo bar foo\r\nbaz\r\n');
    expect((await call('Edit', { file_path: 'edit.txt', old_string: 'absent', new_string: 'x' })).text).toMatch(
      /not found/,
    );
    expect((await call('Edit', { file_path: 'edit.txt', old_string: 'foo', new_string: 'x' })).text).toMatch(
      /matches 2 times/,
    );
    expect(readFileSync(join(root, 'edit.txt'), 'utf8')).toBe('foo bar foo\r\nbaz\r\n');
    expect(
      (await call('Edit', { file_path: 'edit.txt', old_string: 'foo', new_string: 'qux', replace_all: true })).isError,
    ).toBe(false);
    expect(
      (await call('Edit', { file_path: 'edit.txt', old_string: 'qux\nbaz', new_string: 'qux\nBAZ' })).isError,
    ).toBe(false);
    expect(readFileSync(join(root, 'edit.txt'), 'utf8')).toBe('qux bar qux\r\nBAZ\r\n');
    const big = `${'y'.repeat(600_000)}\n${'y'.repeat(600_000)}\n`;
    writeFileSync(join(root, 'big.txt'), big);
    expect(
      (await call('Edit', { file_path: 'big.txt', old_string: 'y', new_string: 'z', replace_all: true })).text,
    ).toMatch(/read limit; refusing/);
    expect(readFileSync(join(root, 'big.txt'), 'utf8')).toBe(big);
  });

  it('item 20: a timeout kills the whole process group, grandchildren included, within budget', async () => {
    const started = Date.now();
    // /proc is the host's procfs: /proc/self is the host pid, also inside Bash's PID namespace.
    const result = await call('Bash', {
      command: `sh -c "sh -c 'readlink /proc/self > gc.pid; exec sleep 600' & wait"`,
      timeout: 1500,
    });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Command timed out after 1500 ms; its process group was killed/);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(isRunning(Number(readFileSync(join(root, 'gc.pid'), 'utf8')))).toBe(false);
  });

  itUnless(
    full,
    'item 21: an output flood is cut in the middle and memory stays bounded',
    async () => {
      const result = await call('Bash', { command: 'yes | head -c 100000000' });
      expect(result.isError).toBe(false);
      expect(result.text).toContain('[99970000 characters cut from the middle of the output]');
      expect(result.text.length).toBeLessThan(30_200);
      const status = readFileSync(`/proc/${session.transport.pid}/status`, 'utf8');
      const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
      expect(peakKb).toBeLessThan(400 * 1024);
    },
    90_000,
  );

  it('item 21: background processes do not outlive the call', async () => {
    const result = await call('Bash', {
      command:
        "sh -c 'readlink /proc/self > bg.pid; exec sleep 600' & while [ ! -s bg.pid ]; do sleep 0.05; done; echo started",
    });
    expect(result.text).toBe('started\n');
    await new Promise((r) => setTimeout(r, 200));
    expect(isRunning(Number(readFileSync(join(root, 'bg.pid'), 'utf8')))).toBe(false);
  });

  it('issue 21 hole 4: setsid, double-forked and daemonised children do not outlive the call, and the timeout answers on time', async () => {
    const marker = (n: number): string => `${600 + n}.${process.pid}`;
    const alive = (n: number): boolean =>
      readdirSync('/proc').some((pid) => {
        try {
          return (
            /^\d+$/.test(pid) &&
            readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`sleep\0${marker(n)}`) &&
            isRunning(Number(pid))
          );
        } catch {
          return false;
        }
      });
    const detached = `setsid sleep ${marker(1)} & (setsid sh -c 'sleep ${marker(2)} &' &); nohup sleep ${marker(3)} >/dev/null 2>&1 & echo spawned`;
    expect(await call('Bash', { command: detached })).toEqual({ isError: false, text: 'spawned\n' });
    await new Promise((r) => setTimeout(r, 300));
    for (const n of [1, 2, 3]) expect(alive(n)).toBe(false);
    // A setsid grandchild holding stdout open: the timeout still answers, and it is gone too.
    const started = Date.now();
    const timed = await call('Bash', { command: `setsid sleep ${marker(4)} & sleep 30`, timeout: 1500 });
    expect(timed.text).toMatch(/^Command timed out after 1500 ms/);
    expect(Date.now() - started).toBeLessThan(20_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(4)).toBe(false);
  });

  it('issue 21 hole 7: log lines carry the shape of a failed call, never its argument values', async () => {
    const missing = await call('Read', { file_path: 'ARGSENT-missing-3.txt' });
    expect(missing.text).toBe('ARGSENT-missing-3.txt does not exist');
    await call('Grep', { pattern: 'ARGSENT-(', path: 'ARGSENT-dir' });
    await new Promise((r) => setTimeout(r, 300));
    const lines = session
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"tool call"') || l.includes('tool call'));
    expect(lines.some((l) => l.includes('<file_path> does not exist'))).toBe(true);
    expect(session.stderr()).not.toContain('ARGSENT');
  });

  it('item 22: reading stdin does not hang', async () => {
    expect(await call('Bash', { command: 'cat; echo after-stdin' })).toEqual({ isError: false, text: 'after-stdin\n' });
  });

  it('item 23: the parent environment is scrubbed and secret values are masked', async () => {
    const env = await call('Bash', { command: 'env' });
    expect(env.text).not.toContain('plain-sentinel-4242');
    expect(env.text).not.toContain('tok-sentinel-9876');
    expect(env.text).not.toContain('AWF_SENTINEL_PLAIN');
    expect(await call('Bash', { command: 'echo "token=tok-sentinel-9876"' })).toEqual({
      isError: false,
      text: 'token=***\n',
    });
  });

  it('item 24: Bash starts in the root and refuses a cwd outside it', async () => {
    expect((await call('Bash', { command: 'pwd' })).text).toBe(`${root}\n`);
    for (const cwd of ['/', '..', outside, 'dir-link', '/tmp']) refused(await call('Bash', { command: 'pwd', cwd }));
  });

  it('left every directory outside the root exactly as it was', () => {
    for (const sibling of SIBLINGS) expect(snapshotTree(join(base, sibling))).toEqual(before[sibling]);
  });
});
