import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import type { McpSession } from '../support/mcp-client';
import { withUpstreamServe } from './upstream-serve';

const SERVER = join(__dirname, '..', 'fixtures', 'upstreams', 'conformance-tools.server.cjs');

/** `awf mcp-serve` of a fresh project whose one upstream server asks for input and logs. */
const withServe = (capabilities: Record<string, unknown>, use: (session: McpSession) => Promise<void>) =>
  withUpstreamServe(
    { name: 'asker', command: process.execPath, args: [SERVER], prefix: '' },
    'none',
    use,
    capabilities,
  );

const text = (result: unknown) => (result as { content: Array<{ text?: string }> }).content[0]?.text ?? '';

describe('an upstream server asks the agent through awf mcp-serve (elicitation) and logs to it', () => {
  it("passes the server's question on to an agent that takes elicitation, and its answer back", async () => {
    await withServe({ elicitation: {} }, async ({ client }) => {
      const asked: unknown[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params);
        return { action: 'accept', content: { username: 'ann', email: 'ann@example.com' } };
      });
      const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
      expect(result.isError).toBeFalsy();
      expect(text(result)).toContain('"username":"ann"');
      expect(asked).toEqual([expect.objectContaining({ message: 'Who are you?' })]);
    });
  });

  it('refuses the question in words when the agent cannot be asked, and the call fails with them', async () => {
    await withServe({}, async ({ client }) => {
      const result = await client.callTool({ name: 'test_elicitation', arguments: {} });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('does not take elicitation requests');
    });
  });

  it("passes the server's log messages on at the level the agent set", async () => {
    await withServe({}, async ({ client }) => {
      const logs: unknown[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      expect(logs).toEqual([]);
      await client.setLoggingLevel('info');
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      await new Promise((r) => setTimeout(r, 100));
      expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    });
  });
});
