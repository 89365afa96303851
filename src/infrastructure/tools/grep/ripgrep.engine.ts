import { statSync } from 'node:fs';
import { ToolFailure } from '../tool-failure.error';
import { entriesOf, type GrepEngine, type GrepFileHit, type GrepOutcome, type GrepRequest } from './grep-query.model';
import { byPathOrder, CountParser, JsonEventParser, type RipgrepOutputParser } from './ripgrep-output.parser';
import { SKIPPED_NAMES } from '../skipped-names';

/** How one ripgrep run is asked to search and print. */
interface Pass {
  /** `--sort path`: one thread, files in path order, so the search can stop after the first N. */
  sorted: boolean;
  /** `--count --null` instead of `--json`: enough for files_with_matches and count. */
  counts: boolean;
}

/**
 * ripgrep behind Claude Code's Grep. Flags pin the behaviour both engines share: hidden
 * files, `.gitignore` from the searched directory down whether or not it is a git
 * repository, no user config, no parent or global ignore files, binary files dropped; awf
 * formats the results with the JS engine's formatter, so the output is the same to the byte.
 *
 * ripgrep searches with all cores unless told to sort, so the first run is unsorted and the
 * hits are put in path order here. A search with more results than will be shown is run a
 * second time in path order and stopped early: which N results are shown must not depend on
 * thread timing. That second run is the price of a truncated answer only.
 */
export class RipgrepEngine implements GrepEngine {
  readonly name = 'ripgrep' as const;

  constructor(private readonly executable: string) {}

  async search(request: GrepRequest, signal: AbortSignal, timeoutMs: number): Promise<GrepOutcome> {
    const deadline = Date.now() + timeoutMs;
    // --count counts a multiline match once, and searches a named binary file as text: --json for those.
    const counts = request.mode !== 'content' && request.targetIsDir && !request.query.multiline;
    const fast = await this.run(request, { sorted: false, counts }, signal, deadline, timeoutMs);
    if (!fast.stopped || !request.targetIsDir) return { hits: byPathOrder(fast.hits), stopped: fast.stopped };
    return this.run(request, { sorted: true, counts }, signal, deadline, timeoutMs);
  }

  private run(request: GrepRequest, pass: Pass, signal: AbortSignal, deadline: number, timeoutMs: number): Promise<GrepOutcome> {
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const child = spawn(this.executable, ripgrepArgs(request, pass), { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
    const parser: RipgrepOutputParser = pass.counts ? new CountParser() : new JsonEventParser();
    const hits: GrepFileHit[] = [];
    let entries = 0;
    let stopped = false;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-4000)));
    const onHit = (hit: GrepFileHit): boolean => {
      if (request.targetIsDir && !withinSize(hit.path, request.maxFileBytes)) return true;
      hits.push(hit);
      entries += entriesOf(hit, request.mode);
      if (entries <= request.stopAfter) return true;
      stopped = true;
      child.kill('SIGKILL');
      return false;
    };
    return new Promise((resolve, reject) => {
      let failure: ToolFailure | undefined;
      child.stdout.on('data', (chunk: Buffer) => {
        if (stopped || failure) return;
        try {
          parser.push(chunk, onHit);
        } catch (err) {
          failure = new ToolFailure(`Grep: could not read ripgrep's output: ${(err as Error).message}`);
          child.kill('SIGKILL');
        }
      });
      const timer = setTimeout(() => {
        failure = new ToolFailure(`Grep: the search took longer than ${timeoutMs} ms and was stopped; narrow the path or the pattern`);
        child.kill('SIGKILL');
      }, Math.max(deadline - Date.now(), 0));
      const onAbort = (): void => {
        failure = new ToolFailure('Grep: cancelled');
        child.kill('SIGKILL');
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      child.once('error', (err) => {
        failure = new ToolFailure(`Grep: could not run ripgrep: ${err.message}`);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (failure) return reject(failure);
        if (code === 2 && hits.length === 0 && /regex/i.test(stderr)) return reject(new ToolFailure(`Grep: invalid regular expression: ${stderr.trim()}`));
        resolve({ hits, stopped });
      });
    });
  }
}

/**
 * Files over the size cap are dropped from the results rather than skipped with
 * `--max-filesize`, which makes ripgrep stat every file it walks (a fifth more CPU over
 * node_modules); only files with a match are stat'ed here. A named file was checked by the tool.
 */
function withinSize(path: string, maxBytes: number): boolean {
  const size = statSync(path, { throwIfNoEntry: false })?.size;
  return size !== undefined && size <= maxBytes;
}

function ripgrepArgs(request: GrepRequest, pass: Pass): string[] {
  const { query } = request;
  const args = [
    pass.counts ? ['--count', '--null'] : ['--json'], pass.sorted ? ['--sort', 'path'] : [],
    '--hidden', '--no-config', '--no-require-git', '--no-ignore-parent', '--no-ignore-dot',
    '--no-ignore-global', '--no-ignore-exclude',
    ...SKIPPED_NAMES.flatMap((name) => ['--glob', `!${name}`]),
  ].flat();
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.multiline) args.push('--multiline', '--multiline-dotall');
  if (query.typeGlobs?.length) args.push(...query.typeGlobs.flatMap((g) => ['--type-add', `awf:${g}`]), '--type', 'awf');
  if (query.glob) args.push('--glob', query.glob);
  if (request.mode === 'content' && query.before > 0) args.push('--before-context', String(query.before));
  if (request.mode === 'content' && query.after > 0) args.push('--after-context', String(query.after));
  args.push('--regexp', query.pattern, '--', request.target);
  return args;
}
