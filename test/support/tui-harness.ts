import { Test, type TestingModule } from '@nestjs/testing';
import { createElement as h } from 'react';
import { WorkflowService } from '../../src/application/workflow/workflow.service';
import { RUN_INDEX, type RunIndex } from '../../src/domain/ports/run-index.port';
import type { SecretMasker } from '../../src/domain/ports/secret-masker.port';
import { SECRET_MASKER } from '../../src/domain/ports/tokens';
import { ProjectConfigModule } from '../../src/infrastructure/config/project-config.module';
import { AgentsModule } from '../../src/infrastructure/agents/agents.module';
import { CoreModule } from '../../src/infrastructure/core/core.module';
import { ToolsModule } from '../../src/infrastructure/tools/tools.module';
import { HistoryModule } from '../../src/infrastructure/history/history.module';
import { ApprovalDesk } from '../../src/infrastructure/policy/approval-desk';
import { WorkflowModule } from '../../src/infrastructure/workflow/workflow.module';
import { loadInk } from '../../src/interfaces/tui/ink.loader';
import type { TuiServices } from '../../src/interfaces/tui/tui-services';
import { tuiServices } from '../../src/interfaces/tui/tui-services.factory';
import { App } from '../../src/interfaces/tui/views/app.view';
import { scratchDir } from './cli';
import { untilOnScreen } from './screen-wait';

/** Keys as a terminal sends them. */
export const KEY = { enter: '\r', esc: '\x1b', tab: '\t', up: '\x1b[A', down: '\x1b[B', backspace: '\x7f' };

/**
 * The tui's App over real services (a Nest container with the modules `awf tui` runs workflows
 * with: the built-in tools, agents, workflows, history; workflows found in a scratch dir through
 * AWF_WORKFLOWS_PATH, history and run files under AWF_STORAGE there; an agent step's proxy is
 * the built `dist/main.js mcp-serve`, so `npm run build` comes first),
 * drawn by ink-testing-library. Built in the describe block's beforeAll, closed in its afterAll.
 */
export function tuiHarness(workflows: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  const scratch = scratchDir(Object.fromEntries(Object.entries(workflows).map(([n, y]) => [`workflows/${n}.yaml`, y])));
  const saved = { AWF_WORKFLOWS_PATH: process.env.AWF_WORKFLOWS_PATH, AWF_STORAGE: process.env.AWF_STORAGE };
  const state: { app?: TestingModule; services?: TuiServices; unmount: Array<() => void> } = { unmount: [] };
  beforeAll(async () => {
    process.env.AWF_WORKFLOWS_PATH = `${scratch.dir}/workflows`;
    process.env.AWF_STORAGE = `${scratch.dir}/storage`;
    await loadInk();
    state.app = await Test.createTestingModule({
      imports: [ProjectConfigModule.forRoot(), CoreModule, ToolsModule, WorkflowModule, AgentsModule, HistoryModule],
    }).compile();
    await state.app.init();
    const workflowService = state.app.get(WorkflowService);
    state.services = tuiServices({
      workflows: workflowService,
      index: state.app.get<RunIndex>(RUN_INDEX),
      masker: state.app.get<SecretMasker>(SECRET_MASKER),
      defaults: () => ({ env: {}, cwd: scratch.dir, runsDir: `${scratch.dir}/storage/runs`, projectInputs: {} }),
      env,
    });
    // As `awf tui` sets it: a policy approval is asked on the run's input line.
    const desk = state.app.get(ApprovalDesk);
    desk.mode = 'ask';
    desk.person = state.services.runs.approve;
  });
  afterEach(async () => {
    state.unmount.splice(0).forEach((u) => u());
    await state.services?.runs.stop();
  });
  afterAll(async () => {
    await state.app?.close();
    Object.assign(process.env, saved);
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    scratch.cleanup();
  });
  return {
    dir: scratch.dir,
    services: () => state.services as TuiServices,
    masker: () => state.app?.get<SecretMasker>(SECRET_MASKER) as SecretMasker,
    /** Draws the App; `screen()` is the last frame; `press` types keys; `until` waits for text. */
    async draw() {
      const { render } = await import('ink-testing-library');
      const view = render(h(App, { services: state.services as TuiServices }));
      state.unmount.push(view.unmount);
      const screen = (): string => view.lastFrame() ?? '';
      // A frame is drawn before React runs its effects, where Ink moves the keys to the focused
      // field: what is typed right after a frame waits for them, as a person's next key would.
      const until = async (text: string | RegExp | ((s: string) => boolean), ms = 15_000): Promise<string> => {
        const shown = await untilOnScreen(screen, text, ms, 20);
        await new Promise((r) => setTimeout(r, 50));
        return shown;
      };
      const press = async (...keys: string[]): Promise<void> => {
        for (const k of keys) {
          view.stdin.write(k);
          // Ink reads a lone ESC after a short wait (it could start a sequence); give every key a turn.
          await new Promise((r) => setTimeout(r, k === KEY.esc ? 80 : 30));
        }
      };
      /** `/`, the text, enter: the tab's filter, kept once its field has let go of the keys. */
      const filter = async (text: string): Promise<void> => {
        await press('/');
        await until('enter keep');
        await press(...text, KEY.enter);
        await until((s) => !s.includes('enter keep'));
      };
      return { screen, until, press, filter };
    },
  };
}
