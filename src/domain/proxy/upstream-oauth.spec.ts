import type { ValidationIssue } from '../workflow/validation-issue.model';
import { parseUpstreamServer } from './upstream-server';
import { expandedServer } from './upstream-variables';

const parse = (oauth: unknown, extra: Record<string, unknown> = { url: 'https://mcp.example.com/mcp' }) => {
  const issues: ValidationIssue[] = [];
  const spec = parseUpstreamServer({ ...extra, oauth }, 'linear', 'mcp_servers.linear', issues);
  return { spec, problems: issues.map((i) => `${i.path}: ${i.message}`) };
};

describe("a remote MCP server's oauth settings in .awf/config.yaml", () => {
  it('takes a pre-registered client, a metadata document URL and scopes', () => {
    const oauth = {
      client_id: 'awf-cli',
      client_secret: '${LINEAR_SECRET}',
      client_metadata_url: 'https://awf.example.com/client.json',
      scopes: ['read', 'write'],
    };
    expect(parse(oauth)).toEqual({ spec: expect.objectContaining({ oauth }), problems: [] });
  });

  it('says what is wrong: unknown fields, a grant it does not know, unattended runs without credentials', () => {
    expect(parse({ clientid: 'x' }).problems).toEqual([
      expect.stringContaining('unknown oauth field(s): clientid (allowed: grant, client_id,'),
    ]);
    expect(parse({ grant: 'password' }).problems).toEqual([
      'mcp_servers.linear.oauth.grant: grant must be authorization_code or client_credentials, not "password"',
    ]);
    expect(parse({ grant: 'client_credentials', client_id: 'svc' }).problems).toEqual([
      'mcp_servers.linear.oauth: client_credentials needs one of client_secret and private_key_file',
    ]);
    expect(parse({ private_key_file: 'k.pem' }).problems).toEqual([
      'mcp_servers.linear.oauth.private_key_file: private_key_file is for grant: client_credentials',
    ]);
    expect(parse({}, { command: 'npx' }).problems).toEqual([
      'mcp_servers.linear.oauth: oauth is for remote servers (url)',
    ]);
  });

  it('expands ${NAME} in its credentials only where mcp-serve connects', () => {
    const { spec } = parse({ grant: 'client_credentials', client_id: 'svc', client_secret: '${SECRET}' });
    const full = { ...spec, name: 'linear' } as Parameters<typeof expandedServer>[0];
    expect(expandedServer(full, { SECRET: 's3cr3t' }).oauth).toEqual({
      grant: 'client_credentials',
      client_id: 'svc',
      client_secret: 's3cr3t',
    });
    expect(() => expandedServer(full, {})).toThrow('names unset environment variable: SECRET');
  });
});
