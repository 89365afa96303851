import { createElement as h, useState } from 'react';
import { ink } from '../ink.loader';
import type { TabProps, TuiServices } from '../tui-services';
import { HistoryTab } from './history.tab';
import { LogsTab } from './logs.tab';
import { MonitoringTab } from './monitoring.tab';
import { WorkflowsTab } from './workflows.tab';

const TABS = [
  { title: 'Workflows', view: WorkflowsTab, keys: 'enter launch  v validate  / filter  ↑↓ move' },
  { title: 'Monitoring', view: MonitoringTab, keys: '↑/k ↓/j step  f follow  n next run  pgup/pgdn scroll' },
  { title: 'History', view: HistoryTab, keys: 'enter detail  esc back  / filter  tab status  ↑↓ move' },
  { title: 'Logs', view: LogsTab, keys: 'f follow  ↑↓ scroll' },
] as const;

const GLOBAL_KEYS = '1-4 tabs  q quit  ctrl+c quit  ? help';

/**
 * The frame: the tab bar, the four tabs (all kept mounted so each keeps its state; only the
 * one on screen reads keys), and the key help. A focused text field takes every key but ctrl+c.
 */
export function App({ services }: { services: TuiServices }) {
  const { Box, Text, useApp, useInput, useStdout } = ink();
  const { exit } = useApp();
  const rows = useStdout().stdout.rows || 24;
  const [tab, setTab] = useState(0);
  const [capturing, setCapturing] = useState(false);
  const [help, setHelp] = useState(false);
  useInput(
    (input) => {
      if (input >= '1' && input <= '4') setTab(Number(input) - 1);
      else if (input === 'q') exit();
      else if (input === '?') setHelp((shown) => !shown);
    },
    { isActive: !capturing },
  );
  const bar = TABS.map((t, i) =>
    h(Text, { key: t.title, inverse: i === tab, bold: i === tab }, ` ${i + 1} ${t.title} `),
  );
  const body = TABS.map((t, i) =>
    h(
      Box,
      { key: t.title, display: i === tab ? 'flex' : 'none', flexDirection: 'column' },
      h(t.view as (p: TabProps) => ReturnType<typeof h>, {
        services,
        active: i === tab,
        capture: (on: boolean) => i === tab && setCapturing(on),
        showMonitoring: () => setTab(1),
        rows: Math.max(rows - 4, 5),
      }),
    ),
  );
  const keys = help
    ? TABS.map((t, i) => h(Text, { key: t.title, dimColor: i !== tab }, `${t.title}: ${t.keys}`))
    : [h(Text, { key: 'short', dimColor: true }, `${TABS[tab].keys}   ${GLOBAL_KEYS}`)];
  return h(
    Box,
    { flexDirection: 'column' },
    h(Box, null, h(Text, { bold: true }, 'awf '), ...bar),
    h(Box, { flexDirection: 'column', flexGrow: 1 }, ...body),
    ...keys,
    help ? h(Text, { dimColor: true }, GLOBAL_KEYS) : null,
  );
}
