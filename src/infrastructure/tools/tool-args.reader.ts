import { ToolFailure } from './tool-failure.error';

type Args = Record<string, unknown>;

/**
 * Argument readers shared by the tools. The router hands over any object, so every type
 * and every required key is checked here, with a message naming the tool and the key.
 * Aliases are accepted for callers trained on other agents' names but never advertised.
 */
export class ToolArgs {
  constructor(
    private readonly tool: string,
    private readonly args: Args,
  ) {}

  string(key: string, options: { aliases?: string[]; required: true }): string;
  string(key: string, options?: { aliases?: string[]; required?: false }): string | undefined;
  string(key: string, options: { aliases?: string[]; required?: boolean } = {}): string | undefined {
    const found = [key, ...(options.aliases ?? [])].find((k) => this.args[k] !== undefined && this.args[k] !== null);
    if (found === undefined) {
      if (options.required) throw new ToolFailure(`${this.tool}: missing required argument "${key}" (a string)`);
      return undefined;
    }
    const value = this.args[found];
    if (typeof value !== 'string')
      throw new ToolFailure(`${this.tool}: "${key}" must be a string, got ${describe(value)}`);
    return value;
  }

  integer(key: string, options: { min?: number; max?: number; aliases?: string[] } = {}): number | undefined {
    const found = [key, ...(options.aliases ?? [])].find((k) => this.args[k] !== undefined && this.args[k] !== null);
    if (found === undefined) return undefined;
    const value = this.args[found];
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw new ToolFailure(`${this.tool}: "${key}" must be an integer, got ${describe(value)}`);
    }
    if (options.min !== undefined && value < options.min)
      throw new ToolFailure(`${this.tool}: "${key}" must be at least ${options.min}, got ${value}`);
    if (options.max !== undefined && value > options.max)
      throw new ToolFailure(`${this.tool}: "${key}" must be at most ${options.max}, got ${value}`);
    return value;
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.args[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean')
      throw new ToolFailure(`${this.tool}: "${key}" must be true or false, got ${describe(value)}`);
    return value;
  }

  /** For strict schemas (Edit): a typo'd key must not be silently ignored. */
  rejectUnknown(known: readonly string[]): void {
    const unknown = Object.keys(this.args).filter((k) => !known.includes(k));
    if (unknown.length > 0)
      throw new ToolFailure(
        `${this.tool}: unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`,
      );
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'string' ? 'a string' : typeof value;
}
