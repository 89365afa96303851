import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadApiTokens } from '../../../src/interfaces/http/api-tokens';
import { call } from '../../support/http-api-client';
import { apiProject, servedApi } from './http-api-harness';
import { API_WORKFLOWS } from './workflows.fixture';

jest.setTimeout(60_000);

const ALICE = 'a1'.repeat(20);
const CI = 'c1'.repeat(20);

describe('awf serve: the gate in front of every /api request', () => {
  const project = apiProject(API_WORKFLOWS);
  const api = servedApi(project, () => {
    const file = join(project.dir, 'tokens');
    writeFileSync(file, `# who may call\nalice ${ALICE}\n\nci ${CI}\n`);
    chmodSync(file, 0o600);
    return { tokens: loadApiTokens(undefined, file), allowedHosts: ['awf.example.com', 'ops.example.com:8443'] };
  });
  const host = (): string => new URL(api.url).host;

  const get = (headers: Record<string, string>) => call(api.url, 'GET', '/api/workflows', { headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('asks for a bearer token it knows (401 otherwise), and takes any of the file', async () => {
    const none = await get({});
    expect([none.status, none.json.code, none.headers['www-authenticate']]).toEqual([
      401,
      'USER.SERVE.UNAUTHORIZED',
      'Bearer realm="awf"',
    ]);
    expect((await get(bearer('a1'.repeat(19) + 'a2'))).status).toBe(401);
    expect((await get({ authorization: `Basic ${ALICE}` })).status).toBe(401);
    expect((await get(bearer(ALICE))).status).toBe(200);
    // Express routes without regard to case: the gate must not be keyed on the path's spelling.
    for (const path of ['/API/workflows', '/Api/executions', '/nothing'])
      expect([path, (await call(api.url, 'GET', path)).status]).toEqual([path, 401]);
    expect((await get({ authorization: `bearer ${CI}` })).status).toBe(200);
  });

  it('answers only for its own address, localhost and --allowed-host names (421 otherwise)', async () => {
    const port = new URL(api.url).port;
    for (const [h, status] of [
      ['evil.example', 421],
      [`evil.example:${port}`, 421],
      ['ops.example.com', 421], // allowed on port 8443 only
      [`localhost:${port}`, 200],
      ['awf.example.com', 200],
      ['ops.example.com:8443', 200],
      [host(), 200],
    ] as const) {
      const r = await get({ ...bearer(ALICE), host: h });
      expect([h, r.status]).toEqual([h, status]);
      if (status === 421) expect(r.json.code).toBe('USER.SERVE.WRONG_HOST');
    }
  });

  it('refuses state changes from other sites, and sends no CORS headers', async () => {
    const validate = (headers: Record<string, string>) =>
      call(api.url, 'POST', '/api/workflows/local/hello/validate', { headers: { ...bearer(ALICE), ...headers } });
    const crossSite: Array<Record<string, string>> = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of crossSite) {
      const r = await validate(headers);
      expect([headers, r.status, r.json.code]).toEqual([headers, 403, 'USER.SERVE.CROSS_SITE']);
    }
    expect((await validate({ origin: `http://${host()}`, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await validate({})).status).toBe(200); // no browser: curl, a CI job
    const preflight = await call(api.url, 'OPTIONS', '/api/workflows/local/hello/run', {
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const read = await get({ ...bearer(ALICE), origin: 'http://evil.example' });
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('awf serve --cors-origin', () => {
  const project = apiProject(API_WORKFLOWS);
  const api = servedApi(project, () => ({ corsOrigin: 'https://ops.example.com' }));

  it('lets that one origin call the API from a browser, and no other', async () => {
    const preflight = await call(api.url, 'OPTIONS', '/api/workflows/local/hello/validate', {
      headers: { origin: 'https://ops.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://ops.example.com');
    const post = await call(api.url, 'POST', '/api/workflows/local/hello/validate', {
      headers: { origin: 'https://ops.example.com', 'sec-fetch-site': 'cross-site' },
    });
    expect([post.status, post.headers['access-control-allow-origin']]).toEqual([200, 'https://ops.example.com']);
    const other = await call(api.url, 'POST', '/api/workflows/local/hello/validate', {
      headers: { origin: 'https://evil.example' },
    });
    expect(other.status).toBe(403);
  });
});
