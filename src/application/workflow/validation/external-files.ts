import { dirname, isAbsolute, join, resolve } from 'node:path';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { FileRead, WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import { type AwfDirs, homeDir } from '../run/awf-dirs';

/** AWF's cap on script_file, prompt_file and readFile (1 MB). */
export const MAX_EXTERNAL_FILE_BYTES = 1 << 20;

/** Only these global dirs have workflow-local counterparts (`<dir of the workflow's dir>/scripts|prompts`). */
const LOCAL_KINDS = [
  ['scripts_dir', 'scripts'],
  ['prompts_dir', 'prompts'],
] as const;

/**
 * Where a path ends inside a command line: AWF stops at a space, a quote, `|` or `&`; awf also at
 * any whitespace and at `;`, `(`, `)`, `<`, `>` and a backquote, so `cat <path>; …` is rewritten too.
 */
const PATH_END = /[\s"'|&;()<>`]/;

/**
 * AWF's local-before-global rule for one path: `<global scripts_dir|prompts_dir>/<rest>`
 * becomes `<parent of sourceDir>/scripts|prompts/<rest>` when that file exists (for
 * `.awf/workflows/x.yaml`, that is `.awf/scripts/<rest>`).
 */
export function localOverGlobal(path: string, sourceDir: string, dirs: AwfDirs, files: WorkflowFiles): string {
  for (const [key, local] of LOCAL_KINDS) {
    const global = dirs[key];
    if (!global || !path.startsWith(`${global}/`)) continue;
    const candidate = join(dirname(sourceDir), local, path.slice(global.length + 1));
    if (files.exists(candidate)) return candidate;
  }
  return path;
}

/**
 * The same rule inside a rendered `command` or `dir`: each occurrence of a global path is
 * replaced by its local counterpart where that exists; a `dir` that is exactly the global
 * dir becomes the local dir when that exists.
 */
export function rewriteAwfPaths(text: string, sourceDir: string, dirs: AwfDirs, files?: WorkflowFiles): string {
  if (!files) return text;
  let out = text;
  for (const [key, local] of LOCAL_KINDS) {
    const global = dirs[key];
    if (!global) continue;
    const localDir = join(dirname(sourceDir), local);
    if (out === global) {
      if (files.exists(localDir)) out = localDir;
      continue;
    }
    const prefix = `${global}/`;
    let result = '';
    let at = 0;
    for (let i = out.indexOf(prefix); i !== -1; i = out.indexOf(prefix, at)) {
      const rest = out.slice(i + prefix.length);
      const end = rest.search(PATH_END);
      const suffix = end === -1 ? rest : rest.slice(0, end);
      if (!suffix) break;
      const candidate = join(localDir, suffix);
      result += out.slice(at, i) + (files.exists(candidate) ? candidate : prefix + suffix);
      at = i + prefix.length + suffix.length;
    }
    out = result + out.slice(at);
  }
  return out;
}

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
): string {
  const path = localOverGlobal(rendered, sourceDir, dirs, files);
  if (path.startsWith('~/')) {
    const home = join(homeDir(env), path.slice(2));
    const beside = join(sourceDir, rendered.slice(2));
    return files.exists(home) || !files.exists(beside) ? home : beside;
  }
  return isAbsolute(path) ? path : resolve(sourceDir, path);
}

/** The file's text, or a coded error naming the field and what to do. */
export function readExternalFile(files: WorkflowFiles | undefined, path: string, field: string): string {
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
    "Relative paths are taken from the workflow file's directory; `{{.awf.scripts_dir}}/x` and `{{.awf.prompts_dir}}/x` prefer the project's own scripts/ and prompts/ beside the workflows directory.",
  );
}
