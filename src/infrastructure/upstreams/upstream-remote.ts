import {
  Client,
  ClientCredentialsProvider,
  type OAuthClientProvider,
  PrivateKeyJwtProvider,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { UpstreamServerSpec } from '../../domain/proxy/upstream-server';
import { LoopbackRedirect } from './oauth/loopback-redirect';
import { OAuthCredentialsStore } from './oauth/oauth-credentials.store';
import { type SignInChannel, StoredOAuthProvider } from './oauth/stored-oauth.provider';
import { refreshLockedFetch } from './oauth/token-refresh.lock';

/** The first POST's answers that mean "no Streamable HTTP here" (MCP's backwards-compatibility rule). */
const LEGACY_SSE_STATUSES = [400, 404, 405];
/** How long a person has to sign in in the browser. */
const SIGN_IN_MS = 5 * 60_000;
/** Sign-ins one request may ask for: the first, and one step-up to a broader scope. */
const MAX_SIGN_INS = 2;

/** How a remote server is reached: where its sign-in is kept, and whether a person may be asked. */
export interface RemoteAuth {
  /** `<data dir>/mcp-auth`; absent: no OAuth (the server's 401 is reported as it is). */
  dir?: string;
  /** `always` (awf mcp login), `browser` (only with $BROWSER set: a run), `never`. */
  signIn: 'always' | 'browser' | 'never';
  env: NodeJS.ProcessEnv;
}

/** A remote server's Client, and the sign-in that later calls may need again (a scope step-up). */
export interface RemoteConnection {
  client: Client;
  signIn?: RemoteSignIn;
}

/**
 * A connected Client of a remote server. Streamable HTTP first, legacy SSE only when the first
 * POST says the endpoint has none. A server that asks for OAuth gets it through the SDK, with
 * the tokens awf keeps; one that needs a person to sign in gets the browser flow where a person
 * can be reached, else a USER.MCP_PROXY.AUTH_REQUIRED naming `awf mcp login <server>`.
 */
export async function connectRemote(
  spec: UpstreamServerSpec,
  timeout: number,
  client: () => Client,
  log: AppLogger,
  auth: RemoteAuth,
): Promise<RemoteConnection> {
  const url = new URL(spec.url!);
  const requestInit = { headers: spec.headers ?? {} };
  const store =
    ownsAuthorization(spec) || !auth.dir ? undefined : new OAuthCredentialsStore(auth.dir, spec.name, url.href);
  const canAsk = auth.signIn === 'always' || (auth.signIn === 'browser' && !!auth.env.BROWSER);
  const signIn =
    store && canAsk ? new RemoteSignIn(spec.name, await LoopbackRedirect.start(spec.name), log) : undefined;
  const provider = store && oauthProvider(spec, store, signIn?.channel(auth.env));
  // Processes refreshing this server's token take turns (its refresh token may be single-use).
  const options = { requestInit, authProvider: provider, ...(store ? { fetch: refreshLockedFetch(store) } : {}) };
  let transport: Transport | undefined;
  const transports = {
    http: () => (transport = new StreamableHTTPClientTransport(url, options)),
    sse: () => (transport = new SSEClientTransport(url, options)),
  };
  try {
    const connected = signIn
      ? await signIn.retrying(
          () => transport,
          () => connectOnce(transports, timeout, client, log),
        )
      : await connectOnce(transports, timeout, client, log);
    return { client: connected, signIn };
  } catch (err) {
    signIn?.close();
    if (err instanceof UnauthorizedError && store) throw authRequired(spec);
    throw err;
  }
}

/** The browser flow of one server, kept with its connection: a call may need a broader scope later. */
export class RemoteSignIn {
  constructor(
    private readonly server: string,
    private readonly redirect: LoopbackRedirect,
    private readonly log: AppLogger,
  ) {}

  channel(env: NodeJS.ProcessEnv): SignInChannel {
    return this.redirect.channel(env);
  }

  /**
   * `op`, and when it fails because a person was sent to sign in (the SDK's UnauthorizedError
   * after the provider opened the page), the callback the browser brings back handed to the transport
   * that asked, then `op` again; at most MAX_SIGN_INS times, so a server that never accepts stops.
   */
  async retrying<T>(transport: () => Transport | undefined, op: () => Promise<T>): Promise<T> {
    for (let signIns = 0; ; signIns++) {
      try {
        return await op();
      } catch (err) {
        const asked = transport() as { finishAuth?: (callback: URLSearchParams) => Promise<void> } | undefined;
        if (!(err instanceof UnauthorizedError) || !asked?.finishAuth || signIns >= MAX_SIGN_INS) throw err;
        await asked.finishAuth(await this.redirect.callback(SIGN_IN_MS));
        this.log.info({ server: this.server }, 'signed in to MCP server');
      }
    }
  }

  close(): void {
    this.redirect.close();
  }
}

async function connectOnce(
  transports: { http: () => Transport; sse: () => Transport },
  timeout: number,
  client: () => Client,
  log: AppLogger,
): Promise<Client> {
  const first = client();
  try {
    await first.connect(transports.http(), { timeout });
    return first;
  } catch (err) {
    await first.close().catch(() => undefined);
    if (!(err instanceof SdkHttpError && LEGACY_SSE_STATUSES.includes(err.status))) throw err;
    log.debug({ reason: (err as Error).message }, 'no Streamable HTTP; trying the legacy SSE transport');
  }
  const second = client();
  await second.connect(transports.sse(), { timeout });
  return second;
}

/** client_credentials by secret or signed key (unattended), else the sign-in a person does once. */
function oauthProvider(
  spec: UpstreamServerSpec,
  store: OAuthCredentialsStore,
  channel?: SignInChannel,
): OAuthClientProvider {
  const oauth = spec.oauth ?? {};
  if (oauth.grant !== 'client_credentials') return new StoredOAuthProvider(oauth, store, channel);
  const scope = oauth.scopes?.join(' ');
  if (oauth.private_key_file) {
    const privateKey = readFileSync(oauth.private_key_file, 'utf8');
    return new PrivateKeyJwtProvider({
      clientId: oauth.client_id!,
      privateKey,
      algorithm: jwtAlgorithm(privateKey),
      scope,
    });
  }
  return new ClientCredentialsProvider({ clientId: oauth.client_id!, clientSecret: oauth.client_secret!, scope });
}

/** The JWS algorithm a key signs with: RS256 for RSA, ES256/384/512 by curve, EdDSA. */
function jwtAlgorithm(pem: string): string {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : 'ES256';
  }
  return key.asymmetricKeyType === 'ed25519' ? 'EdDSA' : 'RS256';
}

/** A server given its own `Authorization` header is the user's to authorize. */
function ownsAuthorization(spec: UpstreamServerSpec): boolean {
  return Object.keys(spec.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
}

function authRequired(spec: UpstreamServerSpec): AwfError {
  return new AwfError(
    ErrorCodes.MCP_AUTH_REQUIRED,
    `MCP server "${spec.name}" asks for OAuth sign-in and awf has no usable token for it`,
    { server: spec.name },
    `Sign in once with \`awf mcp login ${spec.name}\` (or set $BROWSER so a run can open the sign-in page); ` +
      'for unattended runs give the server `oauth: {grant: client_credentials, client_id, client_secret}`.',
  );
}
