import { Injectable } from '@nestjs/common';
import { relative, sep } from 'node:path';
import { textResult, type ToolResult } from '../../domain/model/tool-result';
import type { ToolCallContext } from '../../domain/ports/tool-scope';
import type { BuiltinTool } from './builtin-tool.interface';
import { findExecutable } from './executable.lookup';
import { formatGrep } from './grep/grep-output.formatter';
import { GREP_FILE_TYPES, GREP_MAX_FILE_BYTES, type GrepEngine, type GrepMode } from './grep/grep-query.model';
import { JsGrepEngine } from './grep/js-grep.engine';
import { RipgrepEngine } from './grep/ripgrep.engine';
import { PathSandbox } from './path-sandbox.service';
import { refuseHardLinked } from './sandboxed-file.io';
import { ToolArgs } from './tool-args.reader';
import { ToolFailure } from './tool-failure.error';

const MODES: readonly GrepMode[] = ['files_with_matches', 'content', 'count'];

/** `AWF_GREP_ENGINE=js|ripgrep` forces an engine (tests run both); unset means ripgrep when on PATH. */
export const GREP_ENGINE_ENV = 'AWF_GREP_ENGINE';
/** Bounds one search; a backtracking regex in the JS engine is stopped here. */
export const GREP_TIMEOUT_ENV = 'AWF_GREP_TIMEOUT_MS';
/**
 * Well under the 60 s an MCP client waits for a call by default (the SDK's
 * DEFAULT_REQUEST_TIMEOUT_MSEC): the agent must get the "narrow it down" answer, not a
 * request timeout of its own. AWF_GREP_TIMEOUT_MS may lower it, never raise it past the cap.
 */
const DEFAULT_GREP_TIMEOUT_MS = 20_000;
export const MAX_GREP_TIMEOUT_MS = 45_000;

/** Claude Code's Grep: ripgrep semantics and flags, with ripgrep or a JS walker behind them. */
@Injectable()
export class GrepTool implements BuiltinTool {
  readonly name = 'Grep';
  readonly title = 'Search file contents';
  readonly annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  readonly description =
    'Searches file contents with a regular expression (ripgrep syntax) under the sandbox root. Honours .gitignore, skips binary files, .git and node_modules. ' +
    'output_mode: "files_with_matches" (default, file paths), "content" (path:line:text), "count" (path:count). ' +
    'Filter files with glob (e.g. "*.{ts,tsx}") or type (js, ts, py, go, rust, java, c, cpp, md, json, yaml, ...). ' +
    'Matching is per line unless multiline is true.';
  readonly inputSchema = {
    type: 'object' as const,
    properties: {
      pattern: { type: 'string', description: 'The regular expression to search for' },
      path: { type: 'string', description: 'File or directory to search (default: the sandbox root)' },
      glob: { type: 'string', description: 'Glob filter for file names, e.g. "*.js" or "*.{ts,tsx}"' },
      type: { type: 'string', enum: Object.keys(GREP_FILE_TYPES), description: 'File type to search' },
      output_mode: { type: 'string', enum: MODES, description: 'Output mode (default files_with_matches)' },
      '-i': { type: 'boolean', description: 'Case-insensitive search' },
      '-n': { type: 'boolean', description: 'Show line numbers (content mode; default true)' },
      '-A': { type: 'integer', minimum: 0, description: 'Lines of context after each match (content mode)' },
      '-B': { type: 'integer', minimum: 0, description: 'Lines of context before each match (content mode)' },
      '-C': { type: 'integer', minimum: 0, description: 'Lines of context before and after each match (content mode)' },
      head_limit: { type: 'integer', minimum: 1, description: 'Return only the first N results' },
      multiline: { type: 'boolean', description: 'Let patterns span lines; "." also matches newlines' },
    },
    required: ['pattern'],
  };

  constructor(private readonly sandbox: PathSandbox) {}

  async run(raw: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const args = new ToolArgs(this.name, raw);
    const pattern = args.string('pattern', { required: true });
    const mode = (args.string('output_mode') ?? 'files_with_matches') as GrepMode;
    if (!MODES.includes(mode)) throw new ToolFailure(`Grep: output_mode must be one of ${MODES.join(', ')}`);
    const type = args.string('type');
    const typeGlobs = type === undefined ? undefined : GREP_FILE_TYPES[type];
    if (type !== undefined && !typeGlobs)
      throw new ToolFailure(`Grep: unknown type "${type}"; known types: ${Object.keys(GREP_FILE_TYPES).join(', ')}`);
    const context = args.integer('-C', { min: 0, aliases: ['context'] }) ?? 0;
    const before = args.integer('-B', { min: 0 }) ?? context;
    const after = args.integer('-A', { min: 0 }) ?? context;
    const headLimit = args.integer('head_limit', { min: 1 });
    const query = {
      pattern,
      ignoreCase: args.boolean('-i', false),
      multiline: args.boolean('multiline', false),
      glob: args.string('glob'),
      typeGlobs: typeGlobs && [...typeGlobs],
      before,
      after,
    };
    const lineNumbers = args.boolean('-n', true);
    if (pattern.length === 0) throw new ToolFailure('Grep: pattern is empty');

    const { limits, rootDir } = ctx.scope;
    const pathInput = args.string('path') ?? '.';
    const target = this.sandbox.resolve(pathInput, ctx.scope, 'path', 'read');
    target.release();
    // The engines walk to the target again from the root's descriptor; this is the check the agent sees.
    const info = target.at.stat;
    const isDir = target.at.name === '' || info?.isDirectory() === true;
    if (!target.exists) throw new ToolFailure(`Grep: ${pathInput} does not exist`);
    if (!isDir && !info?.isFile())
      throw new ToolFailure(`Grep: ${pathInput} is not a regular file or directory; refused`);
    if (info && !isDir) {
      if (info.size > GREP_MAX_FILE_BYTES) {
        throw new ToolFailure(
          `Grep: ${pathInput} is ${info.size} bytes, above the ${GREP_MAX_FILE_BYTES}-byte limit for one file; use Read with offset or Bash`,
        );
      }
      refuseHardLinked(info, `Grep: ${pathInput}`);
    }

    const limit = Math.min(headLimit ?? Infinity, limits.grep_max_results);
    const request = {
      root: rootDir,
      targetRel: target.rel,
      target: target.real,
      targetIsDir: isDir,
      query,
      maxFileBytes: GREP_MAX_FILE_BYTES,
      mode,
      stopAfter: limit,
    };
    const outcome = await pickEngine().search(request, ctx.signal, grepTimeoutMs());
    outcome.hits = this.sandbox.allowed(
      outcome.hits,
      (hit) => relative(rootDir, hit.path).split(sep).join('/'),
      'read',
      ctx.scope,
    );
    return textResult(
      formatGrep(outcome.hits, {
        mode,
        lineNumbers,
        withContext: before + after > 0,
        limit,
        headLimited: headLimit !== undefined && headLimit <= limits.grep_max_results,
        lineMaxChars: limits.line_max_chars,
        stopped: outcome.stopped,
      }),
    );
  }
}

export function pickEngine(env: NodeJS.ProcessEnv = process.env): GrepEngine {
  const forced = env[GREP_ENGINE_ENV];
  if (forced === 'js') return new JsGrepEngine();
  const rg = findExecutable('rg', env.PATH);
  if (forced === 'ripgrep' && !rg) throw new ToolFailure(`Grep: ${GREP_ENGINE_ENV}=ripgrep but rg is not on PATH`);
  return rg ? new RipgrepEngine(rg) : new JsGrepEngine();
}

export function grepTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env[GREP_TIMEOUT_ENV]);
  return Number.isInteger(value) && value > 0 ? Math.min(value, MAX_GREP_TIMEOUT_MS) : DEFAULT_GREP_TIMEOUT_MS;
}
