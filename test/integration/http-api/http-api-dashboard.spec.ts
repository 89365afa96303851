import { chmodSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { loadApiTokens } from '../../../src/interfaces/http/api-tokens';
import { call } from '../../support/http-api-client';
import { apiProject, servedApi } from './http-api-harness';
import { API_WORKFLOWS } from './workflows.fixture';

jest.setTimeout(60_000);

/** The status of a GET whose path goes on the wire exactly as given. */
function rawStatus(base: string, path: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) =>
    request({ hostname, port, path, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end(),
  );
}

const ALICE = 'a1'.repeat(20);
const DASHBOARD = join(__dirname, '../../../dashboard');

describe("awf serve: the dashboard's files and its session cookie", () => {
  const project = apiProject(API_WORKFLOWS);
  const api = servedApi(project, () => {
    const file = join(project.dir, 'tokens');
    writeFileSync(file, `alice ${ALICE}\n`);
    chmodSync(file, 0o600);
    return { tokens: loadApiTokens(undefined, file), allowedHosts: [], dashboardDir: DASHBOARD };
  });

  it('serves the page and its modules without a token, under a strict content security policy', async () => {
    const page = await call(api.url, 'GET', '/');
    expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[^']+'; style-src 'self'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    for (const path of ['/assets/app.js', '/assets/vendor/preact.mjs', '/assets/vendor/hooks.mjs'])
      expect([path, (await call(api.url, 'GET', path)).headers['content-type']]).toEqual([
        path,
        'text/javascript; charset=utf-8',
      ]);
    // Only those exact paths: anything else is behind the gate, however it is spelled.
    for (const path of ['/ASSETS/app.js', '/assets/nope.js', '/index.html'])
      expect([path, (await call(api.url, 'GET', path)).status]).toEqual([path, 401]);
    // Sent as written (a URL object would resolve the `..` before it left the client).
    expect(await rawStatus(api.url, '/assets/../api/workflows')).toBe(401);
  });

  it('trades a token for an HttpOnly session cookie that stands for it, until signed out', async () => {
    expect((await call(api.url, 'POST', '/api/session')).status).toBe(401);
    const opened = await call(api.url, 'POST', '/api/session', { headers: { authorization: `Bearer ${ALICE}` } });
    expect([opened.status, opened.json.body]).toEqual([200, { who: 'alice' }]);
    const [setCookie] = opened.headers['set-cookie']!;
    expect(setCookie).toMatch(/^awf_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(setCookie).not.toContain(ALICE);
    const cookie = setCookie.split(';')[0];
    const who = await call(api.url, 'GET', '/api/session', { headers: { cookie } });
    expect(who.json.body).toEqual({ who: 'alice' });
    expect((await call(api.url, 'GET', '/api/workflows', { headers: { cookie } })).status).toBe(200);
    // A state change by cookie from another site is refused, as with a token.
    const crossSite = await call(api.url, 'POST', '/api/workflows/local/hello/validate', {
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect((await call(api.url, 'DELETE', '/api/session', { headers: { cookie } })).status).toBe(204);
    expect((await call(api.url, 'GET', '/api/workflows', { headers: { cookie } })).status).toBe(401);
  });
});
