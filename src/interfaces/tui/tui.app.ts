import { createElement as h } from 'react';
import { loadInk } from './ink.loader';
import type { TuiServices } from './tui-services';
import { App } from './views/app.view';

/**
 * Draws the tui on this terminal until the person quits (q, ctrl+c) or `stop` aborts (SIGINT,
 * SIGTERM), then cancels the runs it launched and waits for them, so nothing it started is left
 * running. A closed terminal (SIGHUP) leaves nothing to draw on: the runs are stopped the same
 * way and awf exits 129. React and Ink load here, for `awf tui` alone.
 */
export async function runTui(services: TuiServices, stop: AbortSignal): Promise<void> {
  const { render } = await loadInk();
  const instance = render(h(App, { services }), { exitOnCtrlC: true });
  const quit = (): void => instance.unmount();
  const hangup = (): void => void services.runs.stop().finally(() => process.exit(129));
  stop.addEventListener('abort', quit, { once: true });
  process.once('SIGHUP', hangup);
  try {
    await instance.waitUntilExit();
  } finally {
    stop.removeEventListener('abort', quit);
    process.off('SIGHUP', hangup);
    instance.cleanup();
    await services.runs.stop();
  }
}
