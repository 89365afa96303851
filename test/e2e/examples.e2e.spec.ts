import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, runAwf } from '../support/cli';

/** Every shipped example is a workflow a user can copy: each must pass `awf validate` as shipped. */
describe('examples/', () => {
  const examples = [
    ...readdirSync(join(REPO_ROOT, 'examples')).filter((f) => f.endsWith('.yaml')).map((f) => `examples/${f}`),
    'examples/plugins/workflow.yaml',
  ];

  it('ships the three kinds of example the guide describes', () => {
    expect(examples).toEqual(expect.arrayContaining(['examples/shell-pipeline.yaml', 'examples/script-agent-demo.yaml', 'examples/claude-review.yaml']));
  });

  it.each(examples)('%s validates with the example plugins installed', (file) => {
    const result = runAwf(['validate', file], { env: { AWF_PLUGINS_PATH: join(REPO_ROOT, 'examples/plugins') }, timeout: 120_000 });
    expect(result.stderr).not.toMatch(/\[(USER|WORKFLOW)\./);
    expect(result.status).toBe(0);
  }, 150_000);
});
