import { randomBytes } from 'node:crypto';

/** The cookie the dashboard's browser holds instead of a token (EventSource sends no headers). */
export const SESSION_COOKIE = 'awf_session';
const LIFETIME_MS = 12 * 60 * 60 * 1000;
const MAX_SESSIONS = 1000;

/**
 * Browser sessions of `awf serve`: a person signs in once with a token (POST /api/session) and
 * gets a random id in an HttpOnly, SameSite=Strict cookie, so the token is never kept by the
 * page nor put in a URL. Kept in memory: a restart signs everyone out. Each lasts 12 hours.
 */
export class DashboardSessions {
  private readonly sessions = new Map<string, { who: string; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new session for the token's owner; its id goes in the cookie. */
  open(who: string): string {
    this.sweep();
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(id, { who, until: this.now() + LIFETIME_MS });
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    return id;
  }

  /** Who the request's session cookie belongs to; undefined without a live one. */
  who(cookieHeader: string | undefined): string | undefined {
    const id = cookieOf(cookieHeader, SESSION_COOKIE);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session) return undefined;
    if (session.until > this.now()) return session.who;
    this.sessions.delete(id!);
    return undefined;
  }

  close(cookieHeader: string | undefined): void {
    const id = cookieOf(cookieHeader, SESSION_COOKIE);
    if (id !== undefined) this.sessions.delete(id);
  }

  /** The Set-Cookie value for a session id; none (expired at once) to sign out. */
  static cookie(id: string | undefined): string {
    const attributes = 'Path=/; HttpOnly; SameSite=Strict';
    return id === undefined
      ? `${SESSION_COOKIE}=; ${attributes}; Max-Age=0`
      : `${SESSION_COOKIE}=${id}; ${attributes}; Max-Age=${LIFETIME_MS / 1000}`;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, s] of this.sessions) if (s.until <= now) this.sessions.delete(id);
  }
}

function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
