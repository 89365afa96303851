/**
 * AWF's secret input names (ADR 011, `isSecretInputKey`): a case-insensitive **prefix** match,
 * so `API_KEY_PROD` and `token_x` are secret while `OPENAI_API_KEY` is not. The one list, for
 * the parser (which marks such inputs `secret`) and anything else that asks.
 */
export const SECRET_INPUT_PREFIXES = ['SECRET_', 'API_KEY', 'PASSWORD', 'TOKEN'] as const;

export function isSecretInputName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_INPUT_PREFIXES.some((p) => upper.startsWith(p));
}
