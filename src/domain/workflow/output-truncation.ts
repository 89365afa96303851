/**
 * How a step's output says part of it is gone: the head and the tail are kept, and this line
 * stands where the middle was, so neither a reader nor a later step's template mistakes the
 * output for whole. One format for the live capture and for the history.
 */
export function truncationMarker(droppedBytes: number): string {
  return `\n[… ${droppedBytes} bytes truncated …]\n`;
}

/** A command step's stdout (and stderr) in memory: past this, the head and tail halves are kept. */
export const CAPTURE_OUTPUT_BYTES = 10 * 1024 * 1024;

/** A step's stdout (and stderr) as the run history keeps it, unless `history.max_output_bytes` says otherwise. */
export const DEFAULT_HISTORY_OUTPUT_BYTES = 1024 * 1024;
