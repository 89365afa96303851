const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const GO_DURATION = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/;

/**
 * AWF's duration fields: a Go duration string (`90s`, `1m30s`, `500ms`) or a plain number
 * of seconds. Unlike AWF, sub-second values are kept (AWF truncates `500ms` to "no timeout").
 * Returns undefined when the value is neither.
 */
export function parseDurationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (text === '') return undefined;
  let rest = text;
  let total = 0;
  while (rest.length > 0) {
    const m = GO_DURATION.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]];
    rest = rest.slice(m[0].length);
  }
  return Math.round(total);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${Math.round((ms % 60_000) / 1000)}s`;
}
