import { createElement as h, type ReactNode } from 'react';
import { ink } from '../ink.loader';
import { TextField } from './text-field.view';

export interface FilterLineProps {
  value: string;
  /** The field has focus (after `/`). */
  editing: boolean;
  /** A new filter: the list goes back to its first item. */
  onChange(value: string): void;
  /** enter keeps the filter (`true`), esc clears it (`false`); either way the field lets go. */
  onDone(keep: boolean): void;
  placeholder: string;
  /** Drawn after the field (the History tab's status badges). */
  children?: ReactNode;
}

/** AWF's `/` filter of the Workflows and History tabs; while it has focus it says how to leave it. */
export function FilterLine({ value, editing, onChange, onDone, placeholder, children }: FilterLineProps) {
  const { Box, Text } = ink();
  return h(
    Box,
    null,
    h(Text, { dimColor: !editing }, 'Filter: '),
    h(TextField, {
      value,
      onChange,
      onSubmit: () => onDone(true),
      onCancel: () => onDone(false),
      focus: editing,
      placeholder,
    }),
    editing ? h(Text, { dimColor: true }, '  enter keep · esc clear') : null,
    children,
  );
}
