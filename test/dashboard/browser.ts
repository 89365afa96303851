import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); AWF_CHROMIUM names another. No browser is downloaded. */
export const CHROMIUM = process.env.AWF_CHROMIUM ?? '/usr/bin/chromium';

export const noChromium = (): string | undefined =>
  existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set AWF_CHROMIUM)`;

/** One headless Chromium for the describe block; each test opens its own page (own cookies). */
export function headlessChromium(): { page(): Promise<Page> } {
  let browser: Browser | undefined;
  let errors: string[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(() => browser?.close());
  // A script error on the page, or a resource it could not load, fails the test that caused it.
  afterEach(() => {
    const seen = errors;
    errors = [];
    expect(seen).toEqual([]);
  });
  return {
    async page() {
      const context = await browser!.newContext({ viewport: { width: 1200, height: 800 } });
      const page = await context.newPage();
      page.on('pageerror', (err) => errors.push(err.message));
      // The API's refusals (401 to sign in, 422 for an invalid workflow) are the page's to show.
      page.on('response', (r) => {
        if (r.status() >= 400 && !new URL(r.url()).pathname.startsWith('/api/'))
          errors.push(`${r.status()} ${r.url()}`);
      });
      return page;
    },
  };
}
