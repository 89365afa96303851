import { asRecord, type JsonEvent, parseNdjson } from './ndjson';

/**
 * The last assistant message in what Vibe printed: `--output json` (one document, the
 * conversation's messages) or `--output streaming` (a message per line). A message is an
 * object with `role: "assistant"`, or one holding such a `message`; its text is `content`
 * (a string or text blocks), `text`, or `delta.text`. Undefined for `--output text`.
 */
export function lastAssistantText(stdout: string): string | undefined {
  const trimmed = stdout.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  let values: unknown[];
  try {
    values = [JSON.parse(trimmed)];
  } catch {
    values = parseNdjson(trimmed);
  }
  let last: string | undefined;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    const text = assistantText(asRecord(value));
    if (text) last = text;
  };
  values.forEach(visit);
  return last;
}

function assistantText(object: JsonEvent): string | undefined {
  const message = asRecord(object.message);
  if (object.role !== 'assistant' && message.role !== 'assistant') return undefined;
  const candidates = [object.content, object.text, message.content, message.text];
  candidates.push(asRecord(object.delta).text, asRecord(message.delta).text);
  return candidates.map(textOf).find((t) => t !== '');
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map(asRecord)
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('');
}
