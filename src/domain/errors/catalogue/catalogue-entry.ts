import type { KnownErrorCode } from '../error-codes';

/** What `awf error <code>` tells: what happened, and what to do about it. */
export interface CatalogueText {
  description: string;
  resolution: string;
  related?: readonly string[];
}

/** The known codes of one category: a missing entry is a compile error, so every code has a hint. */
export type CodesOf<Prefix extends string> = Extract<KnownErrorCode, `${Prefix}.${string}`>;

export function entry(description: string, resolution: string, ...related: string[]): CatalogueText {
  return related.length ? { description, resolution, related } : { description, resolution };
}
