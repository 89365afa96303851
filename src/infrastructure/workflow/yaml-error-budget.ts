import { Parser } from 'yaml';

/**
 * Where a YAML text runs past `budget` syntax errors, or -1 if it does not.
 *
 * Composing a document costs far more per error than lexing it (a 1 MB garbage file took
 * ~15 s of CPU to compose), and past the first few errors nobody reads them. The CST parser is
 * an order of magnitude cheaper, so it finds the cut; the caller composes only the text
 * before it, keeping the library's well-worded messages for the errors that are shown.
 */
export function offsetPastErrorBudget(text: string, budget: number): number {
  let seen = 0;
  for (const top of new Parser().parse(text)) {
    // An explicit stack: hostile input can nest flow collections deeper than the call stack.
    const stack: unknown[] = [top];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object') continue;
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
        continue;
      }
      const token = node as { type?: string; offset?: number };
      if (token.type === 'error' && ++seen > budget) return token.offset ?? 0;
      for (const value of Object.values(node)) if (value !== null && typeof value === 'object') stack.push(value);
    }
  }
  return -1;
}
