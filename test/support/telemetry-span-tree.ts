/** A span line of the `file` exporter, as far as the tree needs it. */
export interface SpanLine {
  name: string;
  span_id: string;
  parent_span_id?: string;
  start: string;
  duration_ms: number;
  status: string;
  attributes: Record<string, unknown>;
}

/**
 * Renders spans as an indented tree, children under their parent in start order, e.g.
 * `workflow.run (812 ms)` / `└─ step review (640 ms)` / `   └─ tool.call Read (2 ms) ok`.
 * Spans whose parent is not in the file (a step span from another process) are roots.
 */
export function renderSpanTree(spans: SpanLine[], label: (s: SpanLine) => string = defaultLabel): string {
  const ids = new Set(spans.map((s) => s.span_id));
  const children = new Map<string | undefined, SpanLine[]>();
  for (const span of [...spans].sort((a, b) => a.start.localeCompare(b.start))) {
    const parent = span.parent_span_id && ids.has(span.parent_span_id) ? span.parent_span_id : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, prefix: string): void => {
    const list = children.get(parent) ?? [];
    list.forEach((span, i) => {
      const last = i === list.length - 1;
      lines.push(`${prefix}${parent === undefined ? '' : last ? '└─ ' : '├─ '}${label(span)}`);
      walk(span.span_id, parent === undefined ? prefix : `${prefix}${last ? '   ' : '│  '}`);
    });
  };
  walk(undefined, '');
  return lines.join('\n');
}

function defaultLabel(span: SpanLine): string {
  const ms = `${Math.round(span.duration_ms)} ms`;
  const status =
    span.attributes['tool.status'] ??
    span.attributes['awf.step.status'] ??
    span.attributes['awf.run.status'] ??
    (span.status === 'error' ? 'error' : '');
  return `${span.name}  (${ms})${status ? `  ${String(status)}` : ''}`;
}
