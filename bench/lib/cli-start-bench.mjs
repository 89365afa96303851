// Start-up of the CLI's everyday commands against `node -e 0`, the floor of any Node CLI
// (issue 29's targets): each command runs in turn with the floor, round after round, so load from
// elsewhere spreads over all of them; medians of the rounds after a warm-up one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, processMs } from './mcp-measure.mjs';

const ECHO = `name: bench-echo
states:
  initial: hello
  hello:
    type: step
    command: echo hi
    on_success: done
  done:
    type: terminal
`;

export async function cliStartBench({ main, work, notes, rounds = 10 }) {
  const workflow = join(work, 'bench-echo.yaml');
  writeFileSync(workflow, ECHO);
  const env = { ...process.env, AWF_LOG_LEVEL: 'warn', AWF_STORAGE: join(work, 'cli-start-storage') };
  const rows = [
    { id: 'floor', label: 'node -e 0', args: ['-e', '0'] },
    { id: 'version', label: 'awf --version', args: [main, '--version'], target: 1.5 },
    { id: 'help', label: 'awf --help', args: [main, '--help'] },
    { id: 'list', label: 'awf list', args: [main, 'list'], target: 3.5 },
    { id: 'validate', label: 'awf validate (one step)', args: [main, 'validate', workflow], target: 3.5 },
    { id: 'run', label: 'awf run (one command step)', args: [main, 'run', workflow], target: 4.5 },
  ];
  const times = Object.fromEntries(rows.map((r) => [r.id, []]));
  for (let round = 0; round <= rounds; round++) {
    for (const row of rows) {
      const r = await processMs(process.execPath, row.args, { cwd: work, env });
      if (r.code !== 0) {
        notes.push(`start-up: \`${row.label}\` exited ${r.code}; its row is left out.`);
        row.failed = true;
      }
      if (round > 0) times[row.id].push(r.ms);
    }
  }
  const floor = median(times.floor);
  return rows
    .filter((r) => !r.failed)
    .map((r) => ({
      id: r.id,
      label: r.label,
      ms: median(times[r.id]),
      ratio: median(times[r.id]) / floor,
      target: r.target,
    }));
}
