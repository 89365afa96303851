import { createElement as h } from 'react';
import { ink } from '../ink.loader';

export interface TextFieldProps {
  value: string;
  onChange(value: string): void;
  onSubmit?(value: string): void;
  onCancel?(): void;
  /** Only a focused field reads keys. */
  focus: boolean;
  /** Drawn as dots (a secret input). */
  hidden?: boolean;
  placeholder?: string;
}

/** A one-line text field: printable keys type, backspace deletes, enter submits, esc cancels. */
export function TextField(props: TextFieldProps) {
  const { Text, useInput } = ink();
  useInput(
    (input, key) => {
      if (key.return) props.onSubmit?.(props.value);
      else if (key.escape) props.onCancel?.();
      else if (key.backspace || key.delete) props.onChange(props.value.slice(0, -1));
      else if (input && !key.ctrl && !key.meta && !key.tab && !key.upArrow && !key.downArrow)
        props.onChange(props.value + input);
    },
    { isActive: props.focus },
  );
  const shown = props.hidden ? '•'.repeat(props.value.length) : props.value;
  if (!shown && props.placeholder && !props.focus) return h(Text, { dimColor: true }, props.placeholder);
  return h(Text, null, shown, props.focus ? h(Text, { inverse: true }, ' ') : null);
}
