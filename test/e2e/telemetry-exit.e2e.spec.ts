import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, scratchDir } from '../support/cli';

const EXPORTER = resolve(REPO_ROOT, 'dist/infrastructure/telemetry/otel-sdk.loader.js');

/** A process that exits at once, e.g. on a second Ctrl-C, must still have written the spans that ended before it. */
describe('the file exporter on process.exit', () => {
  it('has written every span that ended', () => {
    const project = scratchDir();
    try {
      const file = join(project.dir, 'spans.jsonl');
      const script = `
        const { loadTracing } = require(${JSON.stringify(EXPORTER)});
        const { tracer } = loadTracing({ exporter: 'file', file: ${JSON.stringify(file)} }, (t) => t, () => {});
        for (const name of ['a', 'b', 'c']) tracer.startSpan(name).end();
        process.exit(3);`;
      const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      expect(run.status).toBe(3);
      expect(
        readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { name: string }).name),
      ).toEqual(['a', 'b', 'c']);
    } finally {
      project.cleanup();
    }
  });
});
