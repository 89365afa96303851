import { createHash } from 'node:crypto';
import { dirname, isAbsolute, normalize, relative, sep } from 'node:path';
import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { BundleFile, RunJob } from '../../domain/ports/run-queue.port';
import type { WorkflowFiles } from '../../domain/workflow/ports/workflow-files.port';
import type { WorkflowRepository } from '../../domain/workflow/ports/workflow-repository.port';
import type { Workflow } from '../../domain/workflow/workflow.model';
import { awfDirs } from '../workflow/run/awf-dirs';
import { externalFilePath, readExternalFile } from '../workflow/validation/external-files';

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The files a queued run carries, relative to the workflow's directory: the workflow, each
 * script_file and prompt_file, and each called workflow with its own files. A path known only
 * when the run runs (a template) or outside that directory cannot be carried: refused.
 */
export async function bundleFiles(
  workflow: Workflow,
  file: string,
  repository: WorkflowRepository,
  files: WorkflowFiles,
  env: Record<string, string>,
): Promise<{ entry: string; files: BundleFile[] }> {
  const root = dirname(file);
  const out = new Map<string, BundleFile>();
  const add = (path: string, field: string): void => {
    const rel = relative(root, path);
    if (rel.startsWith('..') || isAbsolute(rel))
      throw unbundlable(`${field}: ${path} is outside the workflow's directory ${root}`);
    if (!out.has(rel)) {
      const text = readExternalFile(files, path, field);
      out.set(rel, { path: rel, sha256: sha256(text), text });
    }
  };
  const visit = async (wf: Workflow, path: string, seen: Set<string>): Promise<void> => {
    if (seen.has(path)) return;
    seen.add(path);
    add(path, wf.name);
    const dir = wf.sourceDir ?? dirname(path);
    for (const step of wf.steps) {
      const ref = step.type === 'step' ? step.scriptFile : step.type === 'agent' ? step.promptFile : undefined;
      const field = `states.${step.name}.${step.type === 'step' ? 'script_file' : 'prompt_file'}`;
      if (ref !== undefined) {
        if (ref.includes('{{')) throw unbundlable(`${field}: "${ref}" is a template, known only when the step runs`);
        add(externalFilePath(ref, dir, awfDirs(env), files, env), field);
      }
      if (step.type === 'call_workflow') {
        const called = await repository.loadCalled(step.workflow, dir);
        if (!called.workflow) throw unbundlable(`states.${step.name}.workflow: ${step.workflow} does not load`);
        await visit(called.workflow, called.file, seen);
      }
    }
  };
  await visit(workflow, file, new Set());
  return { entry: relative(root, file), files: [...out.values()] };
}

/**
 * A worker's check of a job it took (after its signature): every file matches its digest and
 * stays inside the run's directory, and the entry is one of them.
 */
export function verifyBundle(job: RunJob): void {
  const paths = new Set<string>();
  for (const f of job.files) {
    if (typeof f.text !== 'string' || sha256(f.text) !== f.sha256)
      throw badDigest(`${f.path} does not match its digest`);
    const clean = normalize(f.path);
    if (isAbsolute(clean) || clean.startsWith(`..${sep}`) || clean === '..' || clean !== f.path)
      throw badDigest(`${f.path} leaves the run's directory`);
    paths.add(f.path);
  }
  if (!paths.has(job.entry)) throw badDigest(`the workflow file ${job.entry} is not in the job`);
}

function unbundlable(message: string): AwfError {
  return new AwfError(
    ErrorCodes.QUEUE_UNBUNDLABLE,
    `cannot queue this run: ${message}`,
    {},
    "A queued run carries only files with a fixed path inside the workflow's directory; run it without --queue.",
  );
}

function badDigest(message: string): AwfError {
  return new AwfError(ErrorCodes.QUEUE_BAD_DIGEST, `job refused: ${message}`, {});
}
