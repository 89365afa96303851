// Per-step overhead: `awf run` of 10 `script` agent steps (one tool call each, through the
// proxy, so each step pays an mcp-serve start) against 10 plain command steps.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, processMs } from './mcp-measure.mjs';

const STEPS = 10;

export async function stepOverheadBench({ main, work, notes, rounds = 3 }) {
  const help = spawnSync(process.execPath, [main, '--help'], { encoding: 'utf8' });
  if (!/^\s+run\b/m.test(help.stdout)) {
    notes.push('per-step overhead: this build has no `awf run` yet; row skipped.');
    return null;
  }
  const target = join(work, 'project', 'file.txt');
  const commands = workflow('bench-commands', () => ({ type: 'step', command: 'true' }));
  const scripts = workflow('bench-scripts', () => ({
    type: 'agent',
    provider: 'script',
    prompt: 'Read the file.',
    mcp_proxy: { enable: true },
    options: { calls: [{ tool: 'Read', args: { file_path: target } }] },
  }));
  const files = { commands: join(work, 'commands.yaml'), scripts: join(work, 'scripts.yaml') };
  writeFileSync(files.commands, JSON.stringify(commands));
  writeFileSync(files.scripts, JSON.stringify(scripts));
  const times = { commands: [], scripts: [] };
  for (let i = 0; i <= rounds; i++) {
    for (const kind of ['commands', 'scripts']) {
      const r = await processMs(process.execPath, [main, 'run', files[kind]], {
        cwd: join(work, 'project'),
        env: { ...process.env, AWF_LOG_LEVEL: 'warn' },
      });
      if (r.code !== 0) {
        notes.push(`per-step overhead: \`awf run\` of the ${kind} workflow exited ${r.code}; row skipped.`);
        return null;
      }
      if (i > 0) times[kind].push(r.ms);
    }
  }
  const commandsMs = median(times.commands);
  const scriptsMs = median(times.scripts);
  return { steps: STEPS, commandsMs, scriptsMs, perStepMs: (scriptsMs - commandsMs) / STEPS };
}

function workflow(name, step) {
  const states = { initial: 's1' };
  for (let i = 1; i <= STEPS; i++) states[`s${i}`] = { ...step(), on_success: i < STEPS ? `s${i + 1}` : 'done' };
  states.done = { type: 'terminal', status: 'success' };
  return { name, version: '1.0', states };
}
