import { createElement as h } from 'react';
import { loadInk } from './ink.loader';
import type { TuiServices } from './tui-services';
import { App } from './views/app.view';

/**
 * Draws the tui on this terminal until the person quits (q, ctrl+c), then cancels the runs it
 * launched and waits for them, so nothing it started is left running. React and Ink load here,
 * for `awf tui` alone.
 */
export async function runTui(services: TuiServices): Promise<void> {
  const { render } = await loadInk();
  const instance = render(h(App, { services }), { exitOnCtrlC: true });
  try {
    await instance.waitUntilExit();
  } finally {
    instance.cleanup();
    await services.runs.stop();
  }
}
