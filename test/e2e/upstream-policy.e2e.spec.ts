import { SERVER_EVERYTHING } from '../support/upstream-servers';
import { withUpstreamServe } from './upstream-serve';

jest.setTimeout(180_000);

describe("the step policy applies to an upstream server's tools as to the built-ins", () => {
  it('a policy denying everything_get-sum hides it from tools/list and refuses a call to it', async () => {
    await withUpstreamServe(
      {
        name: 'everything',
        command: process.execPath,
        args: [SERVER_EVERYTHING, 'stdio'],
        expose: ['echo', 'get-sum'],
      },
      'everything_get-sum',
      async (session) => {
        const { tools } = await session.client.listTools();
        expect(tools.map((t) => t.name)).toEqual(['everything_echo']);
        expect(
          await session.client.callTool({ name: 'everything_echo', arguments: { message: 'allowed' } }),
        ).toMatchObject({ content: [{ text: 'Echo: allowed' }] });
        const denied = await session.client
          .callTool({ name: 'everything_get-sum', arguments: { a: 1, b: 2 } })
          .catch((e: Error) => ({ isError: true, content: [{ text: e.message }] }));
        expect(denied.isError).toBe(true);
        expect(JSON.stringify(denied.content)).toContain('POLICY.TOOL_DENIED');
      },
    );
  });
});
