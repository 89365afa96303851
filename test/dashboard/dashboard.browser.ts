import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, type Served } from '../support/awf-serve';
import { describeUnless } from '../support/skip';
import { scratchDir } from '../support/cli';
import { policedWorkflow } from '../e2e/workflow-support';
import { API_WORKFLOWS } from '../integration/http-api/workflows.fixture';
import { headlessChromium, noChromium } from './browser';

jest.setTimeout(120_000);

const TOKEN = 'd4sh'.repeat(10);

const FILES = {
  '.awf/workflows/hello.yaml': API_WORKFLOWS['hello.yaml'],
  '.awf/workflows/broken.yaml': API_WORKFLOWS['broken.yaml'],
  '.awf/workflows/guarded.yaml': policedWorkflow(
    'approve: [Write]',
    '- tool: Write\n  args: {file_path: landed.txt, content: approved in the browser}',
  ),
};

describeUnless(noChromium(), 'the web dashboard in headless Chromium', () => {
  const chromium = headlessChromium();
  let project: ReturnType<typeof scratchDir> & { env: Record<string, string> };
  const servers: Served[] = [];
  const start = async (args: string[] = [], env = {}): Promise<Served> => {
    const server = await serve(project, args, env);
    servers.push(server);
    return server;
  };

  beforeAll(() => {
    const dir = scratchDir(FILES);
    project = { ...dir, env: { XDG_DATA_HOME: join(dir.dir, 'data'), XDG_CONFIG_HOME: join(dir.dir, 'config') } };
  });
  afterAll(async () => {
    for (const s of servers) {
      s.child.kill('SIGTERM');
      await s.exit;
    }
    project.cleanup();
  });

  it('starts a workflow from its form, by keyboard, and watches it finish live', async () => {
    const server = await start();
    const page = await chromium.page();
    await page.goto(server.url);
    await page.getByRole('link', { name: 'hello' }).click();
    await page.getByLabel('who').focus();
    await page.keyboard.type('ada');
    await page.keyboard.press('Enter'); // the form submits: Run
    await page.waitForURL(/#\/runs\//);
    await page.locator('h1 .status-completed').waitFor();
    await page.getByText('Output').click();
    await expect(page.locator('pre').first().textContent()).resolves.toBe('hello ada\n');
    const events = await page.locator('.events li code').allTextContents();
    expect(events).toEqual(['run.started', 'step.started', 'step.completed', 'run.completed', 'workflow.completed']);
    // The runs list shows it, and filters by status.
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.locator('table.runs .status-completed').first().waitFor();
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No runs yet.').waitFor();
  });

  it("validates a workflow; an invalid one shows the API's problem with its code", async () => {
    const server = await start();
    const page = await chromium.page();
    await page.goto(`${server.url}/#/workflows/local/hello`);
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText('The workflow is valid.').waitFor();
    await page.goto(`${server.url}/#/workflows/local/broken`);
    await page.getByRole('button', { name: 'Validate' }).click();
    const problem = page.getByRole('alert');
    await problem.waitFor();
    await expect(problem.textContent()).resolves.toMatch(/^WORKFLOW\.\S+ .*nowhere/);
  });

  it('shows a pending Write with its arguments; Approve lands the file and the run completes', async () => {
    const server = await start();
    const page = await chromium.page();
    await page.goto(`${server.url}/#/workflows/local/guarded`);
    await page.getByRole('button', { name: 'Run' }).click();
    const card = page.getByRole('region', { name: 'Approval: Write in step work' });
    await card.waitFor();
    await expect(card.locator('pre').textContent()).resolves.toContain('"file_path": "landed.txt"');
    expect(existsSync(join(project.dir, 'landed.txt'))).toBe(false);
    // The approvals page lists it too.
    const other = await chromium.page();
    await other.goto(`${server.url}/#/approvals`);
    await other.getByRole('region', { name: 'Approval: Write in step work' }).waitFor();
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.locator('h1 .status-completed').waitFor();
    expect(readFileSync(join(project.dir, 'landed.txt'), 'utf8')).toBe('approved in the browser');
    await page.getByText('approve "Write" (person local)').waitFor();
    await other.getByText('Nothing is waiting.').waitFor();
  });

  it('approves exactly these arguments: the next run does not ask; the kept approval is listed and revoked', async () => {
    const server = await start();
    const page = await chromium.page();
    await page.goto(`${server.url}/#/workflows/local/guarded`);
    await page.getByRole('button', { name: 'Run' }).click();
    const card = page.getByRole('region', { name: 'Approval: Write in step work' });
    await card.getByRole('button', { name: 'Approve these arguments (1 h)' }).click();
    await page.locator('h1 .status-completed').waitFor();
    await page.getByText('approve "Write" (person local, exactly these arguments)').waitFor();
    // Another run of the same step, same arguments: approved without a question.
    await page.goto(`${server.url}/#/workflows/local/guarded`);
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/#\/runs\//);
    await page.locator('h1 .status-completed').waitFor();
    await page.getByText(/approve "Write" \(exact approval [0-9a-f]{8}\)/).waitFor();
    await page.goto(`${server.url}/#/approvals`);
    const kept = page.getByRole('table', { name: 'Exact approvals' });
    await expect(kept.locator('tbody tr').first().textContent()).resolves.toContain('"file_path":"landed.txt"');
    await kept.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('None are kept.').waitFor();
  });

  it('with a token: signs in once for an HttpOnly session cookie; a wrong token is refused', async () => {
    const server = await start([], { AWF_API_TOKEN: TOKEN });
    const page = await chromium.page();
    await page.goto(server.url);
    await page.getByLabel('API token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That token is not one this server accepts.').waitFor();
    await page.getByLabel('API token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'hello' }).waitFor();
    await expect(page.locator('.who').textContent()).resolves.toBe('env');
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'awf_session', httpOnly: true, sameSite: 'Strict' });
    expect(cookie.value).not.toContain(TOKEN);
    await expect(page.evaluate('document.cookie')).resolves.toBe('');
    expect(page.url()).not.toContain(TOKEN);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API token').waitFor();
  });
});
