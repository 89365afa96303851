import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import type { UpstreamOAuthSpec } from '../../../domain/proxy/upstream-oauth';
import { AWF_VERSION } from '../../../version';
import type { OAuthCredentialsStore } from './oauth-credentials.store';

/** Where the authorization server sends the browser back, and what to do with its URL. */
export interface SignInChannel {
  redirectUrl: string;
  /** Sends a person to the authorization page (opens the browser, or prints the URL). */
  open(authorizationUrl: URL): void;
  /** The `state` the redirect must carry back. */
  state: string;
}

/**
 * The SDK's OAuth client for one server, persisted in awf's credentials store: discovery,
 * PKCE, Client ID Metadata Documents, dynamic registration, scope step-up and refresh are the
 * SDK's. A pre-registered client (`oauth.client_id`) is used as given. Without a sign-in
 * channel a flow that needs a person ends in the SDK's UnauthorizedError, which the caller words.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** PKCE's verifier and where discovery led, for the length of one sign-in (one process). */
  private verifier = '';
  private discovery?: OAuthDiscoveryState;

  constructor(
    private readonly oauth: UpstreamOAuthSpec,
    private readonly store: OAuthCredentialsStore,
    private readonly channel?: SignInChannel,
  ) {}

  /** Registered beforehand: a loopback address whose port may change at each sign-in (RFC 8252 §7.3). */
  get redirectUrl(): string {
    return this.channel?.redirectUrl ?? 'http://127.0.0.1/callback';
  }

  get clientMetadataUrl(): string | undefined {
    return this.oauth.client_metadata_url;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'awf',
      software_id: 'awf',
      software_version: AWF_VERSION,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.oauth.client_secret ? 'client_secret_basic' : 'none',
      ...(this.oauth.scopes ? { scope: this.oauth.scopes.join(' ') } : {}),
    };
  }

  state(): string {
    return this.channel?.state ?? randomBytes(16).toString('hex');
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    if (this.oauth.client_id) {
      return {
        client_id: this.oauth.client_id,
        ...(this.oauth.client_secret ? { client_secret: this.oauth.client_secret } : {}),
      };
    }
    const { client, tokens, issuer } = this.store.read();
    // The server moved to another authorization server (SEP-2352): its client is unknown there.
    if (ctx?.issuer && issuer && issuer !== ctx.issuer) return undefined;
    // A new sign-in from another port than the one registered: register again (a server may match
    // redirect URIs exactly). Tokens to refresh keep the client they were issued to; a client named
    // by its metadata document's URL (CIMD) has no registration to redo.
    const registered = (client as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    if (this.channel && registered && !tokens && !registered.includes(this.redirectUrl)) return undefined;
    return client;
  }

  /** Kept only from a sign-in: a run that cannot reach a person would keep a client it never uses. */
  saveClientInformation(client: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): void {
    if (!this.oauth.client_id && this.channel) this.store.update({ client, ...(ctx ? { issuer: ctx.issuer } : {}) });
  }

  /**
   * Read from the file on each request (the SDK asks before every one): a small read next to a
   * network round trip, and a token another process refreshed meanwhile (a parallel step) is
   * used at once instead of this one's rotated-out refresh token.
   */
  tokens(): StoredOAuthTokens | undefined {
    return this.store.read().tokens;
  }

  /**
   * Ends the flow the discovery state belonged to: a later 401 discovers afresh, so a server that
   * moved to another authorization server is followed there (SEP-2352).
   */
  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): void {
    this.store.update({ tokens, ...(ctx ? { issuer: ctx.issuer } : {}) });
    this.discovery = undefined;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.channel?.open(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  /** Binds the redirect's leg to the authorization server the flow started with (SEP-2352). */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') this.verifier = '';
    else if (scope === 'discovery') this.discovery = undefined;
    else this.store.forget(scope);
  }
}
