import { extname } from 'node:path';
import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';
import type { FileProbe } from '../../../domain/ports/file-probe.port';
import type { InputDef } from '../../../domain/workflow/workflow.model';

/**
 * Builds the run's input values the AWF way: defaults, then `.awf/config.yaml` inputs,
 * then `--input` flags. Values stay strings (they become env vars); types are checked by
 * coercion. Every problem is reported in one USER.INPUT.VALIDATION_FAILED error.
 */
export function resolveInputs(
  defs: readonly InputDef[],
  fromCli: Readonly<Record<string, string>>,
  fromProject: Readonly<Record<string, unknown>>,
  files: FileProbe,
): Record<string, string> {
  const values: Record<string, string> = {};
  const declared = new Set(defs.map((d) => d.name));
  for (const def of defs) if (def.default !== undefined) values[def.name] = def.default;
  for (const [k, v] of Object.entries(fromProject))
    if (declared.has(k) && v !== null && v !== undefined) values[k] = String(v);
  const problems: string[] = [];
  for (const [k, v] of Object.entries(fromCli)) {
    if (!declared.has(k))
      problems.push(`inputs.${k}: not declared by the workflow (declared: ${[...declared].join(', ') || 'none'})`);
    else values[k] = v;
  }
  for (const def of defs) {
    const value = values[def.name];
    if (value === undefined) {
      if (def.required) problems.push(`inputs.${def.name}: required${def.description ? ` (${def.description})` : ''}`);
      continue;
    }
    problems.push(...checkValue(def, value, files));
  }
  if (problems.length > 0) {
    throw new AwfError(
      ErrorCodes.INPUT_INVALID,
      `input validation failed:\n  - ${problems.join('\n  - ')}`,
      { problems },
      'Pass inputs as --input name=value; `awf validate` lists what the workflow declares.',
    );
  }
  return values;
}

function checkValue(def: InputDef, value: string, files: FileProbe): string[] {
  const at = `inputs.${def.name}`;
  const out: string[] = [];
  if (def.type === 'integer' && !/^-?\d+$/.test(value.trim()))
    out.push(`${at}: "${def.secret ? '***' : value}" is not an integer`);
  if (def.type === 'boolean' && !/^(true|false|yes|no|1|0)$/i.test(value.trim()))
    out.push(`${at}: must be true or false`);
  if (def.type === 'number' && (value.trim() === '' || !Number.isFinite(Number(value))))
    out.push(`${at}: "${def.secret ? '***' : value}" is not a number`);
  if (def.type === 'array' && parseList(value) === undefined) out.push(`${at}: must be a JSON list, like ["a","b"]`);
  const v = def.validation;
  if (!v) return out;
  if (v.pattern && !new RegExp(v.pattern).test(value)) out.push(`${at}: does not match pattern ${v.pattern}`);
  if (v.enum && !v.enum.includes(value)) out.push(`${at}: must be one of ${v.enum.join(', ')}`);
  const n = Number(value);
  const numeric = def.type === 'integer' || def.type === 'number';
  if (numeric && v.min !== undefined && n < v.min) out.push(`${at}: must be ≥ ${v.min}`);
  if (numeric && v.max !== undefined && n > v.max) out.push(`${at}: must be ≤ ${v.max}`);
  if (v.fileExists && !files.exists(value)) out.push(`${at}: file ${value} does not exist`);
  if (v.fileExtension && !v.fileExtension.includes(extname(value)))
    out.push(`${at}: must end in ${v.fileExtension.join(', ')}`);
  return out;
}

/** `--input k=v`: split on the first `=`, key trimmed; an empty key is a usage error. */
export function parseInputFlags(flags: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    const key = eq < 0 ? '' : flag.slice(0, eq).trim();
    if (!key)
      throw new AwfError(ErrorCodes.WORKFLOW_INVALID_INPUT_ARG, `--input "${flag}" must be name=value`, {
        input: flag,
      });
    out[key] = flag.slice(eq + 1);
  }
  return out;
}

/** A `type: array` value: its JSON list, or undefined when it is not one. */
export function parseList(value: string): unknown[] | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** What templates see: array inputs as lists, everything else as the string given (AWF). */
export function templateInputs(
  defs: readonly InputDef[],
  values: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const def of defs)
    if (def.type === 'array' && values[def.name] !== undefined)
      out[def.name] = parseList(values[def.name]) ?? values[def.name];
  return out;
}
