import { isAwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import { type ValidationIssue, issue } from '../../../domain/workflow/validation-issue.model';
import type { Workflow } from '../../../domain/workflow/workflow.model';
import { awfDirsOf } from '../run/awf-dirs';
import { placesFor } from './awf-path-tiers';
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
 * the run would find it, and that file's text must be a valid template. Paths that read inputs or
 * states are checked at run time. AWF checks only a prompt_file path without `{{` (that it exists
 * and is a readable file), so only that is an error here; the rest warns (`--strict`: errors).
 */
export function checkExternalFiles(wf: Workflow, context: FileCheckContext | undefined): ValidationIssue[] {
  if (!context) return [];
  const dirs = awfDirsOf(wf, context.env);
  const sourceDir = wf.sourceDir ?? context.cwd();
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
    const path = externalFilePath(rendered, sourceDir, dirs, context.files, context.env, context.cwd());
    const checkedByAwf = field === 'prompt_file' && !raw.includes('{{');
    try {
      const text = readExternalFile(context.files, path, at, placesFor(rendered, sourceDir, dirs, context.cwd()));
      out.push(...checkTemplate(wf, text, `${at} (${path})`, { step: step.name, severity: 'warning' }));
    } catch (err) {
      if (!isAwfError(err)) throw err;
      const fatal = checkedByAwf && err.code !== ErrorCodes.INPUT_FILE_TOO_LARGE;
      const message = err.message.replace(`${at}: `, '') + (fatal ? '' : NOT_CHECKED_BY_AWF);
      out.push(issue(err.code, at, message, fatal ? 'error' : 'warning'));
    }
  }
  return out;
}

const NOT_CHECKED_BY_AWF = ' (AWF does not check this before running; the step fails if it is still so then)';
