import { ErrorCodes } from '../errors/error-codes';
import { isSecretInputName } from './secret-names';
import { type ValidationIssue, issue } from './validation-issue.model';
import type { InputDef, InputType, InputValidation } from './workflow.model';

const TYPES: readonly InputType[] = ['string', 'integer', 'boolean', 'number', 'array'];

/** `inputs:` is a list of definitions; each problem is reported at `inputs.<name>`. */
export function parseInputs(raw: unknown, issues: ValidationIssue[]): InputDef[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, 'inputs', 'inputs must be a list of {name, type, ...}'));
    return [];
  }
  const seen = new Set<string>();
  const out: InputDef[] = [];
  raw.forEach((entry, i) => {
    const r = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const name = typeof r.name === 'string' && r.name ? r.name : undefined;
    if (!name) {
      issues.push(issue(ErrorCodes.WORKFLOW_MISSING_FIELD, `inputs[${i}].name`, 'an input needs a name'));
      return;
    }
    const at = `inputs.${name}`;
    if (seen.has(name)) issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, `input "${name}" is declared twice`));
    seen.add(name);
    const type = r.type === undefined || r.type === '' ? undefined : String(r.type);
    if (type && !TYPES.includes(type as InputType))
      issues.push(
        issue(
          ErrorCodes.WORKFLOW_INVALID_FIELD,
          `${at}.type`,
          `unknown type "${type}" (string, integer, boolean, number or array)`,
        ),
      );
    out.push({
      name,
      type: TYPES.includes(type as InputType) ? (type as InputType) : undefined,
      description: typeof r.description === 'string' ? r.description : undefined,
      required: r.required === true,
      // Values travel as strings (they become env vars); a list default as its JSON.
      default:
        r.default === undefined || r.default === null
          ? undefined
          : Array.isArray(r.default)
            ? JSON.stringify(r.default)
            : String(r.default),
      secret: r.secret === true || isSecretInputName(name),
      validation: parseValidation(r.validation, `${at}.validation`, issues),
    });
  });
  return out;
}

function parseValidation(raw: unknown, at: string, issues: ValidationIssue[]): InputValidation | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    issues.push(issue(ErrorCodes.WORKFLOW_INVALID_FIELD, at, 'validation must be a mapping'));
    return undefined;
  }
  const r = raw as Record<string, unknown>;
  const v: InputValidation = {};
  if (r.pattern !== undefined) {
    try {
      new RegExp(String(r.pattern));
      v.pattern = String(r.pattern);
    } catch {
      issues.push(
        issue(
          ErrorCodes.WORKFLOW_INVALID_FIELD,
          `${at}.pattern`,
          `invalid regular expression ${JSON.stringify(r.pattern)}`,
        ),
      );
    }
  }
  if (Array.isArray(r.enum)) v.enum = r.enum.map(String);
  if (typeof r.min === 'number') v.min = r.min;
  if (typeof r.max === 'number') v.max = r.max;
  if (r.file_exists === true) v.fileExists = true;
  if (r.file_extension !== undefined)
    v.fileExtension = (Array.isArray(r.file_extension) ? r.file_extension : [r.file_extension]).map(String);
  return v;
}
