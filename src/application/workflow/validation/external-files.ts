import { isAbsolute, join, resolve } from 'node:path';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { FileRead, WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import { type AwfDirs, homeDir } from '../run/awf-dirs';
import { localOverGlobal } from './awf-path-tiers';

/** AWF's cap on script_file, prompt_file and readFile (1 MB). */
export const MAX_EXTERNAL_FILE_BYTES = 1 << 20;

/**
 * Where a rendered `script_file` / `prompt_file` path points, in AWF's order: the
 * local-before-global rewrite; `~/` in the home directory, falling back to the workflow's
 * directory when the home has no such file; any other relative path from the workflow's
 * directory.
 */
export function externalFilePath(
  rendered: string,
  sourceDir: string,
  dirs: AwfDirs,
  files: WorkflowFiles,
  env: Readonly<Record<string, string | undefined>>,
  cwd?: string,
): string {
  const path = localOverGlobal(rendered, sourceDir, dirs, files, cwd);
  if (path.startsWith('~/')) {
    const home = join(homeDir(env), path.slice(2));
    const beside = join(sourceDir, rendered.slice(2));
    return files.exists(home) || !files.exists(beside) ? home : beside;
  }
  return isAbsolute(path) ? path : resolve(sourceDir, path);
}

/**
 * The file's text, or a coded error naming the field and what to do; `searched`: every place the
 * path was looked for (placesFor), named when none has it.
 */
export function readExternalFile(
  files: WorkflowFiles | undefined,
  path: string,
  field: string,
  searched: readonly string[] = [path],
): string {
  const read: FileRead = files
    ? files.read(path, MAX_EXTERNAL_FILE_BYTES)
    : { problem: 'unreadable', detail: 'this runner has no file access' };
  if ('text' in read) return read.text;
  const details = { field, path };
  if (read.problem === 'too-large')
    return fail(ErrorCodes.INPUT_FILE_TOO_LARGE, `${field}: ${path} exceeds the 1 MB limit (${read.detail})`, details);
  const why =
    read.problem === 'missing'
      ? 'file not found'
      : read.problem === 'directory'
        ? 'is a directory, not a file'
        : `cannot be read (${read.detail})`;
  if (read.problem === 'missing' && searched.length > 1)
    return fail(
      ErrorCodes.INPUT_MISSING_FILE,
      `${field}: ${path}: file not found (looked in: ${searched.join(', ')})`,
      {
        ...details,
        searched: [...searched],
      },
    );
  return fail(ErrorCodes.INPUT_MISSING_FILE, `${field}: ${path}: ${why}`, details);
}

function fail(
  code: typeof ErrorCodes.INPUT_MISSING_FILE | typeof ErrorCodes.INPUT_FILE_TOO_LARGE,
  message: string,
  details: Record<string, unknown>,
): never {
  throw new AwfError(
    code,
    message,
    details,
    "Relative paths are taken from the workflow file's directory; `{{.awf.scripts_dir}}/x` and `{{.awf.prompts_dir}}/x` prefer the project's own scripts/ and prompts/ beside the workflows directory (a pack's workflow: .awf/scripts|prompts/<pack>/, then the pack's own).",
  );
}
