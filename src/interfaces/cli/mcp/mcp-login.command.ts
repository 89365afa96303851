import { Inject } from '@nestjs/common';
import { CommandRunner, SubCommand } from 'nest-commander';
import type { AppLogger } from '../../../domain/ports/app-logger.port';
import { APP_LOGGER } from '../../../domain/ports/tokens';
import type { ProjectConfig } from '../../../infrastructure/config/project-config.loader';
import { PROJECT_CONFIG } from '../../../infrastructure/config/project-config.module';
import { signIn, signOut } from '../../../infrastructure/upstreams/oauth/mcp-sign-in';

/** `awf mcp login <server>`: signs in to a remote server that asks for OAuth, once; runs reuse the tokens. */
@SubCommand({
  name: 'login',
  arguments: '<server>',
  description: 'Sign in to a remote MCP server that asks for OAuth (opens $BROWSER, else prints the URL)',
})
export class McpLoginCommand extends CommandRunner {
  constructor(
    @Inject(PROJECT_CONFIG) private readonly project: ProjectConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {
    super();
  }

  async run([server]: string[]): Promise<void> {
    const { how, tools, file } = await signIn(this.project.mcpServers, server, this.logger);
    const said = {
      'signed-in': `signed in to MCP server "${server}"; its tokens are kept in ${file} (mode 0600)`,
      kept: `already signed in to MCP server "${server}" (${file}); \`awf mcp logout ${server}\` forgets it`,
      open: `MCP server "${server}" asks for no sign-in`,
    }[how];
    process.stdout.write(`${said}; it serves ${tools} tool(s)\n`);
  }
}

/** `awf mcp logout <server>`: forgets the tokens and the client awf registered with the server. */
@SubCommand({ name: 'logout', arguments: '<server>', description: "Forget awf's sign-in to a remote MCP server" })
export class McpLogoutCommand extends CommandRunner {
  constructor(@Inject(PROJECT_CONFIG) private readonly project: ProjectConfig) {
    super();
  }

  async run([server]: string[]): Promise<void> {
    const had = signOut(this.project.mcpServers, server);
    process.stdout.write(
      had ? `signed out of MCP server "${server}"\n` : `no sign-in to MCP server "${server}" kept\n`,
    );
  }
}
