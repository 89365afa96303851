import { isAwfError } from '../../../domain/errors/awf-error';
import type { WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import { type ValidationIssue, issue } from '../../../domain/workflow/validation-issue.model';
import type { Workflow } from '../../../domain/workflow/workflow.model';
import { awfDirs } from '../run/awf-dirs';
import { externalFilePath, readExternalFile } from './external-files';
import { renderTemplate } from '../template/template-engine';
import { checkTemplate } from '../template/template-references';

/** What the file check needs: the files port and the environment AWF's directories come from. */
export interface FileCheckContext {
  files: WorkflowFiles;
  env: Readonly<Record<string, string | undefined>>;
  /** Where a workflow without a file (an in-memory one) takes its relative paths from. */
  cwd: () => string;
}

/**
 * `awf validate` on script_file and prompt_file: a path that can be known before running (no
 * template, or one that reads only `.awf.*`) must name a readable file of at most 1 MB, found as
 * the run would find it, and that file's text must be a valid template. AWF checks only
 * prompt_file, and skips any path with `{{`. Paths that read inputs or states are checked at run time.
 */
export function checkExternalFiles(wf: Workflow, context: FileCheckContext | undefined): ValidationIssue[] {
  if (!context) return [];
  const dirs = awfDirs(context.env);
  const out: ValidationIssue[] = [];
  for (const step of wf.steps) {
    const entry =
      step.type === 'step' && step.scriptFile !== undefined
        ? ['script_file', step.scriptFile]
        : step.type === 'agent' && step.promptFile !== undefined
          ? ['prompt_file', step.promptFile]
          : undefined;
    if (!entry) continue;
    const [field, raw] = entry;
    const at = `states.${step.name}.${field}`;
    let rendered: string;
    try {
      rendered = renderTemplate(raw, { awf: dirs });
    } catch {
      continue; // reads inputs, states or env: known only when the step runs
    }
    const path = externalFilePath(rendered, wf.sourceDir ?? context.cwd(), dirs, context.files, context.env);
    try {
      const text = readExternalFile(context.files, path, at);
      out.push(...checkTemplate(wf, text, `${at} (${path})`, { step: step.name }));
    } catch (err) {
      if (!isAwfError(err)) throw err;
      out.push(issue(err.code, at, err.message.replace(`${at}: `, '')));
    }
  }
  return out;
}
