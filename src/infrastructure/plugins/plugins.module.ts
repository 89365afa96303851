// PluginsModule: gRPC plugin discovery, the plugin process host, and the tools plugins
// expose (<plugin>_<operation>). Contributes ToolProviders by marker (@ProvidesTools).
// Must never import the MCP SDK or another feature module.
import { Module } from '@nestjs/common';

@Module({})
export class PluginsModule {}
