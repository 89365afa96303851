import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { SignInChannel } from './stored-oauth.provider';

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>awf</title><p style="font:16px sans-serif">${text}</p>`;

/** What the browser came back with: the callback's query (`code`, and `iss` per RFC 9207), or why not. */
type Outcome = { callback: URLSearchParams } | { error: AwfError };

/**
 * The browser's way back from the authorization server (RFC 8252's loopback redirect): an HTTP
 * server on 127.0.0.1 and a random port, for as long as a connection may need a person to sign
 * in (a scope step-up asks again). Only redirects carrying the `state` awf sent are taken; one
 * that comes before awf waits for it is kept.
 */
export class LoopbackRedirect {
  readonly state = randomBytes(16).toString('hex');
  private readonly arrived: Outcome[] = [];
  private waiting?: (outcome: Outcome) => void;

  private constructor(
    private readonly http: Server,
    readonly redirectUrl: string,
    private readonly server: string,
  ) {
    http.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', redirectUrl);
      if (url.pathname !== '/callback' || url.searchParams.get('state') !== this.state) {
        res.writeHead(400, { 'content-type': 'text/html' }).end(PAGE('Not a sign-in awf is waiting for.'));
        return;
      }
      const code = url.searchParams.get('code');
      const error = url.searchParams.get('error');
      res
        .writeHead(code ? 200 : 400, { 'content-type': 'text/html' })
        .end(PAGE(code ? `Signed in to ${server}: you can close this tab.` : `Sign-in failed: ${error}`));
      const outcome = code
        ? { callback: url.searchParams }
        : { error: this.refused(error, url.searchParams.get('error_description')) };
      if (this.waiting) this.waiting(outcome);
      else this.arrived.push(outcome);
    });
  }

  static async start(server: string): Promise<LoopbackRedirect> {
    const http = createServer();
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const { port } = http.address() as AddressInfo;
    return new LoopbackRedirect(http, `http://127.0.0.1:${port}/callback`, server);
  }

  /** The provider's side: where to come back to, and how a person gets to the authorization page. */
  channel(env: NodeJS.ProcessEnv): SignInChannel {
    return { redirectUrl: this.redirectUrl, state: this.state, open: (url) => openBrowser(url, this.server, env) };
  }

  /**
   * The query of the next callback the browser comes back with, for the SDK's `finishAuth`: the
   * code, and the `iss` it checks against the authorization server (RFC 9207); an error after `ms`.
   */
  async callback(ms: number): Promise<URLSearchParams> {
    let timer: NodeJS.Timeout | undefined;
    const outcome =
      this.arrived.shift() ??
      (await new Promise<Outcome>((resolve) => {
        this.waiting = resolve;
        timer = setTimeout(() => resolve({ error: this.late(ms) }), ms);
      }).finally(() => {
        clearTimeout(timer);
        this.waiting = undefined;
      }));
    if ('error' in outcome) throw outcome.error;
    return outcome.callback;
  }

  close(): void {
    this.http.close();
    this.http.closeAllConnections();
  }

  private late(ms: number): AwfError {
    return new AwfError(
      ErrorCodes.MCP_AUTH_REQUIRED,
      `no sign-in to MCP server "${this.server}" within ${Math.round(ms / 1000)} s`,
      { server: this.server },
      `Run \`awf mcp login ${this.server}\` and finish signing in in the browser.`,
    );
  }

  private refused(error: string | null, description: string | null): AwfError {
    return new AwfError(
      ErrorCodes.MCP_AUTH_REQUIRED,
      `the authorization server of MCP server "${this.server}" refused the sign-in: ${error}` +
        (description ? ` (${description})` : ''),
      { server: this.server, error },
      `Run \`awf mcp login ${this.server}\` again; check the account and the scopes it may grant.`,
    );
  }
}

/** `$BROWSER <url>` (a command, as xdg-open and git read it), else the URL on stderr for a person to open. */
function openBrowser(url: URL, server: string, env: NodeJS.ProcessEnv): void {
  if (env.BROWSER) {
    // The URL as an argument of the shell, never part of the command it parses.
    spawn('/bin/sh', ['-c', `${env.BROWSER} "$1"`, 'sh', url.href], { stdio: 'ignore', detached: true, env }).unref();
    return;
  }
  process.stderr.write(`To sign in to MCP server "${server}", open this URL in a browser:\n  ${url.href}\n`);
}
