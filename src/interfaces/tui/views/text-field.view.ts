import { createElement as h, useRef } from 'react';
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
  // Keys typed faster than React draws reach a handler of an earlier render: the value they
  // edit is kept here, so that none of them is lost.
  const value = useRef(props.value);
  value.current = props.value;
  const change = (next: string): void => {
    value.current = next;
    props.onChange(next);
  };
  useInput(
    (input, key) => {
      if (key.return) props.onSubmit?.(value.current);
      else if (key.escape) props.onCancel?.();
      else if (key.backspace || key.delete) change(value.current.slice(0, -1));
      else if (input && !key.ctrl && !key.meta && !key.tab && !key.upArrow && !key.downArrow)
        change(value.current + input);
    },
    { isActive: props.focus },
  );
  const shown = props.hidden ? '•'.repeat(props.value.length) : props.value;
  if (!shown && props.placeholder && !props.focus) return h(Text, { dimColor: true }, props.placeholder);
  return h(Text, null, shown, props.focus ? h(Text, { inverse: true }, ' ') : null);
}
