import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import { issue } from '../../domain/workflow/validation-issue.model';
import type {
  LoadedWorkflow,
  WorkflowRepository,
  WorkflowSummary,
} from '../../domain/workflow/ports/workflow-repository.port';
import { closest } from '../../domain/workflow/unknown-keys.rules';
import { parseWorkflow } from '../../domain/workflow/workflow.parser';
import { FsStepTemplates, stepTemplateDirs } from './step-template.files';
import { packOf, packWorkflowFile, packWorkflows } from './pack-paths';
import { type WorkflowDir, workflowDirs } from './workflow-paths';
import { offsetPastErrorBudget } from './yaml-error-budget';
import { yamlSyntaxIssue } from './yaml-syntax-issue';

/** Workflows are single `.yaml` files, as in AWF (`.yml` is not recognised there either). */
const EXT = '.yaml';

export class YamlWorkflowRepository implements WorkflowRepository {
  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly cwd: () => string = () => process.cwd(),
  ) {}

  searchPaths(): string[] {
    return workflowDirs(this.env, this.cwd()).map((d) => d.dir);
  }

  async load(target: string): Promise<LoadedWorkflow> {
    const file = this.locate(target);
    return loadFile(file, this.env, this.cwd());
  }

  async loadCalled(name: string, fromDir?: string): Promise<LoadedWorkflow> {
    const beside = fromDir && !name.includes('..') ? join(fromDir, name.endsWith(EXT) ? name : name + EXT) : undefined;
    if (beside && existsSync(beside) && !isDir(beside)) return loadFile(beside, this.env, this.cwd());
    return this.load(name);
  }

  async list(only?: readonly string[]): Promise<WorkflowSummary[]> {
    const seen = new Map<string, WorkflowSummary>();
    const dirs = only
      ? only.map((d): WorkflowDir => ({ dir: resolve(this.cwd(), d), source: 'env' }))
      : workflowDirs(this.env, this.cwd());
    for (const { dir, source } of dirs) {
      if (!isDir(dir)) continue;
      for (const entry of readdirSync(dir)
        .filter((f) => f.endsWith(EXT))
        .sort()) {
        const name = entry.slice(0, -EXT.length);
        if (seen.has(name)) continue;
        const loaded = loadFile(join(dir, entry), this.env, this.cwd());
        const wf = loaded.workflow;
        seen.set(name, {
          name,
          file: loaded.file,
          source,
          version: wf?.version,
          description: wf ? wf.description : `(cannot be parsed: ${loaded.issues[0]?.message ?? 'unknown error'})`,
          ...(wf?.author ? { author: wf.author } : {}),
          ...(wf?.tags?.length ? { tags: wf.tags } : {}),
        });
      }
    }
    // Installed packs are found unless the caller named its directories.
    for (const { name, file, pack, version } of only ? [] : packWorkflows(this.env, this.cwd())) {
      const wf = loadFile(file, this.env, this.cwd()).workflow;
      seen.set(name, { name, file, source: pack, version, description: wf?.description ?? '' });
    }
    return [...seen.values()];
  }

  private locate(target: string): string {
    const looksLikePath = target.includes('/') || target.endsWith(EXT) || target.endsWith('.yml');
    if (looksLikePath) {
      const file = resolve(this.cwd(), target);
      if (existsSync(file) && !isDir(file)) return file;
      const inPack = packWorkflowFile(target, this.env, this.cwd());
      if (inPack && existsSync(inPack)) return inPack;
      // AWF: a bare `name.yaml` that is not in the cwd is looked up like `name`.
      if (target.includes('/') || !target.endsWith(EXT)) throw notFound(target, inPack ? [file, inPack] : [file]);
    }
    if (target.includes('..') || target.includes('\\')) throw notFound(target, []);
    const tried: string[] = looksLikePath ? [resolve(this.cwd(), target)] : [];
    const name = target.endsWith(EXT) ? target.slice(0, -EXT.length) : target;
    const dirs = workflowDirs(this.env, this.cwd()).map((d) => d.dir);
    for (const dir of dirs) {
      const file = join(dir, name + EXT);
      tried.push(file);
      if (existsSync(file)) return file;
    }
    const known = dirs.flatMap((d) => (isDir(d) ? readdirSync(d) : []).filter((f) => f.endsWith(EXT)));
    throw notFound(
      target,
      tried,
      closest(
        name,
        known.map((f) => f.slice(0, -EXT.length)),
      ),
    );
  }
}

const MAX_YAML_ERRORS = 20;

/** One workflow file, its `use_template` steps expanded from the template dirs seen from `cwd`. */
export function loadFile(file: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): LoadedWorkflow {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AwfError(
      ErrorCodes.SYSTEM_IO,
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      { file },
    );
  }
  // A garbage file yields an error per token; past the first few they only bury the cause.
  const cut = offsetPastErrorBudget(text, MAX_YAML_ERRORS);
  const doc = parseDocument(cut < 0 ? text : text.slice(0, cut), { prettyErrors: true });
  if (doc.errors.length > 0 || cut >= 0) {
    const shown = doc.errors.slice(0, MAX_YAML_ERRORS).map((e, i) => yamlSyntaxIssue(e, text, file, cwd, i === 0));
    const more =
      cut >= 0
        ? `more YAML syntax errors after line ${lineOf(text, cut)}`
        : `${doc.errors.length - shown.length} more YAML syntax errors`;
    if (cut >= 0 || doc.errors.length > shown.length)
      shown.push(issue(ErrorCodes.WORKFLOW_YAML_SYNTAX, '', `… and ${more} (later ones often follow from the first)`));
    return { file, issues: shown };
  }
  const id = basename(file).replace(/\.ya?ml$/, '');
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (err) {
    // The yaml library refuses alias bombs (and similar resource attacks) only here, by throwing.
    return {
      file,
      issues: [issue(ErrorCodes.WORKFLOW_YAML_SYNTAX, '', err instanceof Error ? err.message : String(err))],
    };
  }
  const templates = new FsStepTemplates(stepTemplateDirs(env, cwd, dirname(file)));
  const { workflow, issues } = parseWorkflow(data, id, templates);
  if (workflow) {
    workflow.file = file;
    workflow.sourceDir = dirname(file);
    const pack = packOf(file, env, cwd);
    if (pack) workflow.pack = pack;
  }
  return { file, workflow, issues };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function notFound(target: string, tried: string[], near?: string): AwfError {
  return new AwfError(
    ErrorCodes.WORKFLOW_NOT_FOUND,
    `workflow "${target}" not found${near ? `; did you mean "${near}"?` : ''}` +
      (tried.length ? ` (looked in: ${tried.join(', ')})` : ''),
    { workflow: target, searched: tried },
    'Pass a path to a .yaml file, or put the workflow in ./.awf/workflows; `awf list` shows what is found.',
  );
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
