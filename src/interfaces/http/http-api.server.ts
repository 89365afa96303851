import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { serveApiDocs } from './api-docs';
import type { HttpApiContext } from './http-api.context';
import { HttpApiModule } from './http-api.module';
import { ApiProblem, type ApiRequest, type Next, sendProblem } from './problem';
import { ProblemFilter } from './problem.filter';
import { DashboardSessions } from './dashboard/dashboard-sessions';
import { serveDashboard } from './dashboard/dashboard.assets';
import { CALLER, checkHost, checkRequest, type KnownCaller, type SecurityOptions } from './request-security';

/** A request body larger than this is refused (413) before it is parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpApiOptions extends SecurityOptions {
  port: number;
  /** The web dashboard's files (awf's `dashboard/` folder); without it, the API alone. */
  dashboardDir?: string;
  /** The proxy's tools over Streamable HTTP, mounted at `/mcp` behind the same gate. */
  mcp?: { handle(req: ApiRequest, res: ServerResponse, caller?: string): Promise<void> };
}

export interface RunningHttpApi {
  /** `http://<host>:<port>` as bound (the port the system chose for `--port 0`). */
  url: string;
  port: number;
  /** Stops accepting connections; those open stay until `close`. */
  stopAccepting(): void;
  /** Closes every connection and the edge's container. */
  close(): Promise<void>;
}

/**
 * Starts AWF's HTTP API on Nest's Express platform: a small container of its own for the
 * routes, fed the CLI container's services (`context`), behind the gate of request-security.ts.
 * In order: Host, CORS (only with --cors-origin), the dashboard's files, token (or the
 * dashboard's session) and cross-site checks, the JSON body (1 MiB), the OpenAPI document and
 * its page (api-docs.ts), the routes; every failure is an RFC 7807 problem.
 */
export async function startHttpApi(context: HttpApiContext, options: HttpApiOptions): Promise<RunningHttpApi> {
  const sessions = new DashboardSessions();
  const gate = { ...options, sessions };
  const module = HttpApiModule.register(context, sessions);
  const app = await NestFactory.create<NestExpressApplication>(module, new ExpressAdapter(), {
    logger: false,
    bodyParser: false,
    abortOnError: false,
  });
  app.disable('x-powered-by');
  app.use(checkHost(options));
  if (options.corsOrigin)
    app.enableCors({ origin: options.corsOrigin, allowedHeaders: ['authorization', 'content-type', 'last-event-id'] });
  if (options.dashboardDir) app.use(serveDashboard(options.dashboardDir));
  app.use(checkRequest(gate));
  // Before the body parser: the MCP handler reads its request itself.
  const mcp = options.mcp;
  if (mcp) app.use('/mcp', (req: KnownCaller, res: ServerResponse) => void mcp.handle(req, res, req[CALLER]));
  app.useBodyParser('json', { limit: MAX_BODY_BYTES });
  app.use(bodyErrors);
  app.use(logRequests(context));
  app.useGlobalFilters(new ProblemFilter(context));
  serveApiDocs(app);
  try {
    await app.listen(options.port, options.host);
  } catch (err) {
    await app.close().catch(() => undefined);
    throw cannotListen(options, err);
  }
  const server = app.getHttpServer() as Server;
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    stopAccepting: () => server.close(),
    close: async () => {
      server.closeAllConnections();
      await app.close();
    },
  };
}

/** body-parser's refusals, as problems: too large (413), not JSON (400), an encoding it cannot read (415). */
function bodyErrors(err: { type?: string; message?: string }, _req: ApiRequest, res: ServerResponse, next: Next): void {
  const refusal =
    err.type === 'entity.too.large'
      ? new ApiProblem(413, ErrorCodes.SERVE_BAD_REQUEST, `the request body is over ${MAX_BODY_BYTES} bytes`)
      : err.type === 'entity.parse.failed'
        ? new ApiProblem(
            400,
            ErrorCodes.SERVE_BAD_REQUEST,
            'the request body is not valid JSON (an object is expected)',
          )
        : err.type === 'encoding.unsupported' || err.type === 'charset.unsupported'
          ? new ApiProblem(415, ErrorCodes.SERVE_BAD_REQUEST, err.message ?? 'unsupported body encoding')
          : undefined;
  if (refusal) sendProblem(res, refusal);
  else next(err);
}

/** One debug line per request once answered: method, path (no query: it may hold filters only), status, time. */
function logRequests(context: HttpApiContext) {
  return (req: ApiRequest, res: ServerResponse, next: Next): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () =>
      context.logger.debug(
        {
          method: req.method,
          path: (req.url ?? '').split('?')[0],
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'http api: request',
      ),
    );
    next();
  };
}

function cannotListen(o: HttpApiOptions, err: unknown): AwfError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'EADDRINUSE'
      ? 'the port is in use'
      : code === 'EACCES'
        ? 'the port needs privileges'
        : code === 'EADDRNOTAVAIL'
          ? 'this machine has no such address'
          : String((err as Error).message ?? err);
  return new AwfError(
    ErrorCodes.SERVE_CANNOT_LISTEN,
    `cannot listen on ${o.host}:${o.port}: ${why}`,
    { host: o.host, port: o.port, ...(code ? { errno: code } : {}) },
    'Pick another --port (0 lets the system choose one), or stop whatever holds this one.',
    { cause: err },
  );
}
