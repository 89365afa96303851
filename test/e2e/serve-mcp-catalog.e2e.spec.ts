import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { serve, type Served } from '../support/awf-serve';
import { workflowProject } from './workflow-support';

jest.setTimeout(120_000);

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const CONFIG = `mcp_servers:
  everything:
    command: node
    args: [${JSON.stringify(EVERYTHING)}, stdio]
`;

describe("awf serve's /mcp passes on an upstream server's prompts, resources and completions", () => {
  const project = workflowProject({ '.awf/config.yaml': CONFIG });
  let server: Served;
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exit;
    project.cleanup();
  });

  it('as the server gives them, audited, with its resource updates reaching a subscribed session', async () => {
    server = await serve(project);
    const client = new ClientV1({ name: 'catalog', version: '1.0.0' });
    const transport = new TransportV1(new URL(`${server.url}/mcp`));
    await client.connect(transport);
    expect(client.getServerCapabilities()).toMatchObject({
      prompts: {},
      resources: { subscribe: true },
      completions: {},
    });

    // Prompt names get the server's prefix, as its tools do; resource URIs stay.
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['everything_simple-prompt']));
    const got = await client.getPrompt({ name: 'everything_args-prompt', arguments: { city: 'Oslo' } });
    expect(JSON.stringify(got.messages)).toContain('Oslo');
    const completed = await client.complete({
      ref: { type: 'ref/prompt', name: 'everything_completable-prompt' },
      argument: { name: 'department', value: 'Sa' },
    });
    expect(completed.completion.values).toEqual(['Sales']);

    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    const read = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
    expect(read.contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/7' });
    // A prompt no server has: the server's own error, passed on.
    await expect(client.getPrompt({ name: 'everything_nope' })).rejects.toThrow(/nope/);

    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    await client.subscribeResource({ uri: 'demo://resource/dynamic/text/7' });
    await client.callTool({ name: 'everything_toggle-subscriber-updates', arguments: {} });
    expect(await updated).toBe('demo://resource/dynamic/text/7');
    await client.unsubscribeResource({ uri: 'demo://resource/dynamic/text/7' });
    await transport.terminateSession();
    await client.close();

    const audit = readFileSync(join(project.env.XDG_DATA_HOME, 'awf', 'serve', 'mcp.events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool: 'prompts/get', source: 'mcp:everything', status: 'ok' }),
        expect.objectContaining({ tool: 'prompts/get', status: 'error', args_shape: { name: 'nope' } }),
        expect.objectContaining({
          tool: 'resources/read',
          source: 'mcp:everything',
          args_shape: { uri: 'demo://resource/dynamic/text/7' },
        }),
      ]),
    );
  });

  it("keeps a session's resource updates when another session on the same URI leaves", async () => {
    // The first test turned the upstream's updates on (every 5 s to its subscribed URIs).
    const uri = 'demo://resource/dynamic/text/8';
    const open = async () => {
      const client = new ClientV1({ name: 'catalog', version: '1.0.0' });
      const transport = new TransportV1(new URL(`${server.url}/mcp`));
      await client.connect(transport);
      await client.subscribeResource({ uri });
      return { client, transport };
    };
    const [a, b] = [await open(), await open()];
    await a.client.unsubscribeResource({ uri });
    await a.transport.terminateSession();
    await a.client.close();
    const updated = new Promise<string>((resolve) =>
      b.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)),
    );
    expect(await updated).toBe(uri);
    await b.transport.terminateSession();
    await b.client.close();
  }, 30_000);

  it("merges several servers' listings, each prompt going to its own server", async () => {
    const two = workflowProject({
      '.awf/config.yaml': `${CONFIG}  other:\n    command: node\n    args: [${JSON.stringify(EVERYTHING)}, stdio]\n`,
    });
    const served = await serve(two);
    try {
      const client = new ClientV1({ name: 'catalog', version: '1.0.0' });
      await client.connect(new TransportV1(new URL(`${served.url}/mcp`)));
      const { prompts } = await client.listPrompts();
      const names = prompts.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(['everything_args-prompt', 'other_args-prompt']));
      const got = await client.getPrompt({ name: 'other_args-prompt', arguments: { city: 'Bergen' } });
      expect(JSON.stringify(got.messages)).toContain('Bergen');
      // Every page of each server, merged into one listing: no cursor to follow.
      const { resources, nextCursor } = await client.listResources();
      expect(nextCursor).toBeUndefined();
      expect(resources.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      served.child.kill('SIGTERM');
      await served.exit;
      two.cleanup();
    }
  });
});
