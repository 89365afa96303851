import type { SecretMasker } from '../ports/secret-masker.port';

/**
 * A JSON value with every string in it masked: what leaves the process as data (a run's events
 * and report on the queue, the history's step states, an upstream's log message) carries no secret.
 */
export function maskedJson<T>(value: T, masker: Pick<SecretMasker, 'mask'>): T {
  if (typeof value === 'string') return masker.mask(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => maskedJson(item, masker)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskedJson(v, masker)])) as T;
  return value;
}
