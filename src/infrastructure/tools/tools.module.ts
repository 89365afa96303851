// ToolsModule: the built-in tools (Read, Write, Edit, Bash, Glob, Grep) and the path
// sandbox they share. Contributes ToolProviders by marker (@ProvidesTools).
// Must never import the MCP SDK, gRPC, or another feature module.
import { Module } from '@nestjs/common';

@Module({})
export class ToolsModule {}
