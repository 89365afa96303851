import { createServer } from 'node:net';
import { join } from 'node:path';
import { runAwf, scratchDir } from '../support/cli';

// Real processes on a shared machine: generous bounds, never timing assertions.
jest.setTimeout(900_000);

const WORKFLOW = `name: valid-simple
inputs:
  - name: who
    type: string
    default: world
  - name: greeting
    type: string
    default: hello
states:
  initial: fetch
  fetch:
    type: step
    command: echo "data for {{.inputs.who}}"
    on_success: greet
  greet:
    type: step
    command: echo "{{.inputs.greeting}} {{.inputs.who}} ({{.states.fetch.Output}})"
    on_success: check
  check:
    type: step
    command: test -f go
    on_success: done
    on_failure: failed
  done:
    type: terminal
    status: success
  failed:
    type: terminal
    status: failure
`;

/** A port nothing listens on (taken from port 0 and released): a collector that is down. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * AWF's documented command lines (reference awf-core.md §3), typed as AWF's docs type them. The
 * ones of issue #16 items 1-3 and 5 run; AWF's commands that awf does not have are refused
 * with a coded error that says so. Item 4's commands (init, diagram, error, config show,
 * completion, list prompts, plugin install) have their own e2e tests.
 */
describe("AWF's documented invocations", () => {
  const project = scratchDir({ 'lib/valid-simple.yaml': WORKFLOW, '.awf/workflows/local.yaml': WORKFLOW, go: '' });
  const env = {
    AWF_STORAGE: join(project.dir, 'store'),
    AWF_WORKFLOWS_PATH: join(project.dir, 'lib'),
    XDG_DATA_HOME: join(project.dir, 'xdg'),
    XDG_CONFIG_HOME: join(project.dir, 'config'),
    AWF_PLUGINS_PATH: join(project.dir, 'no-plugins'),
  };
  afterAll(() => project.cleanup());
  const awf = (line: string) => runAwf(split(line), { cwd: project.dir, env, timeout: 120_000 });

  it('run them unchanged', async () => {
    const port = await freePort();
    const ok = [
      'awf --version',
      'awf run valid-simple.yaml',
      'awf run valid-simple',
      'awf run local',
      'awf run lib/valid-simple.yaml',
      'awf --verbose run valid-simple.yaml',
      'awf -q run valid-simple.yaml',
      'awf --no-color --no-hints run valid-simple.yaml',
      'awf --log-level info run valid-simple.yaml',
      'awf --storage ./other-store run valid-simple.yaml',
      'awf --format json run valid-simple.yaml',
      'awf -f table list',
      'awf -f quiet list',
      'awf run valid-simple.yaml --input who=me --input greeting=hi',
      'awf run valid-simple.yaml -i who=me -i greeting=hi',
      'awf run valid-simple.yaml --output=streaming',
      'awf run valid-simple.yaml -o buffered',
      'awf run valid-simple.yaml -o silent',
      'awf run valid-simple.yaml --step=fetch --input who=test',
      'awf run valid-simple.yaml --step=greet --mock states.fetch.Output="cached data"',
      'awf run valid-simple.yaml -s greet -m states.fetch.Output=x',
      'awf run valid-simple.yaml --dry-run',
      'awf run valid-simple.yaml --debug-transcript-mirror mirror.jsonl',
      'awf run valid-simple.yaml --skip-plugins',
      `awf run valid-simple.yaml --otel-exporter 127.0.0.1:${port} --otel-service-name awf-docs`,
      'awf run valid-simple.yaml --help',
      'awf validate valid-simple.yaml',
      'awf validate --dir lib',
      'awf validate valid-simple.yaml --skip-plugins --validator-timeout 5s',
      'awf history --stats',
      'awf history -w valid-simple -s failed --since 2025-12-01 -n 50',
      'awf resume --list',
      'awf resume -l',
      'awf completion powershell',
      'awf list',
      'awf ls',
      'awf plugin list',
      'awf history',
      'awf resume-list',
    ];
    for (const line of ok) {
      const r = awf(line);
      expect([line, r.status, r.status === 0 ? '' : r.stderr]).toEqual([line, 0, '']);
    }
    expect(awf('awf run valid-simple.yaml --dry-run').stdout).toContain('Dry Run: valid-simple');
  });

  it('status, history and resume: a run that fails at its last step is continued from there', () => {
    require('node:fs').rmSync(join(project.dir, 'go'));
    const failed = awf('awf -f json run valid-simple.yaml');
    expect(failed.status).toBe(3);
    const id = JSON.parse(failed.stdout).run_id as string;
    expect(awf(`awf status ${id.slice(0, 8)}`).status).toBe(0);
    expect(awf('awf history').stdout).toContain(id);
    expect(awf('awf resume-list').stdout).toContain(id);
    require('node:fs').writeFileSync(join(project.dir, 'go'), '');
    const resumed = awf(`awf -f json resume ${id} --from check`);
    expect(resumed.status).toBe(0);
    expect(JSON.parse(resumed.stdout).steps.map((s: { name: string }) => s.name)).toEqual(['check']);
    expect(awf(`awf resume ${id}`).status).toBe(1); // it succeeded: nothing to resume
  });

  it('refuse what is not part of awf, each with a coded error that says so', () => {
    const refused: Array<[string, string]> = [
      ['awf acp-serve', "required option '--config <file>' not specified"],
      ['awf --config x.yaml list', '`--config` is an AWF option that awf does not have'],
      ['awf validate', '[USER.CLI.INVALID_ARGS]'],
      ['awf -f xml list', '[USER.CLI.INVALID_ARGS] invalid output format "xml"'],
    ];
    for (const [line, message] of refused) {
      const r = awf(line);
      expect([line, r.status, r.stderr.includes(message) ? message : r.stderr]).toEqual([line, 1, message]);
      expect(r.stderr).toMatch(/^\[USER\.CLI\.INVALID_ARGS\] /);
    }
  });
});

/** A command line as a shell splits it (double quotes only), without the leading `awf`. */
function split(line: string): string[] {
  const words = [...line.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((m) => m[0].replace(/"/g, ''));
  return words.slice(1);
}
