// The floor for any MCP server built on the SDK: the low-level Server, stdio, one Read tool
// (file_path, offset, limit; `cat -n` numbering, as awf's Read answers) and nothing else —
// no framework, no validation beyond the SDK's own, no logging. The benchmark compares
// `awf mcp-serve` with it, so it must stay honest: same output bytes, no shortcuts.
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const root = process.argv[2] ?? process.cwd();
const server = new Server({ name: 'bare-read', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: 'Read',
      description: 'Reads a file, numbered like cat -n.',
      inputSchema: {
        type: 'object',
        properties: { file_path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } },
        required: ['file_path'],
      },
    },
  ],
}));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { file_path: file, offset = 1, limit = 2000 } = request.params.arguments ?? {};
  try {
    const text = await readFile(isAbsolute(file) ? file : resolve(root, file), 'utf8');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const start = Math.max(1, offset);
    const numbered = lines.slice(start - 1, start - 1 + limit).map((l, i) => `${String(start + i).padStart(6)}\t${l}`);
    return { content: [{ type: 'text', text: numbered.join('\n') }] };
  } catch (err) {
    return { content: [{ type: 'text', text: `Read failed: ${err.message}` }], isError: true };
  }
});

const transport = new StdioServerTransport();
process.stdin.once('end', () => void server.close());
await server.connect(transport);
