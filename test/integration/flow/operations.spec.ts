import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGithub } from '../../support/github-api.server';
import { flowHarness } from './flow-harness';

jest.setTimeout(120_000);

describe('type: operation, http.request (against a local server on 127.0.0.1)', () => {
  const h = flowHarness();
  let server: Server;
  let base: string;
  let port: number;
  const hung: import('node:http').ServerResponse[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const path = req.url ?? '/';
        if (path === '/json')
          return void res.writeHead(200, { 'content-type': 'application/json', 'x-demo': 'yes' }).end('{"ok":true}');
        if (path === '/echo') return void res.writeHead(201).end(`${req.method} ${req.headers['x-token']} ${body}`);
        if (path === '/hop') return void res.writeHead(302, { location: '/json' }).end();
        if (path === '/away') return void res.writeHead(302, { location: `http://localhost:${port}/json` }).end();
        if (path === '/big') return void res.writeHead(200).end('x'.repeat(50_000));
        if (path === '/busy') return void res.writeHead(503).end('try later');
        if (path === '/hang') return void hung.push(res);
        res.writeHead(404).end('nope');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    hung.forEach((r) => r.destroy());
    await new Promise((r) => server.close(r));
  });

  const op = (name: string, inputs: string, extra = '') => `
  ${name}:
    type: operation
    operation: http.request
    inputs: ${inputs}
    ${extra}`;

  it('GET and POST: status_code, body, headers as .states.X.Response.*; any status is a success', async () => {
    const report = await h.run(
      `
name: http
inputs: [{name: base}]
states:
  initial: get
${op('get', "{url: '{{.inputs.base}}/json', method: get}", 'on_success: post')}
${op('post', "{url: '{{.inputs.base}}/echo', method: POST, headers: {X-Token: abc}, body: 'hi {{.states.get.Response.body}}'}", 'on_success: missing')}
${op('missing', "{url: '{{.inputs.base}}/nothing', method: GET}", 'on_success: done')}
  done: {type: terminal, message: '{{.states.get.Response.status_code}} {{index .states.get.Response.headers "x-demo"}} | {{.states.post.Response.status_code}} {{.states.post.Response.body}} | {{.states.missing.Response.status_code}}'}
`,
      { inputs: { base } },
    );
    expect(report).toMatchObject({ status: 'success', output: '200 yes | 201 POST abc hi {"ok":true} | 404' });
    expect(JSON.parse(report.steps[0].output)).toMatchObject({
      status_code: 200,
      body: '{"ok":true}',
      body_truncated: false,
    });
  });

  it('follows a same-host redirect, refuses another host unless allowed, caps the body, fails on retryable codes', async () => {
    const report = await h.run(
      `
name: http2
inputs: [{name: base}, {name: port}]
states:
  initial: hop
${op('hop', "{url: '{{.inputs.base}}/hop', method: GET}", 'on_success: away')}
${op('away', "{url: '{{.inputs.base}}/away', method: GET}", 'on_success: never\n    on_failure: allowed')}
${op('allowed', "{url: '{{.inputs.base}}/away', method: GET, allowed_redirect_hosts: ['localhost:{{.inputs.port}}']}", 'on_success: big')}
${op('big', "{url: '{{.inputs.base}}/big', method: GET, max_body_bytes: 1000}", 'on_success: busy')}
${op('busy', "{url: '{{.inputs.base}}/busy', method: GET, retryable_status_codes: [503]}", 'on_success: never\n    on_failure: done')}
  never: {type: terminal, status: failure}
  done: {type: terminal, message: '{{.states.hop.Response.body}} {{.states.allowed.Response.body}} {{.states.big.Response.body_truncated}} {{len .states.big.Response.body}} {{.states.busy.Response.body}}'}
`,
      { inputs: { base, port: String(port) } },
    );
    expect(report).toMatchObject({ status: 'success', output: '{"ok":true} {"ok":true} true 1000 try later' });
    const byName = Object.fromEntries(report.steps.map((s) => [s.name, s]));
    expect(byName.away.error).toMatchObject({
      code: 'EXECUTION.OPERATION.FAILED',
      message: expect.stringContaining(`redirect to http://localhost:${port} refused`),
    });
    expect(byName.busy.error?.message).toContain('retryable status code 503');
  });

  it('times out (input timeout, in seconds), and refuses a bad url or method', async () => {
    const report = await h.run(
      `
name: http3
inputs: [{name: base}]
states:
  initial: slow
${op('slow', "{url: '{{.inputs.base}}/hang', method: GET, timeout: 1}", 'on_failure: bad')}
${op('bad', "{url: 'ftp://example', method: GET}", 'on_failure: verb')}
${op('verb', "{url: '{{.inputs.base}}/json', method: BREW}", 'on_failure: done')}
  done: {type: terminal}
`,
      { inputs: { base } },
    );
    expect(report.steps.map((s) => s.error?.message)).toEqual([
      'step "slow": http.request failed: http.request: request timed out after 1 s',
      'step "bad": http.request failed: http.request: url is required and must start with http:// or https://',
      'step "verb": http.request failed: http.request: method must be one of GET, POST, PUT, DELETE, PATCH, HEAD',
    ]);
  });

  it('an operation no plugin or built-in provides: validate warns naming the known ones, the run fails at that step', async () => {
    const wf = `
name: unknown
states:
  initial: first
  first: {type: step, command: 'touch first-ran', on_success: s}
  s: {type: operation, operation: jira.get_issue, inputs: {number: 1}, on_success: d}
  d: {type: terminal}
`;
    // As AWF's run: the steps before it run, then the run stops there (a USER error, exit 1).
    await expect(h.run(wf)).resolves.toMatchObject({
      status: 'failure',
      error: { code: 'USER.PLUGIN.NOT_FOUND', message: 'states.s.operation: operation "jira.get_issue" not found' },
    });
    expect(h.files()).toContain('first-ran');
    const v = await h.service.validate(`${h.dir}/wf.yaml`);
    expect(v.valid).toBe(true);
    expect(v.warnings).toEqual([
      expect.objectContaining({
        code: 'WORKFLOW.VALIDATION.UNKNOWN_OPERATION',
        message: expect.stringContaining(
          'unknown operation "jira.get_issue" (known: http.request, notify.send, github.get_issue, github.get_pr',
        ),
      }),
    ]);
  });

  describe('github.* (against a local server speaking GitHub REST wire format)', () => {
    const gh = new FakeGithub();
    const saved = { ...process.env };
    beforeAll(async () => {
      await gh.start();
      gh.seed('acme/widgets', { number: 3, title: 'Slow start', labels: ['perf'] });
      Object.assign(process.env, { GITHUB_API_URL: gh.base, GITHUB_TOKEN: 'ghp_writer', GH_TOKEN: '' });
    });
    afterAll(async () => {
      for (const k of ['GITHUB_API_URL', 'GITHUB_TOKEN', 'GH_TOKEN']) delete process.env[k];
      Object.assign(process.env, saved);
      await gh.stop();
    });

    it('results as .states.X.Response.*; a GitHub error fails the step with its code and routes on_failure', async () => {
      const report = await h.run(`
name: gh
states:
  initial: read
  read:
    type: operation
    operation: github.get_issue
    inputs: {number: 3, repo: acme/widgets}
    on_success: note
  note:
    type: operation
    operation: github.add_comment
    inputs: {number: '{{.states.read.Response.number}}', repo: acme/widgets, body: 'seen: {{.states.read.Response.title}}'}
    on_success: ghost
  ghost:
    type: operation
    operation: github.get_pr
    inputs: {number: 99, repo: acme/widgets}
    on_success: never
    on_failure: done
  never: {type: terminal, status: failure}
  done: {type: terminal, message: '{{.states.read.Response.state}} {{(index .states.read.Response.labels 0).name}} {{.states.note.Response.comment_id}}'}
`);
      expect(report).toMatchObject({ status: 'success', output: 'OPEN perf 9000' });
      expect(gh.repos.get('acme/widgets')!.get(3)!.comments[0].body).toBe('seen: Slow start');
      const ghost = report.steps.find((s) => s.name === 'ghost')!;
      expect(ghost.error).toMatchObject({ code: 'USER.GITHUB.NOT_FOUND' });
    });
  });
});
