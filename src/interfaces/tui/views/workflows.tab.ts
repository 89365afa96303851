import { createElement as h, useEffect, useState } from 'react';
import type { WorkflowSummary } from '../../../domain/workflow/ports/workflow-repository.port';
import type { InputDef } from '../../../domain/workflow/workflow.model';
import { formatIssue } from '../../../domain/workflow/validation-issue.model';
import { ink } from '../ink.loader';
import type { TabProps } from '../tui-services';
import { LaunchForm } from './launch-form.view';
import { FilterLine } from './filter-line.view';
import { messageOf } from './format';
import { windowOf } from './window';

type Overlay = { title: string; lines: string[]; ok: boolean };

/**
 * AWF's Workflows tab: the workflows awf finds (env, local, global), `/` to filter by name,
 * enter to launch (a form first when the workflow has inputs), `v` to validate.
 */
export function WorkflowsTab({ services, active, capture, showMonitoring, rows }: TabProps) {
  const { Box, Text, useInput } = ink();
  const [workflows, setWorkflows] = useState<WorkflowSummary[] | undefined>();
  const [problem, setProblem] = useState<string>();
  const [selected, setSelected] = useState(0);
  const [filter, setFilter] = useState('');
  const [filtering, setFiltering] = useState(false);
  const [form, setForm] = useState<{ name: string; inputs: InputDef[] }>();
  const [overlay, setOverlay] = useState<Overlay>();

  useEffect(() => {
    services.workflows.list().then(setWorkflows, (err: unknown) => setProblem(messageOf(err, services.mask)));
  }, [services]);
  useEffect(() => {
    capture(filtering || form !== undefined);
  }, [filtering, form, active]);

  const shown = (workflows ?? []).filter((w) => w.name.toLowerCase().includes(filter.toLowerCase()));
  const current = shown[Math.min(selected, shown.length - 1)];

  const launch = (name: string, inputs: Record<string, string>): void => {
    setForm(undefined);
    services.runs.launch(name, inputs);
    showMonitoring();
  };
  const open = async (name: string): Promise<void> => {
    try {
      const workflow = await services.workflows.describe(name);
      if (workflow.inputs.length === 0) launch(name, {});
      else setForm({ name, inputs: workflow.inputs });
    } catch (err) {
      setOverlay({ title: `${name} cannot be launched`, lines: messageOf(err, services.mask).split('\n'), ok: false });
    }
  };
  const validate = async (name: string): Promise<void> => {
    try {
      const report = await services.workflows.validate(name);
      const issues = [...report.errors, ...report.warnings].map((i) => services.mask(formatIssue(i)));
      const title = report.valid ? `${name} is valid` : `${name} is not valid`;
      setOverlay({ title, lines: issues, ok: report.valid });
    } catch (err) {
      setOverlay({ title: `${name} is not valid`, lines: messageOf(err, services.mask).split('\n'), ok: false });
    }
  };

  useInput(
    (input, key) => {
      if (overlay) {
        if (key.escape || key.return) setOverlay(undefined);
      } else if (key.upArrow || input === 'k') setSelected((s) => Math.max(0, Math.min(s, shown.length - 1) - 1));
      else if (key.downArrow || input === 'j') setSelected((s) => Math.min(shown.length - 1, s + 1));
      else if (input === '/') setFiltering(true);
      else if (key.escape) setFilter('');
      else if (key.return && current) void open(current.name);
      else if (input === 'v' && current) void validate(current.name);
    },
    { isActive: active && !filtering && !form },
  );

  if (form)
    return h(LaunchForm, {
      workflow: form.name,
      inputs: form.inputs,
      focus: active,
      onSubmit: (values: Record<string, string>) => launch(form.name, values),
      onCancel: () => setForm(undefined),
    });
  if (overlay)
    return h(
      Box,
      { flexDirection: 'column', borderStyle: 'round', borderColor: overlay.ok ? 'green' : 'red', paddingX: 1 },
      h(Text, { bold: true, color: overlay.ok ? 'green' : 'red' }, `${overlay.ok ? '✓' : '✗'} ${overlay.title}`),
      ...overlay.lines.map((l, i) => h(Text, { key: i }, l)),
      h(Text, { dimColor: true }, 'esc close'),
    );
  if (problem) return h(Text, { color: 'red' }, problem);
  if (!workflows) return h(Text, { dimColor: true }, 'Loading workflows…');
  const filterLine = h(FilterLine, {
    value: filter,
    editing: active && filtering,
    onChange: (v: string) => (setFilter(v), setSelected(0)),
    onDone: (keep: boolean) => (keep || setFilter(''), setFiltering(false)),
    placeholder: '/ to filter by name',
  });
  if (shown.length === 0)
    return h(
      Box,
      { flexDirection: 'column' },
      filterLine,
      h(Text, { dimColor: true }, workflows.length ? 'No workflow matches the filter.' : 'No workflows found.'),
    );
  const at = Math.min(selected, shown.length - 1);
  const { items, first } = windowOf(shown, at, rows - 2);
  const width = Math.max(...shown.map((w) => w.name.length));
  return h(
    Box,
    { flexDirection: 'column' },
    filterLine,
    ...items.map((w, i) =>
      h(
        Text,
        { key: w.file, inverse: first + i === at, wrap: 'truncate-end' },
        `${first + i === at ? '›' : ' '} ${w.name.padEnd(width)}  ${w.source.padEnd(6)}  ${w.description ?? ''}`,
      ),
    ),
  );
}
