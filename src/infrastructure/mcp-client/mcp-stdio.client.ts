// The one file of the script agent's side that imports the MCP SDK (`@modelcontextprotocol/client`).
import { Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { errorResult, type ToolResult } from '../../domain/model/tool-result';
import type { ProxyInjection } from '../../domain/ports/agent-provider.port';
import type { ToolClientConnector, ToolClientSession } from '../../domain/ports/tool-client.port';
import { AWF_VERSION } from '../../version';

/** Tool calls are bounded by the step's timeout and signal, not by the SDK's 60 s default. */
const NO_REQUEST_TIMEOUT = 2_147_483_647;
const STDERR_TAIL_CHARS = 4000;

/**
 * The official SDK `Client` over stdio: what the `script` agent uses to drive
 * `awf mcp-serve` exactly as an agent CLI would. Closing ends stdin, then SIGTERM, then
 * SIGKILL (the SDK transport's sequence), so no server outlives its session.
 */
@Injectable()
export class McpStdioClientConnector implements ToolClientConnector {
  async connect(
    injection: ProxyInjection,
    options: { cwd: string; env: Readonly<Record<string, string>> },
  ): Promise<ToolClientSession> {
    // Required here, not at the top: the client costs ~0.1 s to load, which no other command
    // (mcp-serve above all) and no step without a script agent should pay.
    const { Client } = require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');
    const { StdioClientTransport } =
      require('@modelcontextprotocol/client/stdio') as typeof import('@modelcontextprotocol/client/stdio');
    const transport = new StdioClientTransport({
      command: injection.command,
      args: injection.args,
      cwd: options.cwd,
      env: { ...options.env, ...injection.env },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS)));
    const client = new Client({ name: 'awf-script-agent', version: AWF_VERSION });
    let closed: Promise<void> | undefined;
    const close = (): Promise<void> => (closed ??= client.close().catch(() => undefined));
    // Set when the server side goes away on its own (crash, kill -9), as opposed to our close().
    let serverGone = false;
    try {
      await client.connect(transport);
      client.onclose = () => {
        if (!closed) serverGone = true;
      };
    } catch (err) {
      await close();
      throw new AwfError(
        ErrorCodes.EXECUTION_AGENT_FAILED,
        `cannot start the step's MCP proxy: ${(err as Error).message}${tail(stderr)}`,
        { command: [injection.command, ...injection.args].join(' ') },
      );
    }
    return {
      close,
      stderrTail: () => stderr,
      listTools: async () => (await client.listTools()).tools,
      callTool: async (name, args, signal) => {
        try {
          const result = await client.callTool({ name, arguments: args }, { signal, timeout: NO_REQUEST_TIMEOUT });
          return {
            content: (result.content as ToolResult['content']).filter((c) => c.type === 'text'),
            ...(result.isError ? { isError: true } : {}),
          };
        } catch (err) {
          if (signal?.aborted) throw err;
          if (serverGone) {
            throw new AwfError(
              ErrorCodes.EXECUTION_PROXY_DIED,
              `the step's MCP proxy (awf mcp-serve) exited during the call to ${name}${tail(stderr)}`,
              { tool: name },
              "Look at the proxy's last stderr lines above; a crash of awf mcp-serve is a bug worth reporting.",
            );
          }
          return errorResult((err as Error).message);
        }
      },
    };
  }
}

function tail(stderr: string): string {
  const lines = stderr.trim().split('\n').slice(-3).join('\n');
  return lines ? `\n${lines}` : '';
}
