/**
 * Replaces secret values with `***` in any text about to leave the process (logs, spans,
 * audit events, tool output, run output). `add` registers values found at run time,
 * such as inputs declared `secret: true`.
 */
export interface SecretMasker {
  mask(text: string): string;
  add(...values: string[]): void;
}
