import { defaultMcpProfile, parseMcpProfiles } from './mcp-profiles';

describe('mcp_profiles of .awf/config.yaml', () => {
  const parse = (raw: Record<string, unknown>) => parseMcpProfiles(raw, '.awf/config.yaml', ['memory', 'github']);

  it("fills a profile's omitted tools and servers with the default profile's", () => {
    expect(defaultMcpProfile(['memory'])).toEqual({ tools: ['Read', 'Glob', 'Grep'], servers: ['memory'] });
    expect(parse({ writer: { tools: ['Read', 'Write'], policy: { paths: { deny: ['secret/**'] } } } })).toEqual({
      writer: { tools: ['Read', 'Write'], servers: ['memory', 'github'], policy: { paths: { deny: ['secret/**'] } } },
    });
    expect(parse({ none: { tools: [], servers: [] } })).toEqual({ none: { tools: [], servers: [] } });
  });

  it('names what is wrong: an unknown tool, server or key, and a bad policy', () => {
    expect(() => parse({ a: { tools: ['Fetch'] } })).toThrow(/mcp_profiles\.a\.tools: "Fetch" is not a built-in tool/);
    expect(() => parse({ a: { servers: ['gitlab'] } })).toThrow(
      /mcp_profiles\.a\.servers: "gitlab" is not one of mcp_servers/,
    );
    expect(() => parse({ a: { tool: ['Read'] } })).toThrow(/mcp_profiles\.a has unknown key tool/);
    expect(() => parse({ a: ['Read'] })).toThrow(/mcp_profiles\.a must be a mapping/);
    expect(() => parse({ a: { policy: { tools: 'Read' } } })).toThrow(/mcp_profiles\.a\.policy/);
  });
});
