import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CHANGING_TOOLS_SERVER } from '../support/upstream-servers';
import { withUpstreamServe } from './upstream-serve';
import { awf } from './workflow-support';

jest.setTimeout(180_000);

describe("an upstream server's tools/list_changed, through awf mcp-serve", () => {
  it('is passed on to the client; a new tool waits for awf mcp trust; the policy applies to the new list', async () => {
    await withUpstreamServe(
      { name: 'changing', command: process.execPath, args: [CHANGING_TOOLS_SERVER] },
      'changing_secret_*',
      async (session, project) => {
        let changes = 0;
        let told: () => void = () => undefined;
        session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
          changes++;
          told();
        });
        const nextChange = () => new Promise<void>((resolve) => (told = resolve));
        const names = async () => (await session.client.listTools()).tools.map((t) => t.name);
        expect(session.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
        expect(await names()).toEqual(['changing_add_tool', 'changing_remove_tool']);

        // A tool new on a server whose tools are pinned is a change: hidden and refused until trusted.
        let change = nextChange();
        await session.client.callTool({ name: 'changing_add_tool', arguments: { name: 'extra' } });
        await change;
        expect(await names()).toEqual(['changing_add_tool', 'changing_remove_tool']);
        const unpinned = await session.client.callTool({ name: 'changing_extra', arguments: {} });
        expect(unpinned.isError).toBe(true);
        expect(JSON.stringify(unpinned.content)).toContain('POLICY.TOOL_CHANGED');
        expect(JSON.stringify(unpinned.content)).toContain('awf mcp trust changing');
        const trust = awf(['--storage', 'store', 'mcp', 'trust', 'changing'], { cwd: project.dir, env: project.env });
        expect(trust.status).toBe(0);
        expect(trust.stdout).toContain('+ extra (new)');

        // The next listing (the server's next change) serves what was trusted, and hides what is new again.
        change = nextChange();
        await session.client.callTool({ name: 'changing_add_tool', arguments: { name: 'later' } });
        await change;
        expect(await names()).toEqual(['changing_add_tool', 'changing_extra', 'changing_remove_tool']);
        expect(await session.client.callTool({ name: 'changing_extra', arguments: {} })).toMatchObject({
          content: [{ type: 'text', text: 'I am extra' }],
        });

        // A tool the policy denies is not offered when it appears, and a call to it is refused.
        change = nextChange();
        await session.client.callTool({ name: 'changing_add_tool', arguments: { name: 'secret_dump' } });
        await change;
        expect(await names()).not.toContain('changing_secret_dump');
        const denied = await session.client.callTool({ name: 'changing_secret_dump', arguments: {} });
        expect(denied.isError).toBe(true);
        expect(JSON.stringify(denied.content)).toContain('POLICY.TOOL_DENIED');

        change = nextChange();
        await session.client.callTool({ name: 'changing_remove_tool', arguments: { name: 'extra' } });
        await change;
        expect(await names()).toEqual(['changing_add_tool', 'changing_remove_tool']);
        expect(changes).toBe(4);
      },
    );
  });
});
