import { runAwf, scratchDir } from '../support/cli';

jest.setTimeout(60_000);

const line = (message: object): string => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
const INIT = line({ id: 0, method: 'initialize', params: { protocolVersion: 1 } });

/** The wire itself, as an editor that gets things wrong would write it: one JSON-RPC message a line. */
describe('awf acp-serve on the wire', () => {
  const p = scratchDir({ 'acp.yaml': '{}\n' });
  afterAll(() => p.cleanup());
  const serve = (input: string) =>
    runAwf(['acp-serve', '--config', 'acp.yaml'], { cwd: p.dir, input, timeout: 30_000 });
  const answers = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));

  it('answers a line that is not JSON with -32700 (id null) and goes on; stdout holds only protocol', () => {
    const r = serve(`not json\n[1, 2]\n${INIT}`);
    expect(r.status).toBe(0);
    const out = answers(r.stdout);
    expect(out).toContainEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    // ACP has no batches: an array is one -32600 answer.
    expect(out.filter((m) => m.id === null).map((m) => m.error.code)).toEqual([-32700, -32600]);
    expect(out.find((m) => m.id === 0).result).toMatchObject({ protocolVersion: 1, agentInfo: { name: 'awf' } });
  });

  it('closes the connection on a line over 10 MiB, saying so on stderr', () => {
    const huge = line({
      id: 2,
      method: 'initialize',
      params: { protocolVersion: 1, pad: 'a'.repeat(11 * 1024 * 1024) },
    });
    const r = serve(huge);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/exceeds the configured 10485760 byte limit; the connection is closed/);
  });
});
