import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsProjectFiles } from '../../infrastructure/project/fs-project.files';
import { ProjectInitService } from './project-init.service';

describe('ProjectInitService.initGlobal (awf init --global)', () => {
  let root: string;
  let init: ProjectInitService;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'awf-init-global-'));
    init = new ProjectInitService(new FsProjectFiles(join(root, 'project')), new FsProjectFiles(join(root, 'config')));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('creates prompts/example.md and an executable scripts/example.sh under the config dir', () => {
    expect(init.initGlobal()).toEqual({
      root: join(root, 'config'),
      created: ['prompts/example.md', 'scripts/example.sh'],
      replaced: [],
      kept: [],
    });
    expect(statSync(join(root, 'config/scripts/example.sh')).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(root, 'config/scripts/example.sh'), 'utf8')).toMatch(/^#!\/bin\/sh\n/);
  });

  it('never fails for what exists, as AWF: keeps it, or writes it again with force', () => {
    init.initGlobal();
    writeFileSync(join(root, 'config/prompts/example.md'), 'mine');
    expect(init.initGlobal()).toMatchObject({ created: [], kept: ['prompts/example.md', 'scripts/example.sh'] });
    expect(readFileSync(join(root, 'config/prompts/example.md'), 'utf8')).toBe('mine');
    expect(init.initGlobal({ force: true })).toMatchObject({ replaced: ['prompts/example.md', 'scripts/example.sh'] });
    expect(readFileSync(join(root, 'config/prompts/example.md'), 'utf8')).not.toBe('mine');
  });
});
