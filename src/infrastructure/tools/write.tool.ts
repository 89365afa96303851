import { Injectable } from '@nestjs/common';
import { textResult, type ToolResult } from '../../domain/model/tool-result';
import type { ToolCallContext } from '../../domain/ports/tool-scope';
import type { BuiltinTool } from './builtin-tool.interface';
import { PathSandbox } from './path-sandbox.service';
import { writeFileAtomic } from './sandboxed-file.io';
import { ToolArgs } from './tool-args.reader';
import { ToolFailure } from './tool-failure.error';

/** Claude Code's Write: whole-file content, parents created, replaced atomically. */
@Injectable()
export class WriteTool implements BuiltinTool {
  readonly name = 'Write';
  readonly title = 'Write file';
  readonly annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
  readonly description =
    'Writes a file inside the sandbox root, creating parent directories and overwriting an existing file. ' +
    'The write is atomic (temp file + rename). Prefer Edit to change part of an existing file.';
  readonly inputSchema = {
    type: 'object' as const,
    properties: {
      file_path: {
        type: 'string',
        description: 'Path of the file to write (absolute, or relative to the sandbox root)',
      },
      content: { type: 'string', description: 'The full content to write' },
    },
    required: ['file_path', 'content'],
  };

  constructor(private readonly sandbox: PathSandbox) {}

  async run(raw: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const args = new ToolArgs(this.name, raw);
    const input = args.string('file_path', { aliases: ['path', 'filePath'], required: true });
    const content = args.string('content', { required: true });
    const { limits } = ctx.scope;
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > limits.write_max_bytes) {
      throw new ToolFailure(
        `Write: content is ${bytes} bytes, which exceeds the ${limits.write_max_bytes}-byte limit; nothing was written`,
      );
    }
    const { real, at, release } = this.sandbox.resolve(input, ctx.scope, 'file_path', 'write', true);
    let created: boolean;
    try {
      ({ created } = await writeFileAtomic(at, input, content));
    } finally {
      release();
    }
    return textResult(`${created ? 'Created' : 'Overwrote'} ${real} (${bytes} bytes).`);
  }
}
