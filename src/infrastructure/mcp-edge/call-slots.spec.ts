import type { RequestId } from './json-rpc';
import { CallSlots } from './call-slots';

function slots(max: number) {
  const started: Array<{ id: RequestId; controller: AbortController }> = [];
  const calls = new CallSlots<string>(max, (id, _params, controller) => started.push({ id, controller }));
  return { calls, started };
}

describe('CallSlots', () => {
  it('gives every call a controller of its own, the one made ahead of time included', () => {
    const { calls, started } = slots(4);
    calls.add(1, 'a');
    calls.dispatched();
    calls.add(2, 'b');
    calls.dispatched();
    calls.add(3, 'c');
    const signals = new Set(started.map((s) => s.controller.signal));
    expect(signals.size).toBe(3);
    calls.cancel(2);
    expect(started.map((s) => s.controller.signal.aborted)).toEqual([false, true, false]);
  });

  it('starts a waiting call when a running one finishes, and aborts them all at the end', () => {
    const { calls, started } = slots(1);
    calls.add('x', 'a');
    calls.add('y', 'b');
    expect(started.map((s) => s.id)).toEqual(['x']);
    calls.finished('x', started[0].controller);
    expect(started.map((s) => s.id)).toEqual(['x', 'y']);
    calls.abortAll();
    expect(started[1].controller.signal.aborted).toBe(true);
  });
});
