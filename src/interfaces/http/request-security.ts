import type { ServerResponse } from 'node:http';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { type ApiToken, tokenOwner } from './api-tokens';
import type { DashboardSessions } from './dashboard/dashboard-sessions';
import { ApiProblem, type ApiRequest, type Next, sendProblem } from './problem';

export interface SecurityOptions {
  /** The address the server is bound to. */
  host: string;
  /** Host names (or `name:port`) a request may address besides the bound address and localhost. */
  allowedHosts: readonly string[];
  /** Empty: no token asked (loopback only; the command refuses anything else). */
  tokens: readonly ApiToken[];
  /** The one web origin allowed to call the API from a browser (CORS), if any. */
  corsOrigin?: string;
  /** The dashboard's signed-in browsers: a session cookie stands for its owner's token. */
  sessions?: DashboardSessions;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);
const WILDCARDS = new Set(['0.0.0.0', '::', '']);
const CHANGES_STATE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The API's description and its page (api-docs.ts serves them). They need no token: they hold
 * no data (the same document is in the package), and a browser cannot send a bearer header to
 * a page. The Host check still applies.
 */
export const DOCS_PATHS = { page: '/docs', json: '/openapi.json', yaml: '/openapi.yaml' } as const;

/** Express routes regardless of case; the page's assets are single file names under /docs/. */
function isDocs(req: ApiRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = (req.url ?? '').split('?')[0].toLowerCase();
  return (
    path === DOCS_PATHS.json ||
    path === DOCS_PATHS.yaml ||
    path === DOCS_PATHS.page ||
    /^\/docs\/([a-z0-9][a-z0-9._-]*)?$/.test(path)
  );
}

/** Who made the request: the name of its token, or `local` on a server that asks for none. */
export const CALLER = Symbol('awf.caller');
export type KnownCaller = ApiRequest & { [CALLER]?: string };

/** `Host: name` or `name:port` or `[v6]:port` → `{name, port}`, lower-case. */
export function hostOf(header: string | undefined): { name: string; port?: string } | undefined {
  if (!header) return undefined;
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(header.trim().toLowerCase());
  return m ? { name: m[1] ?? m[2], port: m[3] } : undefined;
}

/**
 * DNS rebinding: a page of another site whose name now points at this machine still sends its
 * own name as Host. Only the bound address, localhost, and the --allowed-host names get in
 * (421 Misdirected Request otherwise), whatever the route.
 */
export function checkHost(o: SecurityOptions) {
  const bound = o.host.toLowerCase().replace(/^\[|\]$/g, '');
  return (req: ApiRequest, res: ServerResponse, next: Next): void => {
    const host = hostOf(req.headers.host);
    const ok =
      host &&
      (LOOPBACK_NAMES.has(host.name) ||
        (!WILDCARDS.has(bound) && host.name === bound) ||
        o.allowedHosts.some((a) => allowed(a, host)));
    if (ok) return next();
    sendProblem(
      res,
      new ApiProblem(
        421,
        ErrorCodes.SERVE_WRONG_HOST,
        `this server does not answer for host "${req.headers.host ?? ''}"`,
        {
          hint: 'Use the address awf serve printed; behind a reverse proxy, start it with --allowed-host <public name>.',
        },
      ),
    );
  };
}

/**
 * The rest of the gate, for every request whatever its path (Express matches routes without
 * regard to case: a gate keyed on `/api` would let `/API/…` through): the bearer token or a
 * dashboard session's cookie (401), then, for a request that changes state, that it came from
 * no other site (403) and carries JSON if anything (415). Reading the docs (DOCS_PATHS) needs
 * no token.
 */
export function checkRequest(o: SecurityOptions) {
  return (req: KnownCaller, res: ServerResponse, next: Next): void => {
    if (isDocs(req)) return next();
    if (o.tokens.length) {
      const name = tokenOwner(o.tokens, req.headers.authorization) ?? o.sessions?.who(req.headers.cookie);
      if (!name) {
        const problem = new ApiProblem(
          401,
          ErrorCodes.SERVE_UNAUTHORIZED,
          'this API needs an Authorization: Bearer <token> header',
          {
            hint: "Send a token from the server's AWF_API_TOKEN or --token-file.",
          },
        );
        return sendProblem(res, problem, { 'www-authenticate': 'Bearer realm="awf"' });
      }
      req[CALLER] = name;
    } else req[CALLER] = 'local';
    if (!CHANGES_STATE.has(req.method ?? '')) return next();
    const refusal = crossSite(req, o.corsOrigin);
    if (refusal) return sendProblem(res, new ApiProblem(403, ErrorCodes.SERVE_CROSS_SITE, refusal));
    if (hasBody(req) && !isJson(req.headers['content-type']))
      return sendProblem(
        res,
        new ApiProblem(
          415,
          ErrorCodes.SERVE_BAD_REQUEST,
          'a request body must be JSON (Content-Type: application/json)',
        ),
      );
    next();
  };
}

function allowed(entry: string, host: { name: string; port?: string }): boolean {
  const want = hostOf(entry);
  return !!want && want.name === host.name && (want.port === undefined || want.port === host.port);
}

/** Why the request looks cross-site; undefined when it came from this server's own pages or no browser. */
function crossSite(req: ApiRequest, corsOrigin: string | undefined): string | undefined {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (origin !== undefined && corsOrigin !== undefined && origin === corsOrigin) return undefined;
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none')
    return `a ${site} request may not change state here (Sec-Fetch-Site: ${site})`;
  if (origin === undefined) return undefined;
  const from = hostOf(safeUrlHost(origin));
  const to = hostOf(req.headers.host);
  if (from && to && from.name === to.name && from.port === to.port) return undefined;
  return `a request from ${origin} may not change state here; --cors-origin names the one web origin that may`;
}

function safeUrlHost(origin: string): string | undefined {
  try {
    return new URL(origin).host || undefined;
  } catch {
    return undefined;
  }
}

function hasBody(req: ApiRequest): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

function isJson(type: string | undefined): boolean {
  return (type ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}
