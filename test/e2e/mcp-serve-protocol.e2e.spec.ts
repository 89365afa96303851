import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWF_MAIN, scratchDir } from '../support/cli';

/** The 2026-07-28 envelope every modern request carries in its `_meta`. */
const MODERN = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Writes `frames` to a real `awf mcp-serve`, closes its stdin, and reads every answer. */
function session(frames: object[]) {
  const project = scratchDir({ 'notes.txt': 'hello\n' });
  try {
    const config = join(project.dir, 'proxy.json');
    writeFileSync(
      config,
      JSON.stringify({ version: 1, intercept_builtins: true, plugin_tools: [], root_dir: project.dir }),
    );
    const run = spawnSync(process.execPath, [AWF_MAIN, 'mcp-serve', `--config=${config}`], {
      cwd: project.dir,
      input: frames.map((f) => `${JSON.stringify({ jsonrpc: '2.0', ...f })}\n`).join(''),
      env: { ...process.env, AWF_LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const answers = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown>; error?: { code: number } });
    return { status: run.status, answers, byId: (id: number) => answers.find((a) => a.id === id) };
  } finally {
    project.cleanup();
  }
}

const read = (id: number, meta?: object) => ({
  id,
  method: 'tools/call',
  params: { name: 'Read', arguments: { file_path: 'notes.txt' }, ...(meta ? { _meta: meta } : {}) },
});

describe('awf mcp-serve negotiates the MCP revision the client speaks', () => {
  it('serves a 2026-07-28 client: stateless server/discover, then calls that carry the revision in _meta', () => {
    const s = session([{ id: 1, method: 'server/discover', params: { _meta: MODERN } }, read(2, MODERN)]);
    expect(s.byId(1)?.result).toMatchObject({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} } });
    expect(JSON.stringify(s.byId(2)?.result)).toContain('1\\thello');
    expect(s.status).toBe(0);
  });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])(
    'serves a client that opens with initialize at %s',
    (version) => {
      const init = { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '1' } };
      const s = session([
        { id: 1, method: 'initialize', params: init },
        { method: 'notifications/initialized' },
        read(2),
        { id: 3, method: 'tools/call', params: { name: 'NoSuchTool', arguments: {} } },
      ]);
      expect(s.byId(1)?.result).toMatchObject({ protocolVersion: version, serverInfo: { name: 'awf-mcp-server' } });
      expect(JSON.stringify(s.byId(2)?.result)).toContain('1\\thello');
      expect(s.byId(3)?.error).toMatchObject({ code: -32602 });
      expect(s.status).toBe(0);
    },
  );

  it('answers the calls in flight when stdin closes, then exits 0', () => {
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    const s = session([{ id: 1, method: 'initialize', params: init }, ...[2, 3, 4, 5].map((id) => read(id))]);
    expect([2, 3, 4, 5].map((id) => Boolean(s.byId(id)?.result))).toEqual([true, true, true, true]);
    expect(s.status).toBe(0);
  });
});
