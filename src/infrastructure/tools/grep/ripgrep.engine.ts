import { ToolFailure } from '../tool-failure.error';
import { entriesOf, type GrepEngine, type GrepFileHit, type GrepOutcome, type GrepRequest } from './grep-query.model';
import { openGrepTarget, recheckHit, type OpenTarget } from './grep-target.opener';
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
    // A count record carries no line to re-check a hit by, so it needs the pattern to compile in JS.
    const matches =
      request.mode !== 'content' && request.targetIsDir && !request.query.multiline ? jsMatcher(request) : undefined;
    const counts = matches !== undefined;
    const target = openGrepTarget(request);
    try {
      const fast = await this.run(request, { sorted: false, counts }, target, matches, signal, deadline, timeoutMs);
      if (!fast.stopped || !request.targetIsDir) return { hits: byPathOrder(fast.hits), stopped: fast.stopped };
      return await this.run(request, { sorted: true, counts }, target, matches, signal, deadline, timeoutMs);
    } finally {
      target.close();
    }
  }

  private run(
    request: GrepRequest,
    pass: Pass,
    target: OpenTarget,
    matches: ((text: string) => boolean) | undefined,
    signal: AbortSignal,
    deadline: number,
    timeoutMs: number,
  ): Promise<GrepOutcome> {
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    // ripgrep gets the target as its own fd 3, the descriptor awf resolved, and never its path.
    const handed = VIA_FD ? '/proc/self/fd/3' : request.target;
    const child = spawn(this.executable, ripgrepArgs(request, pass, handed), {
      stdio: ['ignore', 'pipe', 'pipe', target.fd],
      env: { PATH: process.env.PATH ?? '' },
    });
    const parser: RipgrepOutputParser = pass.counts ? new CountParser() : new JsonEventParser();
    const hits: GrepFileHit[] = [];
    let entries = 0;
    let stopped = false;
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-4000)));
    const onHit = (hit: GrepFileHit): boolean => {
      const rel = hit.path === handed ? '' : hit.path.slice(handed.length + 1);
      if (target.dir && !recheckHit(target.dir, rel, hit, request, matches)) return true;
      hit.path = rel === '' ? request.target : `${request.target}/${rel}`;
      hits.push(hit);
      entries += entriesOf(hit, request.mode);
      if (entries <= request.stopAfter) return true;
      stopped = true;
      child.kill('SIGKILL');
      return false;
    };
    return new Promise((resolve, reject) => {
      let failure: ToolFailure | undefined;
      child.stdout!.on('data', (chunk: Buffer) => {
        if (stopped || failure) return;
        try {
          parser.push(chunk, onHit);
        } catch (err) {
          failure = new ToolFailure(`Grep: could not read ripgrep's output: ${(err as Error).message}`);
          child.kill('SIGKILL');
        }
      });
      const timer = setTimeout(
        () => {
          failure = new ToolFailure(
            `Grep: the search took longer than ${timeoutMs} ms and was stopped; narrow the path or the pattern`,
          );
          child.kill('SIGKILL');
        },
        Math.max(deadline - Date.now(), 0),
      );
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
        if (code === 2 && hits.length === 0 && /regex/i.test(stderr))
          return reject(new ToolFailure(`Grep: invalid regular expression: ${stderr.trim()}`));
        resolve({ hits, stopped });
      });
    });
  }
}

/** Linux: the child reaches awf's descriptor as `/proc/self/fd/3`; elsewhere the real path stands in. */
const VIA_FD = process.platform === 'linux';

/**
 * The JS form of the pattern, to re-check count records by; undefined when JS cannot compile
 * it (a ripgrep-only construct), and the search then prints --json lines to re-check instead.
 */
function jsMatcher(request: GrepRequest): ((text: string) => boolean) | undefined {
  const { compilePattern } = require('./js-grep.search') as typeof import('./js-grep.search');
  let regex: RegExp;
  try {
    regex = compilePattern(request.query);
  } catch {
    return undefined;
  }
  return (text) => text.split('\n').some((line) => regex.test(line));
}

/**
 * Files over the size cap are dropped from the results (by the re-check) rather than skipped
 * with `--max-filesize`, which makes ripgrep stat every file it walks (a fifth more CPU over
 * node_modules). A named file was checked by the tool.
 */
function ripgrepArgs(request: GrepRequest, pass: Pass, handed: string): string[] {
  const { query } = request;
  const args = [
    pass.counts ? ['--count', '--null'] : ['--json'],
    pass.sorted ? ['--sort', 'path'] : [],
    '--hidden',
    '--no-config',
    '--no-require-git',
    '--no-ignore-parent',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-ignore-exclude',
    ...SKIPPED_NAMES.flatMap((name) => ['--glob', `!${name}`]),
  ].flat();
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.multiline) args.push('--multiline', '--multiline-dotall');
  if (query.typeGlobs?.length)
    args.push(...query.typeGlobs.flatMap((g) => ['--type-add', `awf:${g}`]), '--type', 'awf');
  if (query.glob) args.push('--glob', query.glob);
  if (request.mode === 'content' && query.before > 0) args.push('--before-context', String(query.before));
  if (request.mode === 'content' && query.after > 0) args.push('--after-context', String(query.after));
  args.push('--regexp', query.pattern, '--', handed);
  return args;
}
