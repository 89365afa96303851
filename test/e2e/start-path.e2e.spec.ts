import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import 'reflect-metadata';
import { CommandMeta, SubCommandMeta } from 'nest-commander/src/constants';
import { allCommandClasses, COMMANDS } from '../../src/interfaces/cli/command-table';
import { runAwf, scratchDir } from '../support/cli';

/**
 * One start path, lazy by command (ADR 240): what each way of starting awf loads, read from the
 * plain tsc output (AWF_NO_BUNDLE=1), where every module is a file of its own. A preload writes
 * the files the process loaded when it exits.
 */
function loadedBy(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; files: string[]; stdout: string; stderr: string } {
  const p = scratchDir();
  const out = join(p.dir, 'loaded.txt');
  const preload = join(p.dir, 'loaded.js');
  writeFileSync(
    preload,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, Object.keys(require.cache).join('\\n')));`,
  );
  try {
    const r = runAwf(args, { env: { ...env, AWF_NO_BUNDLE: '1', NODE_OPTIONS: `--require ${preload}` } });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, files: readFileSync(out, 'utf8').split('\n') };
  } finally {
    p.cleanup();
  }
}

const nest = (files: string[]) => files.some((f) => f.includes('/node_modules/@nestjs/core/'));

describe('how awf starts', () => {
  it('awf --version loads neither Nest nor the CLI', () => {
    const r = loadedBy(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^awf version \d+\.\d+\.\d+\ncommit: .+\nbuilt: .+\n$/);
    expect(nest(r.files)).toBe(false);
    expect(r.files.filter((f) => f.includes('/dist/'))).toHaveLength(2); // main.js and version.js
  });

  it.each([[['--help']], [['help', 'run']], [['completion', 'bash']], [['rn']]])(
    'awf %j builds no container (no container module is made)',
    (args) => {
      const r = loadedBy(args);
      expect(r.files.some((f) => f.endsWith('/infrastructure/core/core.module.js'))).toBe(false);
      expect(r.status).toBe(args[0] === 'rn' ? 1 : 0);
    },
  );

  it('awf list loads no agent, plugin, proxy, upstream, telemetry or HTTP API code', () => {
    const r = loadedBy(['list']);
    expect(r.status).toBe(0);
    const modules = ['agents/agents', 'plugins/plugins', 'mcp-edge/proxy', 'upstreams/upstreams', 'tools/tools'];
    for (const name of modules)
      expect([name, r.files.some((f) => f.endsWith(`/dist/infrastructure/${name}.module.js`))]).toEqual([name, false]);
    expect(r.files.some((f) => f.includes('/node_modules/@opentelemetry/sdk-trace'))).toBe(false);
    expect(r.files.some((f) => f.includes('/node_modules/@modelcontextprotocol/'))).toBe(false);
    // Only `awf serve` loads the routes and their OpenAPI description.
    expect(r.files.some((f) => f.includes('/node_modules/@nestjs/swagger/'))).toBe(false);
    expect(r.files.some((f) => f.includes('/dist/interfaces/http/'))).toBe(false);
  });

  it('only awf tui loads React and the tui: not --help, list or run, nor tui refusing a missing terminal', () => {
    const tui = (files: string[]) => files.filter((f) => /\/node_modules\/react\/|\/dist\/interfaces\/tui\//.test(f));
    for (const args of [['--help'], ['list'], ['run', 'examples/loops.yaml', '--dry-run'], ['tui']]) {
      const r = loadedBy(args);
      expect([args, r.status, tui(r.files)]).toEqual([args, args[0] === 'tui' ? 1 : 0, []]);
    }
  });

  it('awf diagram loads its image libraries only when it writes an image', () => {
    // require.cache lists resvg (CommonJS), not Graphviz or pdfkit (ES modules): all three load in one place.
    const resvg = (files: string[]) => files.some((f) => f.includes('/node_modules/@resvg/resvg-js/'));
    const text = loadedBy(['diagram', 'examples/loops.yaml']);
    expect([text.status, resvg(text.files)]).toEqual([0, false]);
    const p = scratchDir();
    try {
      const image = loadedBy(['diagram', 'examples/loops.yaml', '-o', join(p.dir, 'loops.png')]);
      expect([image.status, resvg(image.files)]).toEqual([0, true]);
    } finally {
      p.cleanup();
    }
  });

  it('awf run loads BullMQ and ioredis only with --queue', () => {
    const queue = (files: string[]) => files.some((f) => /\/node_modules\/(bullmq|ioredis)\//.test(f));
    const local = loadedBy(['run', 'examples/shell-pipeline.yaml']);
    expect([local.status, queue(local.files)]).toEqual([0, false]);
    // With --queue they load, and the closed port is a SYSTEM error (exit 4).
    const queued = loadedBy(['run', 'examples/shell-pipeline.yaml', '--queue', 'redis://127.0.0.1:1'], {
      AWF_QUEUE_SECRET: 'a-secret-of-16-chars-at-least',
    });
    expect([queued.status, queue(queued.files)]).toEqual([4, true]);
    expect(queued.stderr).toContain('[SYSTEM.QUEUE.UNAVAILABLE] cannot reach the queue at redis://127.0.0.1:1');
  });
});

describe('the command table (the CLI composition root)', () => {
  it('lists every command under the names its @Command declares, and nothing else', () => {
    const declared = allCommandClasses()
      .map((c) => Reflect.getMetadata(CommandMeta, c) as { name: string; aliases?: string[] } | undefined)
      .filter((m): m is { name: string; aliases?: string[] } => m !== undefined && m.name !== 'completion')
      .map((m) => [m.name, ...(m.aliases ?? [])].join(' '))
      .sort();
    expect(COMMANDS.map((c) => c.names.join(' ')).sort()).toEqual(declared);
  });

  it('gives each command its sub-commands', () => {
    for (const entry of COMMANDS) {
      const classes = entry.commands();
      const meta = classes.map((c) => Reflect.getMetadata(CommandMeta, c) as { subCommands?: unknown[] } | undefined);
      const wanted = meta.flatMap((m) => m?.subCommands ?? []);
      for (const sub of wanted) expect(classes).toContain(sub);
      expect(classes.every((c) => Reflect.getMetadata(SubCommandMeta, c) === undefined || wanted.includes(c))).toBe(
        true,
      );
    }
  });
});
