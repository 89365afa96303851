import { Injectable } from '@nestjs/common';
import type { ToolDefinition } from '../../domain/model/tool-definition';
import { errorResult, type ToolResult } from '../../domain/model/tool-result';
import { ProvidesTools } from '../../domain/ports/markers';
import type { ToolProvider } from '../../domain/ports/tool-provider.port';
import type { ToolCallContext, ToolScope } from '../../domain/ports/tool-scope';
import { BashTool } from './bash.tool';
import type { BuiltinTool } from './builtin-tool.interface';
import { EditTool } from './edit.tool';
import { GlobTool } from './glob.tool';
import { GrepTool } from './grep.tool';
import { ReadTool } from './read.tool';
import { ToolFailure } from './tool-failure.error';
import { WriteTool } from './write.tool';

/** Serves the six built-ins, and only when the step asks for them (`intercept_builtins`). */
@ProvidesTools()
@Injectable()
export class BuiltinToolProvider implements ToolProvider {
  private readonly tools: ReadonlyMap<string, BuiltinTool>;

  constructor(read: ReadTool, write: WriteTool, edit: EditTool, bash: BashTool, glob: GlobTool, grep: GrepTool) {
    this.tools = new Map([read, write, edit, bash, glob, grep].map((tool) => [tool.name, tool]));
  }

  listTools(scope: ToolScope): ToolDefinition[] {
    if (!scope.interceptBuiltins) return [];
    // A step that asks for sandboxed Bash fails here, before any agent starts, when bwrap cannot
    // run: never a silent fallback to an unconfined shell.
    if (scope.bashSandbox) (require('./bubblewrap.sandbox') as typeof import('./bubblewrap.sandbox')).bubblewrap();
    return [...this.tools.values()].map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { ...t.annotations },
      source: 'builtin',
    }));
  }

  async callTool(name: string, args: Record<string, unknown>, ctx: ToolCallContext): Promise<ToolResult> {
    const tool = this.tools.get(name);
    if (!tool) return errorResult(`builtin tool "${name}" does not exist`);
    try {
      return await tool.run(args, ctx);
    } catch (err) {
      if (err instanceof ToolFailure) return errorResult(err.message);
      throw err;
    }
  }
}
