import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The fenced code blocks of the project's Markdown, each with what its author said about it.
 * A block is run by the language of its fence (test/support/doc-example-runners.ts); an HTML
 * comment on the lines just before it (blank lines allowed) says more, or why it is not run:
 *
 *   <!-- doc-test: skip: sample output of the command above -->
 *   <!-- doc-test: cwd: examples/sample-project; input: dir=. ; env: AWF_PLUGINS_PATH=examples/plugins -->
 *
 * Directives, separated by `;`: `skip: <reason>` (not run; the reason is required; it goes last),
 * `no-run: <reason>` (a workflow validated but not run), `known-defect: <issue and symptom>`
 * (run, and expected to fail until the defect is fixed: then the test fails and the marker must
 * go), `cwd: <dir>` (relative to the
 * document's scratch project), `file: <path>` (the block is also written there),
 * `env: K=V ...`, `input: name=value ...` (inputs of a workflow run). Unknown ones are errors.
 */
export interface DocExample {
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  skip?: string;
  noRun?: string;
  knownDefect?: string;
  cwd?: string;
  file?: string;
  env: Record<string, string>;
  inputs: Record<string, string>;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$/;

/** README.md and every Markdown file under docs/, in a stable order. */
export function markdownFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f))
    .sort();
  return ['README.md', ...docs];
}

export function extractExamples(root: string, doc: string): DocExample[] {
  return parseExamples(readFileSync(join(root, doc), 'utf8'), relative(root, join(root, doc)));
}

export function parseExamples(markdown: string, doc: string): DocExample[] {
  const lines = markdown.split('\n');
  const found: DocExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]);
      if (close && close[2][0] === fence[0] && close[2].length >= fence.length && close[3] === '') break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    if (j === lines.length) throw new Error(`${doc}:${i + 1}: a code fence that never closes`);
    found.push({
      doc,
      line: i + 1,
      lang: lang.toLowerCase(),
      code: body.join('\n') + '\n',
      ...directives(lines, i, doc),
    });
    i = j;
  }
  return found;
}

type Directives = Pick<DocExample, 'skip' | 'noRun' | 'knownDefect' | 'cwd' | 'file' | 'env' | 'inputs'>;

/** The marker comment just above the fence at `at`, if any. */
function directives(lines: string[], at: number, doc: string): Directives {
  const out: Directives = { env: {}, inputs: {} };
  let k = at - 1;
  while (k >= 0 && lines[k].trim() === '') k--;
  const marker = k >= 0 ? MARKER.exec(lines[k]) : null;
  if (!marker) return out;
  const where = `${doc}:${k + 1}`;
  // A reason is free text, `;` included: skip and no-run take the rest of the comment.
  const reasoned = /(?:^|;)\s*(skip|no-run|known-defect)\s*:/.exec(marker[1]);
  const parts = (reasoned ? marker[1].slice(0, reasoned.index) : marker[1]).split(';');
  if (reasoned) parts.push(marker[1].slice(reasoned.index).replace(/^;/, ''));
  for (const part of parts.map((p) => p.trim()).filter(Boolean)) {
    const m = /^([a-z-]+)\s*:\s*(.*)$/.exec(part);
    if (!m) throw new Error(`${where}: "${part}" is not a doc-test directive (name: value)`);
    const [, name, value] = m;
    switch (name) {
      case 'skip':
      case 'no-run':
      case 'known-defect':
        if (value.split(/\s+/).filter(Boolean).length < 3)
          throw new Error(`${where}: ${name} needs a reason (a few words), got "${value}"`);
        out[name === 'skip' ? 'skip' : name === 'no-run' ? 'noRun' : 'knownDefect'] = value;
        break;
      case 'cwd':
      case 'file':
        if (!value || value.startsWith('/') || value.split('/').includes('..'))
          throw new Error(`${where}: ${name} must be a relative path inside the scratch project`);
        out[name] = value;
        break;
      case 'env':
      case 'input':
        Object.assign(name === 'env' ? out.env : out.inputs, pairs(value, where));
        break;
      default:
        throw new Error(
          `${where}: unknown doc-test directive "${name}" (skip, no-run, known-defect, cwd, file, env, input)`,
        );
    }
  }
  return out;
}

function pairs(value: string, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of value.split(/\s+/).filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`${where}: "${pair}" is not name=value`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}
