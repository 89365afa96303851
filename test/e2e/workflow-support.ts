import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, runAwf, scratchDir } from '../support/cli';

export const WORKFLOW_FIXTURES = resolve(REPO_ROOT, 'test/fixtures/workflows');
export const SLOW_EXTENSION = resolve(REPO_ROOT, 'test/fixtures/workflow-extension/slow-tools.module.js');

/** A project dir with its own TMPDIR and data dir, so a test can prove nothing was left behind. */
export function workflowProject(files: Record<string, string> = {}, extensions: string[] = []) {
  const project = scratchDir({
    ...files,
    ...(extensions.length
      ? { '.awf/config.yaml': `extensions:\n${extensions.map((e) => `  - ${JSON.stringify(e)}`).join('\n')}\n` }
      : {}),
  });
  const tmp = join(project.dir, 'tmp');
  mkdirSync(tmp);
  const env = {
    TMPDIR: tmp,
    XDG_DATA_HOME: join(project.dir, 'data'),
    XDG_CONFIG_HOME: join(project.dir, 'config'),
    AWF_WORKFLOWS_PATH: '',
  };
  return { ...project, tmp, env, leftovers: () => readdirSync(tmp) };
}

export { processesWith } from '../support/run-watch';

/** `runAwf` with a bound generous enough for a loaded, shared machine. */
export function awf(args: string[], options: Parameters<typeof runAwf>[1] = {}): ReturnType<typeof runAwf> {
  return runAwf(args, { ...options, timeout: 100_000 });
}

/** A script agent whose calls go through the step's policy; every expectation is the agent's view. */
export const policedWorkflow = (policy: string, calls: string): string => `name: guarded
states:
  initial: work
  work:
    type: agent
    provider: script
    prompt: unused
    mcp_proxy:
      enable: true
      policy:
${policy.replace(/^/gm, '        ')}
    options:
      calls:
${calls.replace(/^/gm, '        ')}
    on_success: done
  done: {type: terminal}
`;
