import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The layer table (scripts/layers/layer-table.cjs) holds on src/, and the check itself works: a
 * scratch tree with one violation per rule, in every import form, must make every rule fire.
 */
const ROOT = resolve(__dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');
const table = require(join(ROOT, 'scripts/layers/layer-table.cjs')) as LayerTable;

interface LayerTable {
  AREAS: Record<string, { may: string[] | '*'; packages?: boolean; builtins?: boolean | 'pure' }>;
  PACKAGES: Record<string, string[]>;
  layerRules(src: string): Array<{ name: string }>;
}

interface Violation {
  rule: { name: string; severity: string };
  from: string;
  to: string;
}

function cruise(args: string[]): Violation[] {
  let out: string;
  try {
    out = execFileSync(DEPCRUISE, [...args, '--output-type', 'json'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
  } catch (err) {
    out = (err as { stdout: string }).stdout; // exits non-zero when it finds violations
  }
  // Known violations (.dependency-cruiser-known-violations.json, with --ignore-known) come back as 'ignore'.
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations.filter(
    (v) => v.rule.severity !== 'ignore',
  );
}

describe('layer rules', () => {
  it('hold on src/ (npm run check:layers)', () => {
    const found = cruise(['src', '--config', '.dependency-cruiser.cjs', '--ignore-known']);
    expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 120_000);

  describe('on a tree with one violation per rule', () => {
    const scratch = `.awf-test-layers-${process.pid}`;
    const src = `${scratch}/src`;
    const files = new Map<string, string>();
    const add = (path: string, text: string): void => void files.set(path, `${files.get(path) ?? ''}${text}\n`);
    /** Rotates through the import forms, so each rule is proven on more than one of them. */
    const FORMS = [
      (spec: string) => `import '${spec}';`,
      (spec: string) => `const x = require('${spec}');`,
      (spec: string) => `export const y = import('${spec}');`,
      (spec: string) => `import type { T } from '${spec}';`,
      (spec: string) => `export { T } from '${spec}';`,
    ];
    const expected: Array<{ rule: string; from: string }> = [];
    let n = 0;
    const violate = (rule: string, area: string, spec: (file: string) => string): void => {
      const file = area.endsWith('.ts') ? `${src}/${area}` : `${src}/${area}/bad-${n}.ts`;
      const form = FORMS[n++ % FORMS.length];
      add(file, form(spec(file)));
      expected.push({ rule, from: file });
    };
    const relativeTo = (file: string, target: string): string => {
      const up = dirname(file).split('/').length - src.split('/').length;
      return `${up === 0 ? './' : '../'.repeat(up)}${target}`;
    };
    let found: Violation[] = [];

    beforeAll(() => {
      add(`${src}/interfaces/cli/target.ts`, 'export type T = 1;');
      add(`${src}/domain/target.ts`, 'export type T = 1;');
      for (const [area, spec] of Object.entries(table.AREAS)) {
        if (spec.may !== '*') violate(`layer:${area}`, area, (f) => relativeTo(f, 'interfaces/cli/target'));
        if (spec.packages === false) violate(`packages:${area}`, area, () => 'yaml');
        if (spec.builtins === false) violate(`builtins:${area}`, area, () => 'node:path');
        if (spec.builtins === 'pure') violate(`builtins:${area}`, area, () => 'node:fs');
      }
      const concrete: Record<string, string> = {
        '@modelcontextprotocol/client': '@modelcontextprotocol/client',
        '@modelcontextprotocol/server': '@modelcontextprotocol/server',
        '@modelcontextprotocol/node': '@modelcontextprotocol/node',
        '@agentclientprotocol/sdk': '@agentclientprotocol/sdk',
        '@opentelemetry/(?!api(/|$))[^/]+': '@opentelemetry/sdk-trace-base',
        'nestjs-otel': 'nestjs-otel',
        '@grpc/[^/]+': '@grpc/grpc-js',
        'better-sqlite3': 'better-sqlite3',
        '(?:tar|semver)': 'tar',
        '(?:bullmq|ioredis)': 'bullmq',
        '(?:@hpcc-js/wasm-graphviz|@resvg/resvg-js|pdfkit|svg-to-pdfkit)': 'pdfkit',
        '@nestjs/platform-express': '@nestjs/platform-express',
        '@nestjs/swagger': '@nestjs/swagger',
        '(?:ink|react|ink-testing-library)': 'react',
        'nest-commander': 'nest-commander',
        '@nestjs/[^/]+': '@nestjs/common',
      };
      for (const [pkg, areas] of Object.entries(table.PACKAGES)) {
        expect(concrete[pkg]).toBeDefined(); // a package rule added to the table needs a case here
        const outsider = ['infrastructure/tools', 'sdk'].find((a) => !areas.includes(a)) as string;
        violate(`package:${pkg.replace(/[^a-z0-9@/-]/gi, '')}`, outsider, () => concrete[pkg]);
      }
      violate('layer:unknown-area', 'infrastructure/not-in-the-table', (f) => relativeTo(f, 'domain/target'));
      add(`${src}/domain/cycle-a.ts`, "import type { B } from './cycle-b';\nexport type A = B;");
      add(`${src}/domain/cycle-b.ts`, "import type { A } from './cycle-a';\nexport type B = A | 1;");
      expected.push({ rule: 'no-cycles', from: `${src}/domain/cycle-a.ts` });
      for (const [path, text] of files) {
        mkdirSync(join(ROOT, dirname(path)), { recursive: true });
        writeFileSync(join(ROOT, path), text);
      }
      const config = `${scratch}/cruise.cjs`;
      writeFileSync(
        join(ROOT, config),
        `const { layerRules } = require('../scripts/layers/layer-table.cjs');
module.exports = { forbidden: layerRules('${src}'), options: { tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' } } };
`,
      );
      found = cruise([src, '--config', config]);
    }, 120_000);

    afterAll(() => rmSync(join(ROOT, scratch), { recursive: true, force: true }));

    it('makes every rule of the table fire', () => {
      const rules = new Set(table.layerRules(src).map((r) => r.name));
      expect(new Set(expected.map((e) => e.rule))).toEqual(rules);
      const missed = expected.filter((e) => !found.some((v) => v.rule.name === e.rule && v.from === e.from));
      expect(missed).toEqual([]);
    });

    it('flags nothing that is allowed', () => {
      const flagged = found.filter((v) => !expected.some((e) => e.rule === v.rule.name && e.from === v.from));
      expect(flagged.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    });
  });
});
