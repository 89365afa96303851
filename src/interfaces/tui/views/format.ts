/** How the tabs write statuses, times, durations and errors. */

export const STATUS_COLOR: Record<string, string> = {
  starting: 'yellow',
  running: 'yellow',
  success: 'green',
  failure: 'red',
  interrupted: 'red',
  cancelled: 'gray',
};

/** `2026-12-04 10:51`, local time. */
export function startedAt(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function duration(ms: number | undefined): string {
  if (ms === undefined) return '—';
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** An error as the tabs show it: `[CODE] message`, masked. */
export function messageOf(err: unknown, mask: (s: string) => string): string {
  const code = (err as { code?: unknown } | undefined)?.code;
  const text = err instanceof Error ? err.message : String(err);
  return mask(typeof code === 'string' ? `[${code}] ${text}` : text);
}
