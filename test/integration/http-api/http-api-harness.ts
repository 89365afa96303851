import { keptApprovals } from '../../../src/infrastructure/policy/exact-approval.store';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, type TestingModule } from '@nestjs/testing';
import { ExecutionHub } from '../../../src/application/http-api/execution-hub.service';
import { WorkflowService } from '../../../src/application/workflow/workflow.service';
import { RUN_HISTORY, type RunHistory } from '../../../src/domain/ports/run-history.port';
import { RUN_INDEX, type RunIndex } from '../../../src/domain/ports/run-index.port';
import type { AppLogger } from '../../../src/domain/ports/app-logger.port';
import type { SecretMasker } from '../../../src/domain/ports/secret-masker.port';
import { APP_LOGGER, SECRET_MASKER } from '../../../src/domain/ports/tokens';
import { emptyProjectConfig } from '../../../src/infrastructure/config/project-config.loader';
import { ProjectConfigModule } from '../../../src/infrastructure/config/project-config.module';
import { AgentsModule } from '../../../src/infrastructure/agents/agents.module';
import { CoreModule } from '../../../src/infrastructure/core/core.module';
import { HistoryModule } from '../../../src/infrastructure/history/history.module';
import { WorkflowModule } from '../../../src/infrastructure/workflow/workflow.module';
import { ApprovalDesk } from '../../../src/infrastructure/policy/approval-desk';
import { PluginsModule } from '../../../src/infrastructure/plugins/plugins.module';
import { runsDir } from '../../../src/infrastructure/workflow/workflow-paths';
import { type HttpApiOptions, startHttpApi } from '../../../src/interfaces/http/http-api.server';

/**
 * A project of workflows in a scratch dir, with its own storage and config dirs, set in this
 * jest worker's environment for the describe block (as `awf serve` would find them), restored after.
 */
export function apiProject(workflows: Record<string, string>): { dir: string } {
  const project = { dir: '' };
  const saved: Record<string, string | undefined> = {};
  const vars = ['XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'AWF_WORKFLOWS_PATH', 'AWF_STORAGE'];
  beforeAll(() => {
    project.dir = mkdtempSync(join(tmpdir(), 'awf-http-api-'));
    mkdirSync(join(project.dir, 'workflows'));
    for (const [name, text] of Object.entries(workflows)) writeFileSync(join(project.dir, 'workflows', name), text);
    for (const v of vars) saved[v] = process.env[v];
    process.env.XDG_DATA_HOME = join(project.dir, 'data');
    process.env.XDG_CONFIG_HOME = join(project.dir, 'config');
    process.env.AWF_WORKFLOWS_PATH = join(project.dir, 'workflows');
    delete process.env.AWF_STORAGE;
  });
  afterAll(() => {
    for (const v of vars)
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    rmSync(project.dir, { recursive: true, force: true });
  });
  return project;
}

export interface ApiServer {
  url: string;
  hub: ExecutionHub;
  index: RunIndex;
  /** As SIGTERM does: stop accepting, cancel the runs in flight, end the streams, close. */
  stop(): Promise<void>;
}

/**
 * The API on a real socket (127.0.0.1, a port the system picks) over a Nest container wired as
 * `awf serve`'s: project config, core, plugins, agents, workflow and history modules. Each
 * server has its own container, so a second one over the same storage is a restart.
 */
export async function startApi(cwd: string, options: Partial<HttpApiOptions> = {}): Promise<ApiServer> {
  const app: TestingModule = await Test.createTestingModule({
    imports: [
      ProjectConfigModule.forRoot(emptyProjectConfig()),
      CoreModule,
      PluginsModule,
      AgentsModule,
      WorkflowModule,
      HistoryModule,
    ],
  }).compile();
  await app.init();
  const workflows = app.get(WorkflowService);
  const index = app.get<RunIndex>(RUN_INDEX);
  const masker = app.get<SecretMasker>(SECRET_MASKER);
  const logger = app.get<AppLogger>(APP_LOGGER);
  const desk = app.get(ApprovalDesk);
  const hub = new ExecutionHub(
    {
      workflows,
      index,
      masker,
      logger,
      defaults: () => ({ env: { PATH: process.env.PATH ?? '' }, cwd, runsDir: runsDir(), projectInputs: {} }),
      approvalTimeoutMs: desk.timeoutMs,
    },
    { followEveryMs: 100 },
  );
  desk.person = hub.approvals.ask; // as `awf serve` wires it
  const server = await startHttpApi(
    { hub, workflows, index, runs: app.get<RunHistory>(RUN_HISTORY), masker, logger, exactApprovals: keptApprovals() },
    { host: '127.0.0.1', port: 0, tokens: [], allowedHosts: [], ...options },
  );
  return {
    url: server.url,
    hub,
    index,
    stop: async () => {
      server.stopAccepting();
      await hub.stop(20_000);
      await server.close();
      await app.close();
    },
  };
}

/** `startApi` for the describe block that calls this: up in its beforeAll, stopped in its afterAll. */
export function servedApi(project: { dir: string }, options: () => Partial<HttpApiOptions> = () => ({})): ApiServer {
  let server: ApiServer | undefined;
  const up = (): ApiServer =>
    server ??
    (() => {
      throw new Error('the API is not up yet');
    })();
  beforeAll(async () => {
    server = await startApi(project.dir, options());
  });
  afterAll(() => server?.stop());
  return {
    get url() {
      return up().url;
    },
    get hub() {
      return up().hub;
    },
    get index() {
      return up().index;
    },
    stop: () => up().stop(),
  };
}

/** Polls until `check` holds (a run's status in the history, a listener count). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not so after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
