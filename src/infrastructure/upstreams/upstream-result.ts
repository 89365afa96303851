import type { ToolResult } from '../../domain/model/tool-result';
import type { SecretMasker } from '../../domain/ports/secret-masker.port';
import type { ToolCallContext } from '../../domain/ports/tool-scope';

/** A tool as an upstream server lists it (the fields awf passes on). */
export interface UpstreamTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: object;
  outputSchema?: object;
  annotations?: object;
}

/** The call's way back to the client: what the server sends besides its result goes there. */
export type UpstreamCallOptions = Pick<ToolCallContext, 'signal' | 'traceparent' | 'onProgress' | 'onLog' | 'elicit'>;

/** Why a call to an upstream gave no result: the provider words a timeout, and tells a crash from an error. */
export class UpstreamCallError extends Error {
  constructor(
    readonly kind: 'timeout' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/**
 * An upstream's result as it came, with secrets masked wherever text can carry them: text
 * items, structuredContent, embedded text resources. Images and audio are left as they are.
 * Nothing is copied when nothing needs masking (the common case: one mask() per text).
 */
export function maskedResult(result: ToolResult, masker: SecretMasker): ToolResult {
  let changed = false;
  const content = result.content.map((item) => {
    if (item.type === 'text') {
      const text = masker.mask(item.text);
      if (text === item.text) return item;
      changed = true;
      return { ...item, text };
    }
    if (item.type === 'resource' || item.type === 'resource_link') {
      const json = JSON.stringify(item);
      const masked = masker.mask(json);
      if (masked === json) return item;
      changed = true;
      return JSON.parse(masked) as typeof item;
    }
    return item;
  });
  let structured = result.structuredContent;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    const masked = masker.mask(json);
    if (masked !== json) {
      changed = true;
      structured = JSON.parse(masked) as Record<string, unknown>;
    }
  }
  return changed
    ? { ...result, content, ...(structured !== undefined ? { structuredContent: structured } : {}) }
    : result;
}
