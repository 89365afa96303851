import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REPO_ROOT, runAwf, scratchDir, spawnAwf } from '../support/cli';

/** Every shipped example is a workflow a user can copy: each must pass `awf validate` as shipped. */
describe('examples/', () => {
  const examples = [
    ...readdirSync(join(REPO_ROOT, 'examples'))
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => `examples/${f}`),
    'examples/plugins/workflow.yaml',
    'examples/plugins/operations.yaml',
    'examples/files-project/.awf/workflows/files.yaml',
    'examples/files-project/.awf/workflows/reuse.yaml',
  ];

  it('ships the three kinds of example the guide describes', () => {
    expect(examples).toEqual(
      expect.arrayContaining([
        'examples/shell-pipeline.yaml',
        'examples/script-agent-demo.yaml',
        'examples/claude-review.yaml',
      ]),
    );
  });

  it.each(examples)(
    '%s validates with the example plugins installed',
    (file) => {
      const result = runAwf(['validate', file], {
        env: { AWF_PLUGINS_PATH: join(REPO_ROOT, 'examples/plugins') },
        timeout: 120_000,
      });
      // conversation.yaml runs offline on the script agent, which cannot resume: that warning is its point.
      const stderr = result.stderr
        .split('\n')
        .filter((l) => !l.startsWith('warning: [USER.AGENT.CANNOT_RESUME]'))
        .join('\n');
      expect(stderr).not.toMatch(/\[(USER|WORKFLOW)\./);
      expect(result.status).toBe(0);
    },
    150_000,
  );
});

/** The examples of AWF's composite features run offline, as shipped (command steps and the `script` agent). */
describe('examples/ that run offline', () => {
  const run = (file: string, args: string[] = []) =>
    runAwf(['run', file, ...args], { cwd: REPO_ROOT, timeout: 120_000 });

  it('parallel-agents.yaml: two agent branches with their own proxy and a command branch', () => {
    const r = run('examples/parallel-agents.yaml');
    expect(r.stderr).toMatch(/✓ list_sources {2}success .*1 tool call/);
    expect(r.stderr).toMatch(/✓ read_math {2}success .*1 tool call/);
    expect(r.stdout).toMatch(/^agents: success, success; \d+ lines of source\n$/);
    expect(r.status).toBe(0);
  }, 150_000);

  it('loops.yaml: for_each over a step output, a nested loop reading .loop.Parent, a while loop', () => {
    const r = run('examples/loops.yaml');
    expect(r.stdout).toBe('liftoff after completed 4 iterations\n');
    expect(r.stderr.match(/✓ count_word/g)).toHaveLength(6);
    expect(r.status).toBe(0);
  }, 150_000);

  it('sub-workflow.yaml: call_workflow in a loop, reading the child output', () => {
    const r = run('examples/sub-workflow.yaml');
    expect(r.stdout).toMatch(/^math\.js has \d+ lines \(the last file\)\n$/);
    expect(r.stderr.match(/✓ measure/g)).toHaveLength(2);
    expect(r.status).toBe(0);
  }, 150_000);

  it('templates.yaml: range, with, if/else if, variables, printf, len/index, split/join, array inputs', () => {
    const r = run('examples/templates.yaml');
    expect(r.stdout).toBe(
      '0:src/math.js\n1:src/greet.js\n2:README.md\nplan={"checks":["lint","test"],"owner":{"name":"ada"}}\n' +
        'mode=quick\nfiles=3 first=src/math.js\na+b+c\nworkflow=templates step=report\n',
    );
    expect(run('examples/templates.yaml', ['-i', 'mode=full', '-i', 'files=["x"]']).stdout).toMatch(
      /^0:x\n[\s\S]*mode=full\nfiles=1 first=x\n/,
    );
    expect(r.status).toBe(0);
  }, 150_000);

  it('secrets.yaml: inputs named like AWF secrets, and secret: true, are masked', () => {
    const r = run('examples/secrets.yaml');
    expect(r.stdout).toBe('deploying to eu-west-1 with *** / *** / ***\n');
    expect(r.stdout + r.stderr).not.toMatch(/demo-key|tok-abc|hunter2/);
    expect(r.status).toBe(0);
  }, 150_000);

  it('conversation.yaml: continue_from across steps; the script agent says once that it cannot resume', () => {
    const r = run('examples/conversation.yaml');
    expect(r.stderr.match(/USER\.AGENT\.CANNOT_RESUME/g)).toHaveLength(1);
    expect(r.stdout).toBe('plan used 1 call(s); review read Read\n');
    expect(r.status).toBe(0);
  }, 150_000);

  it('plugins/operations.yaml: plugin operations as steps, results in .states.X.Response', () => {
    const kv = scratchDir();
    try {
      const r = runAwf(['run', 'examples/plugins/operations.yaml', '--input', 'city=Nantes'], {
        cwd: REPO_ROOT,
        timeout: 120_000,
        env: { AWF_PLUGINS_PATH: join(REPO_ROOT, 'examples/plugins'), AWF_KV_FILE: join(kv.dir, 'kv.json') },
      });
      expect(r.stdout).toBe('recalled Nantes (clock answered: yes)\n');
      expect(r.status).toBe(0);
    } finally {
      kv.cleanup();
    }
  }, 150_000);

  it('http-request.yaml: http.request against a local server on 127.0.0.1', async () => {
    const server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const child = spawnAwf(['run', 'examples/http-request.yaml', '--input', `url=${url}`], { cwd: REPO_ROOT });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const [code] = await once(child, 'exit');
      expect(out).toBe('200: {"hello":"world"}\n');
      expect(code).toBe(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }, 150_000);

  it('files-project: script_file (shebang and plain), prompt_file, @prompts/ inputs, readFile, .awf dirs', () => {
    const cwd = join(REPO_ROOT, 'examples/files-project');
    const files = (args: string[] = []) => runAwf(['run', 'files', ...args], { cwd, timeout: 120_000 });
    const plain = files();
    expect(plain.stdout).toBe('report on the build for files / 2 words / release notes for 2.0\n');
    expect(plain.stderr).toMatch(/✓ review .*1 tool call/);
    expect(plain.status).toBe(0);
    const prompted = files(['--input', 'topic=@prompts/topic.md']);
    expect(prompted.stdout).toBe('report on release notes for 2.0 for files / 4 words / release notes for 2.0\n');
    const escaping = files(['--input', 'topic=@prompts/../workflows/files.yaml']);
    expect(escaping.stderr).toContain('[USER.INPUT.INVALID_FORMAT]');
    expect(escaping.status).toBe(1);
  }, 150_000);

  it('files-project reuse: a step template with parameters, an agent with a role and a skill', () => {
    const cwd = join(REPO_ROOT, 'examples/files-project');
    const r = runAwf(['run', 'reuse', '--input', 'topic=release notes for 2.0'], { cwd, timeout: 120_000 });
    expect(r.stdout).toBe('4 words\n');
    expect(r.stderr).not.toContain('warning');
    expect(r.status).toBe(0);
  }, 150_000);

  it('hooks.yaml: hooks in order on success, and workflow_error with .error on failure', () => {
    const ok = run('examples/hooks.yaml');
    expect(ok.stderr).toMatch(
      /^Workflow started: hooks\nWorkflow ID: [0-9a-f-]{36}\nstarting hooks \(run [0-9a-f-]{36}\)\nabout to build\nbuild exited 0\n✓ build .*\nfinished: built ok\n✓ hooks succeeded in \S+\n$/,
    );
    expect(ok.status).toBe(0);
    const failed = run('examples/hooks.yaml', ['--input', 'fail=yes']);
    expect(failed.stderr).toContain('failed in build (execution error, exit 1): step "build" failed (exit code 1)');
    expect(failed.status).toBe(3);
  }, 150_000);
});
