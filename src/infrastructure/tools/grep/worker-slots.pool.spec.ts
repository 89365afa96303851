import { WorkerSlots } from './worker-slots.pool';

describe('WorkerSlots', () => {
  const never = new AbortController().signal;

  it('lets `size` callers in at once and the next ones in arrival order as slots free up', async () => {
    const slots = new WorkerSlots(2);
    const order: string[] = [];
    const [a, b] = await Promise.all([slots.acquire(never), slots.acquire(never)]);
    const c = slots.acquire(never).then((release) => (order.push('c'), release));
    const d = slots.acquire(never).then((release) => (order.push('d'), release));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    a();
    a(); // a second release of the same slot frees nothing more
    (await c)();
    b();
    (await d)();
    expect(order).toEqual(['c', 'd']);
  });

  it('gives up on a waiting call that is cancelled, without losing a slot', async () => {
    const slots = new WorkerSlots(1);
    const held = await slots.acquire(never);
    const cancel = new AbortController();
    const cancelled = slots.acquire(cancel.signal);
    cancel.abort();
    await expect(cancelled).rejects.toThrow('Grep: cancelled');
    held();
    (await slots.acquire(never))();
  });
});
