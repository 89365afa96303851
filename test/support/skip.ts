/**
 * Conditional suites and tests whose skip says why: the reason goes into the title as
 * "SKIPPED: <reason>", which test/support/skip-reasons.reporter.js prints in the run's summary
 * (and a skip without one fails the run).
 */
export function describeUnless(reason: string | undefined, title: string, body: () => void): void {
  if (reason) describe.skip(`${title} — SKIPPED: ${reason}`, body);
  else describe(title, body);
}

export function itUnless(reason: string | undefined, title: string, fn: () => unknown, timeout?: number): void {
  if (reason) it.skip(`${title} — SKIPPED: ${reason}`, fn as jest.ProvidesCallback);
  else it(title, fn as jest.ProvidesCallback, timeout);
}
