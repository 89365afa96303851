import { ToolFailure } from '../tool-failure.error';
import { entriesOf, GREP_SKIPPED_NAMES, type GrepEngine, type GrepFileHit, type GrepOutcome, type GrepRequest } from './grep-query.model';

interface RgText {
  text?: string;
  bytes?: string;
}

interface RgEvent {
  type: 'begin' | 'match' | 'context' | 'end' | 'summary';
  data: { path?: RgText; lines?: RgText; line_number?: number; binary_offset?: number | null };
}

/**
 * ripgrep with `--json`: we format its events ourselves, so the output is the JS engine's
 * to the byte. Flags pin the behaviour both engines share: path order, hidden files,
 * `.gitignore` from the searched directory down whether or not it is a git repository,
 * no user config, no parent or global ignore files, binary files dropped.
 */
export class RipgrepEngine implements GrepEngine {
  readonly name = 'ripgrep' as const;

  constructor(private readonly executable: string) {}

  search(request: GrepRequest, signal: AbortSignal, timeoutMs: number): Promise<GrepOutcome> {
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const { createInterface } = require('node:readline') as typeof import('node:readline');
    const child = spawn(this.executable, ripgrepArgs(request), { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
    const hits: GrepFileHit[] = [];
    let entries = 0;
    let stopped = false;
    let current: Map<number, { text: string; match: boolean }> | undefined;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-4000)));
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (stopped) return;
      const event = JSON.parse(line) as RgEvent;
      if (event.type === 'begin') current = new Map();
      else if ((event.type === 'match' || event.type === 'context') && current) {
        const texts = decode(event.data.lines).split('\n');
        if (texts[texts.length - 1] === '') texts.pop();
        texts.forEach((text, i) => {
          const n = (event.data.line_number ?? 0) + i;
          if (!current!.get(n)?.match) current!.set(n, { text: text.replace(/\r$/, ''), match: event.type === 'match' });
        });
      } else if (event.type === 'end' && current) {
        const hit = toHit(decode(event.data.path), current);
        current = undefined;
        if (event.data.binary_offset != null || !hit) return;
        hits.push(hit);
        entries += entriesOf(hit, request.mode);
        if (entries > request.stopAfter) {
          stopped = true;
          child.kill('SIGKILL');
        }
      }
    });
    return new Promise((resolve, reject) => {
      let failure: ToolFailure | undefined;
      const timer = setTimeout(() => {
        failure = new ToolFailure(`Grep: the search took longer than ${timeoutMs} ms and was stopped; narrow the path`);
        child.kill('SIGKILL');
      }, timeoutMs);
      const onAbort = (): void => {
        failure = new ToolFailure('Grep: cancelled');
        child.kill('SIGKILL');
      };
      signal.addEventListener('abort', onAbort, { once: true });
      child.once('error', (err) => {
        failure = new ToolFailure(`Grep: could not run ripgrep: ${err.message}`);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        lines.close();
        if (failure) return reject(failure);
        if (code === 2 && hits.length === 0 && /regex/i.test(stderr)) return reject(new ToolFailure(`Grep: invalid regular expression: ${stderr.trim()}`));
        resolve({ hits, stopped });
      });
    });
  }
}

function ripgrepArgs(request: GrepRequest): string[] {
  const { query } = request;
  const args = [
    '--json', '--sort', 'path', '--hidden', '--no-config', '--no-require-git', '--no-ignore-parent', '--no-ignore-dot',
    '--no-ignore-global', '--no-ignore-exclude', '--max-filesize', String(request.maxFileBytes),
    ...GREP_SKIPPED_NAMES.flatMap((name) => ['--glob', `!${name}`]),
  ];
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.multiline) args.push('--multiline', '--multiline-dotall');
  if (query.typeGlobs?.length) args.push(...query.typeGlobs.flatMap((g) => ['--type-add', `awf:${g}`]), '--type', 'awf');
  if (query.glob) args.push('--glob', query.glob);
  if (request.mode === 'content' && query.before > 0) args.push('--before-context', String(query.before));
  if (request.mode === 'content' && query.after > 0) args.push('--after-context', String(query.after));
  args.push('--regexp', query.pattern, '--', request.target);
  return args;
}

function decode(value: RgText | undefined): string {
  if (!value) return '';
  return value.text ?? Buffer.from(value.bytes ?? '', 'base64').toString('utf8');
}

function toHit(path: string, lines: Map<number, { text: string; match: boolean }>): GrepFileHit | undefined {
  const sorted = [...lines.entries()].sort(([a], [b]) => a - b).map(([line, l]) => ({ line, text: l.text, match: l.match }));
  const matchedLines = sorted.filter((l) => l.match).length;
  return matchedLines > 0 ? { path, lines: sorted, matchedLines } : undefined;
}
