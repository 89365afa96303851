import { isAbsolute, resolve } from 'node:path';
import type { WorkflowFiles } from '../../../domain/workflow/ports/workflow-files.port';
import { GO_BUILTINS, TemplateExecError, type TemplateFunction } from './go-builtins';
import { goTypeName, printValue } from './go-format';

/** Characters that make AWF's `escape` wrap a value in single quotes. */
const SHELL_SPECIAL = /[\s"'\\$`!*?[\](){}<>|&;]/;

/** AWF's readFile cap. */
const MAX_READ_BYTES = 1 << 20;

/** POSIX-shell quoting, AWF's rules: '' for empty, single quotes only when needed. */
export function shellEscape(value: string): string {
  if (value === '') return "''";
  if (!SHELL_SPECIAL.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A string argument: numbers and booleans are printed (Go would refuse them; nothing is lost by accepting). */
function text(value: unknown, fn: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TemplateExecError(`${fn}: wrong type for value; expected string; got ${goTypeName(value)}`);
}

/** Where `readFile` reads: relative paths are taken from the run's working directory (AWF: the process's). */
export interface TemplateFileAccess {
  files: WorkflowFiles;
  cwd: string;
}

/** AWF's `readFile path`: a regular file of at most 1 MB, through the WorkflowFiles port. */
export function readFileFunction(access?: TemplateFileAccess): TemplateFunction {
  return {
    min: 1,
    max: 1,
    call: (path) => {
      const file = text(path, 'readFile');
      if (!access) throw new TemplateExecError(`failed to read file "${file}": no file access where this is rendered`);
      const read = access.files.read(isAbsolute(file) ? file : resolve(access.cwd, file), MAX_READ_BYTES);
      if ('text' in read) return read.text;
      if (read.problem === 'too-large') throw new TemplateExecError(`file "${file}" exceeds 1MB size limit`);
      const why =
        read.problem === 'missing'
          ? 'no such file or directory'
          : read.problem === 'directory'
            ? 'path is a directory'
            : (read.detail ?? 'unreadable');
      throw new TemplateExecError(`failed to read file "${file}": ${why}`);
    },
  };
}

/** AWF's own helpers (pkg/interpolation): escape, json, split, join, trimSpace; readFile is bound per render. */
export const AWF_FUNCTIONS: Record<string, TemplateFunction> = {
  escape: { min: 1, max: 1, call: (v) => shellEscape(typeof v === 'string' ? v : printValue(v)) },
  json: { min: 1, max: 1, call: (v) => JSON.stringify(v === undefined ? null : v) },
  split: {
    min: 2,
    max: 2,
    call: (s, sep) =>
      text(s, 'split')
        .split(text(sep, 'split'))
        .map((p) => p.trim()),
  },
  join: {
    min: 2,
    max: 2,
    call: (list, sep) => {
      if (!Array.isArray(list))
        throw new TemplateExecError(`join: wrong type for value; expected a list; got ${typeof list}`);
      return list.map((v) => printValue(v)).join(text(sep, 'join'));
    },
  },
  trimSpace: { min: 1, max: 1, call: (v) => text(v, 'trimSpace').trim() },
};

/** Every function a template may call, namespace accessors aside: AWF's and Go's predefined ones. */
export const TEMPLATE_FUNCTIONS: Record<string, TemplateFunction> = {
  ...GO_BUILTINS,
  ...AWF_FUNCTIONS,
  readFile: readFileFunction(),
};
