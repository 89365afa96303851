import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';

/**
 * Typed reads of a step's free-form `options:` map. A wrong type is a USER error naming the
 * provider and option, raised before anything is started.
 */
export class AgentOptions {
  constructor(
    private readonly provider: string,
    private readonly options: Readonly<Record<string, unknown>>,
  ) {}

  string(key: string): string | undefined {
    const value = this.options[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw this.invalid(key, 'a string');
    return value;
  }

  boolean(key: string): boolean {
    const value = this.options[key];
    if (value === undefined || value === null) return false;
    if (typeof value !== 'boolean') throw this.invalid(key, 'true or false');
    return value;
  }

  number(key: string, rule: { min?: number; max?: number; integer?: boolean } = {}): number | undefined {
    const value = this.options[key];
    if (value === undefined || value === null) return undefined;
    const ok =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (!rule.integer || Number.isInteger(value)) &&
      (rule.min === undefined || value >= rule.min) &&
      (rule.max === undefined || value <= rule.max);
    if (!ok)
      throw this.invalid(
        key,
        `${rule.integer ? 'an integer' : 'a number'}${rule.min !== undefined ? ` ≥ ${rule.min}` : ''}${rule.max !== undefined ? ` ≤ ${rule.max}` : ''}`,
      );
    return value as number;
  }

  /** A string that must be one of `values` (`mode: plan`). */
  choice<T extends string>(key: string, values: readonly T[]): T | undefined {
    const value = this.string(key);
    if (value !== undefined && !(values as readonly string[]).includes(value))
      throw this.invalid(key, `one of ${values.join(', ')} (got "${value}")`);
    return value as T | undefined;
  }

  /** A string or a list of strings (`allowed_tools: "Bash Read"` or `[Bash, Read]`). */
  list(key: string): string[] {
    const value = this.options[key];
    if (value === undefined || value === null) return [];
    if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
    throw this.invalid(key, 'a string or a list of strings');
  }

  invalid(key: string, expected: string): AwfError {
    return new AwfError(
      ErrorCodes.AGENT_INVALID_OPTIONS,
      `${this.provider}: options.${key} must be ${expected}`,
      { provider: this.provider, option: key },
      "Fix the step's options: block; see docs/agents.md.",
    );
  }
}
