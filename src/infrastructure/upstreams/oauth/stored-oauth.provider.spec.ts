import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAuthCredentialsStore } from './oauth-credentials.store';
import { StoredOAuthProvider } from './stored-oauth.provider';

describe('the OAuth client awf signs in with: which registered client a sign-in uses', () => {
  let dir: string;
  let store: OAuthCredentialsStore;
  const channel = { redirectUrl: 'http://127.0.0.1:4242/callback', state: 's', open: () => undefined };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'awf-oauth-'));
    store = new OAuthCredentialsStore(dir, 'linear', 'https://mcp.example.com/mcp');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a client registered for another loopback port is registered again; tokens to refresh keep theirs', () => {
    store.update({ client: { client_id: 'c1', redirect_uris: ['http://127.0.0.1:9999/callback'] } as never });
    expect(new StoredOAuthProvider({}, store, channel).clientInformation()).toBeUndefined();
    store.update({ tokens: { access_token: 'a', token_type: 'bearer', refresh_token: 'r' } });
    expect(new StoredOAuthProvider({}, store, channel).clientInformation()).toMatchObject({ client_id: 'c1' });
  });

  it('a client named by its metadata document (no registration) and a pre-registered one are used as they are', () => {
    store.update({ client: { client_id: 'https://awf.example.com/client.json' } });
    expect(new StoredOAuthProvider({}, store, channel).clientInformation()).toEqual({
      client_id: 'https://awf.example.com/client.json',
    });
    expect(new StoredOAuthProvider({ client_id: 'team', client_secret: 'x' }, store).clientInformation()).toEqual({
      client_id: 'team',
      client_secret: 'x',
    });
  });

  it('keeps a registration only from a sign-in, and its file is 0600', () => {
    new StoredOAuthProvider({}, store).saveClientInformation({ client_id: 'from-a-run' });
    expect(store.read().client).toBeUndefined();
    new StoredOAuthProvider({}, store, channel).saveClientInformation({ client_id: 'signed-in' });
    expect(store.read().client).toEqual({ client_id: 'signed-in' });
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
  });

  it('a server that moved to another authorization server registers there anew and discovers afresh', () => {
    const provider = new StoredOAuthProvider({}, store, channel);
    provider.saveClientInformation({ client_id: 'at-as1' }, { issuer: 'https://as1.example.com' });
    expect(provider.clientInformation({ issuer: 'https://as1.example.com' })).toEqual({ client_id: 'at-as1' });
    expect(provider.clientInformation({ issuer: 'https://as2.example.com' })).toBeUndefined();
    provider.saveDiscoveryState({ authorizationServerUrl: 'https://as1.example.com' } as never);
    provider.saveTokens({ access_token: 'a', token_type: 'bearer' }, { issuer: 'https://as1.example.com' });
    expect(provider.discoveryState()).toBeUndefined();
  });
});
