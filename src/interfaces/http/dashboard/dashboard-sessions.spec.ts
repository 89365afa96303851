import { DashboardSessions, SESSION_COOKIE } from './dashboard-sessions';

describe('dashboard sessions', () => {
  it('knows a session by its cookie until it is closed or 12 hours have passed', () => {
    let now = 0;
    const sessions = new DashboardSessions(() => now);
    const id = sessions.open('alice');
    const header = `theme=dark; ${SESSION_COOKIE}=${id}`;
    expect(sessions.who(header)).toBe('alice');
    expect(sessions.who(`${SESSION_COOKIE}=${id}x`)).toBeUndefined();
    expect(sessions.who(undefined)).toBeUndefined();
    now = 12 * 3600 * 1000;
    expect(sessions.who(header)).toBeUndefined();
    const again = sessions.open('bob');
    sessions.close(`${SESSION_COOKIE}=${again}`);
    expect(sessions.who(`${SESSION_COOKIE}=${again}`)).toBeUndefined();
  });

  it('sets an HttpOnly, SameSite=Strict cookie, and clears it', () => {
    expect(DashboardSessions.cookie('abc')).toBe(
      `${SESSION_COOKIE}=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200`,
    );
    expect(DashboardSessions.cookie(undefined)).toMatch(/=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0$/);
  });
});
