import { Injectable } from '@nestjs/common';
import { textResult, type ToolResult } from '../../domain/model/tool-result';
import type { ProxyLimits } from '../../domain/proxy/proxy-config';
import type { ToolCallContext } from '../../domain/ports/tool-scope';
import type { Beneath } from './beneath-root.resolver';
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
  readonly title = 'Edit file';
  readonly annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
  readonly description =
    'Replaces an exact string in a file inside the sandbox root. old_string must match literally (not a regex) ' +
    'and exactly once, unless replace_all is true. Copy old_string from Read output without the line-number prefix, ' +
    'keeping indentation. CRLF line endings are preserved.';
  readonly inputSchema = {
    type: 'object' as const,
    properties: {
      file_path: {
        type: 'string',
        description: 'Path of the file to modify (absolute, or relative to the sandbox root)',
      },
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
    const oldString = args.string('old_string', { aliases: ['old'], required: true });
    const newString = args.string('new_string', { aliases: ['new'], required: true });
    const replaceAll = args.boolean('replace_all', false);
    if (oldString.length === 0)
      throw new ToolFailure('Edit: old_string is empty; use Write to create or replace a whole file');
    if (oldString === newString)
      throw new ToolFailure('Edit: old_string and new_string are identical; nothing to change');

    const { limits } = ctx.scope;
    const grows = Buffer.byteLength(newString, 'utf8') - Buffer.byteLength(oldString, 'utf8');
    if (Buffer.byteLength(newString, 'utf8') > limits.write_max_bytes) throw tooLarge(input, limits.write_max_bytes);
    // Read and write back in the directory that was checked, by its descriptor, not by path again.
    const { real, exists, at, release } = this.sandbox.resolve(input, ctx.scope, 'file_path', 'write');
    try {
      if (!exists) throw new ToolFailure(`${input} does not exist; use Write to create it`);
      const replaced = await this.edit(at, input, { oldString, newString, replaceAll, grows }, limits);
      return textResult(`Edited ${real}: replaced ${replaced} occurrence${replaced === 1 ? '' : 's'}.`);
    } finally {
      release();
    }
  }

  private async edit(at: Beneath, input: string, change: Change, limits: ProxyLimits): Promise<number> {
    let { oldString, newString } = change;
    const file = await readRegularFile(at, input, limits.read_max_bytes);
    if (file.truncated) {
      throw new ToolFailure(
        `Edit: ${input} is ${file.size} bytes, above the ${limits.read_max_bytes}-byte read limit; refusing to write back a truncated file`,
      );
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
    if (count > 1 && !change.replaceAll) {
      throw new ToolFailure(
        `Edit: old_string matches ${count} times in ${input}; add surrounding context to make it unique, or set replace_all to true. The file is unchanged`,
      );
    }
    const replaced = change.replaceAll ? count : 1;
    // The size of the result is known before it is built: count the growth, then build.
    const crlfGrowth = newString.length - change.newString.length - (oldString.length - change.oldString.length);
    if (file.data.length + replaced * (change.grows + crlfGrowth) > limits.write_max_bytes)
      throw tooLarge(input, limits.write_max_bytes);
    const updated = change.replaceAll
      ? text.split(oldString).join(newString)
      : replaceFirst(text, oldString, newString);
    if (Buffer.byteLength(updated, 'utf8') > limits.write_max_bytes) throw tooLarge(input, limits.write_max_bytes);
    await writeFileAtomic(at, input, updated);
    return replaced;
  }
}

interface Change {
  oldString: string;
  newString: string;
  replaceAll: boolean;
  /** new_string's bytes minus old_string's, before any CRLF conversion. */
  grows: number;
}

function tooLarge(input: string, max: number): ToolFailure {
  return new ToolFailure(
    `Edit: the edited ${input} would exceed the ${max}-byte write limit (write_max_bytes); the file is unchanged`,
  );
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
