import { afterAnswer, answerSent, onceAnswered, RECORD_WINDOW_MS, recordedAt, recordWaiting } from './after-answer';

const turn = () => new Promise(setImmediate);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('afterAnswer', () => {
  it('runs the records of a window together, in order, and none of them twice', async () => {
    const seen: number[] = [];
    afterAnswer(() => seen.push(1));
    await turn();
    afterAnswer(() => seen.push(2));
    await turn();
    expect(seen).toEqual([]); // not one by one between calls
    await sleep(RECORD_WINDOW_MS + 10);
    expect(seen).toEqual([1, 2]);
    await sleep(RECORD_WINDOW_MS + 10);
    expect(seen).toEqual([1, 2]);
  });

  it('runs what is still waiting at once when a shutdown asks, and only once', async () => {
    const seen: string[] = [];
    afterAnswer(() => seen.push('span'));
    recordWaiting();
    expect(seen).toEqual(['span']);
    await sleep(RECORD_WINDOW_MS + 10);
    expect(seen).toEqual(['span']);
  });

  it('goes on with the other records when one throws', () => {
    const seen: string[] = [];
    afterAnswer(() => {
      throw new Error('a broken exporter');
    });
    afterAnswer(() => seen.push('log line'));
    recordWaiting();
    expect(seen).toEqual(['log line']);
  });

  it('runs each record on the clock of its call, not of its batch', async () => {
    const times: number[] = [];
    const answeredAt = Date.now();
    afterAnswer(() => times.push(recordedAt()));
    await sleep(RECORD_WINDOW_MS + 10);
    expect(times[0]).toBeLessThan(answeredAt + 5);
    expect(recordedAt()).toBeGreaterThanOrEqual(answeredAt + RECORD_WINDOW_MS);
  });

  it('holds the process until its records have run', () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    afterAnswer(() => undefined);
    expect(timers()).toBe(before + 1); // a timer that keeps the loop alive (not unref'd)
    recordWaiting();
    expect(timers()).toBe(before);
  });
});

describe('onceAnswered', () => {
  it('runs when the edge says the answer is out, not before', () => {
    const order: string[] = [];
    onceAnswered(() => order.push('audit line'));
    order.push('answer written');
    answerSent();
    answerSent();
    expect(order).toEqual(['answer written', 'audit line']);
  });

  it('runs at the next turn for a call no edge answers (the in-process path)', async () => {
    const seen: string[] = [];
    onceAnswered(() => seen.push('audit line'));
    await Promise.resolve();
    expect(seen).toEqual([]);
    await turn();
    expect(seen).toEqual(['audit line']);
  });

  it('runs before the records when a shutdown asks for everything waiting', () => {
    const order: string[] = [];
    afterAnswer(() => order.push('log line'));
    onceAnswered(() => order.push('audit line'));
    recordWaiting();
    expect(order).toEqual(['audit line', 'log line']);
  });
});
