/**
 * A service URL as messages and logs show it: `redis://user:pass@host:6379/0` →
 * `redis://user:***@host:6379/0`; anything unparsable is hidden whole, since it may be all secret.
 */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '<invalid URL>';
  }
}
