import { Inject, Injectable } from '@nestjs/common';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { resultText } from '../../domain/model/tool-result';
import type { AgentProvider, AgentRunRequest, AgentRunResult } from '../../domain/ports/agent-provider.port';
import { ProvidesAgent } from '../../domain/ports/markers';
import { TOOL_CLIENT_CONNECTOR, type ToolClientConnector } from '../../domain/ports/tool-client.port';
import { meetsExpectation, parseScriptCalls, type ScriptCallResult } from './script-calls';

/**
 * `provider: script`: a deterministic agent that makes the tool calls listed in
 * `options.calls`, in order, through the step's proxy — spawned and spoken to over MCP
 * stdio like any agent CLI would. The output is the JSON list of results. The first failed
 * call (or unmet `expect`) fails the step. It has no tools of its own, so it "intercepts".
 */
@Injectable()
@ProvidesAgent()
export class ScriptAgentProvider implements AgentProvider {
  readonly name = 'script';
  readonly canInterceptBuiltins = true;

  constructor(@Inject(TOOL_CLIENT_CONNECTOR) private readonly connector: ToolClientConnector) {}

  async run(request: AgentRunRequest): Promise<AgentRunResult> {
    const calls = parseScriptCalls(request.options, request.step);
    if (!request.proxy) {
      throw new AwfError(
        ErrorCodes.EXECUTION_AGENT_NO_PROXY,
        `step "${request.step}": the script agent calls tools through the proxy, which is not enabled`,
        { step: request.step },
        'Add `mcp_proxy: {enable: true}` to the step.',
      );
    }
    const session = await this.connector.connect(request.proxy, { cwd: process.cwd(), env: request.env });
    const onAbort = (): void => void session.close();
    request.signal.addEventListener('abort', onAbort, { once: true });
    const results: ScriptCallResult[] = [];
    try {
      for (const [i, call] of calls.entries()) {
        if (request.signal.aborted)
          throw new AwfError(ErrorCodes.EXECUTION_AGENT_FAILED, `step "${request.step}" was stopped`, {
            step: request.step,
          });
        const result = await session.callTool(call.tool, call.args, request.signal);
        const entry: ScriptCallResult = {
          tool: call.tool,
          is_error: result.isError === true,
          text: resultText(result),
        };
        results.push(entry);
        const unmet = meetsExpectation(call, entry);
        if (unmet) {
          throw new AwfError(
            ErrorCodes.EXECUTION_AGENT_FAILED,
            `step "${request.step}": call ${i + 1} (${call.tool}) ${unmet}`,
            {
              step: request.step,
              call: i + 1,
              tool: call.tool,
              output: JSON.stringify(results, null, 2),
              exit_code: 1,
            },
          );
        }
      }
      return { output: JSON.stringify(results, null, 2), exitCode: 0, raw: results };
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      await session.close();
    }
  }
}
