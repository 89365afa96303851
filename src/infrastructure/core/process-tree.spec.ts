import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { alive, descendantsOf, reapGroup } from './process-tree';

/** A process group like an agent CLI's, with a grandchild that started its own session (as codex's sandbox does). */
async function treeWithStray(): Promise<{ leader: number; stray: number }> {
  const child = spawn('sh', ['-c', 'setsid sleep 60 & echo $!; wait'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { leader: child.pid!, stray: Number(chunk.toString().trim()) };
}

describe('reapGroup', () => {
  it('stops a descendant that left the group, not only the group', async () => {
    const { leader, stray } = await treeWithStray();
    expect(descendantsOf(leader)).toContain(stray);
    expect(alive(stray)).toBe(true);
    await reapGroup(leader, 2000);
    expect(alive(stray)).toBe(false);
    expect(alive(leader)).toBe(false);
  });

  it('finds nothing under a process that has no children, and does nothing for no pid', async () => {
    expect(descendantsOf(2 ** 22 + 7)).toEqual([]);
    await expect(reapGroup(undefined, 10)).resolves.toBeUndefined();
  });
});
