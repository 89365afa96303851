import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT, scratchDir } from '../support/cli';

const EXPORTER = resolve(REPO_ROOT, 'dist/infrastructure/telemetry/jsonl-span.exporter.js');

/**
 * Span lines are made in batches after the traced calls (ADR 099). A process that exits at
 * once, e.g. on a second Ctrl-C, must still write the spans that ended before it.
 */
describe('the file exporter on process.exit', () => {
  it('writes the spans still waiting for their batch', () => {
    const project = scratchDir();
    try {
      const file = join(project.dir, 'spans.jsonl');
      const script = `
        const { JsonLinesSpanExporter } = require(${JSON.stringify(EXPORTER)});
        const exporter = new JsonLinesSpanExporter({ file: ${JSON.stringify(file)} }, (t) => t);
        for (const name of ['a', 'b', 'c']) exporter.defer(() => ({ name, trace_id: '1'.repeat(32), span_id: '2'.repeat(16), start: '1970-01-01T00:00:00.000Z', duration_ms: 1, status: 'unset', attributes: {} }));
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
