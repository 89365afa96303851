import { MCP_CATALOGS, type McpCatalogFactory } from '../../../domain/ports/mcp-catalog.port';
import { Inject } from '@nestjs/common';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { Command, CommandRunner, Option } from 'nest-commander';
import { ExecutionHub } from '../../../application/http-api/execution-hub.service';
import { QueuedRuns } from '../../../application/queue/queued-runs.service';
import { WorkflowService } from '../../../application/workflow/workflow.service';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { AppLogger } from '../../../domain/ports/app-logger.port';
import { RUN_HISTORY, type RunHistory } from '../../../domain/ports/run-history.port';
import { RUN_INDEX, type RunIndex } from '../../../domain/ports/run-index.port';
import { RUN_QUEUES, type RunQueues } from '../../../domain/ports/run-queue.port';
import type { SecretMasker } from '../../../domain/ports/secret-masker.port';
import { TELEMETRY_CONTROL, type TelemetryControl } from '../../../domain/ports/telemetry-control.port';
import { APP_LOGGER, SECRET_MASKER, TOOL_ROUTER_FACTORY } from '../../../domain/ports/tokens';
import type { ProjectConfig } from '../../../infrastructure/config/project-config.loader';
import { PROJECT_CONFIG } from '../../../infrastructure/config/project-config.module';
import { awfPackageRoot } from '../../../infrastructure/core/awf-package-root';
import type { ToolRouterFactory } from '../../../domain/ports/tool-router-factory.port';
import { ProcessSignals } from '../../../infrastructure/core/process-signals.service';
import { ApprovalDesk } from '../../../infrastructure/policy/approval-desk';
import { SocketApprovalChannels } from '../../../infrastructure/policy/approval-channels.service';
import { resolveTelemetrySettings } from '../../../infrastructure/telemetry/telemetry-settings';
import { runsDir } from '../../../infrastructure/workflow/workflow-paths';
import { loadApiTokens } from '../../http/api-tokens';
import { globalFlags } from '../global-flags';
import { keptApprovals } from '../../../infrastructure/policy/exact-approval.store';
import { openServeMcp } from './serve-mcp';
import { openServeQueue } from './serve-queue';
import { stringEnv } from '../run/run-session.command-base';

interface ServeOptions {
  mcpProfile?: string;
  host?: string;
  port?: number;
  tokenFile?: string;
  allowedHost?: string[];
  corsOrigin?: string;
  queue?: string | true;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * `awf serve`: AWF's HTTP API over this container's WorkflowService and run history, until
 * SIGTERM or SIGINT; then it stops accepting, cancels the runs it started (recorded as
 * cancelled, so they can be resumed), ends the event streams and exits 0. docs/serve.md.
 */
@Command({
  name: 'serve',
  description: "Serve AWF's HTTP API: start runs, follow their events, read the history (docs/serve.md)",
})
export class ServeCommand extends CommandRunner {
  constructor(
    private readonly workflows: WorkflowService,
    private readonly signals: ProcessSignals,
    private readonly approvals: ApprovalDesk,
    @Inject(RUN_INDEX) private readonly index: RunIndex,
    @Inject(RUN_HISTORY) private readonly runs: RunHistory,
    @Inject(SECRET_MASKER) private readonly masker: SecretMasker,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    @Inject(TELEMETRY_CONTROL) private readonly telemetry: TelemetryControl,
    @Inject(PROJECT_CONFIG) private readonly project: ProjectConfig,
    @Inject(TOOL_ROUTER_FACTORY) private readonly routers: ToolRouterFactory,
    @Inject(MCP_CATALOGS) private readonly catalogs: McpCatalogFactory,
    @Inject(RUN_QUEUES) private readonly queues: RunQueues,
    private readonly queued: QueuedRuns,
  ) {
    super();
  }

  async run(_args: string[], options: ServeOptions): Promise<void> {
    const host = options.host ?? '127.0.0.1';
    const envToken = process.env.AWF_API_TOKEN;
    const tokens = loadApiTokens(envToken, options.tokenFile);
    if (envToken) this.masker.add(envToken);
    if (!LOOPBACK.has(host) && tokens.length === 0)
      throw new AwfError(
        ErrorCodes.SERVE_UNSAFE_BIND,
        `awf serve will not listen on ${host} without an API token: anyone who reaches it could run workflows`,
        { host },
        'Set AWF_API_TOKEN or pass --token-file (docs/serve.md), or keep --host 127.0.0.1 behind a reverse proxy.',
      );
    await this.index.list({ limit: 1 }); // the executions live in the history: without it, no server
    await this.telemetry.start(resolveTelemetrySettings({ project: this.project.telemetry }));
    const env = stringEnv(process.env);
    delete env.AWF_API_TOKEN; // the server's secret is no step's business
    const queue = await openServeQueue(options.queue, this.queues, this.queued);
    const hub = new ExecutionHub({
      workflows: this.workflows,
      index: this.index,
      masker: this.masker,
      logger: this.logger,
      defaults: () => ({ env: { ...env }, cwd: process.cwd(), runsDir: runsDir(), projectInputs: this.project.inputs }),
      approvalTimeoutMs: this.approvals.timeoutMs,
      runOn: queue?.runOn,
    });
    // Nobody sits at this terminal: a call that needs a person waits for one over HTTP.
    this.approvals.mode = 'ask';
    this.approvals.person = hub.approvals.ask;
    const mcp = await openServeMcp(
      this.project,
      options.mcpProfile ?? 'default',
      { routers: this.routers, catalogs: this.catalogs },
      new SocketApprovalChannels(this.approvals),
      (err) => this.logger.warn({ err: this.masker.mask(err.message) }, 'mcp endpoint: request failed'),
    );
    const closeMcpApprovals = hub.openChannel(mcp.channel);
    // Required here, not imported: only `awf serve` loads Express and the API's routes.
    const { startHttpApi } = require('../../http/http-api.server') as typeof import('../../http/http-api.server');
    const server = await startHttpApi(
      {
        hub,
        workflows: this.workflows,
        index: this.index,
        runs: this.runs,
        masker: this.masker,
        logger: this.logger,
        exactApprovals: keptApprovals(),
      },
      {
        host,
        port: options.port ?? 2511,
        tokens,
        allowedHosts: options.allowedHost ?? [],
        corsOrigin: options.corsOrigin,
        dashboardDir: join(awfPackageRoot(), 'dashboard'),
        mcp: mcp.endpoint,
      },
    ).catch(async (err: unknown) => {
      await mcp.close(); // its upstream servers are running: nothing is left behind
      await queue?.close();
      throw err;
    });
    const say = (line: string): void => {
      if (!globalFlags(this.command).quiet) process.stdout.write(`${line}\n`);
    };
    // One write, so that whoever waits for the first line has both.
    say(
      `AWF API server listening on ${server.url}${tokens.length ? ' (token required)' : ''}\n` +
        `MCP endpoint ${server.url}/mcp (${mcp.summary})` +
        (queue ? `\nRuns go to the workers of ${queue.label}` : ''),
    );
    await this.signals.stopped();
    say('Shutting down server...');
    server.stopAccepting();
    await hub.stop();
    closeMcpApprovals();
    await mcp.close();
    await queue?.close();
    await server.close();
    say('Server stopped.');
  }

  @Option({
    flags: '--mcp-profile <name>',
    description: 'what /mcp serves: a profile of .awf/config.yaml (default: Read, Glob, Grep and the mcp_servers)',
  })
  parseMcpProfile(value: string): string {
    return value;
  }

  @Option({ flags: '--host <address>', description: 'address to listen on (default 127.0.0.1; others need a token)' })
  parseHost(value: string): string {
    if (value === 'localhost' || isIP(value)) return value;
    throw usage(`--host "${value}" is not an IP address`, 'Give one such as 127.0.0.1, ::1 or 0.0.0.0.');
  }

  @Option({ flags: '--port <port>', description: 'port to listen on (default 2511; 0: any free one)' })
  parsePort(value: string): number {
    const port = Number(value);
    if (/^\d+$/.test(value) && port <= 65535) return port;
    throw usage(`--port "${value}" is not a port number`, 'Give a number from 0 to 65535.');
  }

  @Option({
    flags: '--token-file <file>',
    description: 'bearer tokens, one `name token` line per client (mode 600); also AWF_API_TOKEN',
  })
  parseTokenFile(value: string): string {
    return value;
  }

  @Option({
    flags: '--allowed-host <name>',
    description: 'a Host name (or name:port) to answer besides the bound address and localhost (repeatable)',
  })
  parseAllowedHost(value: string, previous: string[] = []): string[] {
    return [...previous, value];
  }

  @Option({ flags: '--cors-origin <origin>', description: 'the one web origin allowed to call the API (CORS)' })
  parseCorsOrigin(value: string): string {
    try {
      const url = new URL(value);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value) return value;
    } catch {
      // refused below
    }
    throw usage(
      `--cors-origin "${value}" is not an origin`,
      'Give scheme, host and port only: https://ops.example.com',
    );
  }

  @Option({
    flags: '--queue [url]',
    description:
      "send the runs to a queue's workers (redis://… or postgres://…; alone: AWF_QUEUE_URL; docs/scale-out.md)",
  })
  parseQueue(value?: string): string | true {
    return value ?? true;
  }
}

function usage(message: string, hint: string): AwfError {
  return new AwfError(ErrorCodes.CLI_INVALID_ARGS, message, {}, hint);
}
