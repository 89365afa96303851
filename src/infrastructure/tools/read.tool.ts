import { Injectable } from '@nestjs/common';
import { textResult, type ToolResult } from '../../domain/model/tool-result';
import type { ToolCallContext } from '../../domain/ports/tool-scope';
import type { BuiltinTool } from './builtin-tool.interface';
import { PathSandbox } from './path-sandbox.service';
import { looksBinary, readRegularFile } from './sandboxed-file.io';
import { ToolArgs } from './tool-args.reader';
import { ToolFailure } from './tool-failure.error';

/** Claude Code's Read: a 1-based line window over a text file, numbered like `cat -n`. */
@Injectable()
export class ReadTool implements BuiltinTool {
  readonly name = 'Read';
  readonly description =
    'Reads a text file inside the sandbox root. Output is numbered like `cat -n` (line number, tab, text). ' +
    'By default it returns up to 2000 lines from the start; use offset (1-based line) and limit to page through longer files. ' +
    'Lines longer than 2000 characters are cut. Relative paths resolve against the sandbox root.';
  readonly inputSchema = {
    type: 'object' as const,
    properties: {
      file_path: { type: 'string', description: 'Path of the file to read (absolute, or relative to the sandbox root)' },
      offset: { type: 'integer', minimum: 1, description: 'Line number to start reading from (1-based)' },
      limit: { type: 'integer', minimum: 1, description: 'Number of lines to read' },
    },
    required: ['file_path'],
  };

  constructor(private readonly sandbox: PathSandbox) {}

  async run(raw: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const args = new ToolArgs(this.name, raw);
    const input = args.string('file_path', { aliases: ['path', 'filePath'], required: true });
    const offset = args.integer('offset', { min: 0 }) || 1;
    const { limits, rootDir } = ctx.scope;
    const limit = args.integer('limit', { min: 1 }) ?? limits.read_default_lines;
    const { real, exists } = await this.sandbox.resolve(input, rootDir, 'file_path');
    if (!exists) throw new ToolFailure(`${input} does not exist`);
    const file = await readRegularFile(real, input, limits.read_max_bytes);
    if (file.size === 0) return textResult(`Note: ${real} exists but is empty.`);
    if (looksBinary(file.data)) throw new ToolFailure(`${input} is a binary file; Read shows text files only`);

    const lines = file.data.toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    if (offset > lines.length) {
      return textResult(`Note: ${real} has ${lines.length}${file.truncated ? '+' : ''} lines; offset ${offset} is past the end.`);
    }
    const body = numberedWindow(lines, offset, limit, limits.line_max_chars);
    const end = offset + body.length - 1;
    const notes: string[] = [];
    if (end < lines.length) {
      notes.push(`[Showing lines ${offset}-${end} of ${lines.length}${file.truncated ? '+' : ''}. Call Read with offset=${end + 1} to continue.]`);
    }
    if (file.truncated) {
      notes.push(`[The file is ${file.size} bytes; only its first ${limits.read_max_bytes} bytes can be read, so later lines are not shown. Use Grep or Bash to reach them.]`);
    }
    return textResult([...body, ...notes].join('\n'));
  }
}

/**
 * About 25 000 tokens: Claude Code rejects larger MCP results outright, so the window stops
 * early instead and the note tells the agent where to continue.
 */
export const READ_MAX_OUTPUT_CHARS = 100_000;

function numberedWindow(lines: string[], offset: number, limit: number, lineMax: number): string[] {
  const out: string[] = [];
  let chars = 0;
  for (let n = offset; n < offset + limit && n <= lines.length; n++) {
    const line = `${String(n).padStart(6)}\t${cutLine(lines[n - 1].replace(/\r$/, ''), lineMax)}`;
    if (out.length > 0 && chars + line.length > READ_MAX_OUTPUT_CHARS) break;
    out.push(line);
    chars += line.length + 1;
  }
  return out;
}

function cutLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [line truncated: ${line.length - max} more characters]`;
}
