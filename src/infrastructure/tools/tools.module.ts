// ToolsModule: the built-in tools (Read, Write, Edit, Bash, Glob, Grep) and the path
// sandbox they share. Contributes one ToolProvider by marker (@ProvidesTools), which lists
// the tools only when the step's scope sets interceptBuiltins.
// Must never import the MCP SDK, gRPC, or another feature module.
import { Module } from '@nestjs/common';
import { BashTool } from './bash.tool';
import { BuiltinToolProvider } from './builtin-tool.provider';
import { EditTool } from './edit.tool';
import { GlobTool } from './glob.tool';
import { GrepTool } from './grep.tool';
import { PathSandbox } from './path-sandbox.service';
import { ReadTool } from './read.tool';
import { WriteTool } from './write.tool';

@Module({
  providers: [PathSandbox, ReadTool, WriteTool, EditTool, BashTool, GlobTool, GrepTool, BuiltinToolProvider],
})
export class ToolsModule {}
