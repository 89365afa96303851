import { clientConfigFile, mergeEntry, renderEntry } from './mcp-client-entry';

const LAUNCH = {
  command: '/usr/bin/node',
  args: ['--snapshot-blob', '/c/a "b".blob', '/pkg/dist/main.js', 'mcp-serve', '--config=/cfg/awf.json'],
};

describe('MCP client entries', () => {
  it('renders each client’s own shape', () => {
    expect(JSON.parse(renderEntry('json', 'awf', LAUNCH))).toEqual({
      mcpServers: { awf: { command: LAUNCH.command, args: LAUNCH.args } },
    });
    expect(JSON.parse(renderEntry('claude', 'awf', LAUNCH))).toEqual({
      mcpServers: { awf: { type: 'stdio', command: LAUNCH.command, args: LAUNCH.args, env: {} } },
    });
    expect(JSON.parse(renderEntry('gemini', 'awf', LAUNCH))).toEqual({
      mcpServers: { awf: { command: LAUNCH.command, args: LAUNCH.args } },
    });
    expect(JSON.parse(renderEntry('opencode', 'awf', LAUNCH))).toEqual({
      mcp: { awf: { type: 'local', command: [LAUNCH.command, ...LAUNCH.args], enabled: true } },
    });
    expect(renderEntry('codex', 'awf', LAUNCH)).toBe(
      '[mcp_servers.awf]\ncommand = "/usr/bin/node"\n' +
        'args = ["--snapshot-blob", "/c/a \\"b\\".blob", "/pkg/dist/main.js", "mcp-serve", "--config=/cfg/awf.json"]\n',
    );
  });

  it('renders each client’s entry by URL, the token an environment reference in its own syntax', () => {
    const target = { url: 'http://127.0.0.1:2511/mcp', tokenVar: 'AWF_API_TOKEN' };
    const http = { type: 'http', url: target.url, headers: { Authorization: 'Bearer ${AWF_API_TOKEN}' } };
    expect(JSON.parse(renderEntry('claude', 'awf', target))).toEqual({ mcpServers: { awf: http } });
    expect(JSON.parse(renderEntry('json', 'awf', target))).toEqual({ mcpServers: { awf: http } });
    expect(JSON.parse(renderEntry('gemini', 'awf', target))).toEqual({
      mcpServers: { awf: { httpUrl: target.url, headers: { Authorization: 'Bearer $AWF_API_TOKEN' } } },
    });
    expect(JSON.parse(renderEntry('opencode', 'awf', target))).toEqual({
      mcp: {
        awf: {
          type: 'remote',
          url: target.url,
          headers: { Authorization: 'Bearer {env:AWF_API_TOKEN}' },
          enabled: true,
        },
      },
    });
    expect(renderEntry('codex', 'awf', target)).toBe(
      '[mcp_servers.awf]\nurl = "http://127.0.0.1:2511/mcp"\nbearer_token_env_var = "AWF_API_TOKEN"\n',
    );
    const before = '[mcp_servers.awf]\ncommand = "node"\nargs = []\n\n[other]\nx = 1\n';
    expect(mergeEntry('codex', before, 'awf', target, 'f')).toBe(
      '[other]\nx = 1\n\n[mcp_servers.awf]\nurl = "http://127.0.0.1:2511/mcp"\nbearer_token_env_var = "AWF_API_TOKEN"\n',
    );
  });

  it('merges into a JSON config, keeping every other key and server, replacing its own', () => {
    const before = JSON.stringify({ theme: 'dark', mcpServers: { other: { command: 'x' }, awf: { command: 'old' } } });
    expect(JSON.parse(mergeEntry('gemini', before, 'awf', LAUNCH, 'f'))).toEqual({
      theme: 'dark',
      mcpServers: { other: { command: 'x' }, awf: { command: LAUNCH.command, args: LAUNCH.args } },
    });
    expect(JSON.parse(mergeEntry('opencode', undefined, 'awf', LAUNCH, 'f'))).toEqual({
      mcp: { awf: expect.objectContaining({ type: 'local' }) },
    });
  });

  it('refuses a JSON file it would damage, naming it', () => {
    expect(() => mergeEntry('opencode', '{ // mine\n "a": 1 }', 'awf', LAUNCH, '/h/opencode.json')).toThrow(
      expect.objectContaining({
        code: 'USER.CONFIG.INVALID',
        message: expect.stringContaining('/h/opencode.json is not plain JSON'),
      }),
    );
    expect(() => mergeEntry('json', '[1]', 'awf', LAUNCH, '/p/.mcp.json')).toThrow(/is not a JSON object/);
    expect(() => mergeEntry('json', '{"mcpServers": []}', 'awf', LAUNCH, '/p/.mcp.json')).toThrow(
      /mcpServers must be an object/,
    );
  });

  it('replaces its own TOML table and sub-tables, and keeps every other line byte for byte', () => {
    const before = [
      'model = "gpt-5"  # mine',
      '',
      '[mcp_servers.awf]',
      'command = "old"',
      '[mcp_servers.awf.env]',
      'A = "1"',
      '[mcp_servers.other]',
      'command = "x"',
      '[profiles.p]',
      'model = "o3"',
      '',
    ].join('\n');
    const after = mergeEntry('codex', before, 'awf', LAUNCH, 'config.toml');
    expect(after).toBe(
      [
        'model = "gpt-5"  # mine',
        '',
        '[mcp_servers.other]',
        'command = "x"',
        '[profiles.p]',
        'model = "o3"',
        '',
        renderEntry('codex', 'awf', LAUNCH),
      ].join('\n'),
    );
    expect(mergeEntry('codex', after, 'awf', LAUNCH, 'config.toml')).toBe(after);
    expect(mergeEntry('codex', undefined, 'awf', LAUNCH, 'config.toml')).toBe(renderEntry('codex', 'awf', LAUNCH));
  });

  it('refuses a TOML config that defines the server some other way', () => {
    expect(() => mergeEntry('codex', 'mcp_servers.awf.command = "x"\n', 'awf', LAUNCH, '/h/config.toml')).toThrow(
      /dotted keys or an inline table/,
    );
    expect(() =>
      mergeEntry('codex', 'mcp_servers = { awf = { command = "x" } }\n', 'awf', LAUNCH, '/h/config.toml'),
    ).toThrow(/dotted keys or an inline table/);
  });

  it('names the file each client reads', () => {
    const env = { HOME: '/h' };
    expect(clientConfigFile('json', '/p', env)).toBe('/p/.mcp.json');
    expect(clientConfigFile('claude', '/p', env)).toBe('/h/.claude.json');
    expect(clientConfigFile('codex', '/p', env)).toBe('/h/.codex/config.toml');
    expect(clientConfigFile('codex', '/p', { ...env, CODEX_HOME: '/cx' })).toBe('/cx/config.toml');
    expect(clientConfigFile('gemini', '/p', env)).toBe('/h/.gemini/settings.json');
    expect(clientConfigFile('opencode', '/p', { ...env, XDG_CONFIG_HOME: '/x' })).toBe('/x/opencode/opencode.json');
  });
});
