import { createElement as h, useState } from 'react';
import type { InputDef } from '../../../domain/workflow/workflow.model';
import { ink } from '../ink.loader';
import { TextField } from './text-field.view';

export interface LaunchFormProps {
  workflow: string;
  inputs: InputDef[];
  focus: boolean;
  onSubmit(values: Record<string, string>): void;
  onCancel(): void;
}

/**
 * AWF's launch form: one field per input, its default filled in; tab or ↑↓ move, enter goes to
 * the next field and submits on the last, esc cancels. A required field left empty blocks the
 * submit. Secret inputs are drawn as dots; empty fields are left out (the workflow's default applies).
 */
export function LaunchForm({ workflow, inputs, focus, onSubmit, onCancel }: LaunchFormProps) {
  const { Box, Text, useInput } = ink();
  const [values, setValues] = useState(() => inputs.map((i) => i.default ?? ''));
  const [at, setAt] = useState(0);
  const [blocked, setBlocked] = useState<string>();
  const move = (by: number): void => setAt((a) => (a + by + inputs.length) % inputs.length);
  useInput(
    (_input, key) => {
      if (key.tab && key.shift) move(-1);
      else if (key.tab || key.downArrow) move(1);
      else if (key.upArrow) move(-1);
    },
    { isActive: focus },
  );
  const submit = (): void => {
    if (at < inputs.length - 1) return move(1);
    const missing = inputs.filter((input, i) => input.required && values[i] === '').map((i) => i.name);
    if (missing.length) return setBlocked(`required: ${missing.join(', ')}`);
    onSubmit(Object.fromEntries(inputs.flatMap((input, i) => (values[i] === '' ? [] : [[input.name, values[i]]]))));
  };
  const width = Math.max(...inputs.map((i) => i.name.length + (i.required ? 1 : 0)));
  return h(
    Box,
    { flexDirection: 'column', borderStyle: 'round', paddingX: 1 },
    h(Text, { bold: true }, `Launch ${workflow}`),
    ...inputs.map((input, i) =>
      h(
        Box,
        { key: input.name },
        h(
          Text,
          { color: i === at ? 'cyan' : undefined },
          `${i === at ? '›' : ' '} ${`${input.name}${input.required ? '*' : ''}`.padEnd(width)}  `,
        ),
        h(TextField, {
          value: values[i],
          onChange: (v: string) => (
            setBlocked(undefined),
            setValues((all) => all.map((old, j) => (j === i ? v : old)))
          ),
          onSubmit: submit,
          onCancel,
          focus: focus && i === at,
          hidden: input.secret,
          placeholder: input.description ?? input.type ?? '',
        }),
      ),
    ),
    blocked ? h(Text, { color: 'red' }, blocked) : null,
    h(Text, { dimColor: true }, 'tab/↑↓ move  enter next/submit  esc cancel  (* required)'),
  );
}
