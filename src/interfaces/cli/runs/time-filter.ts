import { AwfError } from '../../../domain/errors/awf-error';
import { ErrorCodes } from '../../../domain/errors/error-codes';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since 2h` / `--older-than 30d`: an age (`45s`, `30m`, `24h`, `7d`, `2w`, combinable
 * as `1d12h`) or an ISO date; returns the ISO instant it stands for.
 */
export function instantOf(value: string, flag: string, now: number = Date.now()): string {
  const text = value.trim();
  if (/^(\d+[smhdw])+$/.test(text)) {
    let ms = 0;
    for (const [, n, unit] of text.matchAll(/(\d+)([smhdw])/g)) ms += Number(n) * UNIT_MS[unit];
    return new Date(now - ms).toISOString();
  }
  const date = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isFinite(date)) return new Date(date).toISOString();
  throw new AwfError(
    ErrorCodes.CLI_INVALID_ARGS,
    `${flag} "${value}" is neither an age nor a date`,
    { [flag.replace(/^--/, '')]: value },
    `Use an age such as 30m, 24h, 7d, 2w, or a date such as 2026-01-31.`,
  );
}

export function positiveInt(value: string, flag: string): number {
  if (/^\d+$/.test(value) && Number(value) > 0) return Number(value);
  throw new AwfError(ErrorCodes.CLI_INVALID_ARGS, `${flag} "${value}" must be a positive whole number`, { value });
}
