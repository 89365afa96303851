import { isPlainObject } from '../model/plain-object';

/**
 * How awf signs in to a remote MCP server that asks for OAuth (MCP's authorization spec). Without
 * it a server that answers 401 still gets the flow: discovery, then a client registered
 * dynamically, and a person signing in (`awf mcp login <server>`).
 */
export interface UpstreamOAuthSpec {
  /** `authorization_code` (default: a person signs in) or `client_credentials` (unattended runs). */
  grant?: 'authorization_code' | 'client_credentials';
  /** A client registered with the authorization server beforehand; else dynamic registration. */
  client_id?: string;
  client_secret?: string;
  /** client_credentials signed with a private key (private_key_jwt) instead of a secret: a PEM file. */
  private_key_file?: string;
  /** A Client ID Metadata Document's URL, preferred over dynamic registration where the server takes it. */
  client_metadata_url?: string;
  /** Scopes to ask for; default: those the server names in WWW-Authenticate or its metadata. */
  scopes?: string[];
}

export const UPSTREAM_OAUTH_KEYS = [
  'grant',
  'client_id',
  'client_secret',
  'private_key_file',
  'client_metadata_url',
  'scopes',
] as const;

type Bad = (path: string, message: string) => void;

/** The `oauth` field of a server definition; problems are reported through `bad`. */
export function parseUpstreamOAuth(raw: unknown, at: string, bad: Bad): UpstreamOAuthSpec | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isPlainObject(raw)) {
    bad(at, 'oauth must be a mapping (grant, client_id, client_secret, private_key_file, client_metadata_url, scopes)');
    return undefined;
  }
  const unknown = Object.keys(raw).filter((k) => !(UPSTREAM_OAUTH_KEYS as readonly string[]).includes(k));
  if (unknown.length)
    bad(at, `unknown oauth field(s): ${unknown.join(', ')} (allowed: ${UPSTREAM_OAUTH_KEYS.join(', ')})`);
  const spec: UpstreamOAuthSpec = {};
  for (const key of ['client_id', 'client_secret', 'private_key_file', 'client_metadata_url'] as const) {
    const v = raw[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || v === '') bad(`${at}.${key}`, `${key} must be a non-empty string`);
    else spec[key] = v;
  }
  if (raw.grant !== undefined && raw.grant !== 'authorization_code' && raw.grant !== 'client_credentials')
    bad(`${at}.grant`, `grant must be authorization_code or client_credentials, not ${JSON.stringify(raw.grant)}`);
  else if (raw.grant) spec.grant = raw.grant;
  if (raw.scopes !== undefined) {
    if (!Array.isArray(raw.scopes) || raw.scopes.some((s) => typeof s !== 'string' || !s))
      bad(`${at}.scopes`, 'scopes must be a list of strings');
    else spec.scopes = raw.scopes as string[];
  }
  if (spec.client_metadata_url !== undefined && !/^https?:\/\//.test(spec.client_metadata_url))
    bad(`${at}.client_metadata_url`, 'client_metadata_url must be an http(s) URL');
  if (spec.grant === 'client_credentials') {
    if (!spec.client_id) bad(at, 'client_credentials needs client_id');
    if (!spec.client_secret === !spec.private_key_file)
      bad(at, 'client_credentials needs one of client_secret and private_key_file');
  } else if (spec.private_key_file) {
    bad(`${at}.private_key_file`, 'private_key_file is for grant: client_credentials');
  }
  return spec;
}

/** The oauth fields that may hold `${NAME}`. */
export const OAUTH_VARIABLE_KEYS = ['client_id', 'client_secret', 'private_key_file'] as const;
