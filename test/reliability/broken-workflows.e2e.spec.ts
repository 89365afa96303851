import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AWF_MAIN, REPO_ROOT, scratchDir } from '../support/cli';

/**
 * Item 5 of the reliability issue: broken YAML and invalid workflows, the repository's own
 * validation fixtures included. Each must give a coded error that names the file (and the
 * step, where there is one) with exit 1 or 2, and never a stack trace.
 */
const FIXTURES = resolve(REPO_ROOT, 'test/fixtures/workflows');
/** Fixtures that are valid on purpose (a warning at most). */
const VALID_FIXTURES = new Set([
  'mcp-proxy-valid-enabled.yaml',
  'mcp-proxy-codex-warning.yaml',
  'mcp-proxy-disabled-empty.yaml',
  'mcp-proxy-empty-block.yaml',
  'mcp-proxy-on-command-step.yaml',
]);
/** Also run through `awf run`, not only `awf validate` (each CLI start costs seconds on a loaded machine). */
const ALSO_RUN = new Set([
  'alias-bomb',
  'deep-nesting',
  'nul-and-binary',
  'proto-state-name',
  'mcp-proxy-a-string',
  'a missing file',
  'fixture broken-structure.yaml',
]);
const STACK_TRACE = /\n\s+at .+[:(]\d+|node:internal|TypeError|RangeError|ReferenceError|SyntaxError: /;

const terminal = '  done:\n    type: terminal\n';
/** name → [file content, the step path the error must name, if any] */
const CORPUS: Record<string, [string | Buffer, string?]> = {
  'tab-indent': ['name: t\nstates:\n\tinitial: a\n'],
  'unclosed-quote': ['name: "t\nstates:\n  initial: a\n'],
  'unclosed-flow-map': ['name: t\nstates: {initial: a, a: {type: step\n'],
  'duplicate-key': ['name: t\nstates:\n  initial: a\nstates:\n  initial: b\n'],
  empty: [''],
  'only-a-comment': ['# nothing here\n'],
  'a-scalar': ['hello\n'],
  'a-list': ['- name: t\n- states: {}\n'],
  'two-documents': [`name: t\nstates:\n  initial: done\n${terminal}---\nname: u\n`],
  'nul-and-binary': [Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0x00, 0xff, 0xfe, 0x0a, 0x80, 0x81, 0x0a])],
  'alias-bomb': [
    [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...Array.from(
        { length: 9 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
    ].join('\n') + '\n',
  ],
  'deep-nesting': [`name: t\nstates: ${'['.repeat(20000)}${']'.repeat(20000)}\n`],
  'huge-garbage': [`name: t\nstates:\n  initial: a\n${'  x: [}{\n'.repeat(100_000)}`],
  'states-not-a-map': ['name: t\nstates: 5\n'],
  'no-states': ['name: t\n'],
  'no-initial': [`name: t\nstates:\n${terminal}`, 'states.initial'],
  'unknown-step-type': [
    `name: t\nstates:\n  initial: a\n  a:\n    type: teleport\n    on_success: done\n${terminal}`,
    'states.a',
  ],
  'proto-state-name': [
    `name: t\nstates:\n  initial: __proto__\n  __proto__:\n    type: step\n    command: "true"\n    on_success: constructor\n${terminal}`,
    'states.',
  ],
  'name-is-a-list': [`name: [a, b]\nstates:\n  initial: done\n${terminal}`],
  'inputs-not-a-list': [`name: t\ninputs: yes\nstates:\n  initial: done\n${terminal}`],
  'command-is-a-map': [
    `name: t\nstates:\n  initial: a\n  a:\n    type: step\n    command: {run: ls}\n    on_success: done\n${terminal}`,
    'states.a.command',
  ],
  'negative-timeout': [
    `name: t\nstates:\n  initial: a\n  a:\n    type: step\n    command: "true"\n    timeout: -5\n    on_success: done\n${terminal}`,
    'states.a.timeout',
  ],
  'transitions-not-a-list': [
    `name: t\nstates:\n  initial: a\n  a:\n    type: step\n    command: "true"\n    transitions: done\n${terminal}`,
    'states.a.transitions',
  ],
  'mcp-proxy-a-string': [
    `name: t\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: script\n    prompt: p\n    mcp_proxy: "yes"\n    on_success: done\n${terminal}`,
    'states.a.mcp_proxy',
  ],
  'plugin-tools-not-a-list': [
    `name: t\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: script\n    prompt: p\n    mcp_proxy: {enable: true, plugin_tools: git}\n    on_success: done\n${terminal}`,
    'states.a.mcp_proxy',
  ],
  'agent-without-prompt': [
    `name: t\nstates:\n  initial: a\n  a:\n    type: agent\n    provider: script\n    on_success: done\n${terminal}`,
    'states.a',
  ],
};

function awf(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [AWF_MAIN, ...args], { cwd, env: { ...process.env, AWF_LOG_LEVEL: 'warn' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // The 1 MB garbage file alone parses for ~11 s on a quiet machine and over 60 s at a load average of 20.
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('exit', (code) => (clearTimeout(timer), done({ code, stdout, stderr })));
  });
}

/** Runs `jobs` at most `limit` at a time: the machine is small and shared. */
async function pooled<T>(jobs: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}

interface Case {
  name: string;
  file: string;
  step?: string;
}

describe('broken YAML and invalid workflows', () => {
  const scratch = scratchDir();
  const cases: Case[] = [
    ...Object.entries(CORPUS).map(([name, [content, step]]) => {
      const file = join(scratch.dir, `${name}.yaml`);
      writeFileSync(file, content);
      return { name, file, step };
    }),
    ...readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.yaml') && !VALID_FIXTURES.has(f))
      .map((f) => ({
        name: `fixture ${f}`,
        file: join(FIXTURES, f),
        step: f === 'broken-structure.yaml' ? 'states.build.timeout' : undefined,
      })),
    { name: 'a missing file', file: join(scratch.dir, 'missing.yaml') },
    { name: 'a directory', file: scratch.dir },
  ];
  const results = new Map<
    string,
    { validate: Awaited<ReturnType<typeof awf>>; run?: Awaited<ReturnType<typeof awf>> }
  >();

  beforeAll(async () => {
    const outcomes = await pooled(
      cases.map((c) => async () => {
        const validate = await awf(['validate', c.file], scratch.dir);
        const run = ALSO_RUN.has(c.name) ? await awf(['run', c.file], scratch.dir) : undefined;
        return [c.name, { validate, run }] as const;
      }),
      3,
    );
    for (const [name, r] of outcomes) results.set(name, r);
  }, 600_000);
  afterAll(() => scratch.cleanup());

  it('has a corpus of at least 30 broken files', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: validate (and run) give a coded error naming the file, exit 1 or 2, no stack trace',
    (_name, c) => {
      const r = results.get(c.name)!;
      for (const [what, out] of [
        ['validate', r.validate],
        ['run', r.run],
      ] as const) {
        if (!out) continue;
        const context = `${what} ${c.name}:\n${out.stderr.slice(0, 1500)}`;
        expect({ context, exitIs1or2: out.code === 1 || out.code === 2 }).toEqual({ context, exitIs1or2: true });
        expect({ context, coded: /\[(WORKFLOW|USER)\.[A-Z_]+\.[A-Z_]+\]/.test(out.stderr) }).toEqual({
          context,
          coded: true,
        });
        expect({ context, namesFile: out.stderr.includes(c.file) }).toEqual({ context, namesFile: true });
        expect({ context, stack: STACK_TRACE.test(out.stderr) }).toEqual({ context, stack: false });
        if (c.step) expect({ context, namesStep: out.stderr.includes(c.step) }).toEqual({ context, namesStep: true });
        // Readable, not a flood: a garbage file must not print an error per token.
        expect({ context, lines: out.stderr.split('\n').length < 60 }).toEqual({ context, lines: true });
      }
    },
  );
});
