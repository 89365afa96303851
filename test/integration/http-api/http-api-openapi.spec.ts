import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import Ajv2020 from 'ajv/dist/2020';
import { parse } from 'yaml';
import { loadApiTokens } from '../../../src/interfaces/http/api-tokens';
import type { HttpApiContext } from '../../../src/interfaces/http/http-api.context';
import { DashboardSessions } from '../../../src/interfaces/http/dashboard/dashboard-sessions';
import { HttpApiModule } from '../../../src/interfaces/http/http-api.module';
import { call, openEvents } from '../../support/http-api-client';
import { apiProject, eventually, servedApi } from './http-api-harness';
import { API_WORKFLOWS } from './workflows.fixture';

jest.setTimeout(60_000);

const TOKEN = 'd0'.repeat(20);
const VALIDATOR = join(
  dirname(require.resolve('@seriousme/openapi-schema-validator/package.json')),
  'bin/validate-api-cli.js',
);

/** The document as @seriousme/openapi-schema-validator judges it against the OpenAPI schema of its version. */
function validate(text: string, ext: 'json' | 'yaml'): { valid: boolean; errors?: unknown } {
  const dir = mkdtempSync(join(tmpdir(), 'awf-openapi-'));
  try {
    const file = join(dir, `openapi.${ext}`);
    writeFileSync(file, text);
    const r = spawnSync(process.execPath, [VALIDATOR, file], { encoding: 'utf8' });
    return JSON.parse(r.stdout) as { valid: boolean; errors?: unknown };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `METHOD /path/{param}` of every route Nest registers on Express for the API's controllers. */
async function registeredRoutes(): Promise<string[]> {
  const app = await NestFactory.create(
    HttpApiModule.register({} as HttpApiContext, new DashboardSessions()),
    new ExpressAdapter(),
    {
      logger: false,
    },
  );
  await app.init();
  type Layer = { route?: { path: string; methods: Record<string, boolean> } };
  const stack = (app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } }).router.stack;
  await app.close();
  return stack.flatMap((l) =>
    l.route
      ? Object.keys(l.route.methods).map((m) => `${m.toUpperCase()} ${l.route!.path.replace(/:(\w+)/g, '{$1}')}`)
      : [],
  );
}

describe('awf serve: its OpenAPI 3.1 description and docs page', () => {
  const project = apiProject(API_WORKFLOWS);
  const api = servedApi(project, () => ({ tokens: loadApiTokens(TOKEN, undefined) }));

  it('serves a valid OpenAPI 3.1 document as JSON and YAML, without asking for the token', async () => {
    const json = await call(api.url, 'GET', '/openapi.json');
    expect([json.status, json.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect(json.json.openapi).toBe('3.1.0');
    expect(validate(json.text, 'json')).toEqual({ valid: true });
    const yaml = await call(api.url, 'GET', '/openapi.yaml');
    expect([yaml.status, yaml.headers['content-type']]).toEqual([200, 'text/yaml; charset=utf-8']);
    expect(parse(yaml.text)).toEqual(json.json);
    expect(validate(yaml.text, 'yaml')).toEqual({ valid: true });
    // The validator does judge: a document with a broken operation is refused.
    const broken = { ...json.json, paths: { '/x': { get: { responses: { 200: { content: 'text' } } } } } };
    expect(validate(JSON.stringify(broken), 'json').valid).toBe(false);
    // The API itself still needs it.
    expect((await call(api.url, 'GET', '/api/workflows')).status).toBe(401);
  });

  it('describes every route Nest registers, with the envelope, problems and the bearer scheme', async () => {
    const doc = (await call(api.url, 'GET', '/openapi.json')).json;
    const documented = Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const routes = await registeredRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(15);
    expect(documented.sort()).toEqual(routes.sort());
    expect(doc.components.securitySchemes.token).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method} ${path}`;
        expect([where, op.summary]).toEqual([where, expect.any(String)]);
        expect([where, op.security]).toEqual([where, [{ token: [] }]]);
        for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
          const types = Object.keys(r.content ?? {});
          if (status === '204') expect([where, status, types]).toEqual([where, status, []]);
          else if (status >= '400')
            expect([where, status, r.content?.['application/problem+json']?.schema]).toEqual([
              where,
              status,
              { $ref: '#/components/schemas/Problem' },
            ]);
          else if (!path.endsWith('/events'))
            expect([where, status, r.content['application/json'].schema.required]).toEqual([where, status, ['body']]);
        }
        for (const p of path.match(/\{\w+\}/g) ?? [])
          expect([where, op.parameters.some((x: any) => x.in === 'path' && `{${x.name}}` === p)]).toEqual([
            where,
            true,
          ]);
      }
    expect(doc.paths['/api/workflows/{scope}/{name}/run'].post.requestBody.content['application/json']).toBeDefined();
  });

  it('serves /docs and every asset it loads from the package, none from another host', async () => {
    const page = await call(api.url, 'GET', '/docs');
    expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(expect.arrayContaining(['./docs/swagger-ui-bundle.js', './docs/swagger-ui-init.js']));
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const r = await call(api.url, 'GET', new URL(asset, `${api.url}/docs`).pathname);
      expect([asset, r.status, r.text.length > 0]).toEqual([asset, 200, true]);
      const type = asset.endsWith('.js') ? 'javascript' : asset.endsWith('.css') ? 'text/css' : 'image/png';
      expect(r.headers['content-type']).toContain(type);
    }
    const init = (await call(api.url, 'GET', '/docs/swagger-ui-init.js')).text;
    expect(init).toContain('"openapi": "3.1.0"');
    expect(init).toContain('"validatorUrl": null'); // no badge fetched from the online validator
    expect((await call(api.url, 'GET', '/docs/nothing.js')).status).toBe(404);
    expect((await call(api.url, 'GET', '/docs/a/b.js')).status).toBe(401); // only the page's own files are open
  });

  it('answers as it describes: real bodies match the documented schemas', async () => {
    const doc = (await call(api.url, 'GET', '/openapi.json')).json;
    // OpenAPI 3.1's schemas are JSON Schema 2020-12; the document's refs resolve against it whole.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const check = async (method: string, path: string, route: string, body?: unknown) => {
      const r = await call(api.url, method, path, { headers: auth, ...(body ? { body } : {}) });
      const media = String(r.headers['content-type']).split(';')[0];
      const schema = doc.paths[route][method.toLowerCase()].responses[r.status]?.content?.[media]?.schema;
      const rebased = JSON.parse(JSON.stringify(schema ?? null).replaceAll('"#/components', '"openapi#/components'));
      const valid = schema !== undefined && ajv.validate(rebased, r.json);
      expect([method, path, r.status, valid, ajv.errors ?? null]).toEqual([method, path, r.status, true, null]);
      return r;
    };
    const started = await check('POST', '/api/workflows/local/hello/run', '/api/workflows/{scope}/{name}/run', {
      inputs: { who: 'schema' },
    });
    const id = started.json.body.execution_id as string;
    const stream = openEvents(api.url, `/api/executions/${id}/events`, auth);
    await stream.ended;
    for (const frame of stream.frames)
      expect([frame.data.kind, ajv.validate({ $ref: 'openapi#/components/schemas/RunEvent' }, frame.data)]).toEqual([
        frame.data.kind,
        true,
      ]);
    await eventually(async () => (await api.index.get(id)).status !== 'running');
    await check('GET', '/api/workflows', '/api/workflows');
    await check('GET', '/api/workflows/local/hello', '/api/workflows/{scope}/{name}');
    await check('POST', '/api/workflows/local/hello/validate', '/api/workflows/{scope}/{name}/validate');
    await check('POST', '/api/workflows/local/broken/validate', '/api/workflows/{scope}/{name}/validate');
    await check('GET', '/api/executions?limit=1', '/api/executions');
    await check('GET', `/api/executions/${id}`, '/api/executions/{id}');
    await check('GET', `/api/executions/${id}/tool-calls`, '/api/executions/{id}/tool-calls');
    await check('GET', `/api/executions/${id}/approvals`, '/api/executions/{id}/approvals');
    await check('GET', '/api/executions/nope', '/api/executions/{id}');
    await check('GET', '/api/history?limit=5', '/api/history');
    await check('GET', '/api/history/stats', '/api/history/stats');
  });

  it('keeps the Host check in front of the docs', async () => {
    for (const path of ['/docs', '/openapi.json', '/docs/swagger-ui.css'])
      expect([path, (await call(api.url, 'GET', path, { headers: { host: 'evil.example' } })).status]).toEqual([
        path,
        421,
      ]);
  });
});
