import { truncationMarker } from '../../../domain/workflow/output-truncation';

/**
 * `text` in at most about `maxBytes` of UTF-8: the first and last halves with the marker between.
 * A character cut at either edge is dropped whole. Text that fits is returned as it is.
 */
export function keepHeadAndTail(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const half = Math.floor(maxBytes / 2);
  const head = bytes
    .subarray(0, half)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  const tail = bytes
    .subarray(bytes.length - half)
    .toString('utf8')
    .replace(/^\uFFFD+/, '');
  const dropped = bytes.length - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return head + truncationMarker(dropped) + tail;
}
