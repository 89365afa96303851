import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT, runAwf } from '../support/cli';

// Real processes on a shared two-core machine: generous bounds, never timing assertions.
jest.setTimeout(180_000);

const EXAMPLES = resolve(REPO_ROOT, 'examples/plugins');
const WORKFLOWS_LANDED = existsSync(resolve(REPO_ROOT, 'src/infrastructure/workflow/workflow.module.ts'));
const describeRun = WORKFLOWS_LANDED ? describe : describe.skip;

/** Processes started with this test's TMPDIR: awf, mcp-serve and the plugins all inherit it. */
function processesWithEnv(entry: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describeRun(
  `awf run: the script agent calls plugin tools through awf mcp-serve${WORKFLOWS_LANDED ? '' : ' — SKIPPED: awf run (workflows) is not on this branch yet'}`,
  () => {
    let dir: string;
    let tmp: string;
    let env: Record<string, string>;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'awf-plugin-run-'));
      tmp = join(dir, 'tmp');
      mkdirSync(tmp);
      env = {
        AWF_PLUGINS_PATH: EXAMPLES,
        XDG_DATA_HOME: join(dir, 'data'),
        AWF_KV_FILE: join(dir, 'kv.json'),
        TMPDIR: tmp,
        AWF_PLUGIN_HANDSHAKE_TIMEOUT_MS: '30000',
      };
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('runs examples/plugins/workflow.yaml: time_now, kv_set, kv_get, and a kv error the agent sees', () => {
      const r = runAwf(['run', join(EXAMPLES, 'workflow.yaml'), '-f', 'json'], { cwd: dir, env, timeout: 90_000 });
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('[') });
      const results = JSON.parse(JSON.parse(r.stdout).steps[0].output) as Array<{
        tool: string;
        is_error: boolean;
        text: string;
      }>;
      expect(results.map((c) => [c.tool, c.is_error])).toEqual([
        ['time_now', false],
        ['kv_set', false],
        ['kv_get', false],
        ['kv_get', true],
      ]);
      expect(JSON.parse(results[0].text)).toHaveProperty('iso8601');
      expect(results[2].text).toBe('{"key":"city","value":"Lyon"}');
      expect(results[3].text).toBe('key "planet" is not set');
      expect(JSON.parse(readFileSync(env.AWF_KV_FILE, 'utf8'))).toEqual({ city: 'Lyon' });
      expect(readdirSync(tmp)).toEqual([]);
      expect(processesWithEnv(`TMPDIR=${tmp}`)).toEqual([]);
    }, 120_000);

    it('validate refuses an operation the plugin does not offer', () => {
      const bad = join(dir, 'bad.yaml');
      writeFileSync(
        bad,
        readFileSync(join(EXAMPLES, 'workflow.yaml'), 'utf8').replace(
          'expose: [get, set, list]',
          'expose: [get, delete]',
        ),
      );
      const r = runAwf(['validate', bad], { cwd: dir, env, timeout: 60_000 });
      expect(r.stderr).toContain('[USER.MCP_PROXY.UNKNOWN_OPERATION]');
      expect(r.stderr).toContain('operation "delete" not found in plugin "kv"');
      expect(r.status).toBe(1);
    });
  },
);
