import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../support/cli';
import { callBuiltin } from '../support/builtin-e2e';
import { connectMcpServe, type McpSession } from '../support/mcp-client';

/** The step's policy enforced by a real `awf mcp-serve`, seen through the official SDK client. */
describe('tool policy through awf mcp-serve', () => {
  const project = scratchDir({ 'src/app.ts': 'export const a = 1;\n', 'README.md': '# hi\n' });
  const open: McpSession[] = [];
  const serve = async (layers: Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<McpSession> => {
    const session = await connectMcpServe(project.dir, { root_dir: project.dir, policy: { layers }, ...extra });
    open.push(session);
    return session;
  };
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
    project.cleanup();
  });

  it('does not offer a denied tool, and refuses it when called anyway', async () => {
    const session = await serve([
      { origin: '.awf/config.yaml', tools: { deny: ['Bash'] } },
      { origin: 'step review', tools: { allow: ['Read', 'Glob', 'Bash', 'Write'] } },
    ]);
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['Glob', 'Read', 'Write']);
    expect(await callBuiltin(session, 'Bash', { command: 'touch pwned' })).toEqual({
      isError: true,
      text: '[POLICY.TOOL_DENIED] the tool Bash is not allowed for this step.\nDecided by: .awf/config.yaml: tools.deny "Bash". Other tools and calls still work.',
    });
    expect(existsSync(join(project.dir, 'pwned'))).toBe(false);
    expect((await callBuiltin(session, 'Grep', { pattern: 'x' })).text).toMatch(
      /^\[POLICY\.TOOL_DENIED\].*step review: tools\.allow \(no pattern matches\)/s,
    );
    expect(await callBuiltin(session, 'Read', { file_path: 'README.md' })).toEqual({
      isError: false,
      text: '     1\t# hi',
    });
  });

  it('checks each simple command of a Bash line and refuses what it cannot parse', async () => {
    const session = await serve([
      { origin: 'step build', bash: { allow: ['echo *', 'ls*', 'true'], deny: ['touch *'] } },
    ]);
    expect(await callBuiltin(session, 'Bash', { command: 'echo one && ls src | true' })).toEqual({
      isError: false,
      text: 'one\n',
    });
    const substituted = await callBuiltin(session, 'Bash', { command: 'echo $(touch pwned)' });
    expect(substituted.text).toMatch(
      /^\[POLICY\.COMMAND_DENIED\] the command "touch pwned" is not allowed.*\nDecided by: step build: bash\.deny "touch \*"/s,
    );
    expect((await callBuiltin(session, 'Bash', { command: "echo ok; bash -c 'touch pwned'" })).isError).toBe(true);
    expect((await callBuiltin(session, 'Bash', { command: 'echo "unclosed' })).text).toMatch(
      /^\[POLICY\.COMMAND_DENIED\].*cannot be checked.*\nDecided by: bash: the command line must be parseable/s,
    );
    expect((await callBuiltin(session, 'Bash', { command: '$X' })).text).toMatch(/a command name must be written out/);
    expect(existsSync(join(project.dir, 'pwned'))).toBe(false);
  });

  it('counts budgets across tools and keeps serving past them', async () => {
    const session = await serve([{ origin: 'step s', budgets: { calls: 4, per_tool: { Read: 1 }, write_bytes: 10 } }]);
    expect((await callBuiltin(session, 'Read', { file_path: 'README.md' })).isError).toBe(false);
    expect((await callBuiltin(session, 'Read', { file_path: 'README.md' })).text).toMatch(
      /^\[POLICY\.BUDGET_EXCEEDED\] this step has used all 1 calls of Read.*\nDecided by: budgets\.per_tool\.Read 1/s,
    );
    expect(
      (await callBuiltin(session, 'Write', { file_path: 'src/big.txt', content: 'more than ten bytes' })).text,
    ).toMatch(/^\[POLICY\.BUDGET_EXCEEDED\] writing 19 more bytes.*budgets\.write_bytes 10/s);
    expect((await callBuiltin(session, 'Write', { file_path: 'src/small.txt', content: '12345' })).isError).toBe(false);
    expect((await callBuiltin(session, 'Glob', { pattern: '*.md' })).isError).toBe(false);
    expect((await callBuiltin(session, 'Glob', { pattern: '*.md' })).isError).toBe(false);
    expect((await callBuiltin(session, 'Glob', { pattern: '*.md' })).text).toMatch(
      /^\[POLICY\.BUDGET_EXCEEDED\] this step has used all 4 tool calls/s,
    );
    await expect(session.client.ping()).resolves.toEqual({});
  });

  it('caps Bash at what is left of bash_seconds, then refuses it', async () => {
    const session = await serve([{ origin: 'step s', budgets: { bash_seconds: 1 } }]);
    const first = await callBuiltin(session, 'Bash', { command: 'sleep 5', timeout: 60_000 });
    expect(first).toMatchObject({ isError: true });
    expect(first.text).toMatch(/^Command timed out after 1000 ms/);
    expect((await callBuiltin(session, 'Bash', { command: 'true' })).text).toMatch(
      /^\[POLICY\.BUDGET_EXCEEDED\] this step has used its 1 seconds of Bash/s,
    );
  });

  it('denies a call that needs approval when the proxy has no channel to its run', async () => {
    const session = await serve([{ origin: 'step s', approve: ['Write'] }]);
    const result = await callBuiltin(session, 'Write', { file_path: 'src/x.txt', content: 'x' });
    expect(result.text).toMatch(
      /^\[POLICY\.APPROVAL_DENIED\] Write needs a person's approval and this proxy has no approval channel.*\nDecided by: step s: approve "Write"/s,
    );
    expect(existsSync(join(project.dir, 'src/x.txt'))).toBe(false);
  });

  it('refuses a config whose policy is malformed, naming the field', async () => {
    await expect(serve([{ origin: 'x', tools: { allow: ['src/[x'] }, paths: { write: ['/etc'] } }])).rejects.toThrow();
  });
});
