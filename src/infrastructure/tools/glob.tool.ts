import { Injectable } from '@nestjs/common';
import { join } from 'node:path';
import { textResult, type ToolResult } from '../../domain/model/tool-result';
import type { ToolCallContext } from '../../domain/ports/tool-scope';
import type { BuiltinTool } from './builtin-tool.interface';
import { closeDir, openResolvedDir } from './beneath-root.resolver';
import { globFiles, type GlobbedFile } from './glob-files.walker';
import { PathSandbox } from './path-sandbox.service';
import { SKIPPED_NAMES } from './skipped-names';
import { ToolArgs } from './tool-args.reader';
import { ToolFailure } from './tool-failure.error';

/** A `..` segment anywhere, braces and lists included: `{..,x}/y` must not slip through. */
const PARENT_SEGMENT = /(^|[/{,])\.\.($|[/},])/;

/** Claude Code's Glob: file paths matching a pattern, newest first. */
@Injectable()
export class GlobTool implements BuiltinTool {
  readonly name = 'Glob';
  readonly title = 'Find files by name';
  readonly annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  readonly description =
    'Finds files by glob pattern (e.g. "**/*.ts", "src/**/*.{js,jsx}") under a directory of the sandbox root. ' +
    'Returns absolute paths sorted by modification time, newest first. Hidden files are included; .git and node_modules are skipped.';
  readonly inputSchema = {
    type: 'object' as const,
    properties: {
      pattern: { type: 'string', description: 'The glob pattern to match files against' },
      path: { type: 'string', description: 'The directory to search in (default: the sandbox root)' },
    },
    required: ['pattern'],
  };

  constructor(private readonly sandbox: PathSandbox) {}

  async run(raw: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const args = new ToolArgs(this.name, raw);
    const pattern = args.string('pattern', { required: true });
    const { limits, rootDir } = ctx.scope;
    if (pattern.length === 0) throw new ToolFailure('Glob: pattern is empty');
    if (pattern.includes('\0')) throw new ToolFailure('Glob: pattern contains a NUL byte and was refused');
    if (pattern.startsWith('/') || pattern.startsWith('~')) {
      throw new ToolFailure(`Glob: absolute patterns are refused; give a pattern relative to "path" (e.g. "**/*.ts")`);
    }
    if (PARENT_SEGMENT.test(pattern))
      throw new ToolFailure('Glob: ".." in a pattern is refused; set "path" to the directory to search instead');
    const pathInput = args.string('path') ?? '.';
    const base = this.sandbox.resolve(pathInput, ctx.scope, 'path', 'list');
    let files: GlobbedFile[];
    try {
      if (!base.exists) throw new ToolFailure(`Glob: directory ${pathInput} does not exist`);
      const dir = openResolvedDir(base.at, pathInput);
      if (!dir) throw new ToolFailure(`Glob: ${pathInput} is not a directory`);
      try {
        files = await globFiles(dir, pattern, SKIPPED_NAMES, ctx.signal);
      } finally {
        closeDir(dir);
      }
    } finally {
      base.release();
    }
    const fromRoot = (rel: string): string => (base.rel === '' ? rel : `${base.rel}/${rel}`);
    files = this.sandbox.allowed(files, (f) => fromRoot(f.rel), 'list', ctx.scope);
    if (files.length === 0) return textResult('No files found');
    files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    const cap = limits.glob_max_results;
    const shown = files.slice(0, cap).map((f) => join(rootDir, fromRoot(f.rel)));
    const note =
      files.length > cap
        ? `\n[Results truncated: showing ${cap} of ${files.length} files. Use a narrower path or pattern.]`
        : '';
    return textResult(shown.join('\n') + note);
  }
}
