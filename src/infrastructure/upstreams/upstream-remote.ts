import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AwfError } from '../../domain/errors/awf-error';
import type { AppLogger } from '../../domain/ports/app-logger.port';
import type { UpstreamSdk } from './upstream-sdk';

/**
 * A remote server's connected Client: Streamable HTTP first; a server that refuses it (a 4xx
 * to the POST) is tried over legacy SSE, as the SDK's own backwards-compatible clients do.
 */
export async function connectRemote(
  sdk: UpstreamSdk,
  url: URL,
  headers: Record<string, string>,
  timeout: number,
  client: () => Client,
  log: AppLogger,
): Promise<Client> {
  const requestInit = { headers };
  const first = client();
  try {
    await bounded(first.connect(new sdk.StreamableHTTPClientTransport(url, { requestInit }), { timeout }), timeout);
    return first;
  } catch (err) {
    await first.close().catch(() => undefined);
    const status = (err as { code?: unknown }).code;
    if (err instanceof AwfError || !(typeof status === 'number' && status >= 400 && status < 500)) throw err;
    log.debug({ reason: (err as Error).message }, 'Streamable HTTP refused; trying the legacy SSE transport');
  }
  const second = client();
  await bounded(
    second.connect(
      new sdk.SSEClientTransport(url, {
        requestInit,
        eventSourceInit: {
          fetch: (u, init) =>
            fetch(u, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } }),
        },
      }),
      { timeout },
    ),
    timeout,
  );
  return second;
}

/** A start that does not finish within the server's timeout fails, naming it. */
export async function bounded<T>(promise: Promise<T>, ms: number, onTimeout?: () => Promise<void>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void onTimeout?.();
      reject(new Error(`no answer to initialize within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
