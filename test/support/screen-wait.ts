/** Polls what a terminal shows until `text` is on it; the error prints the last screen. */
export async function untilOnScreen(
  screen: () => string,
  text: string | RegExp | ((screen: string) => boolean),
  ms: number,
  everyMs: number,
): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const s = screen();
    if (typeof text === 'string' ? s.includes(text) : text instanceof RegExp ? text.test(s) : text(s)) return s;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(text)} on:\n${s}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
