import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinSandbox } from '../../../../test/support/builtin-context';
import { reportMissing, RIPGREP } from '../../../../test/support/optional-tools';
import type { GrepEngine, GrepMode, GrepRequest } from './grep-query.model';
import { JsGrepEngine } from './js-grep.engine';
import { RipgrepEngine } from './ripgrep.engine';

const rg = RIPGREP;
reportMissing('ripgrep', rg);
const engines: Array<[string, GrepEngine]> = [
  ['js', new JsGrepEngine()],
  ...(rg ? [['ripgrep', new RipgrepEngine(rg)] as [string, GrepEngine]] : []),
];

describe.each(engines)('the %s engine, unsorted search and size cap', (_name, engine) => {
  const box = builtinSandbox();
  const names = Array.from({ length: 40 }, (_, i) => `d${i % 4}/f${String(i).padStart(2, '0')}.txt`);
  beforeAll(() => {
    for (const name of names) {
      mkdirSync(join(box.root, name, '..'), { recursive: true });
      writeFileSync(join(box.root, name), 'needle\n'.repeat(1 + (names.indexOf(name) % 3)));
    }
    writeFileSync(join(box.root, 'big.txt'), `needle ${'x'.repeat(500)}\n`);
  });
  afterAll(() => box.cleanup());
  const search = (mode: GrepMode, stopAfter: number, maxFileBytes = 100) => {
    const request: GrepRequest = {
      root: box.root,
      targetRel: '',
      target: box.root,
      targetIsDir: true,
      mode,
      stopAfter,
      maxFileBytes,
      query: { pattern: 'needle', ignoreCase: false, multiline: false, before: 0, after: 0 },
    };
    return engine.search(request, new AbortController().signal, 30_000);
  };
  // `d1/f01.txt` ... with one directory level, plain string order is path order here.
  const inPathOrder = [...names].sort().map((n) => join(box.root, n));

  it.each<GrepMode>(['files_with_matches', 'count', 'content'])('returns every %s hit in path order', async (mode) => {
    const outcome = await search(mode, 10_000);
    expect(outcome.stopped).toBe(false);
    expect(outcome.hits.map((h) => h.path)).toEqual(inPathOrder);
  });

  it('stops a truncated search at the same first files in path order, every time', async () => {
    for (let round = 0; round < 3; round++) {
      const outcome = await search('files_with_matches', 5);
      expect(outcome.stopped).toBe(true);
      expect(outcome.hits.map((h) => h.path).slice(0, 5)).toEqual(inPathOrder.slice(0, 5));
    }
  });

  it('leaves out walked files over the size cap', async () => {
    expect((await search('files_with_matches', 10_000, 100)).hits.map((h) => h.path)).not.toContain(
      join(box.root, 'big.txt'),
    );
    expect((await search('files_with_matches', 10_000, 1000)).hits.map((h) => h.path)).toContain(
      join(box.root, 'big.txt'),
    );
  });
});
