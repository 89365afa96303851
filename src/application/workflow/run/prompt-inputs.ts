import { isAbsolute, join, resolve } from 'node:path';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import type { AwfDirs } from './awf-dirs';
import { readExternalFile } from '../validation/external-files';

const PREFIX = '@prompts/';

/**
 * Where `@prompts/<file>` values are looked up, first hit wins (AWF's order): each directory of
 * $AWF_PROMPTS_PATH (AWF takes one; a `:`-separated list of them is awf's), `./.awf/prompts`,
 * then the global prompts dir.
 */
export function promptSearchPaths(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  dirs: AwfDirs,
): string[] {
  const fromEnv = (env.AWF_PROMPTS_PATH ?? '')
    .split(':')
    .filter(Boolean)
    .map((d) => resolve(cwd, d));
  return [...fromEnv, join(cwd, '.awf', 'prompts'), dirs.prompts_dir];
}

/**
 * `--input name=@prompts/<file>`: the value becomes that file's trimmed text. A path with `..`
 * or an absolute one is refused (AWF's rule: a prompt reference never leaves the prompt dirs).
 * Other values pass unchanged.
 */
export function resolvePromptInputs(
  inputs: Record<string, string>,
  searchPaths: readonly string[],
  files: WorkflowFiles,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(inputs)) {
    out[name] = value.startsWith(PREFIX) ? promptText(name, value.slice(PREFIX.length), searchPaths, files) : value;
  }
  return out;
}

function promptText(input: string, rel: string, searchPaths: readonly string[], files: WorkflowFiles): string {
  if (rel === '' || rel.split(/[\\/]/).includes('..') || rel.includes('..') || isAbsolute(rel))
    throw new AwfError(
      ErrorCodes.WORKFLOW_INVALID_INPUT_ARG,
      `--input ${input}=@prompts/${rel}: a prompt reference must be a relative path without ".." (it may not leave the prompt directories)`,
      { input, reference: rel },
      'Name a file under .awf/prompts, $AWF_PROMPTS_PATH or the global prompts dir, e.g. @prompts/review.md.',
    );
  for (const dir of searchPaths) {
    const path = join(dir, rel);
    if (files.exists(path)) return readExternalFile(files, path, `--input ${input}`).trim();
  }
  throw new AwfError(
    ErrorCodes.INPUT_MISSING_FILE,
    `--input ${input}: prompt "${rel}" not found in ${searchPaths.join(', ')}`,
    { input, reference: rel, searched: [...searchPaths] },
    `Put ${rel} in one of those directories (first hit wins), or pass the text itself.`,
  );
}
