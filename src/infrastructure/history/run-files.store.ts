import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { awfDirs } from '../../application/workflow/run/awf-dirs';
import { dirname, join, resolve } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { ToolCallEvent } from '../../domain/model/tool-call-event';
import { summarizeToolCalls } from '../../domain/model/tool-call-summary';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { RunHistory, RunRecord, RunRecordMeta, StepEvents } from '../../domain/ports/run-history.port';

const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const EVENTS_SUFFIX = '.events.jsonl';

/**
 * `$AWF_STORAGE/runs`, else `$XDG_DATA_HOME/awf/runs`, else `~/.local/share/awf/runs`: the
 * same lookup `awf run` uses when it allocates a run's directory.
 */
export function runsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(storageRoot(env), 'runs');
}

/** The storage dir (`--storage`): runs/, history.db. */
export function storageRoot(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(awfDirs(env).data_dir);
}

/**
 * Runs kept on disk, one directory each: `run.json` and one `<step>.events.jsonl` per step.
 * Without a fixed root, the root is read from the environment at each call ($AWF_STORAGE, which
 * `--storage` sets): a process that changes it between runs, as the tests do, gets the new one.
 */
export class RunFilesStore implements RunHistory {
  constructor(
    private readonly fixedRoot?: string,
    private readonly masker?: SecretMasker,
  ) {}

  private get root(): string {
    return this.fixedRoot ?? runsRoot();
  }

  allocate(runId: string): string {
    const dir = this.dirOf(runId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  eventsPath(runId: string, step: string): string {
    return join(this.dirOf(runId), `${step.replace(/[^A-Za-z0-9_-]/g, '_')}${EVENTS_SUFFIX}`);
  }

  startEvents(path: string): void {
    if (!existsSync(path)) return;
    try {
      renameSync(path, `${path.slice(0, -EVENTS_SUFFIX.length)}.before-${Date.now()}${EVENTS_SUFFIX}`);
    } catch {
      // Counted twice at worst: the record must never cost the run.
    }
  }

  readEvents(path: string): ToolCallEvent[] {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return [];
    }
    return text.split('\n').flatMap((line) => {
      if (!line.trim()) return [];
      try {
        const event = JSON.parse(line) as ToolCallEvent;
        return typeof event.tool === 'string' && typeof event.duration_ms === 'number' ? [event] : [];
      } catch {
        return [];
      }
    });
  }

  appendEvents(path: string, events: readonly ToolCallEvent[]): void {
    if (events.length === 0) return;
    try {
      // The step's mcp-serve makes the file on its first call; a step that only bypassed it has none.
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      appendFileSync(path, events.map((e) => JSON.stringify(e) + '\n').join(''), { mode: 0o600 });
    } catch {
      // The audit trail is a record; losing a line must not turn a finished step into a crash.
    }
  }

  saveMeta(meta: RunRecordMeta, dir: string = this.dirOf(meta.run_id)): void {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = join(dir, 'run.json');
    const temp = join(dir, `.run.json.${process.pid}.${Date.now()}.tmp`);
    // Run state is written by awf like its output: every secret value masked.
    const text = JSON.stringify(meta, null, 2) + '\n';
    writeFileSync(temp, this.masker ? this.masker.mask(text) : text, { mode: 0o600 });
    renameSync(temp, target);
  }

  load(runId: string): RunRecord {
    const dir = this.dirOf(runId);
    if (!existsSync(dir)) throw notFound(runId, this.root);
    const meta = this.readMeta(dir, runId);
    const files = readdirSync(dir).filter((f) => f.endsWith(EVENTS_SUFFIX));
    const steps: StepEvents[] = files.map((file) => {
      const events = this.readEvents(join(dir, file)).sort((a, b) =>
        a.start < b.start ? -1 : a.start > b.start ? 1 : 0,
      );
      return {
        step: events[0]?.step ?? file.slice(0, -EVENTS_SUFFIX.length),
        summary: summarizeToolCalls(events),
        events,
      };
    });
    steps.sort((a, b) => (a.events[0]?.start ?? '').localeCompare(b.events[0]?.start ?? ''));
    return { meta, dir, steps };
  }

  private readMeta(dir: string, runId: string): RunRecordMeta {
    try {
      return { ...(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunRecordMeta), run_id: runId };
    } catch {
      return { run_id: runId };
    }
  }

  dirOf(runId: string): string {
    if (!RUN_ID.test(runId)) {
      throw new AwfError(
        ErrorCodes.RUN_NOT_FOUND,
        `"${runId}" is not a run id`,
        { run_id: runId },
        'Run ids are printed by `awf run`; they use letters, digits, ".", "_" and "-".',
      );
    }
    return join(this.root, runId);
  }
}

function notFound(runId: string, root: string): AwfError {
  return new AwfError(
    ErrorCodes.RUN_NOT_FOUND,
    `no run "${runId}" in ${root}`,
    { run_id: runId, runs_dir: root },
    'Use the run id that `awf run` printed; runs are kept under $XDG_DATA_HOME/awf/runs.',
  );
}
