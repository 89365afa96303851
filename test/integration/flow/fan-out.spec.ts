import { flowHarness } from './flow-harness';

jest.setTimeout(60_000);

/** A fanned-out for_each without a queue: its items in this process, at once, each on its own states. */
describe('fan_out: true without a queue (in this process)', () => {
  const h = flowHarness();
  const outputs = (r: { steps: { name: string; output: string }[] }, name: string) =>
    r.steps.filter((s) => s.name === name).map((s) => s.output.trim());

  it('runs the items at most max_concurrent at once, each reading its own states; the last item wins after', async () => {
    // Each item's second body step reads the first's state: another item's must never leak in.
    const report = await h.run(`
name: fanned
states:
  initial: each
  each:
    type: for_each
    items: [a, b, c, d]
    fan_out: true
    max_concurrent: 2
    body: [tag, check]
    on_success: after
  tag:
    type: step
    command: 'printf "{{.loop.Item}}"; echo "$(date +%s%N) start" >> runs.{{.loop.Item}}; sleep 0.3; echo "$(date +%s%N) end" >> runs.{{.loop.Item}}'
  check:
    type: step
    command: '[ "{{.states.tag.Output}}" = "{{.loop.Item}}" ] && echo "ok {{.loop.Item}}"'
  after: {type: step, command: 'echo "{{.states.check.Output}}"', on_success: done}
  done: {type: terminal}
`);
    expect(report.error).toBeUndefined();
    expect(outputs(report, 'check').sort()).toEqual(['ok a', 'ok b', 'ok c', 'ok d']);
    expect(outputs(report, 'after')).toEqual(['ok d']);
    const spans = ['a', 'b', 'c', 'd'].map((i) => {
      const [start, end] = h
        .read(`runs.${i}`)
        .trim()
        .split('\n')
        .map((l) => Number(l.split(' ')[0]));
      return { start, end };
    });
    const most = Math.max(...spans.map((a) => spans.filter((b) => b.start <= a.start && a.start < b.end).length));
    expect(most).toBe(2);
  });

  it('refuses max_concurrent on a for_each without fan_out, and break_when with it', async () => {
    const loop = (extra: string) => `
name: bad
states:
  initial: each
  each:
    type: for_each
    items: [a]
    body: [b]
${extra}
    on_success: done
  b: {type: step, command: 'true'}
  done: {type: terminal}
`;
    await expect(h.run(loop('    max_concurrent: 2'))).rejects.toMatchObject({
      message: expect.stringContaining('max_concurrent on a for_each needs fan_out: true'),
    });
    await expect(h.run(loop("    fan_out: true\n    break_when: 'true'"))).rejects.toMatchObject({
      message: expect.stringContaining('break_when cannot combine with fan_out'),
    });
    await expect(h.run(loop('    fan_out: yes please'))).rejects.toMatchObject({
      message: expect.stringContaining('fan_out must be true or false'),
    });
  });
});
