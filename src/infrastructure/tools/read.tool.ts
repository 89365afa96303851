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
  readonly title = 'Read file';
  readonly annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  readonly description =
    'Reads a text file inside the sandbox root. Output is numbered like `cat -n` (line number, tab, text). ' +
    'By default it returns up to 2000 lines from the start; use offset (1-based line) and limit to page through longer files. ' +
    'Lines longer than 2000 characters are cut. Relative paths resolve against the sandbox root.';
  readonly inputSchema = {
    type: 'object' as const,
    properties: {
      file_path: {
        type: 'string',
        description: 'Path of the file to read (absolute, or relative to the sandbox root)',
      },
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
    const { limits } = ctx.scope;
    const limit = args.integer('limit', { min: 1 }) ?? limits.read_default_lines;
    const { real, exists, at, release } = this.sandbox.resolve(input, ctx.scope, 'file_path', 'read');
    let file;
    try {
      if (!exists) throw new ToolFailure(`${input} does not exist`);
      file = await readRegularFile(at, input, limits.read_max_bytes);
    } finally {
      release();
    }
    if (file.size === 0) return textResult(`Note: ${real} exists but is empty.`);
    if (looksBinary(file.data)) throw new ToolFailure(`${input} is a binary file; Read shows text files only`);

    const { total, window } = lineWindow(file.data, offset, limit);
    if (offset > total) {
      return textResult(
        `Note: ${real} has ${total}${file.truncated ? '+' : ''} lines; offset ${offset} is past the end.`,
      );
    }
    const body = numberedWindow(window, offset, limits.line_max_chars);
    const end = offset + body.length - 1;
    const notes: string[] = [];
    if (end < total) {
      notes.push(
        `[Showing lines ${offset}-${end} of ${total}${file.truncated ? '+' : ''}. Call Read with offset=${end + 1} to continue.]`,
      );
    }
    if (file.truncated) {
      notes.push(
        `[The file is ${file.size} bytes; only its first ${limits.read_max_bytes} bytes can be read, so later lines are not shown. Use Grep or Bash to reach them.]`,
      );
    }
    return textResult([...body, ...notes].join('\n'));
  }
}

/**
 * About 25 000 tokens: Claude Code rejects larger MCP results outright, so the window stops
 * early instead and the note tells the agent where to continue.
 */
export const READ_MAX_OUTPUT_CHARS = 100_000;

/**
 * Counts the lines of `data` and decodes only the requested window: a newline byte never
 * occurs inside a UTF-8 sequence, so cutting at one is safe, and a 5 MB file paged 2000
 * lines at a time is not decoded and split whole on every call.
 */
function lineWindow(data: Buffer, offset: number, limit: number): { total: number; window: string[] } {
  let from = offset === 1 ? 0 : -1;
  let to = -1;
  let newlines = 0;
  for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) {
    newlines++;
    if (newlines === offset - 1) from = at + 1;
    if (newlines === offset + limit - 1) to = at + 1;
  }
  const total = newlines + (data.length > 0 && data[data.length - 1] !== 10 ? 1 : 0);
  if (offset > total || from === -1) return { total, window: [] };
  const window = data.toString('utf8', from, to === -1 ? data.length : to).split('\n');
  if (window[window.length - 1] === '') window.pop();
  return { total, window };
}

function numberedWindow(lines: string[], offset: number, lineMax: number): string[] {
  const out: string[] = [];
  let chars = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const line = `${String(offset + i).padStart(6)}\t${cutLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw, lineMax)}`;
    if (out.length > 0 && chars + line.length > READ_MAX_OUTPUT_CHARS) break;
    out.push(line);
    chars += line.length + 1;
  }
  return out;
}

function cutLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [line truncated: ${line.length - max} more characters]`;
}
