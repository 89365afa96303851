import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowService } from '../../../src/application/workflow/workflow.service';
import type { RunObserver } from '../../../src/domain/workflow/ports/run-observer.port';
import type { RunReport } from '../../../src/domain/workflow/run-report.model';
export { processesWith } from '../../e2e/workflow-support';
import { wiredWorkflowService } from '../../support/wired-workflow-service';

/** A Nest-wired WorkflowService over a real shell, with a scratch dir per test and a recording observer. */
export function flowHarness() {
  const wired = wiredWorkflowService();
  const h = {
    get service(): WorkflowService {
      return wired.service;
    },
    dir: '',
    lines: [] as string[],
    /** Writes `files` (name → text) into the scratch dir, then runs `wf.yaml` (or `target`). */
    async run(
      yaml: string,
      opts: {
        inputs?: Record<string, string>;
        signal?: AbortSignal;
        files?: Record<string, string>;
        target?: string;
      } = {},
    ): Promise<RunReport> {
      writeFileSync(join(h.dir, 'wf.yaml'), yaml);
      for (const [name, text] of Object.entries(opts.files ?? {})) writeFileSync(join(h.dir, name), text);
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: h.dir };
      const observer: RunObserver = {
        stepStarted: (s) => h.lines.push(`start ${s}`),
        stepFinished: (r) => h.lines.push(`${r.status} ${r.name}`),
        warn: (m) => h.lines.push(`warning: ${m}`),
        log: (m) => h.lines.push(`log: ${m}`),
      };
      return h.service.run({
        target: join(h.dir, opts.target ?? 'wf.yaml'),
        inputs: opts.inputs ?? {},
        signal: opts.signal ?? new AbortController().signal,
        cwd: h.dir,
        env,
        runsDir: join(h.dir, 'runs'),
        observer,
      });
    },
    read: (name: string) => readFileSync(join(h.dir, name), 'utf8'),
    files: () => readdirSync(h.dir),
  };
  beforeEach(() => {
    h.dir = mkdtempSync(join(tmpdir(), 'awf-flow-'));
    h.lines = [];
  });
  afterEach(() => rmSync(h.dir, { recursive: true, force: true }));
  return h;
}

export const statuses = (r: RunReport): string[] => r.steps.map((s) => `${s.name}:${s.status}`).sort();
