import { afterAnswer, recordWaiting } from './after-answer';

describe('afterAnswer', () => {
  it('runs the records one turn later, in order, and none of them twice', async () => {
    const seen: number[] = [];
    afterAnswer(() => seen.push(1));
    afterAnswer(() => seen.push(2));
    expect(seen).toEqual([]);
    await new Promise(setImmediate);
    expect(seen).toEqual([1, 2]);
  });

  it('runs what is still waiting at once when a shutdown asks, and only once', async () => {
    const seen: string[] = [];
    afterAnswer(() => seen.push('span'));
    recordWaiting();
    expect(seen).toEqual(['span']);
    await new Promise(setImmediate);
    expect(seen).toEqual(['span']);
  });

  it('goes on with the other records when one throws', async () => {
    const seen: string[] = [];
    afterAnswer(() => {
      throw new Error('a broken exporter');
    });
    afterAnswer(() => seen.push('log line'));
    await new Promise(setImmediate);
    expect(seen).toEqual(['log line']);
  });
});
