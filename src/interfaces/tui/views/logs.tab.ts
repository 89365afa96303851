import { createElement as h, useEffect, useState, useSyncExternalStore } from 'react';
import { ink } from '../ink.loader';
import { AuditTail, type AuditSource } from '../logs/audit-tail';
import type { TabProps } from '../tui-services';
import { auditLine } from './audit-line.format';

/** AWF's Logs tab polls every 200 ms and keeps the last 1000 lines. */
const POLL_MS = 200;
const KEPT = 1000;

/**
 * AWF's Logs tab: follows an audit trail (AWF_AUDIT_LOG, else the tool calls of the run in
 * Monitoring, else of the newest run in the history), masked; `f` follows the end, ↑↓ scroll.
 */
export function LogsTab({ services, active, rows }: TabProps) {
  const { Box, Text, useInput } = ink();
  useSyncExternalStore(services.runs.subscribe, () => services.runs.version);
  const launched = services.runs.current?.runId;
  const [newest, setNewest] = useState<string>();
  const [source, setSource] = useState<AuditSource>();
  const [lines, setLines] = useState<string[]>([]);
  const [notice, setNotice] = useState<string>();
  const [back, setBack] = useState(0);

  useEffect(() => {
    if (active && !launched)
      services.history.list({ limit: 1 }).then(
        (r) => setNewest(r[0]?.run_id),
        () => setNewest(undefined),
      );
  }, [active, launched, services]);
  const runId = launched ?? newest;
  useEffect(() => setSource(services.auditSource(runId)), [runId, services]);
  useEffect(() => {
    if (!source) return;
    const tail = new AuditTail(source);
    setLines([]);
    setNotice(undefined);
    const poll = (): void => {
      const batch = tail.poll();
      if (batch.notice) setNotice(services.mask(batch.notice));
      if (batch.lines.length)
        setLines((kept) => [...kept, ...batch.lines.map((l) => services.mask(auditLine(l)))].slice(-KEPT));
    };
    poll();
    const timer = setInterval(poll, POLL_MS);
    return () => clearInterval(timer);
  }, [source, services]);
  useInput(
    (input, key) => {
      if (input === 'f') setBack(0);
      else if (key.upArrow || input === 'k') setBack((b) => Math.min(b + 1, Math.max(0, lines.length - 1)));
      else if (key.downArrow || input === 'j') setBack((b) => Math.max(0, b - 1));
      else if (key.pageUp) setBack((b) => Math.min(b + 10, Math.max(0, lines.length - 1)));
      else if (key.pageDown) setBack((b) => Math.max(0, b - 10));
    },
    { isActive: active },
  );

  if (!source)
    return h(
      Text,
      { dimColor: true },
      process.env.AWF_AUDIT_LOG === 'off'
        ? 'The audit log is off (AWF_AUDIT_LOG=off).'
        : 'No audit log yet: it appears once a run has started (its tool calls, one line each).',
    );
  const where = 'file' in source ? source.file : source.dir;
  const height = Math.max(1, rows - 3);
  const end = lines.length - back;
  return h(
    Box,
    { flexDirection: 'column' },
    h(
      Text,
      { bold: true },
      `Log: ${services.mask(where)}  (${lines.length} entries)`,
      back ? '' : h(Text, { dimColor: true }, '  following'),
    ),
    notice ? h(Text, { color: 'yellow' }, notice) : null,
    lines.length === 0
      ? h(Text, { dimColor: true }, 'Waiting for log entries… New entries appear as tools are called.')
      : null,
    ...lines.slice(Math.max(0, end - height), end).map((l, i) => h(Text, { key: i, wrap: 'truncate-end' }, l)),
  );
}
