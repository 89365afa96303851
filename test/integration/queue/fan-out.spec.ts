import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../../../src/domain/ports/run-queue.port';
import { QUEUE_BACKENDS } from '../../support/queue-servers';
import { describeUnless } from '../../support/skip';
import { queueHarness } from './queue-harness';

const stepsOf = (events: RunEvent[]): string[] => events.flatMap((e) => (e.t === 'step' ? [e.step] : []));

/** Each item's "<start ns> <end ns> <worker>", as its body step wrote it in $MARK.<item>. */
function spans(dir: string): { item: string; start: number; end: number; worker: string }[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith('marks.'))
    .map((f) => {
      const [start, end, worker] = readFileSync(join(dir, f), 'utf8').trim().split(' ');
      return { item: f.slice('marks.'.length), start: Number(start) / 1e6, end: Number(end) / 1e6, worker };
    });
}

/** The most items running at one moment. */
function mostAtOnce(items: { start: number; end: number }[]): number {
  return Math.max(...items.map((a) => items.filter((b) => b.start <= a.start && a.start < b.end).length));
}

// The body records when it ran and on which worker (its child job's directory is <workdir>/<child id>).
const FOR_EACH = `name: fanned
states:
  initial: each
  each:
    type: for_each
    items: '["a","b","c","d","e","f"]'
    fan_out: true
    max_concurrent: 2
    body: [work]
    on_success: after
  work:
    type: step
    command: 's=$(date +%s%N); sleep 0.6; echo "$s $(date +%s%N) $(basename $(dirname $PWD))" > $MARK.{{.loop.Item}}; echo "did {{.loop.Index1}} {{.loop.Item}}"'
  after:
    type: step
    command: 'echo "last: {{.states.work.Output}}"'
    on_success: done
  done: {type: terminal}
`;

describe.each(QUEUE_BACKENDS)('fan-out on a real $name', (backend) => {
  describeUnless(backend.skip, 'parallel branches and for_each items as child jobs on any worker', () => {
    const h = queueHarness(backend);

    it('spreads a for_each over the workers, never more than max_concurrent at once, results in order', async () => {
      const id = await h.enqueue(FOR_EACH);
      for (let i = 0; i < 3; i++) await h.worker();
      const { report, events } = await h.follow(id);
      expect(report).toMatchObject({ status: 'success' });
      const ran = spans(h.dir);
      expect(ran.map((s) => s.item).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      expect(new Set(ran.map((s) => s.worker)).size).toBeGreaterThan(1);
      expect(mostAtOnce(ran)).toBeLessThanOrEqual(2);
      expect(mostAtOnce(ran)).toBe(2);
      // Gathered in item order, whichever worker finished first; the last item's state is what follows reads.
      const work = report!.steps.filter((s) => s.name === 'work').map((s) => s.output.trim());
      expect(work).toEqual(['did 1 a', 'did 2 b', 'did 3 c', 'did 4 d', 'did 5 e', 'did 6 f']);
      expect(report!.steps.find((s) => s.name === 'after')?.output).toContain('last: did 6 f');
      expect(report!.steps.find((s) => s.name === 'each')?.output).toBe('completed 6 iterations');
      // The follower saw the children's steps live, as a local run's.
      expect(stepsOf(events).filter((s) => s === 'work')).toHaveLength(6);
      expect(events).toContainEqual(
        expect.objectContaining({ t: 'info', message: expect.stringContaining('6 items as child jobs') }),
      );
    }, 60_000);

    it("runs a parallel step's branches as child jobs; their outputs in the listed order", async () => {
      const yaml = `name: par
states:
  initial: both
  both:
    type: parallel
    parallel: [slow, fast]
    fan_out: true
    on_success: after
  slow: {type: step, command: 'sleep 0.8; echo "slow on $(basename $(dirname $PWD))"'}
  fast: {type: step, command: 'echo fast'}
  after: {type: step, command: 'echo "{{.states.slow.Output}} / {{.states.fast.Output}}"', on_success: done}
  done: {type: terminal}
`;
      const id = await h.enqueue(yaml);
      for (let i = 0; i < 2; i++) await h.worker();
      const { report, events } = await h.follow(id);
      expect(report).toMatchObject({ status: 'success' });
      const both = report!.steps.find((s) => s.name === 'both')!;
      expect(both.output).toMatch(/^slow on worker-\d\nfast\n$/);
      expect(both.state.Response).toMatchObject({ slow: { Status: 'success' }, fast: { Status: 'success' } });
      expect(report!.steps.find((s) => s.name === 'after')?.output).toMatch(/slow on worker-\d\n \/ fast/);
      expect(stepsOf(events)).toEqual(expect.arrayContaining(['both', 'slow', 'fast', 'after']));
    }, 60_000);

    it('a failing child fails the step as in a local run; the other branches are stopped', async () => {
      const yaml = `name: failing
states:
  initial: both
  both:
    type: parallel
    parallel: [bad, long]
    fan_out: true
    on_success: done
  bad: {type: step, command: 'sleep 0.3; echo nope >&2; exit 3'}
  long: {type: step, command: 'sleep 20; echo "$(basename $PWD)" >> $MARK.long'}
  done: {type: terminal}
`;
      const id = await h.enqueue(yaml);
      for (let i = 0; i < 2; i++) await h.worker();
      const started = Date.now();
      const { report } = await h.follow(id);
      expect(report).toMatchObject({
        status: 'failure',
        error: { code: 'EXECUTION.PARALLEL.FAILED', message: expect.stringContaining('branch "bad" failed') },
      });
      // The losing branch's child was told to stop: the run did not wait out its 20 s.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(readdirSync(h.dir).filter((f) => f === 'marks.long')).toEqual([]);

      const loopFails = await h.enqueue(
        FOR_EACH.replace('sleep 0.6;', 'sleep 0.2; [ {{.loop.Item}} = c ] && exit 4;').replace('fanned', 'loopfail'),
      );
      const failed = await h.follow(loopFails);
      expect(failed.report).toMatchObject({
        status: 'failure',
        error: { code: 'EXECUTION.LOOP.FAILED', message: expect.stringContaining('iteration 3: step "work" failed') },
      });
    }, 60_000);

    it('cancelling a run mid fan-out stops its running children and drops its waiting ones', async () => {
      const yaml = FOR_EACH.replace('sleep 0.6;', 'echo $$ > $MARK.pid.{{.loop.Item}}; sleep 20;').replace(
        'fanned',
        'stopped',
      );
      const id = await h.enqueue(yaml);
      for (let i = 0; i < 2; i++) await h.worker();
      const pidFiles = (): string[] => readdirSync(h.dir).filter((f) => f.startsWith('marks.pid.'));
      while (pidFiles().length < 2) await new Promise((r) => setTimeout(r, 50));
      await expect(h.client.cancel(id)).resolves.toBe('signalled');
      const { report } = await h.follow(id);
      expect(report).toMatchObject({ status: 'cancelled' });
      // Only the two running items ever started; their processes are gone.
      expect(pidFiles()).toHaveLength(2);
      for (const f of pidFiles()) expect(() => process.kill(Number(readFileSync(join(h.dir, f), 'utf8')), 0)).toThrow();
    }, 60_000);
  });
});
