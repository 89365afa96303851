import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrivateTempDirs } from './private-temp-dir';
import { startTime } from './process-tree';

describe('PrivateTempDirs', () => {
  let parent: string;
  beforeEach(() => (parent = mkdtempSync(join(tmpdir(), 'awf-dirs-spec-'))));
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  /** A directory as a killed process would have left it, naming `owner` as its owner. */
  const leftover = (name: string, owner?: object): string => {
    const dir = join(parent, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'step.json'), '{}');
    if (owner) writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
    return dir;
  };

  it('names its owner in each directory it makes: this pid and its start time', () => {
    const dir = new PrivateTempDirs(parent).make('awf-proxy-');
    dir.write('x.json', '{}');
    expect(JSON.parse(readFileSync(join(dir.path, 'owner.json'), 'utf8'))).toEqual({
      pid: process.pid,
      start: startTime(process.pid),
    });
  });

  it('sweeps only directories whose owner is gone: a dead pid, or a pid that now names another process', () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const parentStart = startTime(process.ppid);
    const gone = leftover('awf-proxy-dead', { pid: dead, start: '1' });
    const reused = leftover('awf-proxy-reused', { pid: process.ppid, start: `${Number(parentStart ?? 0) + 1}` });
    const live = leftover('awf-proxy-live', { pid: process.ppid, start: parentStart });
    const unowned = leftover('awf-proxy-unowned');
    const other = leftover('awf-script-dead', { pid: dead, start: '1' });
    const dirs = new PrivateTempDirs(parent);
    const mine = dirs.make('awf-proxy-');
    mine.write('x.json', '{}');
    dirs.sweep('awf-proxy-');
    expect(existsSync(gone)).toBe(false);
    if (parentStart !== undefined) expect(existsSync(reused)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(unowned)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(existsSync(mine.path)).toBe(true);
  });
});
