import { Injectable } from '@nestjs/common';
import { textResult, type ToolResult } from '../../domain/model/tool-result';
import type { ToolCallContext } from '../../domain/ports/tool-scope';
import type { BuiltinTool } from './builtin-tool.interface';
import { PathSandbox } from './path-sandbox.service';
import { looksBinary, readRegularFile, writeFileAtomic } from './sandboxed-file.io';
import { ToolArgs } from './tool-args.reader';
import { ToolFailure } from './tool-failure.error';

const KNOWN_ARGS = ['file_path', 'old_string', 'new_string', 'replace_all', 'path', 'filePath', 'old', 'new'];

/**
 * Claude Code's Edit: a literal, unique-by-default replacement. Every check runs before
 * the write, and the write is atomic, so a failed Edit leaves the file byte-for-byte as it was.
 */
@Injectable()
export class EditTool implements BuiltinTool {
  readonly name = 'Edit';
  readonly description =
    'Replaces an exact string in a file inside the sandbox root. old_string must match literally (not a regex) ' +
    'and exactly once, unless replace_all is true. Copy old_string from Read output without the line-number prefix, ' +
    'keeping indentation. CRLF line endings are preserved.';
  readonly inputSchema = {
    type: 'object' as const,
    properties: {
      file_path: { type: 'string', description: 'Path of the file to modify (absolute, or relative to the sandbox root)' },
      old_string: { type: 'string', description: 'The text to replace' },
      new_string: { type: 'string', description: 'The text to replace it with (must differ from old_string)' },
      replace_all: { type: 'boolean', default: false, description: 'Replace every occurrence of old_string' },
    },
    required: ['file_path', 'old_string', 'new_string'],
    additionalProperties: false,
  };

  constructor(private readonly sandbox: PathSandbox) {}

  async run(raw: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const args = new ToolArgs(this.name, raw);
    args.rejectUnknown(KNOWN_ARGS);
    const input = args.string('file_path', { aliases: ['path', 'filePath'], required: true });
    let oldString = args.string('old_string', { aliases: ['old'], required: true });
    let newString = args.string('new_string', { aliases: ['new'], required: true });
    const replaceAll = args.boolean('replace_all', false);
    if (oldString.length === 0) throw new ToolFailure('Edit: old_string is empty; use Write to create or replace a whole file');
    if (oldString === newString) throw new ToolFailure('Edit: old_string and new_string are identical; nothing to change');

    const { limits, rootDir } = ctx.scope;
    const { real, exists } = await this.sandbox.resolve(input, rootDir, 'file_path');
    if (!exists) throw new ToolFailure(`${input} does not exist; use Write to create it`);
    const file = await readRegularFile(real, input, limits.read_max_bytes);
    if (file.truncated) {
      throw new ToolFailure(`Edit: ${input} is ${file.size} bytes, above the ${limits.read_max_bytes}-byte read limit; refusing to write back a truncated file`);
    }
    if (looksBinary(file.data)) throw new ToolFailure(`Edit: ${input} is a binary file; refused`);
    const text = file.data.toString('utf8');
    if (text.includes('\r\n')) {
      // Read shows lines without their CR, so the model's strings arrive with bare LFs.
      oldString = toCrlf(oldString);
      newString = toCrlf(newString);
    }
    const count = countOccurrences(text, oldString);
    if (count === 0) throw new ToolFailure(`Edit: old_string was not found in ${input}; the file is unchanged`);
    if (count > 1 && !replaceAll) {
      throw new ToolFailure(`Edit: old_string matches ${count} times in ${input}; add surrounding context to make it unique, or set replace_all to true. The file is unchanged`);
    }
    const updated = replaceAll ? text.split(oldString).join(newString) : replaceFirst(text, oldString, newString);
    await writeFileAtomic(real, input, updated, rootDir);
    const replaced = replaceAll ? count : 1;
    return textResult(`Edited ${real}: replaced ${replaced} occurrence${replaced === 1 ? '' : 's'}.`);
  }
}

function toCrlf(value: string): string {
  return value.replace(/\r?\n/g, '\r\n');
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** Slicing, not String.replace: `$&` and friends in new_string must stay literal. */
function replaceFirst(text: string, needle: string, replacement: string): string {
  const at = text.indexOf(needle);
  return text.slice(0, at) + replacement + text.slice(at + needle.length);
}
